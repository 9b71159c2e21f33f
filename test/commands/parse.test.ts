// The command parser against the README's Commands section: every example, word, alias and usage problem.
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/commands/parse.js";
import { formatPaidCommand } from "../../src/commands/format.js";
import { HISTORY_THAI_KEYWORDS } from "../../src/commands/parse-history.js";
import { normalizeText } from "../../src/commands/normalize.js";
import { COMMANDS, COMMAND_NAMES } from "../../src/commands/registry.js";
import type { Command, HistoryRequest, ParseContext, ParseResult, UsageProblem } from "../../src/commands/types.js";

// Sunday 22 November 2026, 14:00 in Bangkok.
const ctx: ParseContext = { now: new Date("2026-11-22T07:00:00Z"), timeZone: "Asia/Bangkok", defaultLang: "th" };
const enCtx: ParseContext = { ...ctx, defaultLang: "en" };

function command(text: string, context: ParseContext = ctx): Command {
  const result = parseCommand(text, context);
  if (!result.ok) throw new Error(`${JSON.stringify(text)} did not parse: ${JSON.stringify(result.failure)}`);
  return result.command;
}

function history(text: string, context: ParseContext = ctx): HistoryRequest {
  const parsed = command(text, context);
  if (parsed.kind !== "history") throw new Error(`${text} is ${parsed.kind}, not history`);
  return parsed.request;
}

function problem(text: string): UsageProblem {
  const result: ParseResult = parseCommand(text, ctx);
  if (result.ok || result.failure.kind !== "usage") throw new Error(`${text} gave ${JSON.stringify(result)}`);
  return result.failure.problem;
}

const day = (year: number, month: number, d: number) => ({ year, month, day: d });
const phone = { type: "phone", digits: "0812345678" } as const;

describe("the README's examples", () => {
  it.each<[string, Command]>([
    ["export yesterday", { kind: "export", lang: "en", request: { range: { kind: "yesterday" } } }],
    ["export 7d fraud", { kind: "export", lang: "en", request: { range: { kind: "days", days: 7 }, status: "fraud" } }],
    ["ส่งออก เดือนนี้", { kind: "export", lang: "th", request: { range: { kind: "month" } } }],
    ["ส่งออก 1/11 ถึง 15/11", { kind: "export", lang: "th", request: { range: { kind: "dates", from: day(2026, 11, 1), to: day(2026, 11, 15) } } }],
    ["qr 0812345678 150", { kind: "qr", lang: "en", id: phone, amount: 15000 }],
    ["qr 081-234-5678 1,500.50", { kind: "qr", lang: "en", id: phone, amount: 150050 }],
    ["qr 150", { kind: "qr", lang: "en", amount: 15000 }],
    ["คิวอาร์ 0105551234567", { kind: "qr", lang: "th", id: { type: "citizen", digits: "0105551234567" } }],
    ["history", { kind: "history", lang: "en", request: { by: "range", range: { kind: "today" }, page: 1 } }],
    ["history yesterday fraud", { kind: "history", lang: "en", request: { by: "range", range: { kind: "yesterday" }, status: "fraud", page: 1 } }],
    [
      "history 2026-11-01..2026-11-15",
      {
        kind: "history",
        lang: "en",
        request: { by: "range", range: { kind: "dates", from: day(2026, 11, 1), to: day(2026, 11, 15) }, page: 1 },
      },
    ],
    ["history ref 015326095622AQR01234", { kind: "history", lang: "en", request: { by: "ref", transRef: "015326095622AQR01234", page: 1 } }],
    ["ประวัติ เมื่อวาน ซ้ำ", { kind: "history", lang: "th", request: { by: "range", range: { kind: "yesterday" }, status: "duplicate", page: 1 } }],
    ["balance", { kind: "balance", lang: "en" }],
    ["ยอด", { kind: "summary", lang: "th", request: { range: { kind: "today" } } }],
    ["โทเคน", { kind: "balance", lang: "th" }],
    ["help history", { kind: "help", lang: "en", topic: "history" }],
    ["id", { kind: "id", lang: "en" }],
  ])("%s", (text, expected) => {
    expect(command(text)).toEqual(expected);
  });
});

