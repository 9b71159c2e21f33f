// Calendar days and wall-clock time in a time zone (the shop's, Asia/Bangkok by default): the one place
// the bot, its summaries and schedules, and the sandbox do date arithmetic. Pure; zone offsets come from
// @date-fns/tz, remembered per quarter hour since they change only on such boundaries.
import { tzOffset } from "@date-fns/tz";

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

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
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
  // 1 January 1970 was a Thursday.
  return (((epochDay(date) + 4) % 7) + 7) % 7;
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
  return dateOfEpochDay(epochDay(date) + days);
}

/** Whole days from `from` to `to`, negative when `to` is earlier. */
export function calendarDaysBetween(from: CalendarDate, to: CalendarDate): number {
  return epochDay(to) - epochDay(from);
}

/** `2026-11-05`. */
export function formatIsoDate(date: CalendarDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

const QUARTER_HOUR_MS = 15 * 60_000;
const MAX_CACHED_OFFSETS = 4_096;
const offsetCache = new Map<string, number>();

/** The zone's offset from UTC, in ms, at an instant (epoch ms). */
export function zoneOffsetMs(instantMs: number, timeZone: string): number {
  const bucket = Math.floor(instantMs / QUARTER_HOUR_MS);
  const key = `${timeZone}|${bucket}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const offset = tzOffset(timeZone, new Date(bucket * QUARTER_HOUR_MS)) * 60_000;
  if (offsetCache.size >= MAX_CACHED_OFFSETS) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

/** The wall-clock date and time of an instant in a zone. */
export function zonedParts(instant: Date | number, timeZone: string): ZonedParts {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  const wallMs = ms + zoneOffsetMs(ms, timeZone);
  const minutes = Math.floor(wallMs / 60_000);
  const date = dateOfEpochDay(Math.floor(wallMs / DAY_MS));
  const minuteOfDay = ((minutes % 1440) + 1440) % 1440;
  return { ...date, hour: Math.floor(minuteOfDay / 60), minute: minuteOfDay % 60 };
}

/** The calendar day an instant falls on in the zone. */
export function dayOf(instant: Date | number, timeZone: string): CalendarDate {
  const { year, month, day } = zonedParts(instant, timeZone);
  return { year, month, day };
}

/**
 * The instant (epoch ms) at which a wall-clock time occurs in the zone; `wallMs` counts the local fields
 * as if they were UTC. Where daylight saving repeats the time, the earlier instant; where it skips it,
 * the moment the clocks jump to (São Paulo's skipped midnight starts the day at 01:00).
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
