// The calendar module against the platform's own calendar (Date in UTC, Intl in a zone), over many days,
// including a zone with daylight saving, leap days and years before 100.
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addCalendarDays,
  calendarDaysBetween,
  dateOfEpochDay,
  dayOf,
  daysInMonth,
  endOfDay,
  epochDay,
  formatIsoDate,
  isRealDate,
  mondayOf,
  startOfDay,
  wallTimeToInstant,
  weekdayOf,
  zonedParts,
} from "../../src/time/calendar.js";

/** One formatter per zone: making one is most of what a call costs, and the loops below make 28,000 calls a zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function intlParts(ms: number, timeZone: string) {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", hourCycle: "h23" });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(
    formatter
      .formatToParts(new Date(ms))
      .filter((p) => p.type !== "literal")
      .map((p) => [p.type, Number(p.value)]),
  );
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute };
}

describe("calendar days", () => {
  it("epoch days agree with Date.UTC from 1900 to 2200, and go both ways", () => {
    for (let d = Date.UTC(1900, 0, 1) / 86_400_000; d <= Date.UTC(2200, 0, 1) / 86_400_000; d += 17) {
      const date = new Date(d * 86_400_000);
      const calendar = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
      expect(epochDay(calendar)).toBe(d);
      expect(dateOfEpochDay(d)).toEqual(calendar);
    }
    // Years below 100 are years below 100 (Date.UTC would read 50 as 1950).
    expect(dateOfEpochDay(epochDay({ year: 50, month: 3, day: 1 }))).toEqual({ year: 50, month: 3, day: 1 });
  });

  it("knows leap days, month ends and the days between", () => {
    expect(isRealDate({ year: 2028, month: 2, day: 29 })).toBe(true);
    expect(isRealDate({ year: 2100, month: 2, day: 29 })).toBe(false);
    expect(isRealDate({ year: 2000, month: 2, day: 29 })).toBe(true);
    expect(isRealDate({ year: 2026, month: 11, day: 31 })).toBe(false);
    expect(addCalendarDays({ year: 2026, month: 12, day: 31 }, 1)).toEqual({ year: 2027, month: 1, day: 1 });
    expect(addCalendarDays({ year: 2028, month: 3, day: 1 }, -1)).toEqual({ year: 2028, month: 2, day: 29 });
    expect(calendarDaysBetween({ year: 2026, month: 1, day: 1 }, { year: 2027, month: 1, day: 1 })).toBe(365);
    expect(formatIsoDate({ year: 2026, month: 11, day: 5 })).toBe("2026-11-05");
    // 23 November 2026 is a Monday; 1 January 1900 was one too.
    expect(weekdayOf({ year: 2026, month: 11, day: 23 })).toBe(1);
    expect(weekdayOf({ year: 1900, month: 1, day: 1 })).toBe(1);
  });
});

describe("wall-clock time in a zone", () => {
  it.each(["Asia/Bangkok", "America/New_York", "Australia/Lord_Howe"])("%s: parts agree with Intl every 37 minutes over two years", (zone) => {
    // Gathered and compared once: an expect per instant costs more than the instant's check.
    const differing: { at: string; ours: unknown; intl: unknown }[] = [];
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2028, 0, 1); ms += 37 * 60_000) {
      const ours = zonedParts(ms, zone);
      const intl = intlParts(ms, zone);
      if (!isDeepStrictEqual(ours, intl)) differing.push({ at: new Date(ms).toISOString(), ours, intl });
    }
    expect(differing.slice(0, 10), `${differing.length} instants differ; the first ten shown`).toEqual([]);
  });

  it("finds the instant of a wall time, and the first and last millisecond of a day, across a DST change", () => {
    // São Paulo skipped midnight on 4 November 2018: the day starts at 01:00 (-02:00).
    expect(startOfDay({ year: 2018, month: 11, day: 4 }, "America/Sao_Paulo").toISOString()).toBe("2018-11-04T03:00:00.000Z");
    // New York repeats 01:30 on 1 November 2026: the first one.
    expect(new Date(wallTimeToInstant(Date.UTC(2026, 10, 1, 1, 30), "America/New_York")).toISOString()).toBe("2026-11-01T05:30:00.000Z");
    // New York sprang forward at 02:00 on 8 March 2026: that day has 23 hours.
    const start = startOfDay({ year: 2026, month: 3, day: 8 }, "America/New_York");
    const end = endOfDay({ year: 2026, month: 3, day: 8 }, "America/New_York");
    expect(start.toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(end.getTime() - start.getTime() + 1).toBe(23 * 3_600_000);
    expect(new Date(wallTimeToInstant(Date.UTC(2026, 10, 20, 14, 30), "Asia/Bangkok")).toISOString()).toBe("2026-11-20T07:30:00.000Z");
    expect(dayOf(new Date("2026-11-19T17:00:00Z"), "Asia/Bangkok")).toEqual({ year: 2026, month: 11, day: 20 });
    expect(dayOf(new Date("2026-11-19T16:59:59.999Z"), "Asia/Bangkok")).toEqual({ year: 2026, month: 11, day: 19 });
  });
});

/** A calendar day's UTC midnight through Date's setUTCFullYear, which, unlike Date.UTC, keeps years below 100. */
function utcMidnightMs(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

describe("calendar sums in every year", () => {
  const someDay = fc.integer({ min: utcMidnightMs(0, 1, 1) / 86_400_000, max: utcMidnightMs(9999, 12, 31) / 86_400_000 }).map((d) => {
    const date = new Date(d * 86_400_000);
    return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
  });

  it("agree with Date's UTC calendar from year 0 to 9999", () => {
    fc.assert(
      fc.property(someDay, someDay, fc.integer({ min: -800, max: 800 }), (a, b, days) => {
        const aMs = utcMidnightMs(a.year, a.month, a.day);
        const moved = new Date(aMs + days * 86_400_000);
        const movedDate = { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
        if (movedDate.year >= 0 && movedDate.year <= 9999) expect(addCalendarDays(a, days)).toEqual(movedDate);
        expect(calendarDaysBetween(a, b)).toBe((utcMidnightMs(b.year, b.month, b.day) - aMs) / 86_400_000);
        expect(weekdayOf(a)).toBe(new Date(aMs).getUTCDay());
        expect(formatIsoDate(a)).toBe(new Date(aMs).toISOString().slice(0, 10));
        expect(daysInMonth(a.year, a.month)).toBe(new Date(utcMidnightMs(a.year, a.month + 1, 0)).getUTCDate());
        // The week's Monday: a Monday (Date's day 1), on or up to 6 days before.
        const monday = mondayOf(a);
        const back = calendarDaysBetween(monday, a);
        if (monday.year >= 0) expect(new Date(utcMidnightMs(monday.year, monday.month, monday.day)).getUTCDay()).toBe(1);
        expect(back >= 0 && back <= 6).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it("keep years below 100 as they are", () => {
    // Year 0 (1 BC) is a leap year in the proleptic Gregorian calendar, as every fourth century is.
    expect(isRealDate({ year: 0, month: 2, day: 29 })).toBe(true);
    expect(calendarDaysBetween({ year: 0, month: 1, day: 1 }, { year: 0, month: 3, day: 1 })).toBe(60);
    expect(addCalendarDays({ year: 99, month: 12, day: 31 }, 1)).toEqual({ year: 100, month: 1, day: 1 });
    expect(formatIsoDate({ year: 50, month: 3, day: 1 })).toBe("0050-03-01");
    expect(formatIsoDate({ year: 0, month: 1, day: 1 })).toBe("0000-01-01");
  });
});

describe("a zone's historic change at an odd second", () => {
  // Bangkok kept its local mean time, +06:42:04, until 1 April 1920, when its clocks went from 00:00 to
  // 00:17:56 (+07:00): that moment was 1920-03-31T17:17:56Z.
  it("reads instants on each side of it", () => {
    expect(zonedParts(Date.UTC(1920, 2, 31, 17, 17, 55), "Asia/Bangkok")).toEqual({ year: 1920, month: 3, day: 31, hour: 23, minute: 59 });
    expect(zonedParts(Date.UTC(1920, 2, 31, 17, 17, 56), "Asia/Bangkok")).toEqual({ year: 1920, month: 4, day: 1, hour: 0, minute: 17 });
  });

  it("finds wall times after it, and the first day's start where the clocks jumped to", () => {
    expect(new Date(wallTimeToInstant(Date.UTC(1920, 3, 1, 0, 29, 59, 999), "Asia/Bangkok")).toISOString()).toBe("1920-03-31T17:29:59.999Z");
    expect(startOfDay({ year: 1920, month: 4, day: 1 }, "Asia/Bangkok").toISOString()).toBe("1920-03-31T17:17:56.000Z");
    expect(startOfDay({ year: 1920, month: 3, day: 31 }, "Asia/Bangkok").toISOString()).toBe("1920-03-30T17:17:56.000Z");
  });
});
