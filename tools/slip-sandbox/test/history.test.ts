// GET /api/slip-history over real HTTP: isolation, pagination, filters, dates and the 400s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ITEM_CODES } from "../src/codes.js";
import type { RunningSandbox } from "../src/server.js";
import { LISTED_SOURCES, SLIP_STATUSES, type HistoryItem } from "../../../src/slip/types.js";
import { NOW, OTHER, SHOP, allItems, createdAtMs, history, startTestSandbox } from "./sandbox-client.js";

let sandbox: RunningSandbox;
let base: string;
let shopItems: HistoryItem[];
let otherItems: HistoryItem[];

const DAY = 86_400_000;
const BANGKOK = 7 * 3_600_000;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  base = sandbox.url;
  shopItems = await allItems(base, SHOP);
  otherItems = await allItems(base, OTHER);
});

afterAll(async () => {
  await sandbox.close();
});

function between(items: HistoryItem[], fromMs: number, toMs: number): HistoryItem[] {
  return items.filter((i) => createdAtMs(i) >= fromMs && createdAtMs(i) <= toMs);
}

describe("demo data as served", () => {
  it("gives the demo shop about 60 checks a day over the last 90 days up to now, newest first", () => {
    expect(shopItems.length).toBeGreaterThanOrEqual(90 * 45);
    expect(shopItems.length).toBeLessThanOrEqual(90 * 75);
    const times = shopItems.map(createdAtMs);
    expect(Math.max(...times)).toBeLessThanOrEqual(NOW.getTime());
    expect(Math.max(...times)).toBeGreaterThan(NOW.getTime() - DAY);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW.getTime() - 90 * DAY);
    for (let i = 1; i < times.length; i++) expect(times[i - 1]).toBeGreaterThanOrEqual(times[i] ?? 0);
  });

  it("has every status and every listed source, with one code per status", () => {
    expect(new Set(shopItems.map((i) => i.status))).toEqual(new Set(SLIP_STATUSES));
    expect(new Set(shopItems.map((i) => i.source))).toEqual(new Set(LISTED_SOURCES));
    for (const item of shopItems) {
      expect(item.code).toBe(ITEM_CODES[item.status as keyof typeof ITEM_CODES]);
    }
    expect(new Set(Object.values(ITEM_CODES)).size).toBe(6);
  });

  it("has every documented field on every item, null only where the slip could not be read", () => {
    const keys = ["amount", "code", "createdAt", "receiverAccount", "receiverName", "senderName", "source", "status", "tokensCharged", "transDate", "transRef"];
    const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    for (const item of shopItems) {
      expect(Object.keys(item).sort()).toEqual(keys);
      expect(item.createdAt).toMatch(isoMs);
      expect(typeof item.transRef).toBe("string");
      expect(typeof item.tokensCharged).toBe("number");
      const unread = item.status === "not_found" || item.status === "error";
      const readFields = [item.amount, item.transDate, item.senderName, item.receiverName, item.receiverAccount];
      if (unread) {
        expect(readFields).toEqual([null, null, null, null, null]);
      } else {
        expect(readFields.every((f) => f !== null)).toBe(true);
        expect(item.transDate).toMatch(isoMs);
        expect(item.receiverAccount).toMatch(/^xxx-x-x\d{4}-x$/);
        expect(item.amount).toBeGreaterThan(0);
      }
    }
    expect(shopItems.some((i) => /[\u0E00-\u0E7F]/.test(i.senderName ?? ""))).toBe(true);
  });
});