/** Every command word with the command and language it must parse to, typed out so a wrong table fails. */
const WORDS: readonly (readonly [string, string, "en" | "th"])[] = [
  ...(["qr", "pay", "promptpay"] as const).map((word) => [word, "qr", "en"] as const),
  ...(["คิวอาร์", "คิวอาร์โค้ด", "พร้อมเพย์", "จ่าย", "จ่ายเงิน", "สแกนจ่าย", "ชำระเงิน"] as const).map((word) => [word, "qr", "th"] as const),
  ...(["history", "h", "slips"] as const).map((word) => [word, "history", "en"] as const),
  ...(["ประวัติ", "รายการ", "สลิป", "เช็คสลิป", "เช็กสลิป", "ตรวจสลิป", "ประวัติตรวจสลิป", "ประวัติสลิป"] as const).map((word) => [word, "history", "th"] as const),
  ...(["summary", "sales"] as const).map((word) => [word, "summary", "en"] as const),
  ...(["ยอด", "ยอดขาย", "ยอดโอน", "ยอดโอนเข้า", "ยอดรวม", "ยอดทั้งหมด", "รายรับ", "ปิดยอด", "รายงาน", "สรุป", "สรุปยอด"] as const).map((word) => [word, "summary", "th"] as const),
  ...(["export", "csv"] as const).map((word) => [word, "export", "en"] as const),
  ...(["ส่งออก", "ส่งออกไฟล์"] as const).map((word) => [word, "export", "th"] as const),
  ...(["paid", "received"] as const).map((word) => [word, "paid", "en"] as const),
  ...(
    [
      "เช็คยอด",
      "เช็คยอดเข้า",
      "เช็กยอด",
      "เช็กยอดเข้า",
      "เช็คเงินเข้า",
      "เช็กเงินเข้า",
      "เช็ค",
      "เช็ก",
      "เช็คเงิน",
      "เช็กเงิน",
      "เช็คโอน",
      "เช็กโอน",
      "ตรวจยอด",
      "ยอดเข้า",
      "เงินเข้า",
      "โอนเข้า",
      "เข้ายัง",
      "ได้รับ",
    ] as const
  ).map((word) => [word, "paid", "th"] as const),
  ...(["balance", "credit", "tokens", "info"] as const).map((word) => [word, "balance", "en"] as const),
  ...(
    ["โทเคน", "โทเค็น", "เครดิต", "คงเหลือ", "ยอดคงเหลือ", "แพ็กเกจ", "แพ็คเกจ", "แพคเกจ", "แพ็กเกจตรวจสลิป", "เช็คโทเคน", "เช็กโทเคน", "โทเคนเหลือ", "เหลือกี่โทเคน", "วันหมดอายุ"] as const
  ).map((word) => [word, "balance", "th"] as const),
  ...(["contact"] as const).map((word) => [word, "contact", "en"] as const),
  ...(["ติดต่อร้าน", "ติดต่อ", "ติดต่อแอดมิน", "คุยกับแอดมิน", "แอดมิน", "สอบถาม"] as const).map((word) => [word, "contact", "th"] as const),
  ...(["help", "?", "menu"] as const).map((word) => [word, "help", "en"] as const),
  ...(
    ["วิธีใช้", "วิธีใช้งาน", "ใช้ยังไง", "ช่วยเหลือ", "เมนู", "คำสั่ง", "วิธีจ่ายเงิน", "วิธีจ่าย", "จ่ายยังไง", "โอนยังไง", "ชำระยังไง", "ชำระเงินยังไง", "เลขบัญชี", "เลขพร้อมเพย์", "พร้อมเพย์อะไร"] as const
  ).map((word) => [word, "help", "th"] as const),
  ...(["id", "whoami"] as const).map((word) => [word, "id", "en"] as const),
  ...(["ไอดี", "ไอดีกลุ่ม"] as const).map((word) => [word, "id", "th"] as const),
];

describe("command words", () => {
  const words = WORDS;

  it("are the registry's words, every one of them", () => {
    const registered = COMMAND_NAMES.flatMap((name) => (["en", "th"] as const).flatMap((lang) => COMMANDS[name].words[lang].map((word) => `${word} ${name} ${lang}`)));
    expect(registered.sort()).toEqual(WORDS.map(([word, name, lang]) => `${word} ${name} ${lang}`).sort());
  });

  // `paid` needs its amount; every other command word works alone.
  const said = (word: string, name: string) => (name === "paid" ? `${word} 150` : word);

  it.each(words)("%s is %s and answers in %s", (word, name, lang) => {
    const parsed = command(said(word, name), lang === "en" ? ctx : enCtx);
    expect(parsed.kind).toBe(name);
    expect(parsed.lang).toBe(lang);
  });

  it.each(words)("%s works upper-cased, with / or ! and surrounded by odd spaces", (word, name) => {
    for (const text of [word.toUpperCase(), `/${word}`, `!${word}`, `\u00A0\u3000 ${word}\n\t`, `/ ${word}`].map((w) => said(w, name))) {
      expect(command(text).kind, text).toBe(name);
    }
  });

  it("takes the reply language from the command word, not from the default", () => {
    expect(command("qr 150", ctx).lang).toBe("en");
    expect(command("จ่าย 150", enCtx).lang).toBe("th");
    expect(command("ช่วยเหลือ history", enCtx)).toEqual({ kind: "help", lang: "th", topic: "history" });
  });

  it("reads full-width and Thai digits and full-width punctuation", () => {
    expect(command("／ｑｒ　０８１２３４５６７８　１５０")).toEqual({ kind: "qr", lang: "en", id: phone, amount: 15000 });
    expect(command("คิวอาร์ ๑๕๐ บาท")).toEqual({ kind: "qr", lang: "th", amount: 15000 });
  });

  it("reads Thai whose tone mark was typed before the vowel, and a split sara am", () => {
    // เมื่อวาน with the tone mark (U+0E48) typed before sara uee (U+0E37); ซ้ำ with nikhahit + sara aa.
    expect(history("ประวัติ เม\u0E48\u0E37อวาน ซ\u0E49\u0E4D\u0E32")).toEqual({
      by: "range",
      range: { kind: "yesterday" },
      status: "duplicate",
      page: 1,
    });
  });

  it.each([
    ["ประวัติเมื่อวาน", "history"],
    ["ประวัติเมื่อวานซ้ำหน้า2", "history"],
    ["คิวอาร์150", "qr"],
    ["จ่าย150บาท", "qr"],
    ["ช่วยเหลือประวัติ", "help"],
    ["ยอดคงเหลือ", "balance"],
    ["เครดิตคงเหลือ", "balance"],
    ["qr150", "qr"],
    ["pay0812345678", "qr"],
  ])("Thai command words (and qr) may have arguments glued on: %s", (text, name) => {
    expect(command(text).kind).toBe(name);
  });

  it("reads glued Thai arguments the same as spaced ones", () => {
    expect(history("ประวัติเมื่อวานซ้ำหน้า2")).toEqual(history("ประวัติ เมื่อวาน ซ้ำ หน้า 2"));
    expect(command("จ่าย150บาท")).toEqual(command("จ่าย 150 บาท"));
  });
});

