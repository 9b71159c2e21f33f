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
const sevenDays = { kind: "days", days: 7 } as const;
const week = { kind: "week" } as const;
const lastweek = { kind: "lastweek" } as const;
const day = (year: number, month: number, d: number) => ({ year, month, day: d });
const oneDay = (year: number, month: number, d: number) => ({ kind: "dates", from: day(year, month, d), to: day(year, month, d) }) as const;
const days = (from: ReturnType<typeof day>, to: ReturnType<typeof day>) => ({ kind: "dates", from, to }) as const;
const phone = { type: "phone", digits: "0812345678" } as const;

const qr = (amount?: number): Command => ({ kind: "qr", lang: "th", ...(amount === undefined ? {} : { amount }) });
const history = (range: Extract<Command, { kind: "history" }>["request"]): Command => ({ kind: "history", lang: "th", request: range });
const summary = (range: Extract<Command, { kind: "summary" }>["request"]["range"]): Command => ({ kind: "summary", lang: "th", request: { range } });
const paid = (amount: number, range?: Extract<Command, { kind: "paid" }>["request"]["range"]): Command => ({
  kind: "paid",
  lang: "th",
  request: range === undefined ? { amount } : { amount, range },
});
const exportOf = (range: Extract<Command, { kind: "export" }>["request"]["range"]): Command => ({ kind: "export", lang: "th", request: { range } });
const balance: Command = { kind: "balance", lang: "th" };
const contact: Command = { kind: "contact", lang: "th" };
const help: Command = { kind: "help", lang: "th" };
const id: Command = { kind: "id", lang: "th" };

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
  // the bot's own words, and สร้าง / จ่ายด้วย as lead-ins
  ["สร้าง QR", qr()],
  ["สร้าง QR 150", qr(15000)],
  ["สร้างคิวอาร์ 150", qr(15000)],
  ["จ่ายด้วย QR", qr()],
  ["จ่ายด้วยคิวอาร์ 150", qr(15000)],
  // a command word with only an ending is the command, for words that are not talk about paying
  ["คิวอาร์ค่ะ", qr()],
  ["ขอคิวอาร์หน่อยค่ะ", qr()],
  // money as price tags and short forms write it
  ["คิวอาร์ 150.-", qr(15000)],
  ["คิวอาร์ 150บ.", qr(15000)],
  ["คิวอาร์ 150 บ.", qr(15000)],
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
  ["ตรวจสลิป 1/11 ถึง 15/11", history({ by: "range", range: { kind: "dates", from: { year: 2026, month: 11, day: 1 }, to: { year: 2026, month: 11, day: 15 } }, page: 1 })],
  ["ประวัติ อ้างอิง 015326095622AQR01234", history({ by: "ref", transRef: "015326095622AQR01234", page: 1 })],
  ["ประวัติ เลขอ้างอิง 015326095622AQR01234", history({ by: "ref", transRef: "015326095622AQR01234", page: 1 })],
  ["ประวัติ สัปดาห์นี้ ปลอม หน้า 2", history({ by: "range", range: week, status: "fraud", page: 2 })],
  ["ประวัติตรวจสลิป", history({ by: "range", range: today, page: 1 })],
  ["ประวัติสลิป เมื่อวาน", history({ by: "range", range: yesterday, page: 1 })],
  ["ขอดูประวัติ", history({ by: "range", range: today, page: 1 })],
  ["ดูสลิป", history({ by: "range", range: today, page: 1 })],
  ["ประวัติ 20/11/69", history({ by: "range", range: oneDay(2026, 11, 20), page: 1 })],
  ["ประวัติ 1/11-15/11", history({ by: "range", range: days(day(2026, 11, 1), day(2026, 11, 15)), page: 1 })],
  ["ประวัติ 1-15/11", history({ by: "range", range: days(day(2026, 11, 1), day(2026, 11, 15)), page: 1 })],
  ["ประวัติ 15/11 ถึง 1/11", history({ by: "range", range: days(day(2026, 11, 1), day(2026, 11, 15)), page: 1 })],
  ["ประวัติ 28/12 ถึง 3/1", history({ by: "range", range: days(day(2025, 12, 28), day(2026, 1, 3)), page: 1 })],
  ["ประวัติเมื่อวานซืน", history({ by: "range", range: oneDay(2026, 11, 20), page: 1 })],
  // export: a CSV link of a range
  ["ส่งออก", exportOf(today)],
  ["ส่งออก เมื่อวาน", exportOf(yesterday)],
  ["ส่งออกเดือนนี้", exportOf({ kind: "month" })],
  ["ส่งออก 1/11 ถึง 15/11", exportOf(days(day(2026, 11, 1), day(2026, 11, 15)))],
  ["ขอส่งออกไฟล์เดือนที่แล้ว", exportOf({ kind: "lastmonth" })],
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
  ["ยอดอาทิตย์ที่แล้ว", summary(lastweek)],
  ["ยอด สัปดาห์ที่แล้ว", summary(lastweek)],
  ["ยอดอาทิตย์ก่อน", summary(lastweek)],
  ["ยอดขาย", summary(today)],
  ["ยอดขาย 7วัน", summary(sevenDays)],
  ["ยอดโอน", summary(today)],
  ["ยอดโอนเมื่อวาน", summary(yesterday)],
  ["สรุป", summary(today)],
  ["สรุปยอด", summary(today)],
  ["สรุปยอด เดือนที่แล้ว", summary({ kind: "lastmonth" })],
  ["ขอยอดเมื่อวาน", summary(yesterday)],
  ["ยอดเมื่อวานค่ะ", summary(yesterday)],
  ["ยอดโอนเข้า", summary(today)],
  ["ยอดโอนเข้าวันนี้", summary(today)],
  ["ยอดรวม", summary(today)],
  ["ยอดทั้งหมด เมื่อวาน", summary(yesterday)],
  ["รายรับ", summary(today)],
  ["ปิดยอด", summary(today)],
  ["รายงาน เดือนนี้", summary({ kind: "month" })],
  ["ดูยอด", summary(today)],
  ["ขอยอดหน่อยค่ะ", summary(today)],
  ["ขอ ดูยอด", summary(today)],
  // a month by name: the last one that has begun, up to today (22 Nov 2026)
  ["ยอด พ.ย.", summary(days(day(2026, 11, 1), day(2026, 11, 22)))],
  ["ยอดเดือนตุลา", summary(days(day(2026, 10, 1), day(2026, 10, 31)))],
  ["ยอด ตุลาคม", summary(days(day(2026, 10, 1), day(2026, 10, 31)))],
  ["ยอด ธ.ค.", summary(days(day(2025, 12, 1), day(2025, 12, 31)))],
  ["ยอด ต.ค. 2569", summary(days(day(2026, 10, 1), day(2026, 10, 31)))],
  ["ยอดเมื่อวานซืน", summary(oneDay(2026, 11, 20))],
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
  ["เช็กเงินเข้า 150", paid(15000)],
  ["เช็ค 150", paid(15000)],
  ["เช็ก 150", paid(15000)],
  ["ตรวจยอด 150", paid(15000)],
  ["เช็คเงิน 150", paid(15000)],
  ["เข้ายัง 150", paid(15000)],
  ["เช็คโอน 150", paid(15000)],
  ["โอนเข้า 150", paid(15000)],
  ["เงินเข้ายัง 150", paid(15000)],
  ["เช็คยอด 150 เข้ายังคะ", paid(15000)],
  ["เช็คยอด 150 รึยัง", paid(15000)],
  ["เช็คยอด 150 เข้าหรือยังคะ", paid(15000)],
  ["เช็คยอด 150.-", paid(15000)],
  ["เช็คยอด 150บ.", paid(15000)],
  ["เช็คยอด 150 เมื่อวาน", paid(15000, yesterday)],
  ["เช็คยอด 150 20/11", paid(15000, oneDay(2026, 11, 20))],
  // balance
  ["โทเคน", balance],
  ["โทเค็น", balance],
  ["เครดิต", balance],
  ["คงเหลือ", balance],
  ["ยอดคงเหลือ", balance],
  ["โทเคนคงเหลือ", balance],
  ["แพ็กเกจ", balance],
  ["แพ็คเกจ", balance],
  ["แพคเกจ", balance],
  ["แพ็กเกจตรวจสลิป", balance],
  ["เช็คโทเคน", balance],
  ["เช็กโทเคน", balance],
  ["โทเคนเหลือ", balance],
  ["เหลือกี่โทเคน", balance],
  ["เหลือกี่โทเคนคะ", balance],
  ["วันหมดอายุ", balance],
  ["โทเคนค่ะ", balance],
  // contact, help, id
  ["ติดต่อร้าน", contact],
  ["ติดต่อ", contact],
  ["ติดต่อร้านค่ะ", contact],
  ["ติดต่อแอดมิน", contact],
  ["คุยกับแอดมิน", contact],
  ["แอดมิน", contact],
  ["แอดมินคะ", contact],
  ["สอบถาม", contact],
  ["วิธีใช้", help],
  ["วิธีใช้งาน", help],
  ["วิธีจ่ายเงิน", help],
  ["ใช้ยังไง", help],
  ["ช่วยเหลือ", help],
  ["เมนู", help],
  ["คำสั่ง", help],
  ["วิธีใช้ค่ะ", help],
  ["วิธีใช้ ประวัติ", { kind: "help", lang: "th", topic: "history" }],
  ["วิธีใช้ ยอด", { kind: "help", lang: "th", topic: "summary" }],
  // a customer's payment questions get the customers' help: how to pay
  ["จ่ายยังไงคะ", help],
  ["โอนยังไง", help],
  ["ชำระยังไงคะ", help],
  ["ชำระเงินยังไง", help],
  ["ขอเลขบัญชีค่ะ", help],
  ["เลขพร้อมเพย์", help],
  ["พร้อมเพย์อะไรคะ", help],
  ["ไอดี", id],
  ["ไอดีค่ะ", id],
  ["ไอดีกลุ่ม", id],
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
  it.each([
    "เงินเข้ายังคะ",
    "ยอดเข้าค่ะ",
    "โอนเข้าแล้วค่ะ",
    "เข้ายังคะ",
    "ได้รับค่ะ",
    "จ่ายค่ะ",
    "จ่ายเงินค่ะ",
    "ชำระเงินนะคะ",
    "สแกนจ่ายค่ะ",
    "เช็คให้หน่อยค่ะ",
    "จ่ายด้วยค่ะ",
    "ขอบคุณค่ะ",
    "ขอโทษค่ะ",
    "ดูแลด้วยนะ",
    "สร้างบ้าน",
    "ประวัติศาสตร์",
    "จ่ายแล้วค่ะ",
    "โอนแล้วนะคะ",
    "ยอดเยี่ยมเลยวันนี้",
    "ยอดไปเลย",
    "โต๊ะ 2 เช็คบิลแล้วนะ",
    "เช็คอินกี่โมงคะ",
  ])("%s is no command", (typed) => {
    expect(parseCommand(typed, ctx)).toMatchObject({ ok: false, failure: { kind: "unknown", lang: "th" } });
  });

  // A word for the shop's own figures with only an ending: read as its command, but as talk (`how: "talk"`),
  // which runs only where staff ask the bot alone or by name (handlers), and is talk everywhere else.
  it.each([
    ["สลิปค่ะ", "history"],
    ["ยอด ค่ะ", "summary"],
    ["ยอดค่ะ", "summary"],
    ["รายการค่ะ", "history"],
  ])("%s is %s, read as talk", (typed, kind) => {
    expect(parseCommand(typed, ctx)).toMatchObject({ ok: true, how: "talk", command: { kind } });
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
