// The words of `qr`: what starts it, and what points at it in a message (pure data; docs/thai.md, section 2).
import type { CommandWords } from "../define.js";

export const QR_WORDS: CommandWords = {
  command: {
    en: ["qr", "pay", "promptpay"],
    th: ["คิวอาร์", "คิวอาร์โค้ด", "พร้อมเพย์", "จ่าย", "จ่ายเงิน", "สแกนจ่าย", "ชำระเงิน"],
  },
  // `จ่าย` alone is a customer's "I paid", `พร้อมเพย์` may be the shop's number asked for: they lean, they do not name it.
  family: { qrcode: 3, คิวอาร์โค้ด: 3, คิวอา: 2, จ่าย: 1, จ่ายเงิน: 1, สแกนจ่าย: 1, พร้อมเพย์: 2, ชำระเงิน: 1, เก็บเงิน: 2, เรียกเก็บ: 2, เรียกเก็บเงิน: 2, code: 1, โค้ด: 1 },
  questions: [],
  takes: ["amount", "id"],
  needsAmount: false,
};
