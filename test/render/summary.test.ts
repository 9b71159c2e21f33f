// The summary, "has it arrived?" and forecast views at their extremes: within LINE's limits in both
// languages, and saying what a shop needs to read.
import { messagesOf } from "../../src/privacy/answer.js";
import { describe, expect, it } from "vitest";
import type { CalendarDate } from "../../src/commands/types.js";
import { renderBalance } from "../../src/commands/balance/render.js";
import { renderPaid } from "../../src/commands/paid/render.js";
import { renderSummary } from "../../src/commands/summary/render.js";
import type { SummaryView } from "../../src/commands/summary/render.js";
import type { HistoryItem } from "../../src/slip/types.js";
import { computeFigures } from "../../src/summary/figures.js";
import { lineLimitProblems, quickReplyLabels, visibleText } from "./line-limits.js";
import { quickReplyTaps } from "../kit/messages.js";

const TZ = "Asia/Bangkok";
const NOW = new Date("2026-11-22T07:05:00.000Z"); // 22 Nov 2026 14:05 in Bangkok
const day = (d: number, month = 11): CalendarDate => ({ year: 2026, month, day: d });

const item = (over: Partial<HistoryItem>): HistoryItem => ({
  code: 200,
  status: "valid",
  amount: 150,
  transRef: "016330143512BPM04877",
  transDate: null,
  senderName: "น.ส. มาลี ทองดี",
  receiverName: null,
  receiverAccount: null,
  source: "line_oa_merchant",
  tokensCharged: 1,
  createdAt: "2026-11-22T03:00:00.000Z",
  ...over,
});

function view(items: HistoryItem[], over: Partial<SummaryView> = {}): SummaryView {
  const fromDate = over.coveredFrom ?? day(22);
  const toDate = over.coveredTo ?? day(22);
  return {
    lang: "en",
    timeZone: TZ,
    range: { kind: "today" },
    figures: computeFigures(items, { fromDate, toDate, timeZone: TZ }),
    coveredFrom: fromDate,
    coveredTo: toDate,
    askedFrom: fromDate,
    total: items.length,
    at: NOW,
    ...over,
  };
}

describe("renderSummary", () => {
  it("shows the checks, the valid total, each status and channel, the tokens and the time of the figures", () => {
    const text = visibleText([...messagesOf(renderSummary(view([item({}), item({ status: "duplicate", source: "api" }), item({ amount: 1_000.5, tokensCharged: 0.75 })])))]);
    for (const part of ["Summary", "Today · 22 Nov 2026", "3 checks", "฿1,150.50", "Valid", "Duplicate", "Tokens used: 2.75", "As of 14:05"]) {
      expect(text).toContain(part);
    }
  });

  it("says when there was nothing, rather than an empty chart", () => {
    const messages = [...messagesOf(renderSummary(view([])))];
    expect(visibleText(messages)).toContain("0 checks");
    expect(visibleText(messages)).toContain("No slip checks today.");
    expect(lineLimitProblems(messages)).toEqual([]);
  });

  it("fits LINE's limits with 31 days, the largest amounts and dozens of unknown statuses and channels, folding the rest into one row", () => {
    const items = Array.from({ length: 600 }, (_, i) =>
      item({
        status: i % 3 === 0 ? `status-${"x".repeat(40)}-${i % 30}` : "valid",
        source: `channel-${"ช่องทาง".repeat(10)}-${i % 40}`,
        amount: 9_999_999_999.99,
        createdAt: new Date(Date.UTC(2026, 9, 23) + i * 3_600_000 * 1.2).toISOString(),
      }),
    );
    for (const lang of ["th", "en"] as const) {
      const messages = [
        ...messagesOf(renderSummary(view(items, { lang, range: { kind: "days", days: 31 }, coveredFrom: day(23, 10), coveredTo: day(22), askedFrom: day(23, 10), total: 20_000 }))),
      ];
      expect(lineLimitProblems(messages)).toEqual([]);
      const text = visibleText(messages);
      expect(text).toContain(lang === "en" ? "33 others" : "อื่น ๆ อีก 33 แบบ");
      expect(text).toContain(lang === "en" ? "4 others" : "อื่น ๆ อีก 4 แบบ");
    }
  });

  it("says when a long range was cut to its last 31 days and when the figures cover only the newest checks", () => {
    const text = visibleText([
      ...messagesOf(renderSummary(view([item({})], { range: { kind: "days", days: 90 }, coveredFrom: day(23, 10), askedFrom: day(24, 8), total: 25_000 }))),
    ]);
    expect(text).toContain("A summary covers at most 31 days: these figures are for 23 Oct – 22 Nov 2026.");
    expect(text).toMatch(/1 .*25,000/);
  });
});

