// History requests written as command text (postback data, quick replies) and read back.
import { describe, expect, it } from "vitest";
import { formatHistoryCommand } from "../../src/commands/format.js";
import { parseCommand } from "../../src/commands/parse.js";
import { MAX_PAGE, MAX_TRANS_REF_LENGTH } from "../../src/commands/parse-history.js";
import { resolveRange } from "../../src/commands/range.js";
import type { HistoryRequest, Lang } from "../../src/commands/types.js";

const ctx = { now: new Date("2026-11-22T07:00:00Z"), timeZone: "Asia/Bangkok", defaultLang: "en" } as const;
const nov = { kind: "dates", from: { year: 2026, month: 11, day: 1 }, to: { year: 2026, month: 11, day: 22 } } as const;

describe("formatHistoryCommand", () => {
  it.each<[HistoryRequest, Lang, string]>([
    [{ by: "range", range: nov, page: 2 }, "en", "history 2026-11-01..2026-11-22 page 2"],
    [{ by: "range", range: nov, status: "fraud", page: 3 }, "en", "history 2026-11-01..2026-11-22 fraud page 3"],
    [{ by: "range", range: nov, status: "not_found", page: 1 }, "en", "history 2026-11-01..2026-11-22 not_found"],
    [{ by: "range", range: nov, status: "duplicate", page: 2 }, "th", "ประวัติ 1/11/2569 ถึง 22/11/2569 ซ้ำ หน้า 2"],
    [{ by: "range", range: { kind: "dates", from: nov.from, to: nov.from }, page: 1 }, "th", "ประวัติ 1/11/2569"],
    [{ by: "range", range: { kind: "week" }, page: 1 }, "th", "ประวัติ อาทิตย์นี้"],
    [{ by: "range", range: { kind: "lastweek" }, page: 1 }, "en", "history lastweek"],
    [{ by: "range", range: { kind: "dates", from: nov.from, to: nov.from }, page: 1 }, "en", "history 2026-11-01"],
    [{ by: "range", range: { kind: "today" }, page: 1 }, "en", "history today"],
    [{ by: "range", range: { kind: "yesterday" }, page: 1 }, "th", "ประวัติ เมื่อวาน"],
    [{ by: "range", range: { kind: "days", days: 7 }, page: 1 }, "en", "history 7d"],
    [{ by: "range", range: { kind: "days", days: 7 }, page: 1 }, "th", "ประวัติ 7วัน"],
    [{ by: "range", range: { kind: "month" }, status: "valid", page: 1 }, "th", "ประวัติ เดือนนี้ ผ่าน"],
    [{ by: "range", range: { kind: "lastmonth" }, page: 1 }, "en", "history lastmonth"],
    [{ by: "ref", transRef: "015326ABC", page: 1 }, "en", "history ref 015326ABC"],
    [{ by: "ref", transRef: "015326ABC", page: 2 }, "th", "ประวัติ อ้างอิง 015326ABC หน้า 2"],
  ])("%j in %s is %s", (request, lang, text) => {
    expect(formatHistoryCommand(request, lang)).toBe(text);
    expect(parseCommand(text, ctx)).toEqual({ ok: true, command: { kind: "history", lang, request }, bare: false });
  });

  it("makes a next-page postback that still shows yesterday after midnight", () => {
    const days = resolveRange({ kind: "yesterday" }, ctx.now, ctx.timeZone);
    const yesterday = { kind: "dates" as const, from: days.fromDate, to: days.toDate };
    const data = formatHistoryCommand({ by: "range", range: yesterday, status: "valid", page: 2 }, "th");
    expect(data).toBe("ประวัติ 21/11/2569 ผ่าน หน้า 2");
    const nextDay = { ...ctx, now: new Date("2026-11-23T07:00:00Z") };
    expect(parseCommand(data, nextDay)).toMatchObject({ ok: true, command: { request: { range: yesterday } } });
  });

  it.each(["en", "th"] as const)("stays far below LINE's 300 characters for the longest request (%s)", (lang) => {
    const longest = formatHistoryCommand({ by: "ref", transRef: "A".repeat(MAX_TRANS_REF_LENGTH), page: MAX_PAGE }, lang);
    const longestRange = formatHistoryCommand({ by: "range", range: nov, status: "not_found", page: MAX_PAGE }, lang);
    expect(longest.length).toBeLessThan(100);
    expect(longestRange.length).toBeLessThan(100);
  });
});
