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
      expect(info.usage[lang].startsWith(commandWord(name, lang))).toBe(true);
      expect(info.description[lang].length).toBeGreaterThan(0);
      const parsed = parseCommand(info.example[lang], ctx);
      expect(parsed).toMatchObject({ ok: true, command: { kind: name, lang } });
    },
  );

  it("marks history, summary, paid and balance as staff-only, and only id as acted on alone in a customer group", () => {
    expect(COMMAND_NAMES.filter((name) => COMMANDS[name].audience === "staff")).toEqual(["history", "summary", "paid", "balance"]);
    expect(COMMAND_NAMES.filter((name) => COMMANDS[name].bareInCustomerGroup)).toEqual(["id"]);
  });

  it("lists the command words the README lists", () => {
    expect(COMMANDS.qr.words).toEqual({ en: ["qr", "pay", "promptpay"], th: ["คิวอาร์", "พร้อมเพย์", "จ่าย"] });
    expect(COMMANDS.history.words).toEqual({ en: ["history", "h", "slips"], th: ["ประวัติ", "รายการ"] });
    expect(COMMANDS.balance.words).toEqual({
      en: ["balance", "credit", "tokens", "info"],
      th: ["ยอด", "เครดิต", "คงเหลือ", "โทเคน"],
    });
    expect(COMMANDS.help.words).toEqual({ en: ["help", "?", "menu"], th: ["ช่วยเหลือ", "วิธีใช้", "เมนู"] });
    expect(COMMANDS.id.words).toEqual({ en: ["id", "whoami"], th: ["ไอดี"] });
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
