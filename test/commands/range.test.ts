// History ranges resolved to instants in the business time zone: day edges, month ends, leap years, DST.
import { dayOf, formatIsoDate } from "../../src/time/calendar.js";
import { describe, expect, it } from "vitest";
import { isValidCalendarDate, resolveRange } from "../../src/commands/range.js";
import type { RangeSpec } from "../../src/commands/types.js";

const BANGKOK = "Asia/Bangkok";
const day = (year: number, month: number, d: number) => ({ year, month, day: d });

/** `from`/`to` as ISO strings in UTC, the way the service receives them. */
function instants(spec: RangeSpec, now: string, zone = BANGKOK): [string, string] {
  const range = resolveRange(spec, new Date(now), zone);
  return [range.from.toISOString(), range.to.toISOString()];
}

describe("resolveRange in Asia/Bangkok (UTC+7)", () => {
  // 22 Nov 2026 14:00 in Bangkok.
  const now = "2026-11-22T07:00:00Z";

  it.each<[string, RangeSpec, [string, string]]>([
    ["today", { kind: "today" }, ["2026-11-21T17:00:00.000Z", "2026-11-22T16:59:59.999Z"]],
    ["yesterday", { kind: "yesterday" }, ["2026-11-20T17:00:00.000Z", "2026-11-21T16:59:59.999Z"]],
    ["1 day is today", { kind: "days", days: 1 }, ["2026-11-21T17:00:00.000Z", "2026-11-22T16:59:59.999Z"]],
    ["7 days: today and the 6 before", { kind: "days", days: 7 }, ["2026-11-15T17:00:00.000Z", "2026-11-22T16:59:59.999Z"]],
    ["30 days crosses into October", { kind: "days", days: 30 }, ["2026-10-23T17:00:00.000Z", "2026-11-22T16:59:59.999Z"]],
    ["month: the 1st to today", { kind: "month" }, ["2026-10-31T17:00:00.000Z", "2026-11-22T16:59:59.999Z"]],
    ["lastmonth: all of October", { kind: "lastmonth" }, ["2026-09-30T17:00:00.000Z", "2026-10-31T16:59:59.999Z"]],
    ["dates", { kind: "dates", from: day(2026, 11, 1), to: day(2026, 11, 15) }, ["2026-10-31T17:00:00.000Z", "2026-11-15T16:59:59.999Z"]],
    ["one date", { kind: "dates", from: day(2026, 2, 28), to: day(2026, 2, 28) }, ["2026-02-27T17:00:00.000Z", "2026-02-28T16:59:59.999Z"]],
  ])("%s", (_name, spec, expected) => {
    expect(instants(spec, now)).toEqual(expected);
  });

  // 22 Nov 2026 is a Sunday: a Thai shop's week is Monday 16 to Sunday 22.
  it.each<[string, string, RangeSpec, [number, number, number], [number, number, number]]>([
    ["this week on a Sunday: since Monday", now, { kind: "week" }, [2026, 11, 16], [2026, 11, 22]],
    ["this week on a Monday: today alone", "2026-11-23T07:00:00Z", { kind: "week" }, [2026, 11, 23], [2026, 11, 23]],
    ["this week on a Tuesday: Monday and today", "2026-11-24T07:00:00Z", { kind: "week" }, [2026, 11, 23], [2026, 11, 24]],
    ["this week just after midnight on a Monday in Bangkok (still Sunday in UTC)", "2026-11-22T17:30:00Z", { kind: "week" }, [2026, 11, 23], [2026, 11, 23]],
    ["this week across the new year", "2027-01-01T07:00:00Z", { kind: "week" }, [2026, 12, 28], [2027, 1, 1]],
    ["last week on a Sunday: the Monday to Sunday before", now, { kind: "lastweek" }, [2026, 11, 9], [2026, 11, 15]],
    ["last week on a Monday", "2026-11-23T07:00:00Z", { kind: "lastweek" }, [2026, 11, 16], [2026, 11, 22]],
    ["last week across a month end", "2026-12-02T07:00:00Z", { kind: "lastweek" }, [2026, 11, 23], [2026, 11, 29]],
  ])("%s", (_name, at, spec, from, to) => {
    const range = resolveRange(spec, new Date(at), BANGKOK);
    expect([range.fromDate, range.toDate]).toEqual([day(...from), day(...to)]);
  });

  it("gives the calendar days with the instants", () => {
    expect(resolveRange({ kind: "lastmonth" }, new Date(now), BANGKOK)).toMatchObject({
      fromDate: day(2026, 10, 1),
      toDate: day(2026, 10, 31),
    });
  });

  it("uses the Bangkok day, not the UTC day, just after midnight in Bangkok", () => {
    // 1 Jan 2027 00:30 in Bangkok, still 31 Dec 2026 in UTC.
    const newYear = "2026-12-31T17:30:00Z";
    expect(instants({ kind: "today" }, newYear)).toEqual(["2026-12-31T17:00:00.000Z", "2027-01-01T16:59:59.999Z"]);
    expect(instants({ kind: "yesterday" }, newYear)).toEqual(["2026-12-30T17:00:00.000Z", "2026-12-31T16:59:59.999Z"]);
    expect(instants({ kind: "month" }, newYear)).toEqual(["2026-12-31T17:00:00.000Z", "2027-01-01T16:59:59.999Z"]);
    expect(instants({ kind: "lastmonth" }, newYear)).toEqual(["2026-11-30T17:00:00.000Z", "2026-12-31T16:59:59.999Z"]);
  });

  it.each<[string, string, [number, number, number], [number, number, number]]>([
    ["1 March in a common year: yesterday is 28 Feb", "2026-03-01T05:00:00Z", [2026, 2, 28], [2026, 2, 28]],
    ["1 March in a leap year: yesterday is 29 Feb", "2028-03-01T05:00:00Z", [2028, 2, 29], [2028, 2, 29]],
  ])("%s", (_name, now, from, to) => {
    const range = resolveRange({ kind: "yesterday" }, new Date(now), BANGKOK);
    expect([range.fromDate, range.toDate]).toEqual([day(...from), day(...to)]);
  });

  it.each<[string, string, [number, number, number], [number, number, number]]>([
    ["in March, last month is February of a common year", "2026-03-15T05:00:00Z", [2026, 2, 1], [2026, 2, 28]],
    ["in March, last month is February of a leap year", "2028-03-15T05:00:00Z", [2028, 2, 1], [2028, 2, 29]],
    ["on 31 May, last month is April with 30 days", "2026-05-31T05:00:00Z", [2026, 4, 1], [2026, 4, 30]],
    ["in January, last month is December of the year before", "2027-01-10T05:00:00Z", [2026, 12, 1], [2026, 12, 31]],
  ])("%s", (_name, now, from, to) => {
    const range = resolveRange({ kind: "lastmonth" }, new Date(now), BANGKOK);
    expect([range.fromDate, range.toDate]).toEqual([day(...from), day(...to)]);
  });

  it("counts 7 days back across a month end", () => {
    const range = resolveRange({ kind: "days", days: 7 }, new Date("2026-03-02T05:00:00Z"), BANGKOK);
    expect([range.fromDate, range.toDate]).toEqual([day(2026, 2, 24), day(2026, 3, 2)]);
  });
});

