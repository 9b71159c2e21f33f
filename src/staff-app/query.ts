// The staff app's query parameters, read and checked: anything it does not take is a 400 that names the
// parameter and says what it takes.
import { isValidCalendarDate } from "../commands/range.js";
import { isSlipStatus, SLIP_STATUSES } from "../slip/types.js";
import type { SlipStatus } from "../slip/types.js";
import { calendarDaysBetween, compareCalendarDates, dayOf, endOfDay, formatIsoDate, startOfDay } from "../time/calendar.js";
import type { CalendarDate } from "../time/calendar.js";
import type { CsvFormat } from "./csv.js";

/** Days `from` and `to` may be apart at most (a leap year from its first day to its last). */
export const MAX_RANGE_DAYS_APART = 366;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const MAX_Q_LENGTH = 100;
/** Pages beyond this are nonsense for a shop (100 checks a page). */
const MAX_PAGE = 1_000_000;

export interface DayRange {
  fromDate: CalendarDate;
  toDate: CalendarDate;
  /** The first and last instant of the days in the shop's zone. */
  from: Date;
  to: Date;
}

export interface ChecksQuery extends DayRange {
  status: SlipStatus | undefined;
  source: string | undefined;
  /** A reference, or part of a payer's or receiver's name; undefined when empty. */
  q: string | undefined;
  page: number;
  limit: number;
  /** An export's columns: the shop's words then the raw fields, or (`format=raw`) the raw fields alone. */
  format: CsvFormat;
}

/** Why a parameter was refused, as a stable code the page turns into the shop's language. */
export type QueryProblem =
  "unknown_parameter" | "repeated" | "bad_day" | "reversed" | "range_too_long" | "bad_status" | "bad_source" | "q_too_long" | "bad_page" | "bad_limit" | "bad_format";

export type Read<T> = { ok: true; value: T } | { ok: false; parameter: string; problem: QueryProblem; message: string };

/** Which parameters each answer takes. */
export const PARAMETERS = {
  history: ["from", "to", "status", "source", "q", "page", "limit"],
  summary: ["from", "to", "status"],
  export: ["from", "to", "status", "source", "q", "format"],
  "export-link": ["from", "to", "status", "source", "q", "format"],
} as const;

const bad = (parameter: string, problem: QueryProblem, message: string): { ok: false; parameter: string; problem: QueryProblem; message: string } => ({
  ok: false,
  parameter,
  problem,
  message,
});

function readDay(text: string): CalendarDate | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return undefined;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  return isValidCalendarDate(date) ? date : undefined;
}

function readWhole(text: string, min: number, max: number): number | undefined {
  if (!/^\d{1,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

/**
 * Reads a request's query. `from` and `to` are days in the shop's zone, inclusive; without `to` it is today,
 * without `from` the same day as `to`.
 */
export function readChecksQuery(raw: Record<string, unknown>, allowed: readonly string[], now: Date, timeZone: string): Read<ChecksQuery> {
  const texts: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!allowed.includes(name)) return bad(name, "unknown_parameter", `${name} is not a parameter here; it takes ${allowed.join(", ")}`);
    if (typeof value !== "string") return bad(name, "repeated", `${name} is given more than once; give it once`);
    texts[name] = value;
  }
  const given = (name: string): string | undefined => (texts[name] === undefined || texts[name] === "" ? undefined : texts[name]);

  const today = dayOf(now, timeZone);
  const toText = given("to");
  const toDate = toText === undefined ? today : readDay(toText);
  if (toDate === undefined) return bad("to", "bad_day", "to must be a real day written YYYY-MM-DD, such as 2026-11-24");
  const fromText = given("from");
  const fromDate = fromText === undefined ? toDate : readDay(fromText);
  if (fromDate === undefined) return bad("from", "bad_day", "from must be a real day written YYYY-MM-DD, such as 2026-11-01");
  if (compareCalendarDates(fromDate, toDate) > 0) return bad("from", "reversed", `from (${formatIsoDate(fromDate)}) is after to (${formatIsoDate(toDate)}): swap them`);
  const apart = calendarDaysBetween(fromDate, toDate);
  if (apart > MAX_RANGE_DAYS_APART) return bad("to", "range_too_long", `from and to are ${apart} days apart; at most ${MAX_RANGE_DAYS_APART}`);

  const statusText = given("status");
  if (statusText !== undefined && !isSlipStatus(statusText)) return bad("status", "bad_status", `status must be one of ${SLIP_STATUSES.join(", ")}`);
  const sourceText = given("source");
  if (sourceText !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(sourceText))
    return bad("source", "bad_source", "source must be a channel such as line_oa_merchant (letters, digits, _ and -, at most 64)");
  const q = texts["q"]?.trim();
  if (q !== undefined && [...q].length > MAX_Q_LENGTH) return bad("q", "q_too_long", `q must be at most ${MAX_Q_LENGTH} characters`);
  const pageText = given("page");
  const page = pageText === undefined ? 1 : readWhole(pageText, 1, MAX_PAGE);
  if (page === undefined) return bad("page", "bad_page", "page must be a whole number from 1");
  const limitText = given("limit");
  const limit = limitText === undefined ? DEFAULT_LIMIT : readWhole(limitText, 1, MAX_LIMIT);
  if (limit === undefined) return bad("limit", "bad_limit", `limit must be a whole number from 1 to ${MAX_LIMIT}`);
  const formatText = given("format");
  if (formatText !== undefined && formatText !== "raw") return bad("format", "bad_format", "format must be raw (English headers and the service's own values) or left out");

  return {
    ok: true,
    value: {
      fromDate,
      toDate,
      from: startOfDay(fromDate, timeZone),
      to: endOfDay(toDate, timeZone),
      status: statusText,
      source: sourceText,
      q: q === undefined || q === "" ? undefined : q,
      page,
      limit,
      format: formatText === "raw" ? "raw" : "readable",
    },
  };
}
