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

  const CHECK = {
    code: 100200,
    status: "valid",
    amount: 150,
    transRef: "REF1",
    transDate: "2026-11-20T07:00:00.000Z",
    senderName: "A, B",
    receiverName: "C",
    receiverAccount: "xxx-1",
    source: "line_oa_merchant",
    tokensCharged: 0.75,
    createdAt: "2026-11-20T07:01:00.000Z",
  };
  const RAW_HEADER = "createdAt,createdAtLocal,transDate,transDateLocal,status,amount,transRef,senderName,receiverName,receiverAccount,source,tokensCharged,code";
  const RAW_ROW = '2026-11-20T07:01:00.000Z,2026-11-20 14:01:00,2026-11-20T07:00:00.000Z,2026-11-20 14:00:00,valid,150,REF1,"A, B",C,xxx-1,line_oa_merchant,0.75,100200';

  it("opens the owner's file with Thai headers and the chat's words, then the service's raw columns", () => {
    expect(csvHeader("readable", "th")).toBe(`เวลาตรวจ,เวลาโอน,สถานะ,ยอดเงิน,เลขอ้างอิง,ผู้โอน,ผู้รับเงิน,บัญชีผู้รับ,ช่องทาง,โทเคนที่ใช้,${RAW_HEADER}\r\n`);
    expect(csvRow(CHECK, "Asia/Bangkok", "readable", "th")).toBe(`2026-11-20 14:01:00,2026-11-20 14:00:00,ผ่าน,150,REF1,"A, B",C,xxx-1,LINE OA ของร้าน,0.75,${RAW_ROW}\r\n`);
  });

  it.each([
    ["fraud", "dashboard", "ปลอม", "แดชบอร์ด"],
    ["duplicate", "line_group", "ซ้ำ", "กลุ่ม LINE"],
    ["not_found", "facebook_page", "ไม่พบ", "เพจ Facebook"],
    // What the service adds later is written as it came, never dropped.
    ["pending", "kiosk", "pending", "kiosk"],
  ])("writes status %s and channel %s in Thai as %s and %s", (status, source, statusThai, sourceThai) => {
    const fields = csvRow({ ...CHECK, status, source, senderName: "A" }, "Asia/Bangkok", "readable", "th").split(",");
    expect([fields[2], fields[8]]).toEqual([statusThai, sourceThai]);
  });

  it("keeps the formula guard in the readable columns too", () => {
    expect(csvRow({ ...CHECK, senderName: "=HYPERLINK(1)" }, "Asia/Bangkok", "readable", "th")).toContain(",'=HYPERLINK(1),C,");
  });

  it("writes an English shop's readable columns in English", () => {
    expect(csvHeader("readable", "en")).toBe(`Checked at,Transferred at,Status,Amount,Reference,Payer,Receiver,Receiver's account,Channel,Tokens used,${RAW_HEADER}\r\n`);
    expect(csvRow(CHECK, "Asia/Bangkok", "readable", "en")).toBe(`2026-11-20 14:01:00,2026-11-20 14:00:00,Valid,150,REF1,"A, B",C,xxx-1,LINE OA (shop),0.75,${RAW_ROW}\r\n`);
  });

  it("writes the raw choice for accounting software in the service's own English, whatever the shop's language", () => {
    expect(csvHeader("raw", "th")).toBe(`${RAW_HEADER}\r\n`);
    expect(csvRow(CHECK, "Asia/Bangkok", "raw", "th")).toBe(`${RAW_ROW}\r\n`);
  });
});