describe("renderPaid", () => {
  it("shows the payments of the amount since the QR, newest first, with payer, time and ref", () => {
    const found = Array.from({ length: 7 }, (_, i) => item({ createdAt: new Date(NOW.getTime() - i * 60_000).toISOString(), senderName: `Payer ${i}` }));
    const messages = [...messagesOf(renderPaid({ lang: "en", timeZone: TZ, amountSatang: 15_000, after: new Date("2026-11-22T06:00:00Z"), found, askAgain: "paid 150" }))];
    expect(lineLimitProblems(messages)).toEqual([]);
    const text = visibleText(messages);
    expect(text).toContain("Arrived: 7 checks");
    expect(text).toContain("Since 13:00");
    expect(text).toContain("Payer 0\n14:05");
    expect(text).toContain("Payer 4");
    // A handful of rows at most: the count says how many there are.
    expect(text).not.toContain("Payer 5");
  });

  it("says 'not yet' with a quick reply that asks again, showing in the chat what a person would type", () => {
    const askAgain = "เช็คยอด 150 หลัง 2026-11-22T07:05:00.000Z";
    const messages = [...messagesOf(renderPaid({ lang: "th", timeZone: TZ, amountSatang: 15_000, after: new Date("2026-11-22T07:05:00.000Z"), found: [], askAgain }))];
    expect(lineLimitProblems(messages)).toEqual([]);
    expect(visibleText(messages)).toBe(
      "ยอด 150 บาท เข้าหรือยัง\nวันนี้ ตั้งแต่ 14:05 น.\nยังไม่พบสลิปยอดนี้ที่ผ่านการตรวจค่ะ\nถ้าลูกค้าบอกว่าโอนแล้ว ให้นำสลิปไปตรวจกับระบบตรวจสลิปของร้านก่อน แล้วกดปุ่ม “เช็คอีกครั้ง” ด้านล่างนะคะ",
    );
    expect(quickReplyLabels(messages[0])).toEqual(["เช็คอีกครั้ง"]);
    // The QR's instant rides in the postback's data; the chat never shows a UTC instant.
    expect(quickReplyTaps(messages)).toEqual([{ shows: "เช็คยอด 150", sends: askAgain }]);
  });

  it("names the day looked in when it is not today, and asks again about that day", () => {
    const range = {
      spec: { kind: "dates", from: { year: 2026, month: 11, day: 20 }, to: { year: 2026, month: 11, day: 20 } },
      fromDate: { year: 2026, month: 11, day: 20 },
      toDate: { year: 2026, month: 11, day: 20 },
    } as const;
    const messages = [...messagesOf(renderPaid({ lang: "th", timeZone: TZ, amountSatang: 15_000, range, found: [], askAgain: "เช็คยอด 150 20/11/2569" }))];
    expect(visibleText(messages)).toContain("ยอด 150 บาท เข้าหรือยัง\n20 พ.ย. 2569\n");
    expect(quickReplyTaps(messages)).toEqual([{ shows: "เช็คยอด 150 20/11/2569", sends: "เช็คยอด 150 20/11/2569" }]);
  });
});

describe("the forecast in renderBalance", () => {
  const account = {
    storeName: "ร้านกาแฟดีใจ",
    packageName: "Pro",
    tokens: 700,
    credits: 0,
    rate: { chat: 1, api: 1 },
    estimatedSlips: { chat: 700, api: 700 },
    expiresAt: "2027-01-31T16:59:59.000Z", // 70 days after 22 Nov
  };

  it("warns that the tokens run out first when the pace uses them before the package ends", () => {
    const text = visibleText([...messagesOf(renderBalance({ lang: "en", timeZone: TZ, now: NOW, account, usage: { tokensCharged: 140, days: 7 } }))]);
    expect(text).toContain("Last 7 days: 20 tokens a day on average");
    expect(text).toContain("At this pace, tokens last about 35 days (until 27 Dec 2026)");
    expect(text).toContain("⚠️ Tokens run out before the package expires.");
  });

  it("says the package ends first at a slow pace, and that there is no forecast without checks", () => {
    expect(visibleText([...messagesOf(renderBalance({ lang: "en", timeZone: TZ, now: NOW, account, usage: { tokensCharged: 7, days: 7 } }))])).toContain(
      "The package expires before the tokens run out.",
    );
    expect(visibleText([...messagesOf(renderBalance({ lang: "en", timeZone: TZ, now: NOW, account, usage: { tokensCharged: 0, days: 7 } }))])).toContain(
      "No checks in the last 7 days, so no forecast yet.",
    );
  });
});
