// Typos of command words and greetings: what staff probably meant.
import { describe, expect, it } from "vitest";
import { isGreeting, suggestCommand } from "../../src/commands/suggest.js";

describe("suggestCommand", () => {
  it.each([
    ["histroy", "history"],
    ["histry", "history"],
    ["HISTORYY", "history"],
    ["blance", "balance"],
    ["balnce", "balance"],
    ["hepl", "help"],
    ["tokns", "balance"],
    ["promtpay", "qr"],
  ])("reads %s as a typo of %s", (typo, meant) => {
    expect(suggestCommand(typo)).toBe(meant);
  });

  it.each(["history", "hello", "thanks", "hi", "ok", "qrr", "zzzzzz", "ประวัต", "150", "h1story"])("suggests nothing for %s", (word) => {
    expect(suggestCommand(word)).toBeUndefined();
  });
});

describe("isGreeting", () => {
  it.each(["hello", "Hi!", "hey there", "good morning", "สวัสดีค่ะ", "สวัสดีครับ ทุกคน", "หวัดดี", "ดีค่ะ"])("%s is a greeting", (text) => {
    expect(isGreeting(text)).toBe(true);
  });

  it.each(["history", "hint", "highway", "ขอบคุณค่ะ", "โอนแล้วค่ะ", "dีค่ะ"])("%s is not", (text) => {
    expect(isGreeting(text)).toBe(false);
  });
});
