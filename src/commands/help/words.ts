// The words of `help` (pure data).
import type { CommandWords } from "../define.js";

export const HELP_WORDS: CommandWords = {
  // `วิธีใช้` first: it is the word every reply tells people to type, so the quick reply shows the same.
  // A customer's "how do I pay?" gets the customers' help, which is how to pay.
  command: {
    en: ["help", "?", "menu"],
    th: ["วิธีใช้", "วิธีใช้งาน", "ใช้ยังไง", "ช่วยเหลือ", "เมนู", "คำสั่ง", "วิธีจ่ายเงิน", "วิธีจ่าย", "จ่ายยังไง", "โอนยังไง", "ชำระยังไง", "ชำระเงินยังไง", "เลขบัญชี", "เลขพร้อมเพย์", "พร้อมเพย์อะไร"],
  },
  family: { "?": 1, เมนู: 2, คำสั่ง: 2, menu: 2 },
  questions: [],
  takes: [],
  needsAmount: false,
};
