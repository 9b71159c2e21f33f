// Calendar days and wall-clock time in a time zone (the shop's, Asia/Bangkok by default): the one place
// the bot, its summaries and schedules, and the sandbox do date arithmetic. Pure. date-fns does the sums
// and the formatting: a calendar day is the UTCDate of its midnight (@date-fns/utc), and an instant's
// wall-clock time in a zone comes from the zone's offsets (@date-fns/tz), remembered. Epoch days (days since
// 1970-01-01) are the exact bridge between the two in every year: Date's own constructors read years 0 to 99
// as 1900 to 1999.
import { tzOffset } from "@date-fns/tz";
import { UTCDate } from "@date-fns/utc";
// Each function from its own module: date-fns's index loads all of its some 250 functions, 20 MB resident.
import { addDays } from "date-fns/addDays";
import { format } from "date-fns/format";
import { getDay } from "date-fns/getDay";
import { getDaysInMonth } from "date-fns/getDaysInMonth";

/** A day on the calendar, with no time and no zone. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** The wall-clock date and time of an instant in a zone. */
export interface ZonedParts extends CalendarDate {
  hour: number;
  minute: number;
}

export const DAY_MS = 86_400_000;

/**
 * The UTC midnight that starts a calendar day, made from its epoch day so that every year stays itself. A
 * UTCDate (@date-fns/utc), not a TZDate in "UTC": the same fields, without asking Intl for UTC's offset at
 * every date made.
 */
function utcMidnight(date: CalendarDate): UTCDate {
  return new UTCDate(epochDay(date) * DAY_MS);
}

/** The calendar day of a date-fns result: its fields in its own zone. */
function calendarDateOf(date: Date): CalendarDate {
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}

/** Days in a month (1 to 12) of any year. */
export function daysInMonth(year: number, month: number): number {
  return getDaysInMonth(utcMidnight({ year, month, day: 1 }));
}

/** Whether the date exists (month 1 to 12, a day that month has); any year. */
export function isRealDate(date: CalendarDate): boolean {
  const { year, month, day } = date;
  return [year, month, day].every(Number.isInteger) && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Days since 1970-01-01 of a proleptic Gregorian date; exact for every year (Date.UTC moves years 0..99 to 19xx). */
export function epochDay(date: CalendarDate): number {
  const y = date.month <= 2 ? date.year - 1 : date.year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * ((date.month + 9) % 12) + 2) / 5) + date.day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The date of an epoch day (the inverse of `epochDay`). */
