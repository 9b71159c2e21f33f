// The staff web app as `npm start` runs it (local mode: the LINE stand-in plays LINE Login), driven in headless
// Chromium from the chat console's "Open the staff app": a staff persona filters, searches a reference, taps a
// check and exports, and every CSV row is compared with the sandbox's own history; a customer persona gets the
// 403 page; another shop's login gets 401; the chat's export link downloads once.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SECRETS, DEMO_STORE_NAMES } from "@slipline/slip-sandbox";
import type { EntryProcess } from "../kit/entry-process.js";
import { startLocalModeMain } from "../kit/local-mode-main.js";
import { freePort } from "../kit/free-port.js";
import { sandboxHistory as serviceHistory } from "../kit/sandbox-history.js";
import type { ServiceHistoryItem } from "../kit/sandbox-history.js";
import { CHROMIUM_PATH, openConsole } from "../../tools/chat-console/test/console-driver.js";
import type { ConsolePage } from "../../tools/chat-console/test/console-driver.js";

const START_TIMEOUT_MS = 60_000;
const WAIT = { timeout: 20_000 } as const;

let product: EntryProcess | undefined;
let baseUrl = "";
let sandboxUrl = "";
let ui: ConsolePage | undefined;

/** The sandbox's own history of Bangkok days, every page, newest first. */
const sandboxHistory = (from: string, to: string, extra?: Record<string, string>): Promise<ServiceHistoryItem[]> =>
  serviceHistory({ url: sandboxUrl, apiSecret: DEMO_SECRETS.shop }, from, to, extra);

/** Opens the staff app from the console as the persona chosen, on a phone-sized screen. */
async function openApp(): Promise<Page> {
  const c = ui!;
  const [app] = await Promise.all([c.page.context().waitForEvent("page"), c.page.locator("#open-staff-app").click()]);
  await app.setViewportSize({ width: 390, height: 844 });
  await app.waitForLoadState("domcontentloaded");
  return app;
}

/** The chat's status words, which the owner's file writes. */
const THAI_STATUS: Record<string, string> = { valid: "ผ่าน", invalid: "ไม่ผ่าน", fraud: "ปลอม", duplicate: "ซ้ำ", not_found: "ไม่พบ", error: "ผิดพลาด" };

