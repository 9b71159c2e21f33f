// Arguments of `history`: a range, a status and a page in any order, or a transRef.
import { compareCalendarDates } from "../time/calendar.js";
import type { SlipStatus } from "../slip/types.js";
import type { CalendarDate, HistoryRequest, RangeSpec, UsageProblem } from "./types.js";
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
const RANGE_WORDS: ReadonlyMap<string, WordRange> = new Map<string, WordRange>([
  ["today", { kind: "today" }],
  ["วันนี้", { kind: "today" }],
  ["yesterday", { kind: "yesterday" }],
  ["เมื่อวาน", { kind: "yesterday" }],
  ["เมื่อวานนี้", { kind: "yesterday" }],
  ["week", { kind: "days", days: 7 }],
  // Like `week`: the last 7 days, which the card shows with their dates.
  ["อาทิตย์นี้", { kind: "days", days: 7 }],
  ["สัปดาห์นี้", { kind: "days", days: 7 }],
  ["month", { kind: "month" }],
  ["thismonth", { kind: "month" }],
  ["เดือนนี้", { kind: "month" }],
  ["lastmonth", { kind: "lastmonth" }],
  ["last-month", { kind: "lastmonth" }],
  ["last_month", { kind: "lastmonth" }],
  ["เดือนที่แล้ว", { kind: "lastmonth" }],
  ["เดือนก่อน", { kind: "lastmonth" }],
]);

/** Two-word forms: `last month`, `this month`, `not found`. */
const PAIRS: ReadonlyMap<string, string> = new Map([
  ["last month", "lastmonth"],
  ["this month", "thismonth"],
  ["not found", "not_found"],
]);

const REF_WORDS = new Set(["ref", "อ้างอิง", "เลขอ้างอิง"]);
const PAGE_WORDS = new Set(["page", "p", "หน้า"]);
const DAY_UNITS = new Set(["d", "day", "days", "วัน"]);
const RANGE_SEPARATORS = new Set(["..", "to", "ถึง", "-", "\u2013", "\u2014", "~"]);

const STATUS_BY_WORD: ReadonlyMap<string, SlipStatus> = new Map(
  (Object.entries(STATUS_WORDS) as [SlipStatus, { en: readonly string[]; th: readonly string[] }][]).flatMap(
    ([status, words]) => [...words.en, ...words.th].map((word) => [word, status] as const),
  ),
);

/** Thai words the tokenizer must cut out of glued text (`เมื่อวานซ้ำ`, `หน้า2`, `7วัน`, `1/11ถึง5/11`). */
export const HISTORY_THAI_KEYWORDS: readonly string[] = [
  ...RANGE_WORDS.keys(),
  ...STATUS_BY_WORD.keys(),
  ...REF_WORDS,
  ...PAGE_WORDS,
  ...DAY_UNITS,
  ...RANGE_SEPARATORS,
].filter(hasThai);

const ISO_DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/u;
const DAY_MONTH_YEAR = /^(\d{1,2})[-/](\d{1,2})(?:[-/](\d{4}))?$/u;
/** Anything shaped like a date, so a wrong one is called a bad date rather than an unknown word. */
const DATE_LIKE = /^\d{1,4}[-/.]\d{1,2}(?:[-/.]\d{1,4})?$/u;
const DAYS_GLUED = /^(\d+)(?:d|days?)$/u;
const PAGE_GLUED = /^(?:page|p)(\d+)$/u;
const NUMBER = /^\d+$/u;

/** A year of 2400 or more is Buddhist era (2569 BE = 2026 CE): no slip is that far in the future. */
function gregorianYear(year: number): number {
  return year >= 2400 ? year - 543 : year;
}

/** `unreadable`: shaped like a date but in no form we read; `no_such_date`: read, but the calendar has no such day. */
type DateRead = { ok: true; date: CalendarDate } | { ok: false; why: "unreadable" | "no_such_date" } | undefined;