describe("text that is no command", () => {
  it.each([
    ["hello", "hello", "th"],
    ["hello there", "hello", "th"],
    ["สวัสดีครับ", "สวัสดีครับ", "th"],
    ["qrr 150", "qrr", "th"],
    ["h2o", "h2o", "th"],
    // Words that only start like a Thai command: history (the school subject), food menu.
    ["ประวัติศาสตร์", "ประวัติศาสตร์", "th"],
    ["เมนูอาหาร", "เมนูอาหาร", "th"],
    ["!!qr", "!qr", "th"],
  ])("%s is unknown (word %s)", (text, word, lang) => {
    expect(parseCommand(text, ctx)).toEqual({ ok: false, failure: { kind: "unknown", lang, word } });
  });

  it("answers unknown English text in the default language and Thai text in Thai", () => {
    expect(parseCommand("hello", enCtx)).toEqual({ ok: false, failure: { kind: "unknown", lang: "en", word: "hello" } });
    expect(parseCommand("สวัสดี", enCtx)).toEqual({ ok: false, failure: { kind: "unknown", lang: "th", word: "สวัสดี" } });
  });

  it("shortens a very long unknown word", () => {
    const result = parseCommand("x".repeat(5000), ctx);
    expect(result).toMatchObject({ ok: false, failure: { kind: "unknown" } });
    if (!result.ok && result.failure.kind === "unknown") expect(Array.from(result.failure.word).length).toBe(40);
  });

  it.each(["", "   ", "\n\t", "\u00A0\u3000", "/", "!", "\u200B"])("%j is empty", (text) => {
    expect(parseCommand(text, enCtx)).toEqual({ ok: false, failure: { kind: "empty", lang: "en" } });
  });
});

