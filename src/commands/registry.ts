// The command table: every command's words, usage, example and description in Thai and English.
import type { CommandName, Lang } from "./types.js";
import { normalizeText } from "./normalize.js";

export interface CommandInfo {
  readonly name: CommandName;
  /** Words that start the command, lower case; the first of each language is the one the bot writes. */
  readonly words: Readonly<Record<Lang, readonly string[]>>;
  /** The argument pattern, written with the language's first word. */
  readonly usage: Readonly<Record<Lang, string>>;
  /** One command a person can copy; it parses to a command (a test checks this). */
  readonly example: Readonly<Record<Lang, string>>;
  /** What it does, one short line. */
  readonly description: Readonly<Record<Lang, string>>;
  /**
   * Who it is for. `staff`: it shows the shop's private data (its checks, tokens, package), so only
   * staff see it, and only in a 1:1 chat or a staff group. `everyone`: customers may use it too.
   */
  readonly audience: "staff" | "everyone";
  /**
   * Whether its word alone, unaddressed, is acted on in a customer group. Most command words are also
   * everyday words there (`เมนู`, `?`, `ยอด`, `จ่าย`): alone they are talk, with arguments (`qr 150`) or
   * with a mention they are meant. `id` alone is how the owner learns a group's id.
   */
  readonly bareInCustomerGroup: boolean;
}

/** The order help lists them in. */
export const COMMAND_NAMES: readonly CommandName[] = ["qr", "history", "summary", "paid", "balance", "contact", "help", "id"];

export const COMMANDS: Readonly<Record<CommandName, CommandInfo>> = {
  qr: {
    name: "qr",
    words: { en: ["qr", "pay", "promptpay"], th: ["คิวอาร์", "พร้อมเพย์", "จ่าย"] },
    usage: { en: "qr [promptpay-id] [amount]", th: "คิวอาร์ [พร้อมเพย์] [จำนวนเงิน]" },
    example: { en: "qr 0812345678 150", th: "คิวอาร์ 0812345678 150" },
    description: {
      en: "PromptPay QR; without an id it uses the shop's, without an amount the payer types it",
      th: "สร้าง QR พร้อมเพย์ ไม่ใส่เลขพร้อมเพย์จะใช้ของร้าน ไม่ใส่จำนวนเงินผู้จ่ายกรอกเอง",
    },
    audience: "everyone",
    bareInCustomerGroup: false,
  },
  history: {
    name: "history",
    words: { en: ["history", "h", "slips"], th: ["ประวัติ", "รายการ"] },
    usage: {
      en: "history [today|yesterday|7d|month|lastmonth|date|A..B] [status] [page N] or history ref <transRef>",
      th: "ประวัติ [วันนี้|เมื่อวาน|7วัน|เดือนนี้|เดือนที่แล้ว|วันที่|A ถึง B] [สถานะ] [หน้า N] หรือ ประวัติ อ้างอิง <เลขอ้างอิง>",
    },
    example: { en: "history yesterday fraud", th: "ประวัติ เมื่อวาน ซ้ำ" },
    description: {
      en: "slips checked in a period, with totals; statuses: valid, invalid, fraud, duplicate, not_found, error",
      th: "สลิปที่ตรวจในช่วงเวลา พร้อมยอดรวม สถานะ: ผ่าน ไม่ผ่าน ปลอม ซ้ำ ไม่พบ ผิดพลาด",
    },
    audience: "staff",
    bareInCustomerGroup: false,
  },
  summary: {
    name: "summary",
    // `ยอดวันนี้` and `ยอดขาย` are how a Thai owner asks for the day's sales.
    words: { en: ["summary", "sales"], th: ["สรุป", "ยอดวันนี้", "ยอดขาย", "สรุปยอด"] },
    usage: { en: "summary [today|yesterday|7d|month|lastmonth|date|A..B] [status]", th: "สรุป [วันนี้|เมื่อวาน|7วัน|เดือนนี้|เดือนที่แล้ว|วันที่|A ถึง B] [สถานะ]" },
    example: { en: "summary 7d", th: "ยอดขาย เมื่อวาน" },
    description: {
      en: "totals of a period: checks, valid amount, per status and channel, tokens used, a chart",
      th: "สรุปยอดช่วงเวลา: จำนวนรายการ ยอดที่ผ่าน แยกตามสถานะและช่องทาง โทเคนที่ใช้ พร้อมกราฟ",
    },
    audience: "staff",
    bareInCustomerGroup: false,
  },
  paid: {
    name: "paid",
    words: { en: ["paid", "received"], th: ["ได้รับ", "เช็คยอด"] },
    usage: { en: "paid <amount>", th: "ได้รับ <จำนวนเงิน>" },
    example: { en: "paid 150", th: "เช็คยอด 150" },
    description: {
      en: "has a payment of exactly this amount arrived today?",
      th: "วันนี้มีเงินโอนเข้ายอดนี้แล้วหรือยัง",
    },
    audience: "staff",
    bareInCustomerGroup: false,
  },
  balance: {
    name: "balance",
    words: { en: ["balance", "credit", "tokens", "info"], th: ["ยอด", "เครดิต", "คงเหลือ", "โทเคน"] },
    usage: { en: "balance", th: "ยอด" },
    example: { en: "balance", th: "ยอด" },
    description: {
      en: "tokens left, package and expiry date",
      th: "โทเคนคงเหลือ แพ็กเกจ และวันหมดอายุ",
    },
    audience: "staff",
    bareInCustomerGroup: false,
  },
  contact: {
    name: "contact",
    words: { en: ["contact"], th: ["ติดต่อร้าน", "ติดต่อ"] },
    usage: { en: "contact", th: "ติดต่อร้าน" },
    example: { en: "contact", th: "ติดต่อร้าน" },
    description: {
      en: "write to the shop's staff in this chat (the bot stays out of the way)",
      th: "ฝากข้อความถึงพนักงานร้านในแชตนี้ (บอทจะไม่ตอบแทรก)",
    },
    audience: "everyone",
    bareInCustomerGroup: false,
  },
  help: {
    name: "help",
    words: { en: ["help", "?", "menu"], th: ["ช่วยเหลือ", "วิธีใช้", "เมนู"] },
    usage: { en: "help [command]", th: "ช่วยเหลือ [คำสั่ง]" },
    example: { en: "help history", th: "ช่วยเหลือ ประวัติ" },
    description: { en: "the commands, or how to use one", th: "คำสั่งทั้งหมด หรือวิธีใช้คำสั่งหนึ่ง" },
    audience: "everyone",
    bareInCustomerGroup: false,
  },
  id: {
    name: "id",
    words: { en: ["id", "whoami"], th: ["ไอดี"] },
    usage: { en: "id", th: "ไอดี" },
    example: { en: "id", th: "ไอดี" },
    description: {
      en: "your user id and this group's id, for the staff lists",
      th: "ไอดีผู้ใช้และไอดีกลุ่มนี้ สำหรับใส่ในรายชื่อพนักงาน",
    },
    audience: "everyone",
    bareInCustomerGroup: true,
  },
};

