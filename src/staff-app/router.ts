// The staff web app's HTTP face, served by the bot: the page at /app/ (/app/<shop id>/ with a shops file), its
// files, and its data under .../api/: history, summary and a CSV export. Every data answer wants a LINE ID
// token that LINE itself vouches for and a user who is the shop's staff; none is cached by a browser or proxy.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import express from "express";
import type { Request, Response, Router } from "express";
import type { Logger } from "pino";
import type { ShopConfig } from "../shops/shop.js";
import type { HistoryItem, SlipClient } from "../slip/types.js";
import type { SummaryLoader } from "../summary/load.js";
import { addCalendarDays, calendarDaysBetween, formatIsoDate, startOfDay } from "../time/calendar.js";
import { createHistoryReader, matches, MAX_CHECKS, readChecks } from "./checks.js";
import type { HistoryAnswer } from "./checks.js";
import { CSV_BOM, csvHeader, csvRow } from "./csv.js";
import { EXPORT_LINK_TTL_MS, readExportLink, signExportLink, usedLinkMark } from "./export-link.js";
import { memoryOnceMarks } from "../stores/once-marks.js";
import type { OnceMarks } from "../stores/once-marks.js";
import { createIdentityChecker } from "./identity.js";
import type { IdentityChecker } from "./identity.js";
import { PARAMETERS, readChecksQuery } from "./query.js";
import type { ChecksQuery } from "./query.js";

/** A shop as the app needs it: its settings (login, staff, zone, language), its service client and its summaries. */
export interface StaffAppShop {
  readonly id: string;
  readonly config: ShopConfig;
  readonly slip: SlipClient;
  readonly summaries: SummaryLoader;
  /** Where used export links are marked: the shop's Redis namespace with REDIS_URL (every instance sees them), else this process. */
  readonly onceMarks?: OnceMarks | undefined;
}

export interface StaffAppOptions {
  /** The shop whose webhook is at a path (`/webhook` or `/webhook/<id>`): the app's path follows it. */
  shopAt(webhookPath: string): StaffAppShop | undefined;
  lineApiBaseUrl: string;
  log: Logger;
  /** `local`: the page takes its ID token from the console (the stand-in plays LINE Login) instead of LIFF. */
  mode: "line" | "local";
  now?: (() => Date) | undefined;
  /** Requests one user may make to one shop's API a minute. Default 120. */
  perMinute?: number;
  identity?: IdentityChecker;
}

/** Where a shop's app is: `/app` beside `/webhook`, `/app/<id>` beside `/webhook/<id>`. */
export function appPathOf(webhookPath: string): string {
  return webhookPath.replace(/^\/webhook/, "/app");
}

/** Days an export covers at most, as the chat's summary. */
export const EXPORT_MAX_DAYS = 31;

/** Nothing from elsewhere but LINE's own SDK and LINE's hosts; no inline script at all. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https://*.line-scdn.net",
  "connect-src 'self' https://*.line.me https://*.line-scdn.net",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

function privately(res: Response): void {
  res.set({
    "Cache-Control": "private, no-store",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  });
}

function fail(res: Response, status: number, error: string, message: string, extra: Record<string, unknown> = {}): void {
  privately(res);
  res.status(status).json({ error, message, ...extra });
}

/** Until the client has taken what was written, or gone; the listeners go with it. */
function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** The page's files: next to the compiled router (`npm run build` copies them), or in src/ when run from source. */
function findPageDir(): string | undefined {
  for (const candidate of [new URL("./page/", import.meta.url), new URL("../../src/staff-app/page/", import.meta.url)]) {
    const dir = fileURLToPath(candidate);
    if (existsSync(`${dir}index.html`)) return dir;
  }
  return undefined;
}

/** The LIFF SDK, bundled by `npm run build` into dist/staff-app/page/liff.js. */
function findLiffBundle(pageDir: string | undefined): string | undefined {
  const candidates = [...(pageDir === undefined ? [] : [`${pageDir}liff.js`]), fileURLToPath(new URL("../../dist/staff-app/page/liff.js", import.meta.url))];
  return candidates.find((candidate) => existsSync(candidate));
}