describe("qr arguments", () => {
  it.each<[string, Omit<Extract<Command, { kind: "qr" }>, "kind" | "lang">]>([
    ["qr", {}],
    ["qr 0812345678", { id: phone }],
    ["qr 081 234 5678", { id: phone }],
    ["qr 081-234-5678", { id: phone }],
    ["qr 081\u2013234\u20135678", { id: phone }],
    ["qr +66812345678", { id: phone }],
    ["qr +66 81 234 5678", { id: phone }],
    ["qr 66812345678", { id: phone }],
    ["qr +66 0812345678", { id: phone }],
    ["qr 0812345678 150", { id: phone, amount: 15000 }],
    ["qr 081 234 5678 150", { id: phone, amount: 15000 }],
    ["qr 081-234-5678 1,500.50", { id: phone, amount: 150050 }],
    ["qr 150 0812345678", { id: phone, amount: 15000 }],
    ["qr 0105551234567", { id: { type: "citizen", digits: "0105551234567" } }],
    ["qr 1 2345 67890 12 3", { id: { type: "citizen", digits: "1234567890123" } }],
    ["qr 1-2345-67890-12-3 500.25", { id: { type: "citizen", digits: "1234567890123" }, amount: 50025 }],
    ["qr 0 1055 51234 56 7 20", { id: { type: "citizen", digits: "0105551234567" }, amount: 2000 }],
    ["qr 140000812345678", { id: { type: "ewallet", digits: "140000812345678" } }],
    ["qr 140000812345678 42.42", { id: { type: "ewallet", digits: "140000812345678" }, amount: 4242 }],
    ["qr 150", { amount: 15000 }],
    ["qr 150.5", { amount: 15050 }],
    ["qr 150.05", { amount: 15005 }],
    ["qr 0.01", { amount: 1 }],
    ["qr 1,500", { amount: 150000 }],
    ["qr 1,500.00", { amount: 150000 }],
    ["qr 1,234,567.89", { amount: 123456789 }],
    ["qr 123456789", { amount: 12345678900 }],
    ["qr ฿150", { amount: 15000 }],
    ["qr ฿ 150", { amount: 15000 }],
    ["qr 150฿", { amount: 15000 }],
    ["qr 150บาท", { amount: 15000 }],
    ["qr 150 บาท", { amount: 15000 }],
    ["qr 150 baht", { amount: 15000 }],
    ["qr 150THB", { amount: 15000 }],
    ["qr 0812345678 ฿150", { id: phone, amount: 15000 }],
    ["qr ฿150 0812345678", { id: phone, amount: 15000 }],
    ["qr 0812345678 150 บาท", { id: phone, amount: 15000 }],
    ["qr 9,999,999,999.99", { amount: 999999999999 }],
    ["qr 0812345678 9999999999.99", { id: phone, amount: 999999999999 }],
    ["จ่าย 0812345678 150บาท", { id: phone, amount: 15000 }],
  ])("%s", (text, expected) => {
    const parsed = command(text);
    expect(parsed).toEqual({ kind: "qr", lang: parsed.lang, ...expected });
  });

  it.each<[string, UsageProblem]>([
    ["qr 0", { code: "bad_amount", input: "0" }],
    ["qr 0.00", { code: "bad_amount", input: "0.00" }],
    ["qr -150", { code: "bad_amount", input: "-150" }],
    ["qr 1,50", { code: "bad_amount", input: "1,50" }],
    ["qr 150abc", { code: "bad_amount", input: "150abc" }],
    ["qr 1e5", { code: "bad_amount", input: "1e5" }],
    ["qr ฿abc", { code: "bad_amount", input: "abc" }],
    ["qr 150.", { code: "bad_amount", input: "150." }],
    ["qr 0812345678 0", { code: "bad_amount", input: "0" }],
    ["qr 1.234", { code: "amount_decimals", input: "1.234" }],
    ["qr 150.500", { code: "amount_decimals", input: "150.500" }],
    ["qr 0812345678 1.999", { code: "amount_decimals", input: "1.999" }],
    ["qr 10,000,000,000", { code: "amount_too_large", input: "10,000,000,000" }],
    ["qr 10000000000.00", { code: "amount_too_large", input: "10000000000.00" }],
    ["qr ฿99999999999", { code: "amount_too_large", input: "99999999999" }],
    ["qr 0812345678 12345678901", { code: "amount_too_large", input: "12345678901" }],
    ["qr 1234567890", { code: "bad_promptpay_id", input: "1234567890", digits: 10 }],
    ["qr 08123456789", { code: "bad_promptpay_id", input: "08123456789", digits: 11 }],
    ["qr 081-234-567", { code: "bad_promptpay_id", input: "081-234-567", digits: 9 }],
    ["qr 081-234-567 150.00", { code: "bad_promptpay_id", input: "081-234-567", digits: 9 }],
    ["qr 12345678901234 ฿150", { code: "bad_promptpay_id", input: "12345678901234", digits: 14 }],
    ["qr 081 234 567", { code: "bad_promptpay_id", input: "081 234 567", digits: 9 }],
    // A phone one digit short, with a good amount: the id is named, and only the id.
    ["qr 081234567 150", { code: "bad_promptpay_id", input: "081234567", digits: 9 }],
    ["qr 081-234-567 1,500", { code: "bad_promptpay_id", input: "081-234-567", digits: 9 }],
    // A negative amount after a good id is a wrong amount, not a dash in the id.
    ["qr 0812345678 -5", { code: "bad_amount", input: "-5" }],
    ["qr 0812345678 −5", { code: "bad_amount", input: "−5" }],
    ["qr -5 0812345678", { code: "bad_amount", input: "-5" }],
    ["qr 0812345678 12.345", { code: "amount_decimals", input: "12.345" }],
    ["qr abc", { code: "unexpected", input: "abc" }],
    ["qr 0812345678 abc", { code: "unexpected", input: "abc" }],
    ["qr ฿150 ฿200", { code: "unexpected", input: "200" }],
    ["qr ฿", { code: "unexpected", input: "฿" }],
    ["qr บาท", { code: "unexpected", input: "บาท" }],
  ])("%s is a usage error", (text, expected) => {
    expect(problem(text)).toEqual(expected);
  });

  it("keeps the reply language of the command word in usage errors", () => {
    expect(parseCommand("คิวอาร์ 0", enCtx)).toEqual({
      ok: false,
      failure: { kind: "usage", lang: "th", command: "qr", problem: { code: "bad_amount", input: "0" } },
    });
  });
});

