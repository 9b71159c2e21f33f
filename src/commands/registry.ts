// The command table: every command's words, usage, example and description in Thai and English.
import type { CommandName, Lang } from "./types.js";
import { normalizeText } from "./normalize.js";

export interface CommandInfo {
  readonly name: CommandName;
  /**
   * Words that start the command, lower case; the first of each language is the one the bot writes.
   * The Thai words and why each is there: docs/thai.md, section 2.
   */
  readonly words: Readonly<Record<Lang, readonly string[]>>;
  /**
   * How to type it, one line each: in Thai two or three real commands to copy (shop staff read
   * examples, not notation), in English the argument pattern. Every Thai line parses (a test checks).
   */
  readonly usage: Readonly<Record<Lang, readonly string[]>>;
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
   * everyday words there (`เมนู`, `?`, `ยอด`, `สลิป`, `จ่ายเงิน`): alone they are talk, with arguments
   * (`qr 150`) or with a mention they are meant. `id` alone is how the owner learns a group's id.
   */
  readonly bareInCustomerGroup: boolean;
}

/** The order help lists them in. */
export const COMMAND_NAMES: readonly CommandName[] = ["qr", "history", "summary", "export", "paid", "balance", "contact", "help", "id"];

export const COMMANDS: Readonly<Record<CommandName, CommandInfo>> = {
  qr: {
    name: "qr",
    words: {
      en: ["qr", "pay", "promptpay"],
      th: ["คิวอาร์", "คิวอาร์โค้ด", "พร้อมเพย์", "จ่าย", "จ่ายเงิน", "สแกนจ่าย", "ชำระเงิน"],
    },
    usage: {
      en: ["qr [promptpay-id] [amount]"],
      th: ["คิวอาร์ 150", "คิวอาร์ 0812345678 150"],
    },
    example: { en: "qr 150", th: "คิวอาร์ 150" },
    description: {
      en: "PromptPay QR; without an id it uses the shop's, without an amount the payer types it",
      th: "QR พร้อมเพย์ให้ลูกค้าสแกนจ่าย ถ้าไม่ใส่เลขพร้อมเพย์ จะใช้ของร้าน ถ้าไม่ใส่ยอด ลูกค้ากรอกยอดเองในแอป",
    },
    audience: "everyone",
    bareInCustomerGroup: false,
  },
  history: {
    name: "history",
    words: {
      en: ["history", "h", "slips"],
      th: ["ประวัติ", "รายการ", "สลิป", "เช็คสลิป", "เช็กสลิป", "ตรวจสลิป", "ประวัติตรวจสลิป", "ประวัติสลิป"],
    },
    usage: {
      en: ["history [today|yesterday|7d|month|lastmonth|date|A..B] [status] [page N]", "history ref <transRef>"],
      th: ["ประวัติ เมื่อวาน", "ประวัติ 1/11 ถึง 15/11 ปลอม", "ประวัติ อ้างอิง 015326095622AQR01234"],
    },
    example: { en: "history yesterday fraud", th: "ประวัติ เมื่อวาน ซ้ำ" },
    description: {
      en: "slips checked in a period, with totals; statuses: valid, invalid, fraud, duplicate, not_found, error",
      th: "สลิปที่ตรวจในวันที่เลือก พร้อมยอดโอนเข้า เลือกดูตามสถานะได้: ผ่าน ไม่ผ่าน ปลอม ซ้ำ ไม่พบ ผิดพลาด",
    },
    audience: "staff",
    bareInCustomerGroup: false,
  },
  summary: {
    name: "summary",
    // In a shop ยอด means money (ยอดขาย, ยอดโอน), so `ยอด` alone is the day's takings; `ยอดวันนี้`,
    // `ยอดเมื่อวาน` are ยอด with its range glued on.
    words: {
      en: ["summary", "sales"],
      th: ["ยอด", "ยอดขาย", "ยอดโอน", "ยอดโอนเข้า", "ยอดรวม", "ยอดทั้งหมด", "รายรับ", "ปิดยอด", "รายงาน", "สรุป", "สรุปยอด"],
    },
    usage: {
      en: ["summary [today|yesterday|7d|month|lastmonth|date|A..B] [status]"],
      th: ["ยอด", "ยอดเมื่อวาน", "ยอด 1/11 ถึง 15/11"],
    },
    example: { en: "summary 7d", th: "ยอดเมื่อวาน" },
    description: {
      en: "totals of a period: checks, valid amount, per status and channel, tokens used, a chart",
      th: "สรุปยอดโอนเข้าของวันนี้หรือวันที่เลือก: จำนวนสลิป แยกตามสถานะและช่องทาง โทเคนที่ใช้ พร้อมกราฟ",
    },
    audience: "staff",
    bareInCustomerGroup: false,
  },
  export: {
    name: "export",
    words: { en: ["export", "csv"], th: ["ส่งออก", "ส่งออกไฟล์"] },
    usage: {
      en: ["export [today|yesterday|7d|month|lastmonth|date|A..B] [status]"],
      th: ["ส่งออก เมื่อวาน", "ส่งออก 1/11 ถึง 15/11"],
    },
    example: { en: "export yesterday", th: "ส่งออก เมื่อวาน" },
    description: {
      en: "a link that downloads the slip checks of a period as a CSV file (opens in Excel), good for 10 minutes",
      th: "ลิงก์ดาวน์โหลดประวัติตรวจสลิปของวันที่เลือกเป็นไฟล์ CSV (เปิดใน Excel ได้) ใช้ได้ 10 นาที",
    },
    audience: "staff",
    bareInCustomerGroup: false,
  },
  paid: {
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
  },
  balance: {
    name: "balance",
    words: {
      en: ["balance", "credit", "tokens", "info"],
      th: [
        "โทเคน",
        "โทเค็น",
        "เครดิต",
        "คงเหลือ",
        "ยอดคงเหลือ",
        "แพ็กเกจ",
        "แพ็คเกจ",
        "แพคเกจ",
        "แพ็กเกจตรวจสลิป",
        "เช็คโทเคน",
        "เช็กโทเคน",
        "โทเคนเหลือ",
        "เหลือกี่โทเคน",
        "วันหมดอายุ",
      ],
    },
    usage: { en: ["balance"], th: ["โทเคน"] },
    example: { en: "balance", th: "โทเคน" },
    description: {
      en: "tokens left, package and expiry date",
      th: "โทเคนคงเหลือ แพ็กเกจ และวันหมดอายุ",
    },
    audience: "staff",
    bareInCustomerGroup: false,
  },
  contact: {
    name: "contact",
    words: { en: ["contact"], th: ["ติดต่อร้าน", "ติดต่อ", "ติดต่อแอดมิน", "คุยกับแอดมิน", "แอดมิน", "สอบถาม"] },
    usage: { en: ["contact"], th: ["ติดต่อร้าน"] },
    example: { en: "contact", th: "ติดต่อร้าน" },
    description: {
      en: "write to the shop's staff in this chat (the bot stays out of the way)",
      th: "ฝากข้อความถึงพนักงานร้านในแชทนี้ (บอทจะไม่ตอบแทรก)",
    },
    audience: "everyone",
    bareInCustomerGroup: false,
  },
  help: {
    name: "help",
    // `วิธีใช้` first: it is the word every reply tells people to type, so the quick reply shows the same.
    // A customer's "how do I pay?" gets the customers' help, which is how to pay.
    words: {
      en: ["help", "?", "menu"],
      th: [
        "วิธีใช้",
        "วิธีใช้งาน",
        "ใช้ยังไง",
        "ช่วยเหลือ",
        "เมนู",
        "คำสั่ง",
        "จ่ายยังไง",
        "โอนยังไง",
        "ชำระยังไง",
        "ชำระเงินยังไง",
        "เลขบัญชี",
        "เลขพร้อมเพย์",
        "พร้อมเพย์อะไร",
      ],
    },
    usage: { en: ["help [command]"], th: ["วิธีใช้", "วิธีใช้ ประวัติ"] },
    example: { en: "help history", th: "วิธีใช้ ประวัติ" },
    description: { en: "the commands, or how to use one", th: "คำสั่งทั้งหมด หรือวิธีใช้ทีละคำสั่ง" },
    audience: "everyone",
    bareInCustomerGroup: false,
  },
  id: {
    name: "id",
    words: { en: ["id", "whoami"], th: ["ไอดี", "ไอดีกลุ่ม"] },
    usage: { en: ["id"], th: ["ไอดี"] },
    example: { en: "id", th: "ไอดี" },
    description: {
      en: "your user id and this group's id, for the staff lists",
      th: "ไอดีผู้ใช้และไอดีกลุ่มนี้ สำหรับเพิ่มในรายชื่อพนักงาน",
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

/**
 * Words before a command word that only ask: `ขอ` ("may I have"), `ขอดู`, `ดู` ("see"), `สร้าง` ("make", as
 * the menu's `สร้าง QR` says), `จ่ายด้วย` ("pay with"), longest first (docs/thai.md, section 2).
 */
export const LEAD_INS: readonly string[] = ["จ่ายด้วย", "สร้าง", "ขอดู", "ขอ", "ดู"];

/**
 * Command words that are also everyday talk about paying: alone with an ending (`สลิปค่ะ`, `ยอดค่ะ`,
 * `เงินเข้ายังคะ`) they are talk, not the command (docs/thai.md, section 2).
 */
export const TALK_WORDS: ReadonlySet<string> = new Set(
  ["สลิป", "รายการ", "ยอด", "ยอดโอน", "ยอดเข้า", "เงินเข้า", "โอนเข้า", "เข้ายัง", "ได้รับ", "จ่าย", "จ่ายเงิน", "ชำระเงิน", "สแกนจ่าย", "เช็ค", "เช็ก"].map((word) => {
    // A word no command has would silently do nothing: stop at load instead.
    if (!WORD_INDEX.has(word)) throw new Error(`talk word "${word}" is no command word`);
    return word;
  }),
);

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
