// balance: the account's tokens, package and expiry.
import { BALANCE_WORDS } from "./words.js";
import { BALANCE_TEXTS } from "./texts.js";
import { defineCommand, noArguments } from "../define.js";
import type { Lang } from "../types.js";

declare module "../types.js" {
  interface CommandTypes {
    balance: { kind: "balance"; lang: Lang };
  }
}

export const balance = defineCommand({
  name: "balance",
  words: BALANCE_WORDS.command,
  reading: BALANCE_WORDS,
  usage: { en: ["balance"], th: ["โทเคน"] },
  example: { en: "balance", th: "โทเคน" },
  description: {
    en: "tokens left, package and expiry date",
    th: "โทเคนคงเหลือ แพ็กเกจ และวันหมดอายุ",
  },
  audience: "staff",
  bareInCustomerGroup: false,
  keywords: [],
  parse: (args, lang, reader) => noArguments(args, reader, { kind: "balance", lang }),
  menu: { staff: { label: "โทเคนคงเหลือ", sub: "Balance" } },
  kinds: { balance: "staff" },
  texts: BALANCE_TEXTS,
});
