// Requests written back as command text: postback data for paging and checking a payment, and quick-reply texts.
import { compareCalendarDates, formatIsoDate } from "../time/calendar.js";
import type { HistoryRequest, Lang, PaidRequest, RangeSpec } from "./types.js";
import { commandWord } from "./registry.js";
import { STATUS_WORDS } from "./parse-history.js";

const WORDS = {
  en: { today: "today", yesterday: "yesterday", month: "month", lastmonth: "lastmonth", days: "d", ref: "ref", page: "page" },
  th: { today: "วันนี้", yesterday: "เมื่อวาน", month: "เดือนนี้", lastmonth: "เดือนที่แล้ว", days: "วัน", ref: "อ้างอิง", page: "หน้า" },
} as const;

function formatRange(range: RangeSpec, lang: Lang): string {
  const words = WORDS[lang];
  switch (range.kind) {
    case "today":
    case "yesterday":
    case "month":
    case "lastmonth":
      return words[range.kind];
    case "days":
      return `${range.days}${words.days}`;
    case "dates":
      return compareCalendarDates(range.from, range.to) === 0
        ? formatIsoDate(range.from)
        : `${formatIsoDate(range.from)}..${formatIsoDate(range.to)}`;
  }
}

/**
 * The command text that parses back to `request` (`history 2026-11-01..2026-11-15 fraud page 2`,
 * `ประวัติ อ้างอิง 0153... หน้า 2`). For paging pass the range as absolute dates (`toDatesRange`) so
 * the next page shows the same days; a relative range is written as its word (`yesterday`), which
 * is what a quick reply wants. Page 1 is left out. With what the parser accepts (a transRef of at
 * most 64 characters, page <= 9999) the text stays under 100 characters, far below LINE's 300 for
 * postback data.
 */
export function formatHistoryCommand(request: HistoryRequest, lang: Lang): string {
  const words = WORDS[lang];
  const parts: string[] = [commandWord("history", lang)];
  if (request.by === "ref") {
    parts.push(words.ref, request.transRef);
  } else {
    parts.push(formatRange(request.range, lang));
    if (request.status !== undefined) parts.push(STATUS_WORDS[request.status][lang][0] ?? request.status);
  }
  if (request.page !== 1) parts.push(words.page, String(request.page));
  return parts.join(" ");
}

/** `150` or `150.50`: an amount in satang as it is typed. */
export function formatAmount(satang: number): string {
  const whole = Math.floor(satang / 100);
  const cents = satang % 100;
  return cents === 0 ? String(whole) : `${whole}.${String(cents).padStart(2, "0")}`;
}

/** `paid 150 after 2026-11-24T07:05:00.000Z`: the QR card's "check payment" button. */
export function formatPaidCommand(request: PaidRequest, lang: Lang): string {
  const parts = [commandWord("paid", lang), formatAmount(request.amount)];
  if (request.after !== undefined) parts.push(lang === "th" ? "หลัง" : "after", request.after.toISOString());
  return parts.join(" ");
}
