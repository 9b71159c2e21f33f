// The command table: complete, unambiguous, and every example in it works.
import { describe, expect, it } from "vitest";
import { COMMANDS, COMMAND_NAMES, buildWordIndex, commandWord, lookupCommandWord } from "../../src/commands/registry.js";
import { parseCommand } from "../../src/commands/parse.js";
import type { CommandName } from "../../src/commands/types.js";

const ctx = { now: new Date("2026-11-22T07:00:00Z"), timeZone: "Asia/Bangkok", defaultLang: "en" } as const;

describe("COMMANDS", () => {
  it("has one entry per command name, under its own name", () => {
    expect(Object.keys(COMMANDS).sort()).toEqual([...COMMAND_NAMES].sort());
    for (const name of COMMAND_NAMES) expect(COMMANDS[name].name).toBe(name);
  });

  it.each(COMMAND_NAMES.flatMap((name) => (["en", "th"] as const).map((lang) => [name, lang] as const)))(
    "%s has %s words, usage, description and an example that parses to it in that language",
    (name, lang) => {
      const info = COMMANDS[name];
      expect(info.words[lang].length).toBeGreaterThan(0);
      expect(info.usage[lang].length).toBeGreaterThan(0);
      for (const line of info.usage[lang]) expect(line.startsWith(commandWord(name, lang)), line).toBe(true);
      expect(info.description[lang].length).toBeGreaterThan(0);
      const parsed = parseCommand(info.example[lang], ctx);
      expect(parsed).toMatchObject({ ok: true, command: { kind: name, lang } });
    },
  );

  it.each(COMMAND_NAMES)("%s: every Thai usage line is a real command, at most three of them", (name) => {
    const lines = COMMANDS[name].usage.th;
    expect(lines.length).toBeLessThanOrEqual(3);
    for (const line of lines) {
      expect(line, line).not.toMatch(/[[\]|<>‹›]/u);
      expect(parseCommand(line, ctx), line).toMatchObject({ ok: true, command: { kind: name, lang: "th" } });
    }
  });

  it("marks history, summary, export, paid and balance as staff-only, and only id as acted on alone in a customer group", () => {
    expect(COMMAND_NAMES.filter((name) => COMMANDS[name].audience === "staff")).toEqual(["history", "summary", "export", "paid", "balance"]);
    expect(COMMAND_NAMES.filter((name) => COMMANDS[name].bareInCustomerGroup)).toEqual(["id"]);
  });

  it("lists the command words the README and docs/thai.md list, the written word first", () => {
    expect(COMMANDS.qr.words).toEqual({
      en: ["qr", "pay", "promptpay"],
      th: ["คิวอาร์", "คิวอาร์โค้ด", "พร้อมเพย์", "จ่าย", "จ่ายเงิน", "สแกนจ่าย", "ชำระเงิน"],
    });
    expect(COMMANDS.history.words).toEqual({
      en: ["history", "h", "slips"],
      th: ["ประวัติ", "รายการ", "สลิป", "เช็คสลิป", "เช็กสลิป", "ตรวจสลิป", "ประวัติตรวจสลิป", "ประวัติสลิป"],
    });
    expect(COMMANDS.summary.words).toEqual({
      en: ["summary", "sales"],
      th: ["ยอด", "ยอดขาย", "ยอดโอน", "ยอดโอนเข้า", "ยอดรวม", "ยอดทั้งหมด", "รายรับ", "ปิดยอด", "รายงาน", "สรุป", "สรุปยอด"],
    });
    expect(COMMANDS.export.words).toEqual({ en: ["export", "csv"], th: ["ส่งออก", "ส่งออกไฟล์"] });
    expect(COMMANDS.paid.words).toEqual({
      en: ["paid", "received"],
      th: [
        "เช็คยอด", "เช็คยอดเข้า", "เช็กยอด", "เช็กยอดเข้า", "เช็คเงินเข้า", "เช็กเงินเข้า", "เช็ค", "เช็ก", "เช็คเงิน", "เช็กเงิน",
        "เช็คโอน", "เช็กโอน", "ตรวจยอด", "ยอดเข้า", "เงินเข้า", "โอนเข้า", "เข้ายัง", "ได้รับ",
      ],
    });
    expect(COMMANDS.balance.words).toEqual({
      en: ["balance", "credit", "tokens", "info"],
      th: [
        "โทเคน", "โทเค็น", "เครดิต", "คงเหลือ", "ยอดคงเหลือ", "แพ็กเกจ", "แพ็คเกจ", "แพคเกจ", "แพ็กเกจตรวจสลิป", "เช็คโทเคน", "เช็กโทเคน",
        "โทเคนเหลือ", "เหลือกี่โทเคน", "วันหมดอายุ",
      ],
    });
    expect(COMMANDS.contact.words).toEqual({ en: ["contact"], th: ["ติดต่อร้าน", "ติดต่อ", "ติดต่อแอดมิน", "คุยกับแอดมิน", "แอดมิน", "สอบถาม"] });
    expect(COMMANDS.help.words).toEqual({
      en: ["help", "?", "menu"],
      th: [
        "วิธีใช้", "วิธีใช้งาน", "ใช้ยังไง", "ช่วยเหลือ", "เมนู", "คำสั่ง", "จ่ายยังไง", "โอนยังไง", "ชำระยังไง", "ชำระเงินยังไง", "เลขบัญชี",
        "เลขพร้อมเพย์", "พร้อมเพย์อะไร",
      ],
    });
    expect(COMMANDS.id.words).toEqual({ en: ["id", "whoami"], th: ["ไอดี", "ไอดีกลุ่ม"] });
  });
});

describe("word index", () => {
  it("looks words up in any case", () => {
    expect(lookupCommandWord("HISTORY")).toEqual({ name: "history", lang: "en" });
    expect(lookupCommandWord("ประวัติ")).toEqual({ name: "history", lang: "th" });
    expect(lookupCommandWord("nope")).toBeUndefined();
  });

  function tableWith(name: CommandName, en: string[]) {
    return { ...COMMANDS, [name]: { ...COMMANDS[name], words: { ...COMMANDS[name].words, en } } };
  }

  it("throws when two commands claim a word", () => {
    expect(() => buildWordIndex(tableWith("id", ["id", "qr"]))).toThrow(/"qr" is used by both qr and id/u);
  });

  it("throws when a word differs from another only by case", () => {
    expect(() => buildWordIndex(tableWith("id", ["id", "HISTORY"]))).toThrow(/both history and id/u);
  });

  it("throws when a command repeats its own word", () => {
    expect(() => buildWordIndex(tableWith("id", ["id", "id"]))).toThrow(/both id and id/u);
  });

  it("throws on a word with a space in it", () => {
    expect(() => buildWordIndex(tableWith("id", ["who am i"]))).toThrow(/one word/u);
  });
});