/** A date token: `2026-11-20`, `20/11/2026`, `20/11/2569`, `20/11` (this year). Undefined when it is no date at all. */
function readDate(text: string, thisYear: number): DateRead {
  const iso = ISO_DATE.exec(text);
  const dmy = iso === null ? DAY_MONTH_YEAR.exec(text) : null;
  let date: CalendarDate | undefined;
  if (iso !== null) {
    date = { year: gregorianYear(Number(iso[1])), month: Number(iso[2]), day: Number(iso[3]) };
  } else if (dmy !== null) {
    const year = dmy[3] === undefined ? thisYear : gregorianYear(Number(dmy[3]));
    date = { year, month: Number(dmy[2]), day: Number(dmy[1]) };
  } else if (!DATE_LIKE.test(text)) {
    return undefined;
  }
  if (date === undefined) return { ok: false, why: "unreadable" };
  if (isValidCalendarDate(date)) return { ok: true, date };
  // A year outside the slips' years is more likely a misreading than a day the calendar lacks.
  return isValidCalendarDate({ ...date, month: 1, day: 1 }) ? { ok: false, why: "no_such_date" } : { ok: false, why: "unreadable" };
}

function dateProblem(why: "unreadable" | "no_such_date", input: string): UsageProblem {
  return { code: why === "unreadable" ? "bad_date" : "no_such_date", input };
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

/**
 * Reads the words after `history`. `thisYear` is the current year in the business zone, for `20/11`.
 * An argument given twice (two ranges, two statuses) is unexpected rather than silently overridden.
 */
export function parseHistoryArgs(tokens: readonly Token[], thisYear: number): HistoryArgs {
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

    // A range: a word, a day count, or one date or two joined by a separator.
    let spec: RangeSpec | undefined;
    let specText = text;
    let specLength = used;
    const wordRange = RANGE_WORDS.get(word);
    const gluedDays = DAYS_GLUED.exec(word);
    if (wordRange !== undefined) {
      spec = { ...wordRange }; // a copy: callers own what they get
    } else if (gluedDays !== null || (NUMBER.test(word) && next !== undefined && DAY_UNITS.has(next.lower))) {
      const count = gluedDays?.[1] ?? word;
      if (gluedDays === null) {
        // `7วัน` is written together in Thai, `30 days` apart in English.
        const unit = next?.raw ?? "";
        specText = hasThai(unit) ? `${token.raw}${unit}` : `${token.raw} ${unit}`;
        specLength = 2;
      }
      const days = readDays(count);
      if (days === "too_long") return fail({ code: "range_too_long", input: specText, maxDays: MAX_DAYS });
      if (days === undefined) return fail({ code: "unexpected", input: specText });
      spec = { kind: "days", days };
    } else {
      const from = readDate(token.raw, thisYear);
      if (from !== undefined) {
        if (!from.ok) return fail(dateProblem(from.why, token.raw));
        spec = { kind: "dates", from: from.date, to: from.date };
        const separator = next !== undefined && RANGE_SEPARATORS.has(next.lower) ? next : undefined;
        if (separator !== undefined) {
          const end = tokens[i + 2];
          const joiner = separator.raw === ".." ? ".." : ` ${separator.raw} `;
          specText = `${token.raw}${joiner}${end?.raw ?? ""}`;
          const to = end === undefined ? undefined : readDate(end.raw, thisYear);
          if (to === undefined) return fail({ code: "bad_date", input: specText.trim() });
          if (!to.ok) return fail(dateProblem(to.why, end?.raw ?? ""));
          if (compareCalendarDates(from.date, to.date) > 0) return fail({ code: "bad_range", input: specText });
          spec = { kind: "dates", from: from.date, to: to.date };
          specLength = 3;
        }
      }
    }
    if (spec === undefined) return fail({ code: "unexpected", input: text });
    if (range !== undefined) return fail({ code: "unexpected", input: specText });
    range = { spec, text: specText };
    i += specLength;
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
