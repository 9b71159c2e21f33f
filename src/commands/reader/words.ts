// The words every command shares when people ask in their own way: polite endings, question forms, lead-ins,
// the words around an amount, and everyday talk that asks nothing. Pure data; each command's own words are in
// its folder's words.ts.

/** "Has it come in yet?" asked in one word: both the money arriving and the question. */
const COME_IN_YET = ["เข้ายัง", "เข้ารึยัง", "เข้าหรือยัง", "เข้ามั้ย", "เข้าไหม", "เข้าแล้วยัง", "เข้ามายัง", "โอนมายัง", "โอนมารึยัง"];

/**
 * The families a command's question forms are made of (a command's words.ts names them in `questions`).
 * `amount`, `range`, `status` and `ref` are details found in the message, the rest are words.
 */
export const FAMILIES = {
  /** "has it come in": the money arriving. */
  come_in: [...COME_IN_YET, "เข้า", "เข้ามา", "เข้าแล้ว", "โอนมา", "โอนเข้า", "โอนเข้ามา", "ได้รับ", "เข้าบัญชี", "come", "arrived", "received", "in"],
  /** The question of "yet?", "is it?": `…ยัง`, `…มั้ย`, `…รึเปล่า`, `?`. */
  yet: [
    ...COME_IN_YET,
    "ยัง",
    "ยังคะ",
    "ยังครับ",
    "รึยัง",
    "ลึยัง",
    "หรือยัง",
    "แล้วยัง",
    "ยังอะ",
    "มั้ย",
    "มั๊ย",
    "ไหม",
    "ไม๊",
    "มะ",
    "รึเปล่า",
    "หรือเปล่า",
    "รึป่าว",
    "ป่าว",
    "เปล่า",
    "ป่ะ",
    "ปะ",
    "หรือไม่",
    "?",
    "yet",
  ],
  /** "how much". */
  how_much: ["เท่าไหร่", "เท่าไร", "เท่าไร่", "เท่าใด", "กี่บาท", "much"],
  /** "how many", before what is counted (`กี่สลิป`). */
  how_many: ["กี่", "many"],
  /** "when". */
  when: ["เมื่อไหร่", "เมื่อไร", "ตอนไหน", "กี่โมง", "when"],
  /** "who". */
  who: ["ใคร", "ใครบ้าง", "who"],
  /** "left", of what remains to use. */
  left: ["เหลือ", "คงเหลือ", "อีก", "left", "remaining"],
  /** Transferring. */
  transfer: ["โอน", "โอนเงิน", "โอนมา", "จ่าย", "transferred", "paid"],
  /** Selling and taking money in, the day's takings. */
  takings: ["ขาย", "ขายได้", "ได้", "ได้เงิน", "เก็บได้", "รายได้", "take", "took", "made", "earned"],
  /** What the slip service counts in: slips, tokens, credit. */
  units: ["สลิป", "โทเคน", "โทเค็น", "เครดิต", "ใบ", "ครั้ง", "อัน", "tokens", "token", "credit", "credits", "slips"],
  /** Checking something. */
  check: ["เช็ค", "เช็ก", "ตรวจ", "ดู", "check"],
  /** Money, the word. */
  money: ["เงิน", "ยอด", "ยอดเงิน"],
} as const satisfies Readonly<Record<string, readonly string[]>>;

export type Family = keyof typeof FAMILIES | "amount" | "range" | "status" | "ref";

/**
 * Words that ask or are polite but say nothing about what is asked: endings, "please", "a little", "for the
 * customer", the words that join the others. A message of these and a command's words is still that command.
 */