describe("isolation between the two active shops", () => {
  it("never returns the other shop's checks", () => {
    expect(otherItems.length).toBeGreaterThan(100);
    const shopRefs = new Set(shopItems.map((i) => i.transRef));
    expect(otherItems.some((i) => shopRefs.has(i.transRef))).toBe(false);
    expect(new Set(otherItems.map((i) => i.receiverName).filter((n) => n !== null)).size).toBe(1);
    expect(otherItems.some((i) => i.receiverName === shopItems.find((s) => s.receiverName !== null)?.receiverName)).toBe(false);
  });

  it("finds nothing when one shop searches for the other's transRef", async () => {
    const foreign = otherItems[0]?.transRef ?? "";
    const own = await history(base, `transRef=${encodeURIComponent(foreign)}`, OTHER);
    expect(own.body.data?.pagination.total).toBe(1);
    const res = await history(base, `transRef=${encodeURIComponent(foreign)}`, SHOP);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ items: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } });
  });

  it("counts only the caller's checks", async () => {
    const a = await history(base, "", SHOP);
    const b = await history(base, "", OTHER);
    expect(a.body.data?.pagination.total).toBe(shopItems.length);
    expect(b.body.data?.pagination.total).toBe(otherItems.length);
  });
});

describe("pagination", () => {
  it("defaults to page 1 of 20 in the success envelope", async () => {
    const res = await history(base, "");
    expect(res.status).toBe(200);
    expect(res.body.code).toBe("200001");
    expect(res.body.message).toBe("Get Info Success");
    expect(res.body.data?.items).toEqual(shopItems.slice(0, 20));
    expect(res.body.data?.pagination).toEqual({ page: 1, limit: 20, total: shopItems.length, pages: Math.ceil(shopItems.length / 20) });
  });

  it("answers an empty result with pages 0", async () => {
    const res = await history(base, "from=2020-01-01&to=2020-01-31");
    expect(res.body.data).toEqual({ items: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } });
  });

  it("fills the last page exactly when the total is a multiple of the limit", async () => {
    const total = otherItems.length;
    const limit = [40, 25, 20, 10, 8, 5, 4, 2].find((l) => total % l === 0) ?? 1;
    const pages = total / limit;
    const last = await history(base, `limit=${limit}&page=${pages}`, OTHER);
    expect(last.body.data?.pagination).toEqual({ page: pages, limit, total, pages });
    expect(last.body.data?.items).toEqual(otherItems.slice(total - limit));
    const after = await history(base, `limit=${limit}&page=${pages + 1}`, OTHER);
    expect(after.body.data).toEqual({ items: [], pagination: { page: pages + 1, limit, total, pages } });
  });

  it("serves a partial last page and nothing past the end, with the true total", async () => {
    const total = shopItems.length;
    const limit = [7, 11, 13, 17].find((l) => total % l !== 0) ?? 7;
    const pages = Math.ceil(total / limit);
    const last = await history(base, `limit=${limit}&page=${pages}`);
    expect(last.body.data?.items).toEqual(shopItems.slice((pages - 1) * limit));
    expect(last.body.data?.items.length).toBe(total - (pages - 1) * limit);
    const past = await history(base, `limit=${limit}&page=1000000000`);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual({ items: [], pagination: { page: 1000000000, limit, total, pages } });
  });

  it("serves a limit above 100 as 100 and says so", async () => {
    const res = await history(base, "limit=5000&page=2");
    expect(res.body.data?.pagination).toEqual({ page: 2, limit: 100, total: shopItems.length, pages: Math.ceil(shopItems.length / 100) });
    expect(res.body.data?.items).toEqual(shopItems.slice(100, 200));
  });

  it("accepts leading zeros and never overlaps or skips between pages", async () => {
    const a = await history(base, "limit=0003&page=001");
    const b = await history(base, "limit=3&page=2");
    expect([...(a.body.data?.items ?? []), ...(b.body.data?.items ?? [])]).toEqual(shopItems.slice(0, 6));
    expect(new Set(shopItems.map((i) => i.transRef)).size).toBe(shopItems.length);
  });
});

