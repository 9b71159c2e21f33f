// docs/thai.md, section 2, as a table: every Thai command word and synonym, and the ways of asking the
// page lists, parse to their command and arguments. The table is copied from the page, not built from
// the registry, so a word dropped from the code (or a clash between two words) fails here.
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/commands/parse.js";
import { admitCommand } from "../../src/roles/admission.js";
import type { Command, ParseContext } from "../../src/commands/types.js";

// Sunday 22 November 2026, 14:00 in Bangkok; English by default, so a Thai answer comes from the Thai word.
const ctx: ParseContext = { now: new Date("2026-11-22T07:00:00Z"), timeZone: "Asia/Bangkok", defaultLang: "en" };

const today = { kind: "today" } as const;
const yesterday = { kind: "yesterday" } as const;
const week = { kind: "days", days: 7 } as const;
const phone = { type: "phone", digits: "0812345678" } as const;

const qr = (amount?: number): Command => ({ kind: "qr", lang: "th", ...(amount === undefined ? {} : { amount }) });
const history = (range: Extract<Command, { kind: "history" }>["request"]): Command => ({ kind: "history", lang: "th", request: range });
const summary = (range: Extract<Command, { kind: "summary" }>["request"]["range"]): Command => ({ kind: "summary", lang: "th", request: { range } });
const paid = (amount: number): Command => ({ kind: "paid", lang: "th", request: { amount } });
const balance: Command = { kind: "balance", lang: "th" };

const TABLE: readonly (readonly [string, Command])[] = [
  // QR
  ["คิวอาร์", qr()],
  ["คิวอาร์ 150", qr(15000)],
  ["คิวอาร์โค้ด 150", qr(15000)],
  ["พร้อมเพย์ 150", qr(15000)],
  ["จ่าย 150", qr(15000)],
  ["จ่ายเงิน 150", qr(15000)],
  ["สแกนจ่าย 150", qr(15000)],
  ["ชำระเงิน", qr()],
  ["ชำระเงิน 1,500 บาท", qr(150000)],
  ["ขอคิวอาร์", qr()],
  ["ขอคิวอาร์ 150", qr(15000)],
  ["คิวอาร์150", qr(15000)],
  ["คิวอาร์ 0812345678 150", { kind: "qr", lang: "th", id: phone, amount: 15000 }],
  ["ขอคิวอาร์ 150 หน่อยครับ", qr(15000)],
  ["จ่ายเงิน 150 ค่ะ", qr(15000)],
  // history
  ["ประวัติ", history({ by: "range", range: today, page: 1 })],
  ["ประวัติเมื่อวาน", history({ by: "range", range: yesterday, page: 1 })],
  ["รายการ", history({ by: "range", range: today, page: 1 })],
  ["สลิป", history({ by: "range", range: today, page: 1 })],
  ["สลิป ซ้ำ", history({ by: "range", range: today, status: "duplicate", page: 1 })],
  ["เช็คสลิป", history({ by: "range", range: today, page: 1 })],
  ["เช็คสลิป เมื่อวาน", history({ by: "range", range: yesterday, page: 1 })],
  ["เช็กสลิป", history({ by: "range", range: today, page: 1 })],
  ["ตรวจสลิป", history({ by: "range", range: today, page: 1 })],
  [
    "ตรวจสลิป 1/11 ถึง 15/11",
    history({ by: "range", range: { kind: "dates", from: { year: 2026, month: 11, day: 1 }, to: { year: 2026, month: 11, day: 15 } }, page: 1 }),
  ],
  ["ประวัติ อ้างอิง 015326095622AQR01234", history({ by: "ref", transRef: "015326095622AQR01234", page: 1 })],
  ["ประวัติ เลขอ้างอิง 015326095622AQR01234", history({ by: "ref", transRef: "015326095622AQR01234", page: 1 })],
  ["ประวัติ สัปดาห์นี้ ปลอม หน้า 2", history({ by: "range", range: week, status: "fraud", page: 2 })],
  // summary: ยอด is money, so it is the day's takings
  ["ยอด", summary(today)],
  ["ยอดวันนี้", summary(today)],
  ["ยอด วันนี้", summary(today)],
  ["ยอดเมื่อวาน", summary(yesterday)],
  ["ยอดเมื่อวานนี้", summary(yesterday)],
  ["ยอดเดือนนี้", summary({ kind: "month" })],
  ["ยอดเดือนที่แล้ว", summary({ kind: "lastmonth" })],
  ["ยอดอาทิตย์นี้", summary(week)],
  ["ยอดสัปดาห์นี้", summary(week)],
  ["ยอดขาย", summary(today)],
  ["ยอดขาย 7วัน", summary(week)],
  ["ยอดโอน", summary(today)],
  ["ยอดโอนเมื่อวาน", summary(yesterday)],
  ["สรุป", summary(today)],
  ["สรุปยอด", summary(today)],
  ["สรุปยอด เดือนที่แล้ว", summary({ kind: "lastmonth" })],
  ["ขอยอดเมื่อวาน", summary(yesterday)],
  ["ยอดเมื่อวานค่ะ", summary(yesterday)],
  // has it arrived?
  ["เช็คยอด 150", paid(15000)],
  ["เช็คยอด150", paid(15000)],
  ["เช็คยอดเข้า 150", paid(15000)],
  ["เช็กยอด 150", paid(15000)],
  ["เช็กยอดเข้า 150", paid(15000)],
  ["เช็คเงินเข้า 150", paid(15000)],
  ["ยอดเข้า 1,500", paid(150000)],
  ["เงินเข้า 150 บาท", paid(15000)],
  ["ได้รับ 150", paid(15000)],
  ["เช็คยอด 150 ค่ะ", paid(15000)],
  // balance
  ["โทเคน", balance],
  ["โทเค็น", balance],
  ["เครดิต", balance],
  ["คงเหลือ", balance],
  ["ยอดคงเหลือ", balance],
  ["โทเคนคงเหลือ", balance],
  ["แพ็กเกจ", balance],
  ["แพ็คเกจ", balance],
  // contact, help, id
  ["ติดต่อร้าน", { kind: "contact", lang: "th" }],
  ["ติดต่อ", { kind: "contact", lang: "th" }],
  ["วิธีใช้", { kind: "help", lang: "th" }],
  ["ช่วยเหลือ", { kind: "help", lang: "th" }],
  ["เมนู", { kind: "help", lang: "th" }],
  ["คำสั่ง", { kind: "help", lang: "th" }],
  ["วิธีใช้ ประวัติ", { kind: "help", lang: "th", topic: "history" }],
  ["วิธีใช้ ยอด", { kind: "help", lang: "th", topic: "summary" }],
  ["ไอดี", { kind: "id", lang: "th" }],
];