/** Reads a CSV line (RFC 4180 quoting). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      out.push(cell);
      cell = "";
    } else cell += ch;
  }
  out.push(cell);
  return out;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: apt-get install -y chromium`);
  const port = await freePort();
  // `npm start` with nothing configured (a free port): the chat's export makes its links on the console's own address.
  const local = await startLocalModeMain({ PORT: String(port) }, START_TIMEOUT_MS);
  product = local.main;
  baseUrl = local.url;
  sandboxUrl = local.sandboxUrl;
  ui = await openConsole(`${baseUrl}/`, { width: 1200, height: 1200 });
}, START_TIMEOUT_MS + 30_000);

afterAll(async () => {
  try {
    await ui?.close();
  } finally {
    await product?.stop();
  }
}, 30_000);

describe("the staff app in a browser", { timeout: 120_000 }, () => {
  it("a staff persona filters, searches a reference, taps a check and exports every row of the service's history", async () => {
    await ui!.chooseWho("Somchai (staff)");
    const app = await openApp();
    // The token came after the #, and is gone from the address once read.
    await app.locator("#controls").waitFor({ state: "visible", ...WAIT });
    expect(app.url()).not.toContain("id_token");

    const THAI_MONTHS = ["ม.ค.", "ก.พ.", "มี.ค.", "เม.ย.", "พ.ค.", "มิ.ย.", "ก.ค.", "ส.ค.", "ก.ย.", "ต.ค.", "พ.ย.", "ธ.ค."];
    /** A Bangkok day as the chat writes it alone (`29 พ.ย. 2569`), and its ISO form. */
    const thaiDay = (iso: string): string => `${Number(iso.slice(8))} ${THAI_MONTHS[Number(iso.slice(5, 7)) - 1] ?? ""} ${Number(iso.slice(0, 4)) + 543}`;
    const days = await app.evaluate(() => {
      const at = (d: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Bangkok" }).format(new Date(Date.now() + d * 86_400_000));
      return [at(-6), at(0)];
    });
    const [from = "", to = ""] = days;
    // Today first: the line under the chips names it and its date; the chart is by the hour.
    await app.locator("#days", { hasText: `วันนี้ · ${thaiDay(to)}` }).waitFor(WAIT);
    await app.locator("#chart-title", { hasText: "จำนวนสลิปรายชั่วโมง" }).waitFor(WAIT);

    await app.locator("button[data-range=days7]").click();
    await app.locator("#items li").first().waitFor(WAIT);
    // The 7 days as the chat writes a range: the month and year once when shared.
    const sevenDays =
      from.slice(0, 7) === to.slice(0, 7)
        ? `${Number(from.slice(8))}–${thaiDay(to)}`
        : from.slice(0, 4) === to.slice(0, 4)
          ? `${thaiDay(from).replace(/ \d{4}$/u, "")} – ${thaiDay(to)}`
          : `${thaiDay(from)} – ${thaiDay(to)}`;
    await app.locator("#days", { hasText: `7 วันล่าสุด · ${sevenDays}` }).waitFor(WAIT);
    await app.locator("#chart-title", { hasText: "จำนวนสลิปรายวัน" }).waitFor(WAIT);
    // A phone shows no hover: tapping the last bar writes its figures under the chart, money labelled.
    expect(await app.locator("#chart-value").textContent()).toBe("แตะที่แท่งกราฟเพื่อดูตัวเลข");
    await app.locator("#chart .bar").last().click();
    expect(await app.locator("#chart-value").textContent()).toMatch(new RegExp(`^${thaiDay(to).replace(/ \d{4}$/u, "")}: ตรวจ [\\d,]+ สลิป ยอดโอนเข้า ฿[\\d,]+\\.\\d{2}$`, "u"));
    // The week chip: Monday to today, named as the chat names it.
    await app.locator("button[data-range=week]").click();
    await app.locator("#days", { hasText: "อาทิตย์นี้ · " }).waitFor(WAIT);
    await app.locator("button[data-range=days7]").click();
    await app.locator("#days", { hasText: `7 วันล่าสุด · ${sevenDays}` }).waitFor(WAIT);
    await app.locator("#items li").first().waitFor(WAIT);

    // Status filter: every row shown is a fraud, as many as the service has.
    await app.locator("#status").selectOption("fraud");
    const frauds = await sandboxHistory(from, to, { status: "fraud" });
    await app
      .locator("#page-info")
      .filter({ hasText: `${Math.max(1, Math.ceil(frauds.length / 20))}` })
      .waitFor(WAIT);
    await expect.poll(() => app.locator("#items li").count(), WAIT).toBe(Math.min(20, frauds.length));
    const badges = await app.locator("#items .badge").allTextContents();
    expect(new Set(badges)).toEqual(new Set(["ปลอม"]));

    // Search one reference: one row, whose details show it.
    await app.locator("#status").selectOption("");
    const all = await sandboxHistory(from, to);
    const target = all[3];
    await app.locator("#q").fill(target?.transRef ?? "");
    await app.locator("#search-form button").click();
    await app.locator(`#items li[data-ref="${target?.transRef ?? ""}"]`).waitFor(WAIT);
    await expect.poll(() => app.locator("#items li").count(), WAIT).toBe(1);
    await app.locator("#items li").first().click();
    await expect.poll(() => app.locator("#details").evaluate((d) => (d as unknown as { open: boolean }).open), WAIT).toBe(true);
    const details = (await app.locator("#detail-list").textContent()) ?? "";
    expect(details).toContain(target?.transRef ?? "");
    // The check's time as Thai writes it in the shop's zone, never the service's UTC instant.
    const checkedAt = new Date(target?.createdAt ?? "");
    const [day, month, year, time] = await app.evaluate((iso) => {
      const p = Object.fromEntries(
        new Intl.DateTimeFormat("en-GB", { timeZone: "Asia/Bangkok", day: "numeric", month: "numeric", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
          .formatToParts(new Date(iso))
          .map((x) => [x.type, x.value]),
      );
      return [p["day"], p["month"], p["year"], `${p["hour"]}:${p["minute"]}`];
    }, checkedAt.toISOString());
    expect(details).toContain(`เวลาตรวจ${Number(day)} ${THAI_MONTHS[Number(month) - 1] ?? ""} ${Number(year) + 543} ${time} น.`);
    expect(details).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    await app.locator("#details button").click();
    // Rows, pager and chart in the glossary's forms: no ISO dates anywhere on the page or in the chart's hovers.
    expect(await app.locator("#items li .when").first().textContent()).toMatch(/^\d{1,2} [ก-๙.]+ \d{2}:\d{2} · /u);
    expect([await app.locator("#prev").textContent(), await app.locator("#next").textContent()]).toEqual(["หน้าก่อน", "หน้าถัดไป"]);
    const shown = [await app.locator("body").innerText(), ...(await app.locator("#chart title, #chart text").allTextContents())].join("\n");
    expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(shown).toMatch(/\d{1,2} [ก-๙.]+: ตรวจ [\d,]+ สลิป ยอดโอนเข้า ฿/u);

    // Export the 7 days, no search: every row is the service's.
    await app.locator("#q").fill("");
    await app.locator("#search-form button").click();
    await app.locator("#items li").nth(1).waitFor(WAIT);
    const [download] = await Promise.all([app.waitForEvent("download", WAIT), app.locator("#export").click()]);
    expect(download.suggestedFilename()).toBe(`slipline-cafe-${from}-${to}.csv`);
    const bytes = await readFile((await download.path()) ?? "");
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes
      .subarray(3)
      .toString("utf8")
      .split("\r\n")
      .filter((l) => l !== "");
    const header = cells(lines[0] ?? "");
    // The owner's file opens with the shop's words; the service's own columns follow for machines.
    expect(header.slice(0, 10)).toEqual(["เวลาตรวจ", "เวลาโอน", "สถานะ", "ยอดเงิน", "เลขอ้างอิง", "ผู้โอน", "ผู้รับเงิน", "บัญชีผู้รับ", "ช่องทาง", "โทเคนที่ใช้"]);
    const rows: Record<string, string>[] = lines.slice(1).map((line) => Object.fromEntries(cells(line).map((value, i): [string, string] => [header[i] ?? "", value])));
    // Read after the download: the sandbox's day goes on, so it may hold checks made since.
    const service = await sandboxHistory(from, to);
    const newest = rows[0]?.["createdAt"] ?? "";
    const expected = service.filter((item) => (item.createdAt ?? "") <= newest);
    expect(rows).toHaveLength(expected.length);
    rows.forEach((row, i) => {
      const item = expected[i];
      expect([row["transRef"], row["status"], row["amount"], row["createdAt"], row["transDate"], row["senderName"], row["receiverName"], row["source"]]).toEqual([
        item?.transRef ?? "",
        item?.status ?? "",
        item?.amount === null || item?.amount === undefined ? "" : String(item.amount),
        item?.createdAt ?? "",
        item?.transDate ?? "",
        item?.senderName ?? "",
        item?.receiverName ?? "",
        item?.source ?? "",
      ]);
      expect(row["สถานะ"]).toBe(THAI_STATUS[item?.status ?? ""] ?? item?.status ?? "");
    });

    // The all-English file for accounting software: the service's own fields alone.
    const [rawDownload] = await Promise.all([app.waitForEvent("download", WAIT), app.locator("#export-raw").click()]);
    expect(rawDownload.suggestedFilename()).toBe(`slipline-cafe-${from}-${to}-raw.csv`);
    const rawHeader = (await readFile((await rawDownload.path()) ?? "")).subarray(3).toString("utf8").split("\r\n")[0];
    expect(rawHeader).toBe("createdAt,createdAtLocal,transDate,transDateLocal,status,amount,transRef,senderName,receiverName,receiverAccount,source,tokensCharged,code");
    await app.screenshot({ path: "test-output/browser/staff-app.png", fullPage: true });
    await app.close();
  });

  it("the summary and the chart follow the channel filter and the search, as they follow the status filter", async () => {
    await ui!.chooseShop(DEMO_STORE_NAMES.shop);
    await ui!.chooseWho("Somchai (staff)");
    const app = await openApp();
    await app.locator("#controls").waitFor({ state: "visible", ...WAIT });
    // Yesterday: a day that is over, so the service's figures cannot move while the page is read.
    await app.locator("button[data-range=yesterday]").click();
    await app.locator("#items li").first().waitFor(WAIT);
    const day = await app.evaluate(() => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Bangkok" }).format(new Date(Date.now() - 86_400_000)));
    const all = await sandboxHistory(day, day);
    const money = (items: ServiceHistoryItem[]): string => {
      const satang = items.filter((i) => i.status === "valid").reduce((sum, i) => sum + Math.round((i.amount ?? 0) * 100), 0);
      return `฿${(satang / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    };
    /** The checks the chart's bars count, added up from their hover texts. */
    const chartCount = async (): Promise<number> =>
      (await app.locator("#chart title").allTextContents()).reduce((sum, tip) => sum + Number((/ตรวจ ([\d,]+) สลิป/u.exec(tip)?.[1] ?? "0").replace(/,/g, "")), 0);
    const shows = async (items: ServiceHistoryItem[]): Promise<void> => {
      await expect.poll(() => app.locator("#sum-count").textContent(), WAIT).toBe(items.length.toLocaleString("en-US"));
      await expect(app.locator("#sum-valid").textContent()).resolves.toBe(money(items));
      await expect(chartCount()).resolves.toBe(items.length);
    };
    await shows(all);

    // A channel with fewer checks than the day's: the figures, the chart and the list are that channel's.
    const channels = [...new Set(all.map((i) => i.source ?? ""))].filter((c) => c !== "").sort();
    const channel = channels.find((c) => all.some((i) => i.source !== c) && all.some((i) => i.source === c)) ?? "";
    const ofChannel = all.filter((i) => i.source === channel);
    await app.locator("#source").selectOption(channel);
    await shows(ofChannel);
    await expect.poll(() => app.locator("#items li").count(), WAIT).toBe(Math.min(20, ofChannel.length));
    // The filter still offers every channel of the day, not just the one chosen.
    await expect(app.locator("#source option").count()).resolves.toBe(channels.length + 1);

    // A search for one reference: one check, in the figures as in the list.
    const target = ofChannel[0]!;
    await app.locator("#q").fill(target.transRef ?? "");
    await app.locator("#search-form button").click();
    await shows([target]);
    await expect.poll(() => app.locator("#items li").count(), WAIT).toBe(1);

    // Back to everything: the day's figures again.
    await app.locator("#q").fill("");
    await app.locator("#source").selectOption("");
    await app.locator("#search-form button").click();
    await shows(all);
    await app.close();
  });

  it("a customer persona gets the 403 page that says how the owner adds them", async () => {
    await ui!.chooseWho("Customer Nok");
    const app = await openApp();
    const notice = app.locator("#notice.error");
    await notice.waitFor(WAIT);
    const text = (await notice.textContent()) ?? "";
    // In the shop's Thai, from the API's not_staff code, with the id to give the owner.
    expect(text).toContain("หน้านี้สำหรับพนักงานของร้านเท่านั้นค่ะ\nถ้าคุณเป็นพนักงาน ส่งไอดีด้านล่างให้เจ้าของร้านเพิ่มชื่อคุณ แล้วเปิดแอปอีกครั้งนะคะ");
    expect(text).toMatch(/\nไอดีผู้ใช้ของคุณ: U[0-9a-f]{32}$/);
    expect(await app.locator("#controls").isVisible()).toBe(false);
    await app.close();
  });

  it("another shop's login is refused with 401", async () => {
    // The second shop's LINE Login token, opened on the coffee shop's app.
    const answer = (await (
      await fetch(`${baseUrl}/api/staff-app`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ shop: "second", userId: "U6b2f1d8e4c3a5b7c9d0e1f2a3b4c5d6e" }),
      })
    ).json()) as { url: string };
    const token = answer.url.split("#id_token=")[1] ?? "";
    const res = await fetch(`${baseUrl}/app/cafe/api/history`, { headers: { authorization: `Bearer ${decodeURIComponent(token)}` } });
    expect(res.status).toBe(401);
    const page = await ui!.page.context().newPage();
    await page.goto(`${baseUrl}/app/cafe/#id_token=${token}`);
    await page.locator("#notice.error").waitFor(WAIT);
    expect(await page.locator("#notice").textContent()).toBe("บัญชี LINE ที่เข้าสู่ระบบไว้ใช้กับแอปของร้านนี้ไม่ได้ค่ะ ปิดหน้านี้แล้วกดปุ่ม “Open the staff app” ในหน้าแชททดลองอีกครั้งนะคะ");
    await page.close();
  });

  it("the chat's export link downloads once", async () => {
    const c = ui!;
    await c.chooseWho("Somchai (staff)");
    await c.chooseChat("1:1");
    await c.send("ส่งออก เมื่อวาน");
    const reply = await c.waitForBotMessage("export.csv?link=", { timeoutMs: 20_000 });
    // The signature is 43 characters (SHA-256); the message's text runs on into the time it arrived.
    const link = /(http:\/\/127\.0\.0\.1:\d+\/app\/cafe\/api\/export\.csv\?link=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43})/.exec((await reply.textContent()) ?? "")?.[1] ?? "";
    expect(link).toMatch(new RegExp(`^${baseUrl}/`));
    // Links in the console, as LINE makes one of an address in a text: the Thai file first, then the
    // all-English one for accounting software.
    const links = reply.locator("a.text-link");
    expect(await links.count()).toBe(2);
    expect(await links.nth(0).getAttribute("href")).toBe(link);
    const english = await links.nth(1).getAttribute("href");
    expect(english).toMatch(/\/app\/cafe\/api\/export\.csv\?link=/);
    expect(english).not.toBe(link);
    const first = await c.page.request.get(link);
    expect(first.status()).toBe(200);
    expect(first.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    const again = await c.page.request.get(link);
    expect(again.status()).toBe(410);
  });
});
