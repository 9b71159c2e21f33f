// The words of `paid` ("has it come in?"): what starts it, and what asks it in a message (pure data).
import type { CommandWords } from "../define.js";

export const PAID_WORDS: CommandWords = {
  // `ได้รับ` is still read (buttons sent before say it) but never written: `ได้รับ 150` reads like an
  // announcement that 150 baht came in, not a question.
  command: {
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
  // `เช็ค` alone is "check", any check: it leans only (`เช็คเครดิต` is the balance). `เงินเข้า` without an amount
  // is a customer's "the money went in".
  family: { เช็ค: 1, เช็ก: 1, ตรวจ: 1, เงินเข้า: 2, โอนเข้า: 2, เข้ายัง: 2, ยอดเข้า: 2, เช็คยอดเงิน: 3, ตรวจสอบยอด: 3, เช็คให้: 1 },
  // Asked about an amount: did it come in (yet), when did it come, the word `ยอด` before it, checking it.
  questions: [
    { all: ["amount", "come_in", "yet"], weight: 4 },
    { all: ["amount", "come_in"], weight: 3 },
    { all: ["amount", "transfer", "yet"], weight: 3 },
    { all: ["amount", "when"], weight: 3 },
    { all: ["amount", "money"], weight: 3 },
    { all: ["amount", "check"], weight: 3 },
    { all: ["amount", "yet"], weight: 2 },
  ],
  takes: ["amount", "range"],
  needsAmount: true,
};