describe("docs/thai.md's command words", () => {
  it.each(TABLE)("%s", (typed, expected) => {
    const parsed = parseCommand(typed, ctx);
    expect(parsed.ok ? parsed.command : parsed.failure).toEqual(expected);
  });
});

describe("talk that only looks like a command", () => {
  // A command word with nothing but a polite ending, or only starting like one: talk, answered (if at
  // all) as talk, never with a command's reply.
  it.each(["สลิปค่ะ", "ยอด ค่ะ", "ยอดค่ะ", "เงินเข้ายังคะ", "ขอบคุณค่ะ", "ขอโทษค่ะ", "ประวัติศาสตร์", "จ่ายแล้วค่ะ"])("%s is no command", (typed) => {
    expect(parseCommand(typed, ctx)).toMatchObject({ ok: false, failure: { kind: "unknown", lang: "th" } });
  });

  // In a group with customers, a command word alone is everyday talk there: it is not acted on.
  it.each(["ยอด", "สลิป", "เมนู", "คำสั่ง", "จ่ายเงิน", "ชำระเงิน", "สแกนจ่าย", "ยอดขาย", "เช็คสลิป", "โทเคน", "วิธีใช้"])(
    "%s alone in a customer group is talk, from a customer or from staff",
    (typed) => {
      const parsed = parseCommand(typed, ctx);
      if (!parsed.ok) throw new Error(`${typed} did not parse`);
      expect(parsed.bare).toBe(true);
      for (const role of ["customer", "staff"] as const) {
        expect(admitCommand(parsed.command.kind, { bare: parsed.bare, addressed: false }, { role, place: "customer_group", staffPlace: false }, true)).toEqual({ kind: "ignore" });
      }
    },
  );
});