describe("filters", () => {
  it.each(SLIP_STATUSES)("status=%s keeps only that status", async (status) => {
    const res = await history(base, `status=${status}&limit=100`);
    const expected = shopItems.filter((i) => i.status === status);
    expect(res.body.data?.pagination.total).toBe(expected.length);
    expect(res.body.data?.items).toEqual(expected.slice(0, 100));
  });

  it("transRef is an exact, case-sensitive match", async () => {
    const item = shopItems[123];
    const ref = item?.transRef ?? "";
    expect((await history(base, `transRef=${ref}`)).body.data?.items).toEqual([item]);
    expect((await history(base, `transRef=${ref.slice(0, -1)}`)).body.data?.pagination.total).toBe(0);
    expect((await history(base, `transRef=${ref}x`)).body.data?.pagination.total).toBe(0);
  });

  it("from alone and to alone bound createdAt inclusively", async () => {
    const pivot = shopItems[500];
    const at = pivot?.createdAt ?? "";
    const newer = shopItems.filter((i) => createdAtMs(i) >= Date.parse(at));
    const from = await history(base, `from=${at}&limit=100&page=${Math.ceil(newer.length / 100)}`);
    expect(from.body.data?.pagination.total).toBe(newer.length);
    expect(from.body.data?.items.at(-1)).toEqual(newer.at(-1));
    const to = await history(base, `to=${at}`);
    const older = shopItems.filter((i) => createdAtMs(i) <= Date.parse(at));
    expect(to.body.data?.pagination.total).toBe(older.length);
    expect(to.body.data?.items[0]).toEqual(older[0]);
    const exact = await history(base, `from=${at}&to=${at}`);
    expect(exact.body.data?.items).toContainEqual(pivot);
    const justBefore = new Date(Date.parse(at) - 1).toISOString();
    expect((await history(base, `from=${at}&to=${justBefore}`)).status).toBe(400);
    const before = await history(base, `to=${justBefore}`);
    expect(before.body.data?.items).not.toContainEqual(pivot);
  });

  it("combines status, date range and transRef", async () => {
    const fromMs = Date.parse("2026-11-01T00:00:00+07:00");
    const toMs = Date.parse("2026-11-15T23:59:59.999+07:00");
    const expected = between(shopItems, fromMs, toMs).filter((i) => i.status === "duplicate");
    const res = await history(base, "status=duplicate&from=2026-11-01&to=2026-11-15&limit=100");
    expect(res.body.data?.pagination.total).toBe(expected.length);
    expect(res.body.data?.items).toEqual(expected.slice(0, 100));

    const target = expected[0];
    const ref = target?.transRef ?? "";
    const hit = await history(base, `status=duplicate&from=2026-11-01&to=2026-11-15&transRef=${ref}`);
    expect(hit.body.data?.items).toEqual([target]);
    const wrongStatus = await history(base, `status=valid&transRef=${ref}`);
    expect(wrongStatus.body.data?.pagination.total).toBe(0);
    const outside = await history(base, `transRef=${ref}&from=2026-11-16`);
    expect(outside.body.data?.pagination.total).toBe(0);
  });
});