const ASSET_TYPES: Record<string, string> = {
  "app.js": "text/javascript; charset=utf-8",
  "texts.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
  "liff.js": "text/javascript; charset=utf-8",
};

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function createStaffApp(options: StaffAppOptions): Router {
  const { log } = options;
  const now = options.now ?? (() => new Date());
  const perMinute = options.perMinute ?? 120;
  const identity = options.identity ?? createIdentityChecker({ lineApiBaseUrl: options.lineApiBaseUrl, now: () => now().getTime() });
  const pageDir = findPageDir();
  // Without its files (a build that skipped the page's step) the API still works; the page says what to run.
  if (pageDir === undefined) log.warn("the staff app's page files are missing (run npm run build): /app/ answers 503, its API works");
  const template = pageDir === undefined ? undefined : readFileSync(`${pageDir}index.html`, "utf8");
  const liffBundle = findLiffBundle(pageDir);
  const readers = new WeakMap<SlipClient, (query: ChecksQuery) => Promise<HistoryAnswer>>();
  const readerOf = (shop: StaffAppShop): ((query: ChecksQuery) => Promise<HistoryAnswer>) => {
    let reader = readers.get(shop.slip);
    if (reader === undefined) {
      reader = createHistoryReader(shop.slip, () => now().getTime());
      readers.set(shop.slip, reader);
    }
    return reader;
  };
  const localMarks = memoryOnceMarks(() => now().getTime());
  // Requests per shop and user in the current minute.
  const windows = new Map<string, { minute: number; count: number }>();
  const allowed = (key: string): boolean => {
    const minute = Math.floor(now().getTime() / 60_000);
    if (windows.size > 10_000) for (const [k, w] of windows) if (w.minute !== minute) windows.delete(k);
    const window = windows.get(key);
    if (window === undefined || window.minute !== minute) {
      windows.set(key, { minute, count: 1 });
      return true;
    }
    window.count += 1;
    return window.count <= perMinute;
  };

  // The page's files do not change while the bot runs: each is read once, at its first request.
  const assets = new Map<string, Buffer>();
  const assetAt = (path: string): Buffer => {
    let bytes = assets.get(path);
    if (bytes === undefined) {
      bytes = readFileSync(path);
      assets.set(path, bytes);
    }
    return bytes;
  };

  const router = express.Router({ strict: true });

  router.get("/app/assets/:file", (req: Request, res: Response) => {
    const file = String(req.params["file"]);
    const type = ASSET_TYPES[file];
    const path = file === "liff.js" ? liffBundle : type === undefined || pageDir === undefined ? undefined : `${pageDir}${file}`;
    if (type === undefined || path === undefined) return void res.status(404).json({ error: "not_found", message: "Not found" });
    res.set({ "Content-Type": type, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff" });
    res.send(assetAt(path));
  });

  router.get(["/app", "/app/:shop"], (req: Request, res: Response, next) => {
    if (req.params["shop"] === "api" || req.params["shop"] === "assets") return void next();
    res.redirect(301, `${req.path}/`);
  });

  const shopOf = (req: Request): StaffAppShop | undefined => {
    const id = req.params["shop"];
    return options.shopAt(id === undefined ? "/webhook" : `/webhook/${String(id)}`);
  };

  router.get(["/app/", "/app/:shop/"], (req: Request, res: Response) => {
    const shop = shopOf(req);
    privately(res);
    // No shop, so no shop's language: Thai first, as most shops are, then English.
    if (shop === undefined) return void res.status(404).type("text/plain; charset=utf-8").send("ไม่มีแอปพนักงานของร้านที่ลิงก์นี้ค่ะ\nNo shop has its staff app here.");
    const login = shop.config.login;
    if (login === undefined) {
      // Shown to whoever opened it, in the shop's language; the settings' names stay as they are written, and
      // the shops file's form is in the owner's documentation, not on a page staff may see.
      const off =
        shop.config.settings.defaultLang === "th"
          ? "แอปพนักงานของร้านนี้ยังไม่ได้เปิดใช้ค่ะ เจ้าของร้านต้องสร้าง LINE Login channel และ LIFF app แล้วตั้งค่า LINE_LOGIN_CHANNEL_ID และ LIFF_ID จากนั้นเริ่มบอทใหม่นะคะ"
          : "The staff app is off for this shop. The owner needs to make a LINE Login channel and a LIFF app, set LINE_LOGIN_CHANNEL_ID and LIFF_ID, then restart the bot.";
      return void res.status(404).type("text/plain; charset=utf-8").send(off);
    }
    if (template === undefined) return void res.status(503).type("text/plain; charset=utf-8").send("The staff app's page is not built: run npm run build.");
    const base = req.params["shop"] === undefined ? "/app" : `/app/${String(req.params["shop"])}`;
    const html = template
      .replaceAll("{{lang}}", escapeHtml(shop.config.settings.defaultLang))
      // The page's name before its script runs (the tab, a share): the script writes the same.
      .replaceAll("{{title}}", shop.config.settings.defaultLang === "th" ? "แอปพนักงาน" : "Staff app")
      .replaceAll("{{api}}", escapeHtml(`${base}/api`))
      .replaceAll("{{mode}}", escapeHtml(options.mode))
      .replaceAll("{{liffId}}", escapeHtml(login.liffId))
      .replaceAll("{{timeZone}}", escapeHtml(shop.config.settings.timeZone))
      .replaceAll("{{shopName}}", escapeHtml(shop.config.name ?? ""));
    res.status(200).type("text/html; charset=utf-8").send(html);
  });

  /** The asking user, if they may see the shop's data; otherwise the refusal is sent and undefined returned. */
  async function staffUser(req: Request, res: Response, shop: StaffAppShop): Promise<string | undefined> {
    const login = shop.config.login;
    if (login === undefined) return void fail(res, 404, "app_off", "The staff app is off for this shop (no LINE Login channel is set).");
    const who = await identity.verify(req.headers.authorization, login.channelId, req.socket.remoteAddress ?? "");
    if (!who.ok) {
      log.info({ shop: shop.id, reason: who.reason }, "staff app: request refused");
      if (who.status === 503) return void fail(res, 503, "line_unreachable", "LINE could not check your login just now. Try again in a minute.");
      if (who.status === 429) {
        res.set("Retry-After", "60");
        return void fail(res, 429, "too_many_requests", "Too many requests. Wait a minute and try again.");
      }
      res.set("WWW-Authenticate", `Bearer error="invalid_token"`);
      const message =
        who.reason === "expired"
          ? "Your LINE login has expired. Close the app and open it again from the chat."
          : who.reason === "missing"
            ? "Open the app from LINE (the staff menu), which logs you in."
            : "This login is not for this shop's app. Open the app again from the shop's LINE chat.";
      // The reason too, so that the page can say "not logged in" apart from "not this shop's login".
      return void fail(res, 401, who.reason === "expired" ? "token_expired" : "invalid_token", message, { reason: who.reason });
    }
    if (!allowed(`${shop.id}|${who.userId}`)) {
      res.set("Retry-After", "60");
      return void fail(res, 429, "too_many_requests", "Too many requests. Wait a minute and try again.");
    }
    let staff: boolean;
    try {
      staff = await identity.isStaff(who.userId, shop.config.settings, shop.config.line.channelAccessToken);
    } catch {
      return void fail(res, 503, "line_unreachable", "LINE could not say whether you are in the staff group just now. Try again in a minute.");
    }
    if (!staff) {
      log.info({ shop: shop.id, reason: "not_staff" }, "staff app: request refused");
      return void fail(
        res,
        403,
        "not_staff",
        "This app is for the shop's staff. Ask the owner to add your LINE user id to the staff list (STAFF_USER_IDS, or the shop's staff.users), or to add you to the staff group.",
        { userId: who.userId },
      );
    }
    return who.userId;
  }

  const api =
    (name: keyof typeof PARAMETERS, answer: (req: Request, res: Response, shop: StaffAppShop, query: ChecksQuery, userId: string) => Promise<void>) =>
    async (req: Request, res: Response): Promise<void> => {
      const shop = shopOf(req);
      if (shop === undefined) return void fail(res, 404, "not_found", "No shop has its staff app here.");
      const linked = name === "export" && typeof req.query["link"] === "string";
      if (linked) return exportByLink(req, res, shop);
      const userId = await staffUser(req, res, shop);
      if (userId === undefined) return;
      const read = readChecksQuery(req.query, PARAMETERS[name], now(), shop.config.settings.timeZone);
      if (!read.ok) return void fail(res, 400, "bad_parameter", read.message, { parameter: read.parameter, problem: read.problem });
      await answer(req, res, shop, read.value, userId);
    };

  const guard =
    (handler: (req: Request, res: Response) => Promise<void>) =>
    (req: Request, res: Response): void => {
      handler(req, res).catch((err: unknown) => {
        log.warn({ err: { name: (err as Error).name, kind: (err as { kind?: unknown }).kind } }, "staff app: the slip service failed");
        if (res.headersSent) return void res.destroy();
        fail(res, 502, "service_failed", "The slip service did not answer. Try again in a minute.");
      });
    };

  router.get(
    ["/app/api/history", "/app/:shop/api/history"],
    guard(
      api("history", async (_req, res, shop, query) => {
        const answer = await readerOf(shop)(query);
        privately(res);
        res.status(200).json(answer);
      }),
    ),
  );

  router.get(
    ["/app/api/summary", "/app/:shop/api/summary"],
    guard(
      api("summary", async (_req, res, shop, query) => {
        const { timeZone } = shop.config.settings;
        // The chat's summary, the same loader and figures.
        const loaded = await shop.summaries.load({ from: query.from, to: query.to, fromDate: query.fromDate, toDate: query.toDate, status: query.status }, timeZone);
        const { figures } = loaded;
        privately(res);
        res.status(200).json({
          from: formatIsoDate(query.fromDate),
          to: formatIsoDate(query.toDate),
          coveredFrom: formatIsoDate(loaded.coveredFrom),
          coveredTo: formatIsoDate(loaded.coveredTo),
          total: loaded.total,
          cut: { days: formatIsoDate(loaded.coveredFrom) !== formatIsoDate(query.fromDate), checks: figures.count < loaded.total },
          count: figures.count,
          validCount: figures.validCount,
          validSatang: figures.validSatang,
          tokensCharged: figures.tokensCharged,
          byStatus: figures.byStatus,
          bySource: figures.bySource,
          chart: { per: figures.chart.per, bars: figures.chart.bars.map((bar) => ({ ...bar, at: typeof bar.at === "number" ? bar.at : formatIsoDate(bar.at) })) },
          at: loaded.at.toISOString(),
        });
      }),
    ),
  );

  router.get(["/app/api/export.csv", "/app/:shop/api/export.csv"], guard(api("export", (_req, res, shop, query) => streamExport(res, shop, query))));

  // The export as a link for this user (LINE's in-app browser downloads a plain link, not a script's file).
  router.get(
    ["/app/api/export-link", "/app/:shop/api/export-link"],
    guard(
      api("export-link", (req, res, shop, query, userId) => {
        const base = req.params["shop"] === undefined ? "/app" : `/app/${String(req.params["shop"])}`;
        const at = now().getTime();
        const link = signExportLink(
          { shopId: shop.id, userId, fromDate: query.fromDate, toDate: query.toDate, status: query.status, source: query.source, q: query.q, format: query.format },
          shop.config.line.channelSecret,
          at,
        );
        privately(res);
        res.status(200).json({ url: `${base}/api/export.csv?link=${link}`, expiresAt: new Date(at + EXPORT_LINK_TTL_MS).toISOString() });
        return Promise.resolve();
      }),
    ),
  );

  async function exportByLink(req: Request, res: Response, shop: StaffAppShop): Promise<void> {
    const extra = Object.keys(req.query).filter((k) => k !== "link");
    if (extra.length > 0)
      return void fail(res, 400, "bad_parameter", `${extra[0] ?? ""} is not a parameter of an export link`, { parameter: extra[0], problem: "unknown_parameter" });
    const at = now().getTime();
    const link = req.query["link"];
    const checked = readExportLink(typeof link === "string" ? link : "", shop.id, shop.config.line.channelSecret, at);
    if (!checked.ok) {
      log.info({ shop: shop.id, reason: checked.reason }, "staff app: export link refused");
      const message =
        checked.reason === "expired"
          ? "This link has expired (links are good for 10 minutes). Send export in the chat again for a new one."
          : "This link is not valid. Send export in the chat for a new one.";
      return void fail(res, checked.reason === "expired" ? 410 : 403, checked.reason === "expired" ? "link_expired" : "link_invalid", message);
    }
    const { grant } = checked;
    // Still staff now: a link outlives nobody's removal from the staff list.
    let staff: boolean;
    try {
      staff = await identity.isStaff(grant.userId, shop.config.settings, shop.config.line.channelAccessToken);
    } catch {
      return void fail(res, 503, "line_unreachable", "LINE could not be asked just now. Try again in a minute.");
    }
    if (!staff) return void fail(res, 403, "not_staff", "The user this link was made for is no longer staff of the shop.");
    const mark = usedLinkMark(grant, at);
    let first: boolean;
    try {
      first = await (shop.onceMarks ?? localMarks).take(mark.key, mark.ttlMs);
    } catch {
      // Whether it was used cannot be told: refused, not risked.
      return void fail(res, 503, "try_again", "This link cannot be checked just now. Try again in a minute.");
    }
    if (!first) return void fail(res, 410, "link_used", "This link was already used. Send export in the chat again for a new one.");
    const given = { from: grant.from, to: grant.to, status: grant.status, source: grant.source, q: grant.q, format: grant.format };
    const fields = Object.fromEntries(Object.entries(given).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    const query = readChecksQuery(fields, PARAMETERS.export, now(), shop.config.settings.timeZone);
    if (!query.ok) return void fail(res, 400, "link_invalid", "This link's range is not valid. Send export in the chat for a new one.");
    await streamExport(res, shop, query.value);
  }

  async function streamExport(res: Response, shop: StaffAppShop, query: ChecksQuery): Promise<void> {
    const { timeZone, defaultLang } = shop.config.settings;
    // Bounded like the summary: the last 31 days of a longer range, the newest 20,000 checks.
    const days = calendarDaysBetween(query.fromDate, query.toDate) + 1;
    const fromDate = days > EXPORT_MAX_DAYS ? addCalendarDays(query.toDate, -(EXPORT_MAX_DAYS - 1)) : query.fromDate;
    const scope = { from: days > EXPORT_MAX_DAYS ? startOfDay(fromDate, timeZone) : query.from, to: query.to, status: query.status };
    let total = 0;
    const pages = readChecks(shop.slip, scope, MAX_CHECKS, (t) => (total = t));
    let closed = false;
    res.once("close", () => (closed = true));
    const first = await pages.next();
    const cut = [...(days > EXPORT_MAX_DAYS ? ["days"] : []), ...(total > MAX_CHECKS ? ["checks"] : [])];
    privately(res);
    res.status(200).set({
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="slipline-${shop.id}-${formatIsoDate(fromDate)}-${formatIsoDate(query.toDate)}${query.format === "raw" ? "-raw" : ""}.csv"`,
      "X-Export-Covered": `${formatIsoDate(fromDate)}..${formatIsoDate(query.toDate)}`,
      "X-Export-Cut": cut.length === 0 ? "none" : cut.join(","),
    });
    res.write(CSV_BOM + csvHeader(query.format, defaultLang));
    const write = async (items: readonly HistoryItem[]): Promise<void> => {
      const text = items
        .filter((item) => matches(item, query))
        .map((item) => csvRow(item, timeZone, query.format, defaultLang))
        .join("");
      if (text !== "" && !res.write(text)) await drained(res);
    };
    if (first.done !== true) await write(first.value);
    for (let step = await pages.next(); step.done !== true && !closed; step = await pages.next()) await write(step.value);
    if (closed) await pages.return(undefined);
    res.end();
  }

  return router;
}
