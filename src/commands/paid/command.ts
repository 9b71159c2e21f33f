// paid: "has it arrived?", valid checks of exactly this amount today or on the day given.
import { PAID_TEXTS } from "./texts.js";
import { defineCommand } from "../define.js";
import { spaceRanges } from "../parse-history.js";
import { PAID_THAI_KEYWORDS, parsePaidArgs } from "./parse.js";
import type { Lang, PaidRequest } from "../types.js";

declare module "../types.js" {
  interface CommandTypes {
    paid: { kind: "paid"; lang: Lang; request: PaidRequest };
  }
}

export const paid = defineCommand({
  name: "paid",
  // `ได้รับ` is still read (buttons sent before say it) but never written: `ได้รับ 150` reads like an
  // announcement that 150 baht came in, not a question.
  words: {
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
  },
  usage: { en: ["paid <amount> [yesterday|date]"], th: ["เช็คยอด 150", "เช็คยอด 1,500.50", "เช็คยอด 150 เมื่อวาน"] },
  example: { en: "paid 150", th: "เช็คยอด 150" },
  description: {
    en: "has a valid slip of exactly this amount been checked today (or on the day given)?",
    // The bot knows checked slips, not the bank: it never says the money has or has not come in.
    th: "ดูว่าวันนี้มีสลิปยอดนี้ที่ผ่านการตรวจแล้วหรือยัง",
  },
  audience: "staff",
  bareInCustomerGroup: false,
  keywords: PAID_THAI_KEYWORDS,
  parse: (args, lang, reader) => {
    const result = parsePaidArgs(reader.tokens(spaceRanges(args)), reader.today);
    return result.ok ? { ok: true, command: { kind: "paid", lang, request: result.request } } : result;
  },
  menu: { staff: { label: "เช็คยอดเข้า", sub: "Check payment" } },
  kinds: { paid: "staff" },
  handler: async () => (await import("./handle.js")).handlePaid,
  texts: PAID_TEXTS,
});