describe("history ranges", () => {
  it.each<[string, HistoryRequest]>([
    ["history today", { by: "range", range: { kind: "today" }, page: 1 }],
    ["ประวัติ วันนี้", { by: "range", range: { kind: "today" }, page: 1 }],
    ["history yesterday", { by: "range", range: { kind: "yesterday" }, page: 1 }],
    ["ประวัติ เมื่อวาน", { by: "range", range: { kind: "yesterday" }, page: 1 }],
    ["ประวัติ เมื่อวานนี้", { by: "range", range: { kind: "yesterday" }, page: 1 }],
    ["history 7d", { by: "range", range: { kind: "days", days: 7 }, page: 1 }],
    ["history week", { by: "range", range: { kind: "week" }, page: 1 }],
    ["history this week", { by: "range", range: { kind: "week" }, page: 1 }],
    ["history last week", { by: "range", range: { kind: "lastweek" }, page: 1 }],
    ["ประวัติ อาทิตย์นี้", { by: "range", range: { kind: "week" }, page: 1 }],
    ["ประวัติ สัปดาห์ที่แล้ว", { by: "range", range: { kind: "lastweek" }, page: 1 }],
    ["history 20/11/26", { by: "range", range: { kind: "dates", from: day(2026, 11, 20), to: day(2026, 11, 20) }, page: 1 }],
    ["history 20/11/69", { by: "range", range: { kind: "dates", from: day(2026, 11, 20), to: day(2026, 11, 20) }, page: 1 }],
    ["history 1/1/43", { by: "range", range: { kind: "dates", from: day(2000, 1, 1), to: day(2000, 1, 1) }, page: 1 }],
    ["history 1/1/42", { by: "range", range: { kind: "dates", from: day(2042, 1, 1), to: day(2042, 1, 1) }, page: 1 }],
    // Typed the wrong way round: turned round, or across the new year when that is the shorter range.
    ["history 15/11..1/11", { by: "range", range: { kind: "dates", from: day(2026, 11, 1), to: day(2026, 11, 15) }, page: 1 }],
    ["history 2026-11-15 to 2026-11-01", { by: "range", range: { kind: "dates", from: day(2026, 11, 1), to: day(2026, 11, 15) }, page: 1 }],
    ["ประวัติ 2/1/2570 ถึง 1/1/2570", { by: "range", range: { kind: "dates", from: day(2027, 1, 1), to: day(2027, 1, 2) }, page: 1 }],
    ["ประวัติ 28/12 ถึง 3/1", { by: "range", range: { kind: "dates", from: day(2025, 12, 28), to: day(2026, 1, 3) }, page: 1 }],
    ["ประวัติ 28/12/2569 ถึง 3/1", { by: "range", range: { kind: "dates", from: day(2026, 12, 28), to: day(2027, 1, 3) }, page: 1 }],
    ["ประวัติ 7วัน", { by: "range", range: { kind: "days", days: 7 }, page: 1 }],
    ["ประวัติ 7 วัน", { by: "range", range: { kind: "days", days: 7 }, page: 1 }],
    ["history 30d", { by: "range", range: { kind: "days", days: 30 }, page: 1 }],
    ["history 30 days", { by: "range", range: { kind: "days", days: 30 }, page: 1 }],
    ["history 1d", { by: "range", range: { kind: "days", days: 1 }, page: 1 }],
    ["history 366d", { by: "range", range: { kind: "days", days: 366 }, page: 1 }],
    ["history month", { by: "range", range: { kind: "month" }, page: 1 }],
    ["history this month", { by: "range", range: { kind: "month" }, page: 1 }],
    ["ประวัติ เดือนนี้", { by: "range", range: { kind: "month" }, page: 1 }],
    ["history lastmonth", { by: "range", range: { kind: "lastmonth" }, page: 1 }],
    ["history last month", { by: "range", range: { kind: "lastmonth" }, page: 1 }],
    ["ประวัติ เดือนที่แล้ว", { by: "range", range: { kind: "lastmonth" }, page: 1 }],
    ["history 2026-11-20", { by: "range", range: { kind: "dates", from: day(2026, 11, 20), to: day(2026, 11, 20) }, page: 1 }],
    ["history 20/11/2026", { by: "range", range: { kind: "dates", from: day(2026, 11, 20), to: day(2026, 11, 20) }, page: 1 }],
    ["history 20/11/2569", { by: "range", range: { kind: "dates", from: day(2026, 11, 20), to: day(2026, 11, 20) }, page: 1 }],
    ["history 2569-11-20", { by: "range", range: { kind: "dates", from: day(2026, 11, 20), to: day(2026, 11, 20) }, page: 1 }],
    ["history 20/11", { by: "range", range: { kind: "dates", from: day(2026, 11, 20), to: day(2026, 11, 20) }, page: 1 }],
    ["history 5/1", { by: "range", range: { kind: "dates", from: day(2026, 1, 5), to: day(2026, 1, 5) }, page: 1 }],
    ["history 29/02/2028", { by: "range", range: { kind: "dates", from: day(2028, 2, 29), to: day(2028, 2, 29) }, page: 1 }],
    ["history 29/2/2571", { by: "range", range: { kind: "dates", from: day(2028, 2, 29), to: day(2028, 2, 29) }, page: 1 }],
  ])("%s", (text, expected) => {
    expect(history(text)).toEqual(expected);
  });

  const nov = { kind: "dates", from: day(2026, 11, 1), to: day(2026, 11, 15) } as const;
  it.each([
    "history 2026-11-01..2026-11-15",
    "history 2026-11-01 .. 2026-11-15",
    "history 2026-11-01.. 2026-11-15",
    "history 2026-11-01 ..2026-11-15",
    "history 2026-11-01\u20262026-11-15",
    "history 2026-11-01 to 2026-11-15",
    "history 1/11..15/11",
    "history 1/11/2026 to 15/11/2569",
    "ประวัติ 1/11 ถึง 15/11",
    "ประวัติ 1/11ถึง15/11",
    "ประวัติ 1/11/2569 ถึง 15/11/2569",
    "history 1/11 - 15/11",
  ])("%s covers 1 to 15 November 2026", (text) => {
    expect(history(text)).toEqual({ by: "range", range: nov, page: 1 });
  });

  it("reads a range across the new year", () => {
    expect(history("history 28/12/2568..3/1/2569")).toEqual({
      by: "range",
      range: { kind: "dates", from: day(2025, 12, 28), to: day(2026, 1, 3) },
      page: 1,
    });
  });

  describe("`20/11` is this year in the business zone", () => {
    // 31 Dec 2026 17:30 UTC is already 1 Jan 2027 00:30 in Bangkok.
    const newYearBangkok: ParseContext = { ...ctx, now: new Date("2026-12-31T17:30:00Z") };
    const lastMinuteBangkok: ParseContext = { ...ctx, now: new Date("2026-12-31T16:59:59.999Z") };

    it("takes the Bangkok year just after midnight on new year's eve, while UTC is still in the old year", () => {
      expect(history("history 20/11", newYearBangkok)).toEqual({
        by: "range",
        range: { kind: "dates", from: day(2027, 11, 20), to: day(2027, 11, 20) },
        page: 1,
      });
    });

    it("still takes the old year in the last minute of 31 December in Bangkok", () => {
      expect(history("history 20/11", lastMinuteBangkok)).toEqual({
        by: "range",
        range: { kind: "dates", from: day(2026, 11, 20), to: day(2026, 11, 20) },
        page: 1,
      });
    });

    it("follows the configured zone, not Bangkok, when another is set", () => {
      const honolulu: ParseContext = { ...newYearBangkok, timeZone: "Pacific/Honolulu" };
      expect(history("history 20/11", honolulu)).toMatchObject({ range: { from: day(2026, 11, 20) } });
    });
  });
});

