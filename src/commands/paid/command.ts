// paid: "has it arrived?", valid checks of exactly this amount today or on the day given.
import { PAID_WORDS } from "./words.js";
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
  words: PAID_WORDS.command,
  reading: PAID_WORDS,
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
  texts: PAID_TEXTS,
});
