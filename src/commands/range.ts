// History ranges: which calendar days a range covers in the business time zone, and their instants.
import { addCalendarDays, dayOf, daysInMonth, endOfDay, isRealDate, mondayOf, startOfDay } from "../time/calendar.js";
import type { CalendarDate, RangeSpec } from "./types.js";

/** Years a typed date may have once Buddhist-era years are converted: slips from 2000 to 2199. */
const MIN_YEAR = 2000;
const MAX_YEAR = 2199;

/** A real date within the years slips can have. */
export function isValidCalendarDate(date: CalendarDate): boolean {
  return isRealDate(date) && date.year >= MIN_YEAR && date.year <= MAX_YEAR;
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
  const today = dayOf(now, timeZone);
  switch (spec.kind) {
    case "today":
      return { from: today, to: today };
    case "yesterday": {
      const yesterday = addCalendarDays(today, -1);
      return { from: yesterday, to: yesterday };
    }
    case "days":
      // `7d` is today and the 6 days before it.
      return { from: addCalendarDays(today, -(Math.max(1, spec.days) - 1)), to: today };
    case "week":
      // A Thai shop's week starts on Monday: on a Monday, this week is today alone.
      return { from: mondayOf(today), to: today };
    case "lastweek": {
      const monday = addCalendarDays(mondayOf(today), -7);
      return { from: monday, to: addCalendarDays(monday, 6) };
    }
    case "month":
      return { from: { ...today, day: 1 }, to: today };
    case "lastmonth": {
      const year = today.month === 1 ? today.year - 1 : today.year;
      const month = today.month === 1 ? 12 : today.month - 1;
      return { from: { year, month, day: 1 }, to: { year, month, day: daysInMonth(year, month) } };
    }
    case "dates":
      return { from: spec.from, to: spec.to };
  }
}

export function resolveRange(spec: RangeSpec, now: Date, timeZone: string): ResolvedRange {
  const days = rangeDays(spec, now, timeZone);
  return { from: startOfDay(days.from, timeZone), to: endOfDay(days.to, timeZone), fromDate: days.from, toDate: days.to };
}
