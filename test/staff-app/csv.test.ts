// A check as a CSV row: RFC 4180 quoting, a spreadsheet's formulas kept as text, times on the shop's clock.
import { describe, expect, it } from "vitest";
import { csvField, csvHeader, csvRow, localTime } from "../../src/staff-app/csv.js";

describe("csv", () => {
  it.each([
    [null, ""],
    [150.5, "150.5"],
    ["นาย สมชาย ใจดี", "นาย สมชาย ใจดี"],
    ["a, b", '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["=HYPERLINK(1)", "'=HYPERLINK(1)"],
    ["+66812345678", "'+66812345678"],
    ["-5", "'-5"],
    ["@sum", "'@sum"],
    // A tab or CR first: a spreadsheet drops it and reads what follows.
    ["\t=1+1", "'\t=1+1"],
    ["\r=1+1", '"\'\r=1+1"'],
    ["\tplain", "'\tplain"],
    // Blanks before the sign: a spreadsheet skips them.
    [" =HYPERLINK(1)", "' =HYPERLINK(1)"],
    ["   +66812345678", "'   +66812345678"],
    ["\u3000@sum", "'\u3000@sum"],
    ["\u00A0-5", "'\u00A0-5"],
    // The full-width signs, which some spreadsheets read as the narrow ones.
    ["＝HYPERLINK(1)", "'＝HYPERLINK(1)"],
    ["＋66812345678", "'＋66812345678"],
    ["－5", "'－5"],
    ["＠sum", "'＠sum"],
    [" ＝1+1", "' ＝1+1"],
    // A sign later in the text is no formula.
    ["นาย =สมชาย", "นาย =สมชาย"],
    ["A-5", "A-5"],
    [" 150", " 150"],
  ])("writes %j as %j", (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it.each([
    ["2026-11-20T17:30:05.000Z", "Asia/Bangkok", "2026-11-21 00:30:05"],
    ["2026-11-20T17:30:05.000Z", "UTC", "2026-11-20 17:30:05"],
    ["2026-03-08T10:00:00.000Z", "America/New_York", "2026-03-08 06:00:00"],
    ["not a time", "Asia/Bangkok", ""],
    [null, "Asia/Bangkok", ""],
  ])("shows %s in %s as %j", (iso, zone, shown) => {
    expect(localTime(iso, zone)).toBe(shown);
  });

  it("writes the header and a row in the same columns", () => {
    const header = csvHeader().trimEnd().split(",");
    const row = csvRow(
      {
        code: 100200,
        status: "valid",
        amount: 150,
        transRef: "REF1",
        transDate: "2026-11-20T07:00:00.000Z",
        senderName: "A, B",
        receiverName: "C",
        receiverAccount: "xxx-1",
        source: "api",
        tokensCharged: 0.75,
        createdAt: "2026-11-20T07:01:00.000Z",
      },
      "Asia/Bangkok",
    );
    expect(row).toBe('2026-11-20T07:01:00.000Z,2026-11-20 14:01:00,2026-11-20T07:00:00.000Z,2026-11-20 14:00:00,valid,150,REF1,"A, B",C,xxx-1,api,0.75,100200\r\n');
    expect(header).toHaveLength(13);
  });
});