describe("resolveRange in zones with daylight saving", () => {
  it("starts a day whose midnight the clocks skip at 01:00 (São Paulo, 4 Nov 2018)", () => {
    const spec: RangeSpec = { kind: "dates", from: day(2018, 11, 4), to: day(2018, 11, 4) };
    const range = resolveRange(spec, new Date("2018-11-04T12:00:00Z"), "America/Sao_Paulo");
    expect(range.from.toISOString()).toBe("2018-11-04T03:00:00.000Z"); // 01:00 at UTC-2
    expect(range.to.toISOString()).toBe("2018-11-05T01:59:59.999Z"); // 23:59:59.999 at UTC-2
  });

  it("covers the whole 25-hour day when clocks go back (New York, 1 Nov 2026)", () => {
    const spec: RangeSpec = { kind: "dates", from: day(2026, 11, 1), to: day(2026, 11, 1) };
    const range = resolveRange(spec, new Date("2026-11-01T12:00:00Z"), "America/New_York");
    expect(range.from.toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(range.to.toISOString()).toBe("2026-11-02T04:59:59.999Z");
    expect(range.to.getTime() - range.from.getTime() + 1).toBe(25 * 3_600_000);
  });
});

describe("the days a range covers", () => {
  const now = new Date("2026-11-22T07:00:00Z");
  it.each<[RangeSpec, [number, number, number], [number, number, number]]>([
    [{ kind: "today" }, [2026, 11, 22], [2026, 11, 22]],
    [{ kind: "yesterday" }, [2026, 11, 21], [2026, 11, 21]],
    [{ kind: "days", days: 7 }, [2026, 11, 16], [2026, 11, 22]],
    [{ kind: "month" }, [2026, 11, 1], [2026, 11, 22]],
    [{ kind: "lastmonth" }, [2026, 10, 1], [2026, 10, 31]],
  ])("%j covers the right calendar days", (spec, from, to) => {
    const range = resolveRange(spec, now, BANGKOK);
    expect([range.fromDate, range.toDate]).toEqual([day(...from), day(...to)]);
  });

  it("the same days written as dates resolve to the same instants as the relative range", () => {
    for (const spec of [{ kind: "today" }, { kind: "days", days: 30 }, { kind: "lastmonth" }] as const) {
      const range = resolveRange(spec, now, BANGKOK);
      expect(resolveRange({ kind: "dates", from: range.fromDate, to: range.toDate }, now, BANGKOK)).toEqual(range);
    }
  });

  it("last month of January is December of the year before", () => {
    const range = resolveRange({ kind: "lastmonth" }, new Date("2027-01-10T03:00:00Z"), BANGKOK);
    expect([range.fromDate, range.toDate]).toEqual([day(2026, 12, 1), day(2026, 12, 31)]);
  });
});

describe("calendar helpers", () => {
  it("knows today in the zone", () => {
    expect(dayOf(new Date("2026-12-31T17:30:00Z"), BANGKOK)).toEqual(day(2027, 1, 1));
    expect(dayOf(new Date("2026-12-31T17:30:00Z"), "UTC")).toEqual(day(2026, 12, 31));
  });

  it.each<[[number, number, number], boolean]>([
    [[2026, 2, 28], true],
    [[2026, 2, 29], false],
    [[2028, 2, 29], true],
    [[2100, 2, 29], false],
    [[2026, 4, 31], false],
    [[2026, 12, 31], true],
    [[2026, 0, 1], false],
    [[2026, 13, 1], false],
    [[1999, 12, 31], false],
  ])("%j valid: %s", (date, valid) => {
    expect(isValidCalendarDate(day(...date))).toBe(valid);
  });

  it("writes ISO dates with zero padding", () => {
    expect(formatIsoDate(day(2026, 1, 5))).toBe("2026-01-05");
  });
});