describe("dates", () => {
  it("reads a date alone as the whole Bangkok day", async () => {
    const dayStart = Date.UTC(2026, 10, 19) - BANGKOK;
    const expected = between(shopItems, dayStart, dayStart + DAY - 1);
    expect(expected.length).toBeGreaterThan(0);
    const res = await history(base, "from=2026-11-19&to=2026-11-19&limit=100");
    expect(res.body.data?.pagination.total).toBe(expected.length);
    expect(res.body.data?.items).toEqual(expected.slice(0, 100));
  });

  it.each([
    ["no zone (Bangkok)", "2026-11-19T08:00", "2026-11-19T18:30:59.999"],
    ["Z", "2026-11-19T01:00:00Z", "2026-11-19T11:30:59.999Z"],
    ["+07:00", "2026-11-19T08:00:00+07:00", "2026-11-19T18:30:59.999+07:00"],
    ["+0700", "2026-11-19T08:00:00.000+0700", "2026-11-19T18:30:59.999+0700"],
    ["-05:00", "2026-11-18T20:00-05:00", "2026-11-19T06:30:59.999-05:00"],
  ])("accepts date-times with %s", async (_label, from, to) => {
    const expected = between(shopItems, Date.parse("2026-11-19T01:00:00Z"), Date.parse("2026-11-19T11:30:59.999Z"));
    expect(expected.length).toBeGreaterThan(0);
    const res = await history(base, `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=100`);
    expect(res.status).toBe(200);
    expect(res.body.data?.pagination.total).toBe(expected.length);
  });

  it("keeps a fraction beyond milliseconds inclusive", async () => {
    const pivot = shopItems[42];
    const at = (pivot?.createdAt ?? "").replace("Z", "999Z");
    const res = await history(base, `from=${encodeURIComponent(at.replace("999Z", "Z"))}&to=${encodeURIComponent(at)}`);
    expect(res.body.data?.items).toContainEqual(pivot);
  });

  it.each([
    ["from", "2026-02-30"],
    ["to", "2026-02-29"],
    ["from", "2026-13-01"],
    ["to", "2026-11-20T24:00"],
    ["from", "2026-11-20T10:60"],
    ["to", "2026-11-20T10:00:60"],
    ["from", "2026-11-20T10:00+25:00"],
    ["to", "2026-11-20T10:00+07:60"],
    ["from", ""],
    ["to", "yesterday"],
    ["from", "2026-11-20 10:00"],
    ["to", "20261120"],
    ["from", "2026-11-20Z"],
    ["to", "2026-11-20T10"],
    ["from", "2026-1-5"],
    ["to", "1732000000000"],
  ])("rejects %s=%s with 400 naming it", async (name, value) => {
    const res = await history(base, `${name}=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "400001", message: `${name} must be an ISO 8601 date or date-time` });
  });

  it("accepts the leap day of a leap year", async () => {
    expect((await history(base, "from=2024-02-29&to=2028-02-29")).status).toBe(200);
  });

  it("rejects from after to", async () => {
    const res = await history(base, "from=2026-11-20&to=2026-11-19");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "400001", message: "from must not be after to" });
  });
});

describe("bad parameters", () => {
  it.each([
    ["page=0", "page must be an integer from 1 to 1000000000"],
    ["page=-1", "page must be an integer from 1 to 1000000000"],
    ["page=+1", "page must be an integer from 1 to 1000000000"],
    ["page=1.5", "page must be an integer from 1 to 1000000000"],
    ["page=1e3", "page must be an integer from 1 to 1000000000"],
    ["page=", "page must be an integer from 1 to 1000000000"],
    ["page=abc", "page must be an integer from 1 to 1000000000"],
    ["page=1000000001", "page must be an integer from 1 to 1000000000"],
    ["page=99999999999999999999999", "page must be an integer from 1 to 1000000000"],
    ["page=1&page=2", "page must be given at most once"],
    ["limit=0", "limit must be an integer of at least 1"],
    ["limit=-5", "limit must be an integer of at least 1"],
    ["limit=", "limit must be an integer of at least 1"],
    ["limit=10.0", "limit must be an integer of at least 1"],
    ["limit=%2010", "limit must be an integer of at least 1"],
    ["limit=10&limit=10", "limit must be given at most once"],
    ["status=VALID", "status must be one of valid, invalid, fraud, duplicate, not_found, error"],
    ["status=refunded", "status must be one of valid, invalid, fraud, duplicate, not_found, error"],
    ["status=", "status must be one of valid, invalid, fraud, duplicate, not_found, error"],
    ["status=valid&status=fraud", "status must be given at most once"],
    ["transRef=", "transRef must be 1 to 100 characters"],
    [`transRef=${"A".repeat(101)}`, "transRef must be 1 to 100 characters"],
    ["from=2026-11-01&from=2026-11-02", "from must be given at most once"],
  ])("%s -> 400 %s", async (query, message) => {
    const res = await history(base, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "400001", message });
  });

  it("ignores unknown parameters", async () => {
    const res = await history(base, "sort=asc&limit=1");
    expect(res.body.data?.items).toEqual(shopItems.slice(0, 1));
  });
});
