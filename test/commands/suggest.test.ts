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

  it.each(["history", "hello", "thanks", "hi", "ok", "qrr", "zzzzzz", "150", "h1story"])("suggests nothing for %s", (word) => {
    expect(suggestCommand(word)).toBeUndefined();
  });

  // Thai near misses (docs/thai.md, section 2): a mark or a letter off, or a command word with talk glued on.
  it.each([
    ["ประวัต", "history"],
    ["ประวัด", "history"],
    ["เชคยอด", "paid"],
    ["เช็คยอก", "paid"],
    ["เชคยอด150", "paid"],
    ["ขอเชคยอด", "paid"],
    ["คิวอา", "qr"],
    ["คิวอาร์ค่ะ", "qr"],
    ["ยอดค่ะ", "summary"],
    ["ยอด ค่ะ", "summary"],
    ["ยอดคงเหลือค่ะ", "balance"],
    ["สลิปค่ะ", "history"],
    ["โทเคนน", "balance"],
    ["วิธีใข้", "help"],
  ])("reads %s as meaning %s", (typo, meant) => {
    expect(suggestCommand(typo)).toBe(meant);
  });

  // Everyday words that start like a command word, and words that share only three letters with one (`เงิน`, `เมนู`).
  it.each(["ขอบคุณค่ะ", "โอนแล้วค่ะ", "ส่งวันไหนคะ", "ยอก", "อร่อยมาก", "พรุ่งนี้เปิดไหม", "เช็คบิล", "เช็คอิน", "ยอดเยี่ยม", "ยอดไปเลย", "เงิน"])("suggests nothing for the Thai talk %s", (word) => {
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
