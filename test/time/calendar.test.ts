// The calendar module against the platform's own calendar (Date in UTC, Intl in a zone), over many days,
// including a zone with daylight saving, leap days and years before 100.
import { describe, expect, it } from "vitest";
import {
  addCalendarDays,
  calendarDaysBetween,
  dateOfEpochDay,
  dayOf,
  endOfDay,
  epochDay,
  formatIsoDate,
  isRealDate,
  startOfDay,
  wallTimeToInstant,
  weekdayOf,
  zonedParts,
} from "../../src/time/calendar.js";

function intlParts(ms: number, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", hourCycle: "h23" })
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
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2028, 0, 1); ms += 37 * 60_000) {
      expect(zonedParts(ms, zone)).toEqual(intlParts(ms, zone));
    }
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
