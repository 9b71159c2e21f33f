// How money, tokens, dates and times read in a reply: baht with satang, the business time zone, Thai Buddhist-era dates
// (docs/thai.md, section 4).
import type { Lang } from "../commands/types.js";
import { zonedParts } from "../time/calendar.js";
import type { CalendarDate } from "../time/calendar.js";

const MONTHS: Record<Lang, readonly string[]> = {
  th: ["ม.ค.", "ก.พ.", "มี.ค.", "เม.ย.", "พ.ค.", "มิ.ย.", "ก.ค.", "ส.ค.", "ก.ย.", "ต.ค.", "พ.ย.", "ธ.ค."],
  en: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
};

/** Thai dates count years in the Buddhist era. */
const BUDDHIST_ERA_OFFSET = 543;

const grouped = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/**
 * Baht to whole satang. Going through 15 significant digits first undoes binary noise
 * (1.005 * 100 is 100.49999999999999), so half a satang rounds up as a person would expect.
 */
export function toSatang(baht: number): number {
  const hundredths = baht * 100;
  // Whole already (most amounts): 15 significant digits would change nothing below 10^15.
  // (`+ 0` turns -0 into 0, as the string round trip did.)
  if (Number.isInteger(hundredths) && Math.abs(hundredths) < 1e15) return hundredths + 0;
  return Math.round(Number(hundredths.toPrecision(15)));
}

/** `฿1,500.00` from a baht number; rounded to whole satang first so 0.1 + 0.2 never shows as ฿0.30000001. */
export function formatMoney(baht: number): string {
  const satang = toSatang(baht);
  const sign = satang < 0 ? "-" : "";
  return `${sign}฿${grouped.format(Math.abs(satang) / 100)}`;
}

/**
 * Money as a sentence says it: `150 บาท`, `1,500.50 บาท` in Thai (satang only when there are some), and
 * in English as a card shows it (`฿150.00`). Cards' figures and table columns use formatMoney.
 */
export function formatBaht(baht: number, lang: Lang): string {
  if (lang === "en") return formatMoney(baht);
  const satang = toSatang(baht);
  const sign = satang < 0 ? "-" : "";
  const abs = Math.abs(satang);
  return `${sign}${abs % 100 === 0 ? integer.format(abs / 100) : grouped.format(abs / 100)} บาท`;
}

/** Tokens, grouped; whole ones without `.00` (`1,234`), others with two decimals (`1,234.50`). */
export function formatTokens(tokens: number): string {
  const hundredths = toSatang(tokens);
  return hundredths % 100 === 0 ? integer.format(hundredths / 100) : grouped.format(hundredths / 100);
}

/** A count with thousands separators. */
export function formatCount(count: number): string {
  return integer.format(count);
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

/** `22 พ.ย. 2569` or `22 Nov 2026`. */
export function formatCalendarDate(date: CalendarDate, lang: Lang): string {
  const year = lang === "th" ? date.year + BUDDHIST_ERA_OFFSET : date.year;
  return `${date.day} ${MONTHS[lang][date.month - 1] ?? "?"} ${year}`;
}

/** `22 พ.ย.` or `22 Nov`: a date without its year, for rows inside a range. */
export function formatDayMonth(date: CalendarDate, lang: Lang): string {
  return `${date.day} ${MONTHS[lang][date.month - 1] ?? "?"}`;
}

/**
 * Days from `from` to `to`, the month and year written once where they are shared: `22 พ.ย. 2569`,
 * `1–30 พ.ย. 2569`, `28 ต.ค. – 3 พ.ย. 2569`, `28 ธ.ค. 2569 – 3 ม.ค. 2570` (and the same in English).
 */
export function formatDateRange(from: CalendarDate, to: CalendarDate, lang: Lang): string {
  if (from.year !== to.year) return `${formatCalendarDate(from, lang)} – ${formatCalendarDate(to, lang)}`;
  if (from.month !== to.month) return `${formatDayMonth(from, lang)} – ${formatCalendarDate(to, lang)}`;
  if (from.day !== to.day) return `${from.day}–${formatCalendarDate(to, lang)}`;
  return formatCalendarDate(from, lang);
}

/** `14:05` in the business zone: a table column's time. Sentences add the Thai `น.` in the texts table. */
export function formatTime(instant: Date, timeZone: string): string {
  const p = zonedParts(instant, timeZone);
  return `${pad2(p.hour)}:${pad2(p.minute)}`;
}

/** An ISO string from the service as a Date, or undefined when it is missing or unreadable. */
export function parseInstant(value: string | null | undefined): Date | undefined {
  if (value === null || value === undefined) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
