// contact: "write to the shop"; the bot then keeps out of the way.
import { CONTACT_WORDS } from "./words.js";
import { defineCommand, noArguments } from "../define.js";
import { CONTACT_TEXTS } from "./texts.js";
import type { Lang } from "../types.js";

declare module "../types.js" {
  interface CommandTypes {
    contact: { kind: "contact"; lang: Lang };
  }
}

export const contact = defineCommand({
  name: "contact",
  words: CONTACT_WORDS.command,
  reading: CONTACT_WORDS,
  usage: { en: ["contact"], th: ["ติดต่อร้าน"] },
  example: { en: "contact", th: "ติดต่อร้าน" },
  description: {
    en: "write to the shop's staff in this chat (the bot stays out of the way)",
    th: "ฝากข้อความถึงพนักงานร้านในแชทนี้ (บอทจะไม่ตอบแทรก)",
  },
  audience: "everyone",
  bareInCustomerGroup: false,
  keywords: [],
  parse: (args, lang, reader) => noArguments(args, reader, { kind: "contact", lang }),
  menu: { customer: { label: "ติดต่อร้าน", sub: "Contact the shop" } },
  kinds: { contact: "public" },
  texts: CONTACT_TEXTS,
});
