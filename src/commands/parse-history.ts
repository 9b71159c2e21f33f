// Arguments of `history`: a range, a status and a page in any order, or a transRef.
import { addCalendarDays, calendarDaysBetween, compareCalendarDates, daysInMonth } from "../time/calendar.js";
import type { SlipStatus } from "../slip/types.js";
import type { CalendarDate, HistoryRequest, RangeSpec, SummaryRequest, UsageProblem } from "./types.js";
import { hasThai, type Token } from "./normalize.js";
import { isValidCalendarDate } from "./range.js";

/** `Nd` goes back at most a year (a leap year's 366 days): longer asks the service for more than a chat can show. */
export const MAX_DAYS = 366;
/** 9,999 pages of 10 rows is far past any shop's history; a bigger number is a typo. */
export const MAX_PAGE = 9999;
/** Transfer references are bank codes of letters and digits; 64 keeps postback data within LINE's 300 characters. */
export const MAX_TRANS_REF_LENGTH = 64;
const TRANS_REF = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_TRANS_REF_LENGTH}}$`, "u");

/** Whether text can follow `ref` in a command (so a button may write it). */
export function isTransRef(text: string): boolean {
  return TRANS_REF.test(text);
}

/** Status words; the first English and the first Thai word are the ones the bot writes. */
export const STATUS_WORDS: Readonly<Record<SlipStatus, { en: readonly string[]; th: readonly string[] }>> = {
  valid: { en: ["valid", "ok"], th: ["ผ่าน"] },
  invalid: { en: ["invalid"], th: ["ไม่ผ่าน"] },
  fraud: { en: ["fraud"], th: ["ปลอม"] },
  duplicate: { en: ["duplicate", "dup"], th: ["ซ้ำ"] },
  not_found: { en: ["not_found", "notfound", "not-found"], th: ["ไม่พบ"] },
  error: { en: ["error"], th: ["ผิดพลาด"] },
};

type WordRange = Exclude<RangeSpec, { kind: "dates" }>;

/** Range words; `7d`, `7วัน` and `N days` are read apart. */
export const RANGE_WORDS: ReadonlyMap<string, WordRange> = new Map<string, WordRange>([
  ["today", { kind: "today" }],
  ["วันนี้", { kind: "today" }],
  ["yesterday", { kind: "yesterday" }],
  ["เมื่อวาน", { kind: "yesterday" }],
  ["เมื่อวานนี้", { kind: "yesterday" }],
  // A Thai owner's อาทิตย์นี้ is the calendar week since Monday, as เดือนนี้ is the month since the 1st;
  // the last 7 days are `7วัน`.
  ["week", { kind: "week" }],
  ["thisweek", { kind: "week" }],
  ["อาทิตย์นี้", { kind: "week" }],
  ["สัปดาห์นี้", { kind: "week" }],
  ["lastweek", { kind: "lastweek" }],
  ["last-week", { kind: "lastweek" }],
  ["last_week", { kind: "lastweek" }],
  ["อาทิตย์ที่แล้ว", { kind: "lastweek" }],
  ["สัปดาห์ที่แล้ว", { kind: "lastweek" }],
  ["อาทิตย์ก่อน", { kind: "lastweek" }],
  ["สัปดาห์ก่อน", { kind: "lastweek" }],
  ["month", { kind: "month" }],
  ["thismonth", { kind: "month" }],
  ["เดือนนี้", { kind: "month" }],
  ["lastmonth", { kind: "lastmonth" }],
  ["last-month", { kind: "lastmonth" }],
  ["last_month", { kind: "lastmonth" }],
  ["เดือนที่แล้ว", { kind: "lastmonth" }],
  ["เดือนก่อน", { kind: "lastmonth" }],
]);

/** Days counted back from today, read as that one date: `เมื่อวานซืน` is the day before yesterday. */
export const DAYS_AGO: ReadonlyMap<string, number> = new Map([["เมื่อวานซืน", 2]]);

/** Month names as Thai writes and says them (`พ.ย.`, `พฤศจิกายน`, `พฤศจิกา`), and English ones. */
const MONTH_NAMES: readonly (readonly string[])[] = [
  ["ม.ค.", "มกราคม", "มกรา", "jan", "january"],
  ["ก.พ.", "กุมภาพันธ์", "กุมภา", "feb", "february"],
  ["มี.ค.", "มีนาคม", "มีนา", "mar", "march"],
  ["เม.ย.", "เมษายน", "เมษา", "apr", "april"],
  ["พ.ค.", "พฤษภาคม", "พฤษภา", "may"],
  ["มิ.ย.", "มิถุนายน", "มิถุนา", "jun", "june"],
  ["ก.ค.", "กรกฎาคม", "กรกฎา", "jul", "july"],
  ["ส.ค.", "สิงหาคม", "สิงหา", "aug", "august"],
  ["ก.ย.", "กันยายน", "กันยา", "sep", "sept", "september"],
  ["ต.ค.", "ตุลาคม", "ตุลา", "oct", "october"],
  ["พ.ย.", "พฤศจิกายน", "พฤศจิกา", "nov", "november"],
  ["ธ.ค.", "ธันวาคม", "ธันวา", "dec", "december"],
];
export const MONTH_BY_NAME: ReadonlyMap<string, number> = new Map(MONTH_NAMES.flatMap((names, i) => names.map((name) => [name, i + 1] as const)));
/** `เดือน` may come before a month's name: `ยอดเดือนตุลา`. */
const MONTH_WORD = "เดือน";

/** Two-word forms: `last month`, `this month`, `last week`, `this week`, `not found`. */
const PAIRS: ReadonlyMap<string, string> = new Map([
  ["last month", "lastmonth"],
  ["this month", "thismonth"],
  ["last week", "lastweek"],
  ["this week", "thisweek"],
  ["not found", "not_found"],
]);

export const REF_WORDS = new Set(["ref", "อ้างอิง", "เลขอ้างอิง"]);
export const PAGE_WORDS = new Set(["page", "p", "หน้า"]);
export const DAY_UNITS = new Set(["d", "day", "days", "วัน"]);
export const RANGE_SEPARATORS = new Set(["..", "to", "ถึง", "-", "\u2013", "\u2014", "~"]);

export const STATUS_BY_WORD: ReadonlyMap<string, SlipStatus> = new Map(
  (Object.entries(STATUS_WORDS) as [SlipStatus, { en: readonly string[]; th: readonly string[] }][]).flatMap(([status, words]) =>
    [...words.en, ...words.th].map((word) => [word, status] as const),
  ),
);

/** Thai words the tokenizer must cut out of glued text (`เมื่อวานซ้ำ`, `หน้า2`, `7วัน`, `1/11ถึง5/11`, `เดือนตุลา`). */
export const HISTORY_THAI_KEYWORDS: readonly string[] = [
  ...RANGE_WORDS.keys(),
  ...DAYS_AGO.keys(),
  ...MONTH_BY_NAME.keys(),
  MONTH_WORD,
  ...STATUS_BY_WORD.keys(),
  ...REF_WORDS,
  ...PAGE_WORDS,
  ...DAY_UNITS,
  ...RANGE_SEPARATORS,
].filter(hasThai);

const ISO_DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/u;
const DAY_MONTH_YEAR = /^(\d{1,2})[-/](\d{1,2})(?:[-/](\d{4}|\d{2}))?$/u;
/** Anything shaped like a date, so a wrong one is called a bad date rather than an unknown word. */
const DATE_LIKE = /^\d{1,4}[-/.]\d{1,2}(?:[-/.]\d{1,4})?$/u;
/** A year after a month's name: `ต.ค. 2569`, `ต.ค. 69`, `Oct 2026`. */
const YEAR = /^(?:\d{2}|\d{4})$/u;
/** Two dates joined by a dash with no spaces: `1/11-15/11`, `1/11/69-15/11/69`. */
const GLUED_DATES = /^(\d{1,2}\/\d{1,2}(?:\/(?:\d{4}|\d{2}))?)[-\u2013](\d{1,2}\/\d{1,2}(?:\/(?:\d{4}|\d{2}))?)$/u;
/** Days of one month joined by a dash: `1-15/11`, `1-15/11/2569`. */
const GLUED_DAYS = /^(\d{1,2})[-\u2013](\d{1,2})(\/\d{1,2}(?:\/(?:\d{4}|\d{2}))?)$/u;
const DAYS_GLUED = /^(\d+)(?:d|days?)$/u;
const PAGE_GLUED = /^(?:page|p)(\d+)$/u;
const NUMBER = /^\d+$/u;

/**
 * A year as typed, in the Christian era. 2400 or more is Buddhist era (2569 BE = 2026 CE): no slip is that
 * far in the future. Two digits are how Thai dates shorten the Buddhist year (`69` is 2569), read so from
 * 43 up (2543 BE = 2000 CE, the first year a slip can have); below that they are Christian (`26` is 2026).
 */
export function gregorianYear(year: string): number {
  const value = Number(year);
  if (year.length === 2) return value >= 43 ? 2500 + value - 543 : 2000 + value;
  return value >= 2400 ? value - 543 : value;
}

/**
 * `unreadable`: shaped like a date but in no form we read; `no_such_date`: read, but the calendar has no
 * such day. `yearGiven`: the year was typed (else it is this year).
 */
type DateRead = { ok: true; date: CalendarDate; yearGiven: boolean } | { ok: false; why: "unreadable" | "no_such_date" } | undefined;

/** A date token: `2026-11-20`, `20/11/2026`, `20/11/2569`, `20/11/69`, `20/11` (this year). Undefined when it is no date at all. */
function readDate(text: string, thisYear: number): DateRead {
  const iso = ISO_DATE.exec(text);
  const dmy = iso === null ? DAY_MONTH_YEAR.exec(text) : null;
  let date: CalendarDate | undefined;
  if (iso !== null) {
    date = { year: gregorianYear(iso[1] ?? ""), month: Number(iso[2]), day: Number(iso[3]) };
  } else if (dmy !== null) {
    const year = dmy[3] === undefined ? thisYear : gregorianYear(dmy[3]);
    date = { year, month: Number(dmy[2]), day: Number(dmy[1]) };
  } else if (!DATE_LIKE.test(text)) {
    return undefined;
  }
  if (date === undefined) return { ok: false, why: "unreadable" };
  if (isValidCalendarDate(date)) return { ok: true, date, yearGiven: iso !== null || dmy?.[3] !== undefined };
  // A year outside the slips' years is more likely a misreading than a day the calendar lacks.
  return isValidCalendarDate({ ...date, month: 1, day: 1 }) ? { ok: false, why: "no_such_date" } : { ok: false, why: "unreadable" };
}

function dateProblem(why: "unreadable" | "no_such_date", input: string): UsageProblem {
  return { code: why === "unreadable" ? "bad_date" : "no_such_date", input };
}

/**
 * Two dates in the order meant. Typed the wrong way round they are turned round (`15/11 ถึง 1/11`), unless a
 * date typed without its year moving a year makes a shorter range: `28/12 ถึง 3/1` in January runs from last
 * December, not across this whole year.
 */
function ordered(from: Extract<DateRead, { ok: true }>, to: Extract<DateRead, { ok: true }>): { from: CalendarDate; to: CalendarDate } {
  if (compareCalendarDates(from.date, to.date) <= 0) return { from: from.date, to: to.date };
  const candidates = [{ from: to.date, to: from.date }];
  if (!from.yearGiven) candidates.push({ from: { ...from.date, year: from.date.year - 1 }, to: to.date });
  if (!to.yearGiven) candidates.push({ from: from.date, to: { ...to.date, year: to.date.year + 1 } });
  const real = candidates.filter((c) => isValidCalendarDate(c.from) && isValidCalendarDate(c.to) && compareCalendarDates(c.from, c.to) <= 0);
  return real.reduce((best, c) => (calendarDaysBetween(c.from, c.to) < calendarDaysBetween(best.from, best.to) ? c : best));
}

/** The last month of that name that has begun (this year's, or last year's when it is still to come), up to today. */
function monthRange(month: number, year: number | undefined, today: CalendarDate): { from: CalendarDate; to: CalendarDate } {
  const y = year ?? (month <= today.month ? today.year : today.year - 1);
  const last = { year: y, month, day: daysInMonth(y, month) };
  const to = y === today.year && month === today.month ? today : last;
  return { from: { year: y, month, day: 1 }, to };
}

/** `1/11-15/11` and `1-15/11` as the three tokens `1/11 - 15/11` the range reader knows. */
function splitGluedRanges(tokens: readonly Token[]): Token[] {
  const dash: Token = { raw: "-", lower: "-" };
  const date = (raw: string): Token => ({ raw, lower: raw.toLowerCase() });
  return tokens.flatMap((token) => {
    const dates = GLUED_DATES.exec(token.raw);
    if (dates !== null) return [date(dates[1] ?? ""), dash, date(dates[2] ?? "")];
    const days = GLUED_DAYS.exec(token.raw);
    if (days !== null) return [date(`${days[1] ?? ""}${days[3] ?? ""}`), dash, date(`${days[2] ?? ""}${days[3] ?? ""}`)];
    return [token];
  });
}

export type HistoryArgs = { ok: true; request: HistoryRequest } | { ok: false; problem: UsageProblem };

function fail(problem: UsageProblem): HistoryArgs {
  return { ok: false, problem };
}

function readPage(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined;
  const page = Number(text);
  return page >= 1 && page <= MAX_PAGE ? page : undefined;
}

/** A day count: 1..MAX_DAYS, "too_long" above, undefined for 0 or no number. */
function readDays(text: string): number | "too_long" | undefined {
  if (!NUMBER.test(text)) return undefined;
  const days = Number(text);
  if (days > MAX_DAYS) return "too_long";
  return days >= 1 ? days : undefined;
}

type RangeRead = { ok: true; spec: RangeSpec; text: string; length: number } | { ok: false; problem: UsageProblem } | undefined;

/**
 * A range starting at `tokens[i]` (`word` is its lower-cased text, or a pair's): a word, a day count, a
 * month's name, or one date or two joined by a separator. Undefined when no range starts there.
 */
function readRange(tokens: readonly Token[], i: number, word: string, used: number, today: CalendarDate): RangeRead {
  const token = tokens[i];
  if (token === undefined) return undefined;
  const next = tokens[i + 1];
  const text = used === 1 ? token.raw : `${token.raw} ${next?.raw ?? ""}`;
  const wordRange = RANGE_WORDS.get(word);
  if (wordRange !== undefined) return { ok: true, spec: { ...wordRange }, text, length: used }; // a copy: callers own what they get

  const daysAgo = DAYS_AGO.get(word);
  if (daysAgo !== undefined) {
    const day = addCalendarDays(today, -daysAgo);
    return { ok: true, spec: { kind: "dates", from: day, to: day }, text, length: 1 };
  }

  // `เดือน ตุลา`, `ตุลา`, `ต.ค. 2569`.
  const named = word === MONTH_WORD && next !== undefined && MONTH_BY_NAME.has(next.lower) ? 1 : 0;
  const month = MONTH_BY_NAME.get(tokens[i + named]?.lower ?? "");
  if (month !== undefined) {
    const yearToken = tokens[i + named + 1];
    const year = yearToken !== undefined && YEAR.test(yearToken.raw) ? gregorianYear(yearToken.raw) : undefined;
    if (year !== undefined && !isValidCalendarDate({ year, month, day: 1 }))
      return { ok: false, problem: { code: "bad_date", input: `${tokens[i + named]?.raw ?? ""} ${yearToken?.raw ?? ""}` } };
    const length = named + 1 + (year === undefined ? 0 : 1);
    const days = monthRange(month, year, today);
    return {
      ok: true,
      spec: { kind: "dates", ...days },
      text: tokens
        .slice(i, i + length)
        .map((t) => t.raw)
        .join(" "),
      length,
    };
  }

  const gluedDays = DAYS_GLUED.exec(word);
  if (gluedDays !== null || (NUMBER.test(word) && next !== undefined && DAY_UNITS.has(next.lower))) {
    const count = gluedDays?.[1] ?? word;
    let specText = text;
    let length = used;
    if (gluedDays === null) {
      // `7วัน` is written together in Thai, `30 days` apart in English.
      const unit = next?.raw ?? "";
      specText = hasThai(unit) ? `${token.raw}${unit}` : `${token.raw} ${unit}`;
      length = 2;
    }
    const days = readDays(count);
    if (days === "too_long") return { ok: false, problem: { code: "range_too_long", input: specText, maxDays: MAX_DAYS } };
    if (days === undefined) return { ok: false, problem: { code: "unexpected", input: specText } };
    return { ok: true, spec: { kind: "days", days }, text: specText, length };
  }

  const from = readDate(token.raw, today.year);
  if (from === undefined) return undefined;
  if (!from.ok) return { ok: false, problem: dateProblem(from.why, token.raw) };
  const separator = next !== undefined && RANGE_SEPARATORS.has(next.lower) ? next : undefined;
  if (separator === undefined) return { ok: true, spec: { kind: "dates", from: from.date, to: from.date }, text, length: 1 };
  const end = tokens[i + 2];
  const joiner = separator.raw === ".." ? ".." : ` ${separator.raw} `;
  const specText = `${token.raw}${joiner}${end?.raw ?? ""}`;
  const to = end === undefined ? undefined : readDate(end.raw, today.year);
  if (to === undefined) return { ok: false, problem: { code: "bad_date", input: specText.trim() } };
  if (!to.ok) return { ok: false, problem: dateProblem(to.why, end?.raw ?? "") };
  return { ok: true, spec: { kind: "dates", ...ordered(from, to) }, text: specText, length: 3 };
}

/**
 * Reads the words after `history`. `today` is the date in the business zone, for `20/11` (this year),
 * `เมื่อวานซืน` and a month's name. An argument given twice (two ranges, two statuses) is unexpected
 * rather than silently overridden.
 */
export function parseHistoryArgs(typed: readonly Token[], today: CalendarDate): HistoryArgs {
  const tokens = splitGluedRanges(typed);
  let range: { spec: RangeSpec; text: string } | undefined;
  let status: { value: SlipStatus; text: string } | undefined;
  let page: number | undefined;
  let ref: { value: string; text: string } | undefined;

  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i];
    if (token === undefined) break;
    const next = tokens[i + 1];
    const pair = next === undefined ? undefined : PAIRS.get(`${token.lower} ${next.lower}`);
    const word = pair ?? token.lower;
    const used = pair === undefined ? 1 : 2;
    const text = pair === undefined ? token.raw : `${token.raw} ${next?.raw ?? ""}`;

    if (REF_WORDS.has(word)) {
      if (ref !== undefined) return fail({ code: "unexpected", input: token.raw });
      // `ref page 2` forgot the ref; `ref p` is the (odd but valid) transRef "p".
      const pageFollows = next !== undefined && PAGE_WORDS.has(next.lower) && NUMBER.test(tokens[i + 2]?.raw ?? "");
      if (next === undefined || pageFollows) return fail({ code: "missing_ref" });
      if (!isTransRef(next.raw)) return fail({ code: "unexpected", input: next.raw });
      ref = { value: next.raw, text: `${token.raw} ${next.raw}` };
      i += 2;
      continue;
    }

    const gluedPage = PAGE_GLUED.exec(word);
    if (PAGE_WORDS.has(word) || gluedPage !== null) {
      if (page !== undefined) return fail({ code: "unexpected", input: token.raw });
      const numberText = gluedPage?.[1] ?? next?.raw;
      if (numberText === undefined) return fail({ code: "bad_page", input: token.raw });
      const value = readPage(numberText);
      if (value === undefined) return fail({ code: "bad_page", input: numberText });
      page = value;
      i += gluedPage === null ? 2 : 1;
      continue;
    }

    const statusValue = STATUS_BY_WORD.get(word);
    if (statusValue !== undefined) {
      if (status !== undefined) return fail({ code: "unexpected", input: text });
      status = { value: statusValue, text };
      i += used;
      continue;
    }

    const read = readRange(tokens, i, word, used, today);
    if (read === undefined) return fail({ code: "unexpected", input: text });
    if (!read.ok) return fail(read.problem);
    if (range !== undefined) return fail({ code: "unexpected", input: read.text });
    range = { spec: read.spec, text: read.text };
    i += read.length;
  }

  if (ref !== undefined) {
    const extra = range?.text ?? status?.text;
    if (extra !== undefined) return fail({ code: "unexpected", input: extra });
    return { ok: true, request: { by: "ref", transRef: ref.value, page: page ?? 1 } };
  }
  const request: HistoryRequest = { by: "range", range: range?.spec ?? { kind: "today" }, page: page ?? 1 };
  if (status !== undefined) request.status = status.value;
  return { ok: true, request };
}

/**
 * A range alone, as the payment check takes one after its amount (`เช็คยอด 150 เมื่อวาน`): the words
 * must make exactly one range, nothing else.
 */
export function parseRangeArgs(tokens: readonly Token[], today: CalendarDate): { ok: true; range: RangeSpec } | { ok: false; problem: UsageProblem } {
  const read = parseHistoryArgs(tokens, today);
  if (!read.ok) return read;
  const { request } = read;
  if (request.by === "ref" || request.status !== undefined || request.page !== 1) {
    return { ok: false, problem: { code: "unexpected", input: tokens.map((t) => t.raw).join(" ") } };
  }
  return { ok: true, range: request.range };
}

/** `A..B`, `A ..B` and `A.. B` all become three tokens. */
export function spaceRanges(args: string): string {
  return args.replace(/ ?\.\. ?/gu, " .. ");
}

/**
 * Reads the words after `summary` or `export`: a range and a status, as `history` reads them, but no pages
 * and no reference (those words belong to `history`).
 */
export function parseSummaryArgs(tokens: readonly Token[], today: CalendarDate): { ok: true; request: SummaryRequest } | { ok: false; problem: UsageProblem } {
  const result = parseHistoryArgs(tokens, today);
  if (!result.ok) return result;
  if (result.request.by === "ref") return { ok: false, problem: { code: "unexpected", input: "ref" } };
  if (result.request.page !== 1) return { ok: false, problem: { code: "unexpected", input: `page ${result.request.page}` } };
  const request: SummaryRequest = { range: result.request.range };
  if (result.request.status !== undefined) request.status = result.request.status;
  return { ok: true, request };
}
