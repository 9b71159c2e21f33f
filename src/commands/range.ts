// History ranges: calendar days in the business time zone, and the instants a range covers.
import { TZDate } from "@date-fns/tz";
import { addDays, endOfMonth, startOfMonth, subDays, subMonths } from "date-fns";
import type { CalendarDate, RangeSpec } from "./types.js";

/** Years a typed date may have once Buddhist-era years are converted: slips from 2000 to 2199. */
const MIN_YEAR = 2000;
const MAX_YEAR = 2199;

export function isValidCalendarDate(date: CalendarDate): boolean {
  const { year, month, day } = date;
  if (![year, month, day].every(Number.isInteger)) return false;
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one; UTC so no zone can shift it.
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Negative when a is earlier, 0 on the same day, positive when later. */
export function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** The calendar day `days` after `date` (before, when negative). */
export function addCalendarDays(date: CalendarDate, days: number): CalendarDate {
  // UTC so no zone can shift the day.
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** `2026-11-05`: how ranges are written in postback data. */
export function formatIsoDate(date: CalendarDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

function calendarDateOf(date: TZDate): CalendarDate {
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}

/** Noon avoids the hours a daylight-saving change removes or repeats while we step by days. */
function noonOf(date: CalendarDate, timeZone: string): TZDate {
  return new TZDate(date.year, date.month - 1, date.day, 12, 0, 0, 0, timeZone);
}

/** The calendar day `now` falls on in the zone. */
export function todayIn(now: Date, timeZone: string): CalendarDate {
  return calendarDateOf(new TZDate(now.getTime(), timeZone));
}

export interface ResolvedRange {
  /** The first millisecond of fromDate in the zone. */
  from: Date;
  /** The last millisecond of toDate in the zone. */
  to: Date;
  fromDate: CalendarDate;
  toDate: CalendarDate;
}

/** The first and last calendar day a range covers, seen from `now` in the zone. */
function rangeDays(spec: RangeSpec, now: Date, timeZone: string): { from: CalendarDate; to: CalendarDate } {
  const today = noonOf(todayIn(now, timeZone), timeZone);
  switch (spec.kind) {
    case "today":
      return { from: calendarDateOf(today), to: calendarDateOf(today) };
    case "yesterday": {
      const yesterday = calendarDateOf(subDays(today, 1));
      return { from: yesterday, to: yesterday };
    }
    case "days":
      // `7d` is today and the 6 days before it.
      return { from: calendarDateOf(subDays(today, Math.max(1, spec.days) - 1)), to: calendarDateOf(today) };
    case "month":
      return { from: calendarDateOf(startOfMonth(today)), to: calendarDateOf(today) };
    case "lastmonth": {
      const previous = subMonths(startOfMonth(today), 1);
      return { from: calendarDateOf(startOfMonth(previous)), to: calendarDateOf(endOfMonth(previous)) };
    }
    case "dates":
      return { from: spec.from, to: spec.to };
  }
}

/** The start of a calendar day in the zone (01:00 where the clocks skip midnight). */
function startOfDayIn(date: CalendarDate, timeZone: string): Date {
  return new Date(new TZDate(date.year, date.month - 1, date.day, 0, 0, 0, 0, timeZone).getTime());
}

export function resolveRange(spec: RangeSpec, now: Date, timeZone: string): ResolvedRange {
  const days = rangeDays(spec, now, timeZone);
  const dayAfter = calendarDateOf(addDays(noonOf(days.to, timeZone), 1));
  return {
    from: startOfDayIn(days.from, timeZone),
    // The next day's start minus 1 ms is the last millisecond even on a 23- or 25-hour day.
    to: new Date(startOfDayIn(dayAfter, timeZone).getTime() - 1),
    fromDate: days.from,
    toDate: days.to,
  };
}

/**
 * The same range as absolute dates, for paging: a "next page" tapped after midnight must still
 * show the day the first page showed.
 */
export function toDatesRange(spec: RangeSpec, now: Date, timeZone: string): Extract<RangeSpec, { kind: "dates" }> {
  const days = rangeDays(spec, now, timeZone);
  return { kind: "dates", from: days.from, to: days.to };
}
