// The staff app's data API over real processes: the bot (the one composition root), the sandbox as the slip
// service and the LINE stand-in playing LINE Login and group membership. Expected values come from the
// sandbox's own history, read straight from its API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { sandboxHistory as serviceHistory } from "../kit/sandbox-history.js";
import type { ServiceHistoryItem } from "../kit/sandbox-history.js";
import { signExportLink } from "../../src/staff-app/export-link.js";
import { loadPageTexts, type ApiRefusal } from "../kit/staff-app-page.js";

const LOGIN = { channelId: "1650000001", liffId: "1650000001-AbCdEfGh" } as const;
const STAFF = "U5a1e0c7f3b2d4e6f8a9b0c1d2e3f4a5b";
const GROUP_MEMBER = "U6b2f1d8e4c3a5b7c9d0e1f2a3b4c5d6e";
const CUSTOMER = "U7c3a2e9f5d4b6c8d0e1f2a3b4c5d6e7f";
const STAFF_GROUP = "C1d4b3f0a6e5c7d9e1f2a3b4c5d6e7f80";
/** 13:00 in Bangkok on 2026-11-20: the demo data is made up to this instant. */
const START = Date.parse("2026-11-20T06:00:00Z");

let bot: BotHarness;
let clock = START;
const page = await loadPageTexts();

/** What the page shows a Thai shop for a refusal: a Thai sentence ending ค่ะ or คะ, never the API's English. */
function expectThaiOnPage(body: ApiRefusal): string {
  const text = page.errorText("th", "line", body);
  expect(text).not.toBe(body.message);
  expect(text.split("\n")[0]).toMatch(/^[\u0E00-\u0E7F].*(?:ค่ะ|คะ)$/u);
  return text;
}

/** The sandbox's own history of a range, every page, newest first (Bangkok days, as the app reads them). */
const sandboxHistory = (from: string, to: string, extra?: Record<string, string>): Promise<ServiceHistoryItem[]> =>
  serviceHistory({ url: bot.slipUrl, apiSecret: bot.apiSecret }, from, to, extra);

