// Cutting @mentions (UTF-16 index/length from LINE) out of group text before parsing.
import { describe, expect, it } from "vitest";
import { cutMentions } from "../../src/commands/mentions.js";
import { parseCommand } from "../../src/commands/parse.js";

const ctx = { now: new Date("2026-11-22T07:00:00Z"), timeZone: "Asia/Bangkok", defaultLang: "th" } as const;

describe("cutMentions", () => {
  it("cuts the bot's mention from `@ShopBot qr 0812345678 150` so it parses as a qr command", () => {
    const text = "@ShopBot qr 0812345678 150";
    const cut = cutMentions(text, [{ index: 0, length: 8 }]);
    expect(cut.trim()).toBe("qr 0812345678 150");
    expect(parseCommand(cut, ctx)).toEqual({
      ok: true,
      command: { kind: "qr", lang: "en", id: { type: "phone", digits: "0812345678" }, amount: 15000 },
      bare: false,
    });
  });

  it("counts UTF-16 units, so emoji and Thai before the mention shift nothing", () => {
    const text = "😀 ร้าน @ShopBot ยอด";
    const index = text.indexOf("@");
    expect(index).toBe(8); // the emoji is 2 units, ร้าน 4 (its tone mark and vowel count)
    expect(cutMentions(text, [{ index, length: 8 }])).toBe("😀 ร้าน   ยอด");
  });

  it.each<[string, string, { index: number; length: number }[], string]>([
    ["a mention in the middle keeps words apart", "qr@Bot150", [{ index: 2, length: 4 }], "qr 150"],
    [
      "several, in any order",
      "@A hi @B qr",
      [
        { index: 6, length: 2 },
        { index: 0, length: 2 },
      ],
      "  hi   qr",
    ],
    [
      "overlapping spans",
      "@ShopBot qr",
      [
        { index: 0, length: 5 },
        { index: 3, length: 5 },
      ],
      "  qr",
    ],
    [
      "one span inside another",
      "@ShopBot qr",
      [
        { index: 0, length: 8 },
        { index: 2, length: 2 },
      ],
      "  qr",
    ],
    ["a span past the end is clamped", "qr @Bot", [{ index: 3, length: 100 }], "qr  "],
    ["a span starting past the end is ignored", "qr", [{ index: 5, length: 3 }], "qr"],
    ["a negative index is clamped", "@Bot qr", [{ index: -2, length: 6 }], "  qr"],
    [
      "empty and negative lengths are ignored",
      "qr",
      [
        { index: 0, length: 0 },
        { index: 1, length: -1 },
      ],
      "qr",
    ],
    [
      "NaN and Infinity are ignored",
      "qr",
      [
        { index: Number.NaN, length: 1 },
        { index: 0, length: Number.POSITIVE_INFINITY },
      ],
      "qr",
    ],
    ["fractions are truncated", "@Bot qr", [{ index: 0.7, length: 4.9 }], "  qr"],
    ["no mentions", "qr 150", [], "qr 150"],
    ["empty text", "", [{ index: 0, length: 3 }], ""],
  ])("%s", (_name, text, spans, expected) => {
    expect(cutMentions(text, spans)).toBe(expected);
  });
});