describe("history statuses, pages and refs", () => {
  it.each([
    ["valid", "valid"],
    ["ok", "valid"],
    ["ผ่าน", "valid"],
    ["invalid", "invalid"],
    ["ไม่ผ่าน", "invalid"],
    ["fraud", "fraud"],
    ["ปลอม", "fraud"],
    ["duplicate", "duplicate"],
    ["dup", "duplicate"],
    ["ซ้ำ", "duplicate"],
    ["not_found", "not_found"],
    ["notfound", "not_found"],
    ["not found", "not_found"],
    ["ไม่พบ", "not_found"],
    ["error", "error"],
    ["ผิดพลาด", "error"],
  ])("status word %s is %s", (word, status) => {
    expect(history(`history ${word}`)).toEqual({ by: "range", range: { kind: "today" }, status, page: 1 });
    expect(history(`ประวัติ ${word.toUpperCase()}`)).toEqual({ by: "range", range: { kind: "today" }, status, page: 1 });
  });

  it("reads ประวัติไม่ผ่าน as invalid, not as passed", () => {
    expect(history("ประวัติไม่ผ่าน")).toMatchObject({ status: "invalid" });
    expect(history("ประวัติผ่าน")).toMatchObject({ status: "valid" });
  });

  it.each([
    "history yesterday fraud page 2",
    "history fraud yesterday page 2",
    "history page 2 fraud yesterday",
    "history p 2 yesterday fraud",
    "history p2 yesterday fraud",
    "history page2 FRAUD Yesterday",
    "ประวัติ เมื่อวาน ปลอม หน้า 2",
    "ประวัติ หน้า2 ปลอม เมื่อวาน",
  ])("takes range, status and page in any order: %s", (text) => {
    expect(history(text)).toEqual({ by: "range", range: { kind: "yesterday" }, status: "fraud", page: 2 });
  });

  it.each([
    ["history ref ABC123", { by: "ref", transRef: "ABC123", page: 1 }],
    ["history REF 015326aBc_-9 page 3", { by: "ref", transRef: "015326aBc_-9", page: 3 }],
    ["history page 3 ref X1", { by: "ref", transRef: "X1", page: 3 }],
    ["ประวัติ อ้างอิง 015326ABC", { by: "ref", transRef: "015326ABC", page: 1 }],
    ["ประวัติอ้างอิง015326ABC", { by: "ref", transRef: "015326ABC", page: 1 }],
    ["history ref " + "A".repeat(64), { by: "ref", transRef: "A".repeat(64), page: 1 }],
  ])("%s keeps the transRef exactly as typed", (text, expected) => {
    expect(history(text)).toEqual(expected);
  });
});