export const FILLERS: readonly string[] = [
  // Polite endings and particles.
  "ค่ะ",
  "คะ",
  "ค่า",
  "ค้า",
  "คับ",
  "ครับ",
  "ค้าบ",
  "ครัช",
  "คร้าบ",
  "จ้า",
  "จ้ะ",
  "จ๊ะ",
  "จ๋า",
  "นะ",
  "น้า",
  "นะคะ",
  "นะครับ",
  "ฮะ",
  "ฮับ",
  "เด้อ",
  "อะ",
  "อ่ะ",
  "เลย",
  "หน่อย",
  "ด้วย",
  "ที",
  "ทีนะ",
  "ด่วน",
  "จ้าา",
  // Lead-ins that only ask: "may I have", "see", "make", "issue", "send", "give me", "help", "please".
  "ขอ",
  "ขอดู",
  "ดู",
  "ทำ",
  "ออก",
  "ส่ง",
  "เอา",
  "สร้าง",
  "จ่ายด้วย",
  "ช่วย",
  "รบกวน",
  "เปิด",
  "แสดง",
  "หา",
  "อยาก",
  "อยากได้",
  "อยากรู้",
  "อยากดู",
  "ต้องการ",
  "เช็คให้",
  "ดูให้",
  // For whom, and the words that join the others.
  "ให้",
  "ว่า",
  "ลูกค้า",
  "ให้ลูกค้า",
  "หน่อยค่ะ",
  "ของ",
  "ที่",
  "การ",
  "มี",
  "แล้ว",
  "ตอนนี้",
  "ตั้งแต่",
  "จาก",
  "ใน",
  "กับ",
  "และ",
  "บ้าง",
  "มา",
  "คือ",
  "เรา",
  "ร้าน",
  "ทาง",
  "ทั้งหมด",
  "ทั้ง",
  "รวม",
  "ยอดรวม",
  "หรือ",
  "รึ",
  "พี่",
  "น้อง",
  "หนู",
  "คุณ",
  "ผม",
  "ฉัน",
  "เค้า",
  "เขา",
  "นี้",
  "นั้น",
  "ไหน",
  "บ",
  "ยัง",
  "แล้วก็",
  "เพิ่ง",
  "จริง",
  // English.
  "please",
  "pls",
  "plz",
  "can",
  "could",
  "you",
  "i",
  "we",
  "the",
  "a",
  "for",
  "show",
  "make",
  "send",
  "give",
  "get",
  "want",
  "of",
  "did",
  "has",
  "have",
  "is",
  "it",
  "do",
  "many",
  "much",
  "how",
];

/** Currency words after a number (`150บาท`, `150 บ.`, `150บ`) or `฿` before it: the number is money. */
export const CURRENCY: readonly string[] = ["บาท", "บ.", "บ", "฿", "baht", "thb"];

/** Words before a number that make it the amount itself: the total of an order. */
export const TOTAL_BEFORE: readonly string[] = ["รวม", "ยอดรวม", "ทั้งหมด", "สุทธิ", "ยอด", "ยอดเงิน", "ยอดโอน", "total"];

/** Words before a number that make it no amount: an order or table number, a fee, a discount, a page. */
export const NOT_AMOUNT_BEFORE: readonly string[] = ["#", "ออเดอร์", "order", "เลขที่", "โต๊ะ", "ห้อง", "คิว", "บิล", "ค่าส่ง", "ค่าจัดส่ง", "ส่วนลด", "ลด", "เบอร์", "หน้า", "page", "no", "no."];

/** Words after a number that make it a count or a time, not money: `2 แก้ว`, `14 โมง`, `x2`. */
export const NOT_AMOUNT_AFTER: readonly string[] = [
  "แก้ว",
  "ชิ้น",
  "ตัว",
  "กล่อง",
  "อัน",
  "จาน",
  "คน",
  "ถุง",
  "ชุด",
  "ขวด",
  "ห่อ",
  "ใบ",
  "ครั้ง",
  "โมง",
  "นาที",
  "ทุ่ม",
  "น.",
  "นาฬิกา",
  "สลิป",
  "รายการ",
  "โทเคน",
  "โทเค็น",
  "เครดิต",
  "คู่",
  "ไซส์",
  "size",
  "pcs",
  "ea",
  "ที่",
];

/**
 * Everyday talk that only looks like a command: praise (`ยอดเยี่ยม`, `ยอดไปเลย`), the bill at a table
 * (`เช็คบิล`), checking in. A message with one of these is never run, nor offered as a command.
 */
export const TALK: readonly string[] = ["เยี่ยม", "ยอดเยี่ยม", "บิล", "เช็คบิล", "เช็กบิล", "อิน", "เช็คอิน", "เช็กอิน", "เอาท์", "เช็คเอาท์", "มาก", "สุด", "เก่ง", "ไปเลย", "จริงๆ", "ปัง"];

/** Thanks and "please" said to the bot: answered warmly, never as an unknown command. */
export const THANKS: readonly string[] = ["ขอบคุณ", "ขอบคุณค่ะ", "ขอบคุณครับ", "ขอบคุณมาก", "ขอบใจ", "แต้งกิ้ว", "thanks", "thank", "thx", "please", "pls", "plz"];