export function dateOfEpochDay(days: number): CalendarDate {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** The day of the week: 0 Sunday to 6 Saturday. */
export function weekdayOf(date: CalendarDate): number {
  return getDay(utcMidnight(date));
}

/** The Monday on or before `date`: the first day of its week, as Thai shops count weeks. */
export function mondayOf(date: CalendarDate): CalendarDate {
  // weekdayOf counts from Sunday (0); Monday is 1, so Sunday is 6 days after the Monday before it.
  return addCalendarDays(date, -((weekdayOf(date) + 6) % 7));
}

/** Negative when a is earlier, 0 on the same day, positive when later. */
export function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** The calendar day `days` after `date` (before, when negative). */
export function addCalendarDays(date: CalendarDate, days: number): CalendarDate {
  return calendarDateOf(addDays(utcMidnight(date), days));
}

/** Whole days from `from` to `to`, negative when `to` is earlier. */
export function calendarDaysBetween(from: CalendarDate, to: CalendarDate): number {
  // Not date-fns's differenceInCalendarDays: it goes through Date.UTC, which is a day off before year 100.
  return epochDay(to) - epochDay(from);
}

/** `2026-11-05`. */
export function formatIsoDate(date: CalendarDate): string {
  return format(utcMidnight(date), "uuuu-MM-dd");
}

const QUARTER_HOUR_MS = 15 * 60_000;
const MAX_CACHED_OFFSETS = 4_096;
/** By zone, then by quarter hour: number keys, so a look-up makes no string. */
const offsetCache = new Map<string, Map<number, number>>();

function offsetAt(instantMs: number, timeZone: string): number {
  return tzOffset(timeZone, new Date(instantMs)) * 60_000;
}

/**
 * The zone's offset from UTC, in ms, at an instant (epoch ms). Remembered per quarter hour, where today's
 * offsets change; a quarter hour that holds a change (historical ones came at any second) is not.
 */
export function zoneOffsetMs(instantMs: number, timeZone: string): number {
  const bucket = Math.floor(instantMs / QUARTER_HOUR_MS);
  let zone = offsetCache.get(timeZone);
  const cached = zone?.get(bucket);
  if (cached !== undefined) return cached;
  const first = offsetAt(bucket * QUARTER_HOUR_MS, timeZone);
  if (offsetAt((bucket + 1) * QUARTER_HOUR_MS - 1, timeZone) !== first) return offsetAt(instantMs, timeZone);
  if (zone === undefined || zone.size >= MAX_CACHED_OFFSETS) {
    zone = new Map();
    offsetCache.set(timeZone, zone);
  }
  zone.set(bucket, first);
  return first;
}

/**
 * The wall-clock date and time of an instant in a zone. Read from the zone's remembered offsets, not a
 * TZDate per instant: a TZDate formats its instant with Intl twice, and the summaries read thousands of
 * instants (measured in `npm run bench:render`: 2.9 times the render path's time with a TZDate each).
 */
export function zonedParts(instant: Date | number, timeZone: string): ZonedParts {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  const wall = ms + zoneOffsetMs(ms, timeZone);
  const days = Math.floor(wall / DAY_MS);
  const inDay = wall - days * DAY_MS;
  // One literal of five fields, not the date spread into a new object: the spread made it some 17 times slower (1 µs a call).
  const { year, month, day } = dateOfEpochDay(days);
  return { year, month, day, hour: Math.floor(inDay / 3_600_000), minute: Math.floor((inDay % 3_600_000) / 60_000) };
}

/** The calendar day an instant falls on in the zone. */
export function dayOf(instant: Date | number, timeZone: string): CalendarDate {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  return dateOfEpochDay(Math.floor((ms + zoneOffsetMs(ms, timeZone)) / DAY_MS));
}

/**
 * The instant (epoch ms) at which a wall-clock time occurs in the zone; `wallMs` counts the local fields
 * as if they were UTC. Where daylight saving repeats the time, the earlier instant; where it skips it,
 * the moment the clocks jump to (São Paulo's skipped midnight starts the day at 01:00).
 * From the zone's offsets rather than TZDate's setters, which are seconds off in the local mean time
 * zones had before standard time (Bangkok's +06:42:04 until 1920).
 */
export function wallTimeToInstant(wallMs: number, timeZone: string): number {
  const guess = zoneOffsetMs(wallMs, timeZone);
  const first = wallMs - guess;
  const offset = zoneOffsetMs(first, timeZone);
  if (offset === guess) return first;
  const second = wallMs - offset;
  const firstHolds = zoneOffsetMs(first, timeZone) === guess;
  const secondHolds = zoneOffsetMs(second, timeZone) === offset;
  if (firstHolds && secondHolds) return Math.min(first, second);
  if (firstHolds) return first;
  if (secondHolds) return second;
  return Math.max(first, second);
}

/** The first millisecond of a calendar day in the zone (01:00 where the clocks skip midnight). */
export function startOfDay(date: CalendarDate, timeZone: string): Date {
  return new Date(wallTimeToInstant(epochDay(date) * DAY_MS, timeZone));
}

/** The last millisecond of a calendar day in the zone, even on a 23- or 25-hour day. */
export function endOfDay(date: CalendarDate, timeZone: string): Date {
  return new Date(startOfDay(addCalendarDays(date, 1), timeZone).getTime() - 1);
}
