// Pure parsing of the sandbox's outside input: date bounds in a zone, amounts and account numbers.
import { describe, expect, it } from "vitest";
import { amountToSatang, parseDateBound, parsePromptPayTarget, parseHistoryQuery } from "../src/params.js";

describe("parseDateBound", () => {
  it.each([
    ["2026-11-20", "from", "2026-11-19T17:00:00.000Z"],
    ["2026-11-20", "to", "2026-11-20T16:59:59.999Z"],
    ["2026-11-20T14:05", "from", "2026-11-20T07:05:00.000Z"],
    ["2026-11-20T14:05:09.5", "to", "2026-11-20T07:05:09.500Z"],
    ["2026-11-20T14:05:09.123456789Z", "to", "2026-11-20T14:05:09.123Z"],
    ["2026-11-20T14:05+0530", "from", "2026-11-20T08:35:00.000Z"],
    ["2026-11-20T00:00-12:00", "from", "2026-11-20T12:00:00.000Z"],
    ["2026-12-31", "to", "2026-12-31T16:59:59.999Z"],
    ["2024-02-29", "from", "2024-02-28T17:00:00.000Z"],
  ] as const)("reads %s as %s bound %s in Bangkok", (text, bound, expected) => {
    expect(new Date(parseDateBound(text, bound, "Asia/Bangkok") ?? Number.NaN).toISOString()).toBe(expected);
  });

  it("reads years before 100 without the two-digit-year trap", () => {
    expect(new Date(parseDateBound("0050-01-01T00:00Z", "from", "UTC") ?? Number.NaN).toISOString()).toBe("0050-01-01T00:00:00.000Z");
  });

  it("follows the zone's offset on the day, so a zone with DST is read honestly", () => {
    // New York: -05:00 in January, -04:00 in July.
    expect(new Date(parseDateBound("2026-01-15", "from", "America/New_York") ?? 0).toISOString()).toBe("2026-01-15T05:00:00.000Z");
    expect(new Date(parseDateBound("2026-07-15", "from", "America/New_York") ?? 0).toISOString()).toBe("2026-07-15T04:00:00.000Z");
    // The day DST starts is 23 hours long.
    const from = parseDateBound("2026-03-08", "from", "America/New_York") ?? 0;
    const to = parseDateBound("2026-03-08", "to", "America/New_York") ?? 0;
    expect(to - from + 1).toBe(23 * 3_600_000);
  });

  it.each(["2026-02-29", "2025-04-31", "2026-00-10", "2026-11-00", "2026-11-20T23:59:60", "2026-11-20t10:00", "2026-11-20T10:00z", " 2026-11-20"])("refuses %s", (text) => {
    expect(parseDateBound(text, "from", "Asia/Bangkok")).toBeUndefined();
  });
});

describe("parseHistoryQuery", () => {
  it("gives the defaults for an empty query", () => {
    expect(parseHistoryQuery(new URLSearchParams(""))).toEqual({ ok: true, value: { page: 1, limit: 20 } });
  });

  it("caps a very long limit at 100", () => {
    expect(parseHistoryQuery(new URLSearchParams("limit=99999999999999999999999999"))).toEqual({ ok: true, value: { page: 1, limit: 100 } });
  });
});

describe("amountToSatang", () => {
  it.each([
    [150, 15_000],
    [0.01, 1],
    [0.07, 7],
    [1.1, 110],
    [19.99, 1_999],
    [9999999999.99, 999_999_999_999],
  ])("reads %s baht as %i satang", (amount, satang) => {
    expect(amountToSatang(amount)).toBe(satang);
  });

  it.each([0, -1, 1.001, 1e-7, 1e21, 10_000_000_000, Number.NaN, Number.POSITIVE_INFINITY, "1"])("refuses %s", (amount) => {
    expect(amountToSatang(amount)).toBeUndefined();
  });
});

describe("parsePromptPayTarget", () => {
  it("keeps the digits of a citizen id that starts with 0", () => {
    expect(parsePromptPayTarget("0-1055-51234-56-7")).toEqual({ type: "citizen", digits: "0105551234567" });
  });

  it("refuses digits in other scripts", () => {
    expect(parsePromptPayTarget("๐๘๑๒๓๔๕๖๗๘")).toBeUndefined();
  });
});