export interface CommandWord {
  readonly name: CommandName;
  readonly lang: Lang;
}

/**
 * Indexes the words of a table; a word that two commands (or one command twice) claim throws, so a
 * mistake in the table stops the bot at load instead of silently answering the wrong command.
 */
export function buildWordIndex(table: Readonly<Record<CommandName, CommandInfo>>): ReadonlyMap<string, CommandWord> {
  const index = new Map<string, CommandWord>();
  for (const name of COMMAND_NAMES) {
    const info = table[name];
    for (const lang of ["en", "th"] as const) {
      for (const written of info.words[lang]) {
        const word = normalizeText(written).toLowerCase();
        if (word === "" || word.includes(" ")) throw new Error(`command word "${written}" of ${name} must be one word`);
        const taken = index.get(word);
        if (taken !== undefined) {
          throw new Error(`command word "${written}" is used by both ${taken.name} and ${name}`);
        }
        index.set(word, { name, lang });
      }
    }
  }
  return index;
}

const WORD_INDEX = buildWordIndex(COMMANDS);

/** The Thai command words, longest first: Thai is written without spaces, so they may have text glued on. */
export const THAI_COMMAND_WORDS: readonly string[] = [...WORD_INDEX.entries()]
  .filter(([, entry]) => entry.lang === "th")
  .map(([word]) => word)
  .sort((a, b) => b.length - a.length);

/** The command a word starts (any case, without `/` or `!`), with the language of the word. */
export function lookupCommandWord(word: string): CommandWord | undefined {
  return WORD_INDEX.get(word.toLowerCase());
}

/** The word the bot writes for a command in a language (help texts, quick replies, postback data). */
export function commandWord(name: CommandName, lang: Lang): string {
  const word = COMMANDS[name].words[lang][0];
  if (word === undefined) throw new Error(`command ${name} has no ${lang} word`);
  return word;
}