describe("history usage problems", () => {
  it.each<[string, UsageProblem]>([
    ["history 31/02/2026", { code: "no_such_date", input: "31/02/2026" }],
    ["history 29/02/2027", { code: "no_such_date", input: "29/02/2027" }],
    ["history 2026-13-01", { code: "no_such_date", input: "2026-13-01" }],
    ["history 32/1", { code: "no_such_date", input: "32/1" }],
    ["history 0/1", { code: "no_such_date", input: "0/1" }],
    ["history 20.11.2026", { code: "bad_date", input: "20.11.2026" }],
    ["history 1/1/1999", { code: "bad_date", input: "1/1/1999" }],
    ["history 1/11..", { code: "bad_date", input: "1/11.." }],
    ["history 1/11..31/11", { code: "no_such_date", input: "31/11" }],
    ["history 20/11/1", { code: "bad_date", input: "20/11/1" }],
    ["history page", { code: "bad_page", input: "page" }],
    ["history page 0", { code: "bad_page", input: "0" }],
    ["history page -1", { code: "bad_page", input: "-1" }],
    ["history page two", { code: "bad_page", input: "two" }],
    ["history page 10000", { code: "bad_page", input: "10000" }],
    ["history p0", { code: "bad_page", input: "0" }],
    ["ประวัติ หน้า", { code: "bad_page", input: "หน้า" }],
    ["history ref", { code: "missing_ref" }],
    ["ประวัติ อ้างอิง", { code: "missing_ref" }],
    ["history ref page 2", { code: "missing_ref" }],
    ["history ref " + "A".repeat(65), { code: "unexpected", input: "A".repeat(39) + "…" }],
    ["history ref abc/def", { code: "unexpected", input: "abc/def" }],
    ["history ref X yesterday", { code: "unexpected", input: "yesterday" }],
    ["history fraud ref X", { code: "unexpected", input: "fraud" }],
    ["history ref X ref Y", { code: "unexpected", input: "ref" }],
    ["history 0d", { code: "unexpected", input: "0d" }],
    ["history 367d", { code: "range_too_long", input: "367d", maxDays: 366 }],
    ["history 99999d", { code: "range_too_long", input: "99999d", maxDays: 366 }],
    ["history 400 days", { code: "range_too_long", input: "400 days", maxDays: 366 }],
    ["ประวัติ 0วัน", { code: "unexpected", input: "0วัน" }],
    ["history 7", { code: "unexpected", input: "7" }],
    ["history yesterday today", { code: "unexpected", input: "today" }],
    ["history fraud dup", { code: "unexpected", input: "dup" }],
    ["history page 1 page 2", { code: "unexpected", input: "page" }],
    ["history tomorrow", { code: "unexpected", input: "tomorrow" }],
    ["ประวัติ เมื่อวาน อาหาร", { code: "unexpected", input: "อาหาร" }],
  ])("%s", (text, expected) => {
    expect(problem(text)).toEqual(expected);
  });
});

describe("help, balance and id arguments", () => {
  it.each([
    ["help", undefined],
    ["help qr", "qr"],
    ["help /history", "history"],
    ["help ยอด", "summary"],
    ["วิธีใช้ โทเคน", "balance"],
    ["ช่วยเหลือ ประวัติ", "history"],
    ["เมนู ไอดี", "id"],
    ["? h", "history"],
  ])("%s has topic %s", (text, topic) => {
    const parsed = command(text);
    expect(parsed).toEqual(topic === undefined ? { kind: "help", lang: parsed.lang } : { kind: "help", lang: parsed.lang, topic });
  });

  it.each<[string, UsageProblem]>([
    ["help me", { code: "unexpected", input: "me" }],
    ["help qr history", { code: "unexpected", input: "history" }],
    ["balance now", { code: "unexpected", input: "now" }],
    ["โทเคน ขาย", { code: "unexpected", input: "ขาย" }],
    ["id please", { code: "unexpected", input: "please" }],
  ])("%s", (text, expected) => {
    expect(problem(text)).toEqual(expected);
  });

  it("allows another word of the same command (`โทเคน คงเหลือ`)", () => {
    expect(command("โทเคน คงเหลือ")).toEqual({ kind: "balance", lang: "th" });
  });
});

describe("usage failures", () => {
  it("name the command and its language", () => {
    expect(parseCommand("ประวัติ 31/02/2569", enCtx)).toEqual({
      ok: false,
      failure: { kind: "usage", lang: "th", command: "history", problem: { code: "no_such_date", input: "31/02/2569" } },
    });
  });

  it("echo at most 40 characters of what was typed", () => {
    const result = problem(`qr ${"9".repeat(3000)}`);
    expect(result.code).toBe("bad_promptpay_id");
    if ("input" in result) expect(result.input.length).toBeLessThanOrEqual(40);
  });

  it("turn glued Thai that does not parse into an unknown word but keep glued numbers as usage errors", () => {
    expect(parseCommand("รายการอาหาร", ctx)).toMatchObject({ ok: false, failure: { kind: "unknown" } });
    expect(parseCommand("คิวอาร์0", ctx)).toMatchObject({ ok: false, failure: { kind: "usage", problem: { code: "bad_amount" } } });
  });
});

describe("Thai keywords", () => {
  it("are written in the canonical mark order the text is normalized to, or they would never match", () => {
    for (const word of HISTORY_THAI_KEYWORDS) expect(normalizeText(word), word).toBe(word);
  });
});

