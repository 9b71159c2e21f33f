import { calendarDaysBetween, dayOf, zonedParts } from "../../src/time/calendar.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCalendarDate, formatMoney, formatTime, formatTokens } from "../../src/render/format.js";

describe("formatMoney", () => {
  it.each([
    [1500, "฿1,500.00"],
    [150.5, "฿150.50"],
    [0.1 + 0.2, "฿0.30"],
    [9_999_999_999.99, "฿9,999,999,999.99"],
    [0, "฿0.00"],
    [1.005, "฿1.01"],
  ])("shows %s baht as %s", (baht, expected) => {
    expect(formatMoney(baht)).toBe(expected);
  });
});

describe("formatTokens", () => {
  it("groups, and drops .00 from whole counts (docs/thai.md: tokens)", () => {
    expect(formatTokens(12345.678)).toBe("12,345.68");
    expect(formatTokens(3)).toBe("3");
    expect(formatTokens(1234)).toBe("1,234");
    expect(formatTokens(1.5)).toBe("1.50");
    expect(formatTokens(0.25)).toBe("0.25");
    expect(formatTokens(2.999)).toBe("3");
    expect(formatTokens(-0)).toBe("0"); // never "-0", whatever the service sends
  });
});

describe("dates in the business zone", () => {
  const instant = new Date("2026-11-22T07:05:00.000Z"); // 14:05 in Bangkok

  it("writes Thai dates in the Buddhist era with Thai month abbreviations", () => {
    expect(`${formatCalendarDate(dayOf(instant, "Asia/Bangkok"), "th")} ${formatTime(instant, "Asia/Bangkok")}`).toBe("22 พ.ย. 2569 14:05");
  });

  it("writes English dates in the Gregorian era", () => {
    expect(`${formatCalendarDate(dayOf(instant, "Asia/Bangkok"), "en")} ${formatTime(instant, "Asia/Bangkok")}`).toBe("22 Nov 2026 14:05");
  });

  it("uses the zone, not the machine's clock, for the day and the hour", () => {
    const lateUtc = new Date("2026-12-31T18:30:00.000Z"); // already 1 Jan 2027 01:30 in Bangkok
    expect(`${formatCalendarDate(dayOf(lateUtc, "Asia/Bangkok"), "th")} ${formatTime(lateUtc, "Asia/Bangkok")}`).toBe("1 ม.ค. 2570 01:30");
    expect(formatTime(lateUtc, "UTC")).toBe("18:30");
  });

  it("names every Thai month", () => {
    const months = Array.from({ length: 12 }, (_, i) => formatCalendarDate({ year: 2026, month: i + 1, day: 1 }, "th"));
    expect(months.map((m) => m.split(" ")[1])).toEqual(["ม.ค.", "ก.พ.", "มี.ค.", "เม.ย.", "พ.ค.", "มิ.ย.", "ก.ค.", "ส.ค.", "ก.ย.", "ต.ค.", "พ.ย.", "ธ.ค."]);
  });

  it("counts calendar days across months", () => {
    expect(calendarDaysBetween({ year: 2026, month: 11, day: 28 }, { year: 2026, month: 12, day: 3 })).toBe(5);
    expect(calendarDaysBetween({ year: 2026, month: 12, day: 3 }, { year: 2026, month: 11, day: 28 })).toBe(-5);
  });
});

describe("zonedParts", () => {
  // The quarter-hour offset cache must agree with Intl everywhere, daylight-saving changes included.
  const zones = ["Asia/Bangkok", "America/New_York", "Europe/London", "Australia/Adelaide", "Asia/Kathmandu", "America/St_Johns"];
  const direct = (instant: Date, timeZone: string) => {
    const parts: Record<string, number> = {};
    const formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
    });
    for (const part of formatter.formatToParts(instant)) if (part.type !== "literal") parts[part.type] = Number(part.value);
    return { year: parts.year, month: parts.month, day: parts.day, hour: (parts.hour ?? 0) % 24, minute: parts.minute };
  };

  it("gives the wall clock Intl gives, for random instants in zones with daylight saving and odd offsets", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }), fc.constantFrom(...zones), (ms, zone) => {
        const instant = new Date(ms);
        expect(zonedParts(instant, zone)).toEqual(direct(instant, zone));
      }),
      { numRuns: 3_000 },
    );
  });

  it("is right on both sides of a daylight-saving change", () => {
    // New York sprang forward at 2026-03-08 07:00 UTC (02:00 local became 03:00).
    expect(zonedParts(new Date(Date.UTC(2026, 2, 8, 6, 59)), "America/New_York")).toEqual({ year: 2026, month: 3, day: 8, hour: 1, minute: 59 });
    expect(zonedParts(new Date(Date.UTC(2026, 2, 8, 7, 0)), "America/New_York")).toEqual({ year: 2026, month: 3, day: 8, hour: 3, minute: 0 });
  });
});