const get = (path: string, token: string | undefined): Promise<Response> =>
  fetch(`${bot.url}${path}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

const tokenOf = (userId: string, ttlMs?: number): string => bot.platform.issueIdToken(userId, LOGIN.channelId, ttlMs === undefined ? {} : { ttlMs });

beforeAll(async () => {
  bot = await startBotHarness({
    now: () => new Date(clock),
    // The tokens' times on the same clock as the bot's, whatever the machine's date.
    lineNow: () => clock,
    login: LOGIN,
    settings: { staffUserIds: new Set([STAFF]), staffGroupIds: new Set([STAFF_GROUP]) },
    groupMembers: { [STAFF_GROUP]: [GROUP_MEMBER] },
  });
});
afterAll(async () => {
  await bot.close();
});

describe("who may use the staff app", () => {
  it("answers a listed staff user, privately", async () => {
    const res = await get("/app/api/history?from=2026-11-19&to=2026-11-19&limit=5", tokenOf(STAFF));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(res.headers.get("content-security-policy")).not.toContain("unsafe-inline");
    const body = (await res.json()) as { items: ServiceHistoryItem[]; pagination: { page: number; limit: number; total: number; pages: number } };
    const expected = await sandboxHistory("2026-11-19", "2026-11-19");
    expect(body.pagination).toEqual({ page: 1, limit: 5, total: expected.length, pages: Math.ceil(expected.length / 5) });
    expect(body.items.map((i) => i.transRef)).toEqual(expected.slice(0, 5).map((i) => i.transRef));
  });

  it("answers a member of a listed staff group (asked of LINE)", async () => {
    const res = await get("/app/api/history?limit=1", tokenOf(GROUP_MEMBER));
    expect(res.status).toBe(200);
  });

  it("refuses a customer with 403, saying why and how the owner adds them", async () => {
    const res = await get("/app/api/history", tokenOf(CUSTOMER));
    expect(res.status).toBe(403);
    const body = (await res.json()) as ApiRefusal & { message: string; userId: string };
    expect(body.error).toBe("not_staff");
    expect(body.userId).toBe(CUSTOMER);
    expect(body.message).toMatch(/staff list/);
    expect(body.message).toMatch(/staff group/);
    // The page says it in Thai, with the id to give the owner.
    expect(expectThaiOnPage(body)).toContain(`\nไอดีผู้ใช้ของคุณ: ${CUSTOMER}`);
  });

  it.each([
    ["no token", undefined, "invalid_token", "missing", "ยังไม่ได้เข้าสู่ระบบ LINE ค่ะ"],
    ["a malformed token", "not-a-token", "invalid_token", "malformed", "บัญชี LINE ที่เข้าสู่ระบบไว้ใช้กับแอปของร้านนี้ไม่ได้ค่ะ"],
    ["a forged token", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJVIn0.c2lnbmF0dXJl", "invalid_token", "malformed", "บัญชี LINE ที่เข้าสู่ระบบไว้ใช้กับแอปของร้านนี้ไม่ได้ค่ะ"],
    ["an expired token", "expired", "token_expired", "expired", "การเข้าสู่ระบบ LINE หมดอายุแล้วค่ะ"],
    ["another channel's token", "foreign", "invalid_token", "foreign", "บัญชี LINE ที่เข้าสู่ระบบไว้ใช้กับแอปของร้านนี้ไม่ได้ค่ะ"],
  ])("refuses %s with 401, which the page says in Thai", async (_what, given, error, reason, thai) => {
    const token = given === "expired" ? tokenOf(STAFF, -60_000) : given === "foreign" ? bot.platform.issueIdToken(STAFF, "1650009999") : given;
    const res = await get("/app/api/history", token);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const body = (await res.json()) as ApiRefusal;
    expect([body.error, body.reason]).toEqual([error, reason]);
    expect(expectThaiOnPage(body)).toContain(thai);
  });

  it("keeps tokens and names out of its logs", async () => {
    const token = tokenOf(STAFF);
    await get("/app/api/history?q=%E0%B8%AA%E0%B8%A1%E0%B8%8A%E0%B8%B2%E0%B8%A2", token);
    const text = JSON.stringify(bot.logs.entries());
    expect(text).not.toContain(token);
    expect(text).not.toContain("สมชาย");
  });
});

describe("bad input is a 400 naming the parameter", () => {
  it.each([
    ["a reversed range", "from=2026-11-20&to=2026-11-10", "from", "reversed"],
    ["a 400-day range", "from=2025-10-01&to=2026-11-05", "to", "range_too_long"],
    ["an unknown status", "status=paid", "status", "bad_status"],
    ["page 0", "page=0", "page", "bad_page"],
    ["limit 1000", "limit=1000", "limit", "bad_limit"],
    ["a q of 10 KB", `q=${"a".repeat(10_240)}`, "q", "q_too_long"],
    ["a date that is not one", "from=2026-02-30", "from", "bad_day"],
    ["a parameter it does not take", "user=U123", "user", "unknown_parameter"],
    ["a parameter given twice", "status=valid&status=fraud", "status", "repeated"],
  ])("%s", async (_what, query, parameter, problem) => {
    const res = await get(`/app/api/history?${query}`, tokenOf(STAFF));
    expect(res.status).toBe(400);
    const body = (await res.json()) as ApiRefusal & { parameter: string; message: string };
    expect([body.error, body.parameter, body.problem]).toEqual(["bad_parameter", parameter, problem]);
    expect(body.message).toContain(parameter);
    expectThaiOnPage(body);
  });

  it("takes a range of 366 days", async () => {
    const res = await get("/app/api/history?from=2025-11-19&to=2026-11-20&limit=1", tokenOf(STAFF));
    expect(res.status).toBe(200);
  });
});

describe("history, summary and export agree with the service", () => {
  it("filters by status and channel and searches a reference and a payer", async () => {
    const all = await sandboxHistory("2026-11-18", "2026-11-20");
    const token = tokenOf(STAFF);
    const fraud = (await (await get("/app/api/history?from=2026-11-18&to=2026-11-20&status=fraud&limit=100", token)).json()) as { items: ServiceHistoryItem[] };
    expect(fraud.items.map((i) => i.transRef)).toEqual(all.filter((i) => i.status === "fraud").map((i) => i.transRef));

    const source = all.find((i) => i.source !== null)?.source ?? "";
    const bySource = (await (await get(`/app/api/history?from=2026-11-18&to=2026-11-20&source=${source}&limit=100`, token)).json()) as {
      items: ServiceHistoryItem[];
      pagination: { total: number };
    };
    expect(bySource.pagination.total).toBe(all.filter((i) => i.source === source).length);

    const target = all[7];
    const byRef = (await (await get(`/app/api/history?from=2026-11-18&to=2026-11-20&q=${target?.transRef ?? ""}`, token)).json()) as { items: ServiceHistoryItem[] };
    expect(byRef.items.map((i) => i.transRef)).toEqual([target?.transRef]);

    const name = target?.senderName ?? "";
    const byName = (await (await get(`/app/api/history?from=2026-11-18&to=2026-11-20&limit=100&q=${encodeURIComponent(name)}`, token)).json()) as { pagination: { total: number } };
    expect(byName.pagination.total).toBe(all.filter((i) => i.senderName?.includes(name) === true).length);
  });

  it("sums a range as the service's checks add up", async () => {
    const all = await sandboxHistory("2026-11-01", "2026-11-20");
    const res = await get("/app/api/summary?from=2026-11-01&to=2026-11-20", tokenOf(STAFF));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { count: number; validCount: number; validSatang: number; chart: { per: string; bars: unknown[] }; cut: { days: boolean; checks: boolean } };
    const valid = all.filter((i) => i.status === "valid");
    expect(body.count).toBe(all.length);
    expect(body.validCount).toBe(valid.length);
    expect(body.validSatang).toBe(valid.reduce((sum, i) => sum + Math.round((i.amount ?? 0) * 100), 0));
    expect(body.chart.per).toBe("day");
    expect(body.chart.bars).toHaveLength(20);
    expect(body.cut).toEqual({ days: false, checks: false });
  });

  /** The file's lines after its byte-order mark, which Excel needs to read the Thai. */
  const csvLines = async (res: Response): Promise<string[]> => {
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    return bytes
      .subarray(3)
      .toString("utf8")
      .split("\r\n")
      .filter((l) => l !== "");
  };
  const bangkok = (iso: string | null): string => (iso === null ? "" : new Date(Date.parse(iso) + 7 * 3_600_000).toISOString().slice(0, 19).replace("T", " "));
  const RAW_HEADER = "createdAt,createdAtLocal,transDate,transDateLocal,status,amount,transRef,senderName,receiverName,receiverAccount,source,tokensCharged,code";
  /** The chat's status words, as an owner's accountant reads them in the file. */
  const THAI_STATUS: Record<string, string> = { valid: "ผ่าน", invalid: "ไม่ผ่าน", fraud: "ปลอม", duplicate: "ซ้ำ", not_found: "ไม่พบ", error: "ผิดพลาด" };

  it("exports every check of the range with Thai headers and words first, then the raw columns, with a BOM and Bangkok times", async () => {
    const all = await sandboxHistory("2026-11-15", "2026-11-20");
    const res = await get("/app/api/export.csv?from=2026-11-15&to=2026-11-20", tokenOf(STAFF));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("x-export-cut")).toBe("none");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="slipline-default-2026-11-15-2026-11-20.csv"');
    const lines = await csvLines(res);
    expect(lines[0]).toBe(`เวลาตรวจ,เวลาโอน,สถานะ,ยอดเงิน,เลขอ้างอิง,ผู้โอน,ผู้รับเงิน,บัญชีผู้รับ,ช่องทาง,โทเคนที่ใช้,${RAW_HEADER}`);
    expect(lines).toHaveLength(all.length + 1);
    all.forEach((item, i) => {
      const cells = (lines[i + 1] ?? "").split(",");
      expect(cells.slice(0, 5)).toEqual([
        bangkok(item.createdAt),
        bangkok(item.transDate),
        item.status === null ? "" : (THAI_STATUS[item.status] ?? item.status),
        item.amount === null ? "" : String(item.amount),
        item.transRef ?? "",
      ]);
    });
  });

  it("keeps the all-English file for accounting software with format=raw: the service's own fields and values", async () => {
    const all = await sandboxHistory("2026-11-15", "2026-11-20");
    const res = await get("/app/api/export.csv?from=2026-11-15&to=2026-11-20&format=raw", tokenOf(STAFF));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="slipline-default-2026-11-15-2026-11-20-raw.csv"');
    const lines = await csvLines(res);
    expect(lines[0]).toBe(RAW_HEADER);
    expect(lines).toHaveLength(all.length + 1);
    all.forEach((item, i) => {
      const cells = (lines[i + 1] ?? "").split(",");
      expect(cells.slice(0, 7)).toEqual([
        item.createdAt ?? "",
        bangkok(item.createdAt),
        item.transDate ?? "",
        bangkok(item.transDate),
        item.status ?? "",
        item.amount === null ? "" : String(item.amount),
        item.transRef ?? "",
      ]);
    });
  });

  it("refuses a format it does not make", async () => {
    const res = await get("/app/api/export.csv?from=2026-11-15&to=2026-11-20&format=xlsx", tokenOf(STAFF));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "bad_parameter", parameter: "format", problem: "bad_format" });
  });

  it("cuts an export to the last 31 days and says so", async () => {
    const res = await get("/app/api/export.csv?from=2026-09-01&to=2026-11-20&status=fraud", tokenOf(STAFF));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-export-cut")).toBe("days");
    expect(res.headers.get("x-export-covered")).toBe("2026-10-21..2026-11-20");
    const expected = await sandboxHistory("2026-10-21", "2026-11-20", { status: "fraud" });
    const text = await res.text();
    expect(text.split("\r\n").filter((l) => l !== "")).toHaveLength(expected.length + 1);
  });
});

describe("the chat's export link", () => {
  const link = (userId: string): string =>
    signExportLink({ shopId: "default", userId, fromDate: { year: 2026, month: 11, day: 20 }, toDate: { year: 2026, month: 11, day: 20 } }, bot.channelSecret, clock);

  it("downloads once for its user, then is refused", async () => {
    const token = link(STAFF);
    const first = await get(`/app/api/export.csv?link=${token}`, undefined);
    expect(first.status).toBe(200);
    const expected = await sandboxHistory("2026-11-20", "2026-11-20");
    expect((await first.text()).split("\r\n").filter((l) => l !== "")).toHaveLength(expected.length + 1);
    const again = await get(`/app/api/export.csv?link=${token}`, undefined);
    expect(again.status).toBe(410);
  });

  it("is refused when altered, made for someone who is not staff, or older than 10 minutes", async () => {
    const token = link(STAFF);
    const [body = "", signature = ""] = token.split(".");
    const grant = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
    const altered = `${Buffer.from(JSON.stringify({ ...grant, from: "2026-01-01" })).toString("base64url")}.${signature}`;
    expect((await get(`/app/api/export.csv?link=${altered}`, undefined)).status).toBe(403);
    expect((await get(`/app/api/export.csv?link=${link(CUSTOMER)}`, undefined)).status).toBe(403);
    const old = link(STAFF);
    clock += 10 * 60_000 + 1;
    try {
      const res = await get(`/app/api/export.csv?link=${old}`, undefined);
      expect(res.status).toBe(410);
      expect(((await res.json()) as { error: string }).error).toBe("link_expired");
    } finally {
      clock = START;
    }
  });
});

describe("the app's export as a link (for LINE's in-app browser)", () => {
  it("gives staff a one-time link with the filters, which downloads the same rows", async () => {
    const all = await sandboxHistory("2026-11-18", "2026-11-20");
    const ref = all[5]?.transRef ?? "";
    const res = await get(`/app/api/export-link?from=2026-11-18&to=2026-11-20&q=${ref}`, tokenOf(STAFF));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const { url } = (await res.json()) as { url: string };
    expect(url).toMatch(/^\/app\/api\/export\.csv\?link=/);
    const csv = await get(url, undefined);
    expect(csv.status).toBe(200);
    const rows = (await csv.text()).split("\r\n").filter((l) => l !== "");
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(ref);
    expect((await get(url, undefined)).status).toBe(410);
  });

  it("carries the all-English choice in the link it signs", async () => {
    const res = await get("/app/api/export-link?from=2026-11-20&to=2026-11-20&format=raw", tokenOf(STAFF));
    const { url } = (await res.json()) as { url: string };
    const csv = await get(url, undefined);
    // (Reading the body as text drops its byte-order mark.)
    expect((await csv.text()).split("\r\n")[0]).toBe(
      "createdAt,createdAtLocal,transDate,transDateLocal,status,amount,transRef,senderName,receiverName,receiverAccount,source,tokensCharged,code",
    );
  });

  it("gives a customer none", async () => {
    expect((await get("/app/api/export-link", tokenOf(CUSTOMER))).status).toBe(403);
  });
});

describe("the rate limit", () => {
  it("answers one user 429 past 120 requests a minute, and others still", async () => {
    const token = tokenOf(GROUP_MEMBER);
    const statuses: number[] = [];
    for (let i = 0; i < 125; i += 1) statuses.push((await get("/app/api/history?limit=1", token)).status);
    expect(statuses.slice(0, 100).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const refused = (await (await get("/app/api/history?limit=1", token)).json()) as ApiRefusal;
    expect(expectThaiOnPage(refused)).toBe("เปิดดูถี่เกินไปค่ะ รอประมาณ 1 นาทีแล้วลองใหม่นะคะ");
    expect((await get("/app/api/history?limit=1", tokenOf(STAFF))).status).toBe(200);
  });
});

describe("the page", () => {
  it("is served without inline scripts, in the shop's language", async () => {
    const res = await fetch(`${bot.url}/app/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('lang="th"');
    // Its name before the script runs, in the shop's language.
    expect(html).toContain("<title>แอปพนักงาน</title>");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it("says what to set when the shop has no LINE Login channel, in Thai and without the shops file's JSON", async () => {
    const off = await startBotHarness({});
    try {
      const res = await fetch(`${off.url}/app/`);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe("แอปพนักงานของร้านนี้ยังไม่ได้เปิดใช้ค่ะ เจ้าของร้านต้องสร้าง LINE Login channel และ LIFF app แล้วตั้งค่า LINE_LOGIN_CHANNEL_ID และ LIFF_ID จากนั้นเริ่มบอทใหม่นะคะ");
    } finally {
      await off.close();
    }
  });

  it("answers an address no shop has in Thai, then English", async () => {
    const res = await fetch(`${bot.url}/app/nobody/`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("ไม่มีแอปพนักงานของร้านที่ลิงก์นี้ค่ะ\nNo shop has its staff app here.");
  });
});
