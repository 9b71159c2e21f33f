// The command table: complete, unambiguous, and every example in it works.
import { describe, expect, it } from "vitest";
import { ANSWER_KINDS, COMMANDS, COMMAND_NAMES, buildKindIndex, buildWordIndex, commandWord, lookupCommandWord } from "../../src/commands/registry.js";
import { defineCommand, noArguments, type AnswerKinds, type CommandDefinition, type CommandInfo } from "../../src/commands/define.js";
import { parseCommand } from "../../src/commands/parse.js";
import type { CommandName } from "../../src/commands/types.js";

const ctx = { now: new Date("2026-11-22T07:00:00Z"), timeZone: "Asia/Bangkok", defaultLang: "en" } as const;

/** The commands, in the order help lists them, typed out. */
const NAMES = ["qr", "history", "summary", "export", "paid", "balance", "contact", "help", "id"] as const;

describe("COMMANDS", () => {
  it("registers the nine commands, in help's order", () => {
    expect(COMMAND_NAMES).toEqual(NAMES);
  });

  it("has one entry per command name, under its own name", () => {
    expect(Object.keys(COMMANDS).sort()).toEqual([...COMMAND_NAMES].sort());
    for (const name of COMMAND_NAMES) expect(COMMANDS[name].name).toBe(name);
  });

  it.each(NAMES.flatMap((name) => (["en", "th"] as const).map((lang) => [name, lang] as const)))(
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

  it.each(NAMES)("%s: every Thai usage line is a real command, at most three of them", (name) => {
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
      ],
    });
    expect(COMMANDS.balance.words).toEqual({
      en: ["balance", "credit", "tokens", "info"],
      th: ["โทเคน", "โทเค็น", "เครดิต", "คงเหลือ", "ยอดคงเหลือ", "แพ็กเกจ", "แพ็คเกจ", "แพคเกจ", "แพ็กเกจตรวจสลิป", "เช็คโทเคน", "เช็กโทเคน", "โทเคนเหลือ", "เหลือกี่โทเคน", "วันหมดอายุ"],
    });
    expect(COMMANDS.contact.words).toEqual({ en: ["contact"], th: ["ติดต่อร้าน", "ติดต่อ", "ติดต่อแอดมิน", "คุยกับแอดมิน", "แอดมิน", "สอบถาม"] });
    expect(COMMANDS.help.words).toEqual({
      en: ["help", "?", "menu"],
      th: ["วิธีใช้", "วิธีใช้งาน", "ใช้ยังไง", "ช่วยเหลือ", "เมนู", "คำสั่ง", "วิธีจ่ายเงิน", "วิธีจ่าย", "จ่ายยังไง", "โอนยังไง", "ชำระยังไง", "ชำระเงินยังไง", "เลขบัญชี", "เลขพร้อมเพย์", "พร้อมเพย์อะไร"],
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

describe("defineCommand", () => {
  const words = { en: ["id"], th: ["ไอดี"] };
  const valid = {
    name: "id",
    words,
    reading: { command: words, family: {}, questions: [], takes: [], needsAmount: false },
    usage: { en: ["id"], th: ["ไอดี"] },
    example: { en: "id", th: "ไอดี" },
    description: { en: "ids", th: "ไอดี" },
    audience: "everyone",
    bareInCustomerGroup: true,
    keywords: [],
    parse: (args, lang, reader) => noArguments(args, reader, { kind: "id", lang }),
    kinds: { id: "public" },
    texts: { th: { hello: "สวัสดีค่ะ" }, en: { hello: "Hello" } },
  } as const satisfies CommandDefinition<"id", AnswerKinds>;

  it("gives the definition back when it is whole", () => {
    expect(defineCommand(valid)).toBe(valid);
  });

  it("throws on a text missing in either language, naming it", () => {
    expect(() => defineCommand({ ...valid, texts: { th: { hello: "สวัสดีค่ะ" }, en: {} } })).toThrow("text hello of id is missing in en");
    expect(() => defineCommand({ ...valid, texts: { th: { hello: "" }, en: { hello: "Hello" } } })).toThrow("text hello of id is missing in th");
  });

  it("throws on words, usage, an example or a description missing in a language", () => {
    expect(() => defineCommand({ ...valid, words: { en: ["id"], th: [] } })).toThrow("command id has no th word");
    expect(() => defineCommand({ ...valid, words: { en: ["id"], th: ["ไอดี"] } })).toThrow("command id's th words are not its words.ts's");
    expect(() => defineCommand({ ...valid, usage: { en: [], th: ["ไอดี"] } })).toThrow("command id has no en usage");
    expect(() => defineCommand({ ...valid, example: { en: "id", th: "" } })).toThrow("command id has no th example");
    expect(() => defineCommand({ ...valid, description: { en: "", th: "ไอดี" } })).toThrow("command id has no en description");
  });

  it("throws on an answer kind without an audience, and on a command without answers", () => {
    const unlabelled = { ...valid, kinds: { id: "everyone" } } as unknown as typeof valid;
    expect(() => defineCommand(unlabelled)).toThrow("answer kind id of id has no audience (public or staff)");
    expect(() => defineCommand({ ...valid, kinds: {} })).toThrow("command id declares no answer kind");
  });
});

describe("answer kinds", () => {
  it("gives each kind its one audience, the commands' beside the shared ones", () => {
    expect(ANSWER_KINDS.get("id")).toBe("public");
    expect(ANSWER_KINDS.get("contact")).toBe("public");
    expect(ANSWER_KINDS.get("help")).toBe("public");
    expect(ANSWER_KINDS.get("staff_help")).toBe("staff");
    expect(ANSWER_KINDS.get("daily_summary")).toBe("staff");
    expect(ANSWER_KINDS.get("usage_error")).toBe("staff");
    expect(ANSWER_KINDS.get("greeting")).toBe("public");
  });

  it("throws when two commands, or a command and the shared answers, make one kind", () => {
    const definitions = NAMES.map((name) => COMMANDS[name]);
    const twice: CommandInfo = { ...COMMANDS.id, kinds: { id: "public", contact: "public" } };
    expect(() => buildKindIndex([...definitions.filter((d) => d.name !== "id"), twice])).toThrow("answer kind contact is made by both contact and id");
    const shared: CommandInfo = { ...COMMANDS.id, kinds: { greeting: "public" } };
    expect(() => buildKindIndex([shared])).toThrow("answer kind greeting is made by both the shared answers and id");
  });
});
