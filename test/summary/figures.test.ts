// computeFigures: exact sums in satang and hundredths of a token, statuses and channels as counted, and
// the chart's hours and days in the business zone (a check at 23:30 UTC is the next morning in Bangkok).
import { describe, expect, it } from "vitest";
import { computeFigures } from "../../src/summary/figures.js";
import type { HistoryItem } from "../../src/slip/types.js";

const TZ = "Asia/Bangkok";
const item = (over: Partial<HistoryItem>): HistoryItem => ({
  code: 200,
  status: "valid",
  amount: 100,
  transRef: null,
  transDate: null,
  senderName: null,
  receiverName: null,
  receiverAccount: null,
  source: "line_oa_merchant",
  tokensCharged: 1,
  createdAt: "2026-11-20T03:00:00.000Z",
  ...over,
});

describe("computeFigures", () => {
  it("adds money in satang and tokens in hundredths, so 0.1 + 0.2 and 0.75 × 3 come out exact", () => {
    const figures = computeFigures([item({ amount: 0.1, tokensCharged: 0.75 }), item({ amount: 0.2, tokensCharged: 0.75 }), item({ amount: 1234567.89, tokensCharged: 0.75 })], {
      fromDate: { year: 2026, month: 11, day: 20 },
      toDate: { year: 2026, month: 11, day: 20 },
      timeZone: TZ,
    });
    expect(figures.validSatang).toBe(123_456_819);
    expect(figures.tokensCharged).toBe(2.25);
  });

  it("counts every status and channel, sums only valid amounts per channel, and keeps unknown ones by their name", () => {
    const figures = computeFigures(
      [
        item({ status: "valid", amount: 150, source: "api" }),
        item({ status: "duplicate", amount: 150, source: "api" }),
        item({ status: "not_found", amount: null, source: null }),
        item({ status: "refunded", amount: 40, source: "kiosk" }),
        item({ status: "fraud", amount: 999, source: "line_oa_merchant" }),
        item({ status: "valid", amount: 60, source: "line_oa_merchant" }),
      ],
      { fromDate: { year: 2026, month: 11, day: 20 }, toDate: { year: 2026, month: 11, day: 20 }, timeZone: TZ },
    );
    expect(figures).toMatchObject({ count: 6, validCount: 2, validSatang: 21_000 });
    expect(figures.byStatus).toEqual([
      { status: "valid", count: 2, amountSatang: 21_000 },
      { status: "fraud", count: 1, amountSatang: 99_900 },
      { status: "duplicate", count: 1, amountSatang: 15_000 },
      { status: "not_found", count: 1, amountSatang: 0 },
      { status: "refunded", count: 1, amountSatang: 4_000 },
    ]);
    expect(figures.bySource).toEqual([
      { source: "api", count: 2, validSatang: 15_000 },
      { source: "line_oa_merchant", count: 2, validSatang: 6_000 },
      { source: "", count: 1, validSatang: 0 },
      { source: "kiosk", count: 1, validSatang: 0 },
    ]);
  });

  it("puts each check in its Bangkok hour for one day, and its Bangkok day for a range", () => {
    const checks = [
      item({ createdAt: "2026-11-19T17:00:00.000Z" }), // 00:00 on the 20th in Bangkok
      item({ createdAt: "2026-11-20T16:59:59.000Z", status: "invalid" }), // 23:59:59 on the 20th
      item({ createdAt: "2026-11-20T17:00:00.000Z" }), // the 21st already
      item({ createdAt: null }),
    ];
    const day = computeFigures(checks, { fromDate: { year: 2026, month: 11, day: 20 }, toDate: { year: 2026, month: 11, day: 20 }, timeZone: TZ });
    expect(day.chart.per).toBe("hour");
    expect(day.chart.bars).toHaveLength(24);
    expect(day.chart.bars[0]).toEqual({ at: 0, count: 1, validSatang: 10_000 });
    expect(day.chart.bars[23]).toEqual({ at: 23, count: 1, validSatang: 0 });

    const week = computeFigures(checks, { fromDate: { year: 2026, month: 11, day: 15 }, toDate: { year: 2026, month: 11, day: 21 }, timeZone: TZ });
    expect(week.chart.per).toBe("day");
    expect(week.chart.bars.map((b) => b.count)).toEqual([0, 0, 0, 0, 0, 2, 1]);
    // A check without a time still counts in the totals.
    expect(week.count).toBe(4);
  });
});