describe("summary and paid", () => {
  it.each<[string, Command]>([
    ["summary", { kind: "summary", lang: "en", request: { range: { kind: "today" } } }],
    ["summary 7d", { kind: "summary", lang: "en", request: { range: { kind: "days", days: 7 } } }],
    ["sales yesterday fraud", { kind: "summary", lang: "en", request: { range: { kind: "yesterday" }, status: "fraud" } }],
    ["สรุป", { kind: "summary", lang: "th", request: { range: { kind: "today" } } }],
    ["ยอดวันนี้", { kind: "summary", lang: "th", request: { range: { kind: "today" } } }],
    ["ยอดขาย 7วัน", { kind: "summary", lang: "th", request: { range: { kind: "days", days: 7 } } }],
    ["ยอดขายวันนี้", { kind: "summary", lang: "th", request: { range: { kind: "today" } } }],
    ["สรุปยอด เดือนนี้", { kind: "summary", lang: "th", request: { range: { kind: "month" } } }],
    [
      "summary 2026-11-01..2026-11-15",
      { kind: "summary", lang: "en", request: { range: { kind: "dates", from: { year: 2026, month: 11, day: 1 }, to: { year: 2026, month: 11, day: 15 } } } },
    ],
    ["paid 150", { kind: "paid", lang: "en", request: { amount: 15000 } }],
    ["paid ฿1,500.50", { kind: "paid", lang: "en", request: { amount: 150050 } }],
    ["ได้รับ 150 บาท", { kind: "paid", lang: "th", request: { amount: 15000 } }],
    ["เช็คยอด150", { kind: "paid", lang: "th", request: { amount: 15000 } }],
    ["paid 150 after 2026-11-22T07:05:00.000Z", { kind: "paid", lang: "en", request: { amount: 15000, after: new Date("2026-11-22T07:05:00.000Z") } }],
    ["ได้รับ 99 หลัง 2026-11-22T07:05:00Z", { kind: "paid", lang: "th", request: { amount: 9900, after: new Date("2026-11-22T07:05:00.000Z") } }],
    ["paid 150 yesterday", { kind: "paid", lang: "en", request: { amount: 15000, range: { kind: "yesterday" } } }],
    ["เช็คยอด 150 20/11", { kind: "paid", lang: "th", request: { amount: 15000, range: { kind: "dates", from: day(2026, 11, 20), to: day(2026, 11, 20) } } }],
    ["เช็คยอด 20/11 150", { kind: "paid", lang: "th", request: { amount: 15000, range: { kind: "dates", from: day(2026, 11, 20), to: day(2026, 11, 20) } } }],
    ["เช็คยอด 150 7วัน", { kind: "paid", lang: "th", request: { amount: 15000, range: { kind: "days", days: 7 } } }],
  ])("%s", (text, expected) => {
    expect(command(text)).toEqual(expected);
  });

  it.each<[string, UsageProblem]>([
    ["paid", { code: "missing_amount" }],
    ["เช็คยอด", { code: "missing_amount" }],
    ["paid 150 200", { code: "unexpected", input: "200" }],
    ["paid -5", { code: "bad_amount", input: "-5" }],
    ["paid 150 after yesterday", { code: "unexpected", input: "after yesterday" }],
    ["paid yesterday", { code: "missing_amount" }],
    ["paid abc", { code: "bad_amount", input: "abc" }],
    ["paid 150 fraud", { code: "unexpected", input: "fraud" }],
    ["paid 150 after 2026-11-22T07:05:00Z yesterday", { code: "unexpected", input: "yesterday" }],
    ["summary page 2", { code: "unexpected", input: "page 2" }],
    ["summary ref ABC", { code: "unexpected", input: "ref" }],
    ["ยอด วันนี้ เมื่อวาน", { code: "unexpected", input: "เมื่อวาน" }],
    ["summary 400d", { code: "range_too_long", input: "400d", maxDays: 366 }],
  ])("%s is a usage error", (text, expected) => {
    expect(problem(text)).toEqual(expected);
  });

  it("writes the QR card's check-payment command so that it parses back", () => {
    const after = new Date("2026-11-22T07:05:03.123Z");
    for (const lang of ["en", "th"] as const) {
      for (const amount of [15000, 150050, 1]) {
        expect(command(formatPaidCommand({ amount, after }, lang))).toEqual({ kind: "paid", lang, request: { amount, after } });
      }
    }
  });

  it.each<[Command & { kind: "paid" }, string]>([
    [{ kind: "paid", lang: "th", request: { amount: 15000, range: { kind: "yesterday" } } }, "เช็คยอด 150 เมื่อวาน"],
    [{ kind: "paid", lang: "th", request: { amount: 15050, range: { kind: "dates", from: day(2026, 11, 20), to: day(2026, 11, 20) } } }, "เช็คยอด 150.50 20/11/2569"],
    [{ kind: "paid", lang: "en", request: { amount: 15000, range: { kind: "week" } } }, "paid 150 week"],
  ])("writes a payment check of another day as it is typed: %s", (expected, text) => {
    expect(formatPaidCommand(expected.request, expected.lang)).toBe(text);
    expect(command(text)).toEqual(expected);
  });
});
