// Requests written back as command text: postback data for paging and checking a payment, and quick-reply texts.
import { compareCalendarDates, formatIsoDate } from "../time/calendar.js";
import type { CalendarDate, HistoryRequest, Lang, PaidRequest, RangeSpec } from "./types.js";
import { commandWord } from "./registry.js";
import { STATUS_WORDS } from "./parse-history.js";

/** Thai dates count years in the Buddhist era. */
const BUDDHIST_ERA_OFFSET = 543;

const WORDS = {
  en: { today: "today", yesterday: "yesterday", week: "week", lastweek: "lastweek", month: "month", lastmonth: "lastmonth", days: "d", ref: "ref", page: "page", to: ".." },
  th: {
    today: "วันนี้",
    yesterday: "เมื่อวาน",
    week: "อาทิตย์นี้",
    lastweek: "อาทิตย์ที่แล้ว",
    month: "เดือนนี้",
    lastmonth: "เดือนที่แล้ว",
    days: "วัน",
    ref: "อ้างอิง",
    page: "หน้า",
    to: " ถึง ",
  },
} as const;

/** A date as a person types it: `1/11/2569` in Thai (the year in full, so it reads the same next year), `2026-11-01` in English. */
function formatTypedDate(date: CalendarDate, lang: Lang): string {
  return lang === "th" ? `${date.day}/${date.month}/${date.year + BUDDHIST_ERA_OFFSET}` : formatIsoDate(date);
}

/** A range as its command word (`เมื่อวาน`, `7วัน`) or its dates (`1/11/2569 ถึง 15/11/2569`). */
export function formatRange(range: RangeSpec, lang: Lang): string {
  const words = WORDS[lang];
  switch (range.kind) {
    case "today":
    case "yesterday":
    case "week":
    case "lastweek":
    case "month":
    case "lastmonth":
      return words[range.kind];
    case "days":
      return `${range.days}${words.days}`;
    case "dates":
      return compareCalendarDates(range.from, range.to) === 0
        ? formatTypedDate(range.from, lang)
        : `${formatTypedDate(range.from, lang)}${words.to}${formatTypedDate(range.to, lang)}`;
  }
}

/**
 * The command text that parses back to `request` (`history 2026-11-01..2026-11-15 fraud page 2`,
 * `ประวัติ 1/11/2569 ถึง 15/11/2569 ปลอม หน้า 2`, `ประวัติ อ้างอิง 0153... หน้า 2`): what a person could
 * type, so a button may show it as typed. For paging pass the range as absolute dates (`toDatesRange`) so
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

/** `paid 150 after 2026-11-24T07:05:00.000Z` (the QR card's "check payment" button), `เช็คยอด 150 เมื่อวาน`. */
export function formatPaidCommand(request: PaidRequest, lang: Lang): string {
  const parts = [commandWord("paid", lang), formatAmount(request.amount)];
  if (request.range !== undefined && request.range.kind !== "today") parts.push(formatRange(request.range, lang));
  if (request.after !== undefined) parts.push(lang === "th" ? "หลัง" : "after", request.after.toISOString());
  return parts.join(" ");
}
