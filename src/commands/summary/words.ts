// The words of `summary`: what starts it, and what asks for it in a message (pure data).
import type { CommandWords } from "../define.js";

export const SUMMARY_WORDS: CommandWords = {
  // In a shop ยอด means money (ยอดขาย, ยอดโอน), so `ยอด` alone is the day's takings; `ยอดวันนี้`,
  // `ยอดเมื่อวาน` are ยอด with its range glued on.
  command: {
    en: ["summary", "sales"],
    th: ["ยอด", "ยอดขาย", "ยอดโอน", "ยอดโอนเข้า", "ยอดรวม", "ยอดทั้งหมด", "รายรับ", "ปิดยอด", "รายงาน", "สรุป", "สรุปยอด"],
  },
  // `ยอด` alone is also praise and any figure: it leans; the words for the day's takings name it.
  family: {
    ยอด: 2,
    ยอดรวม: 2,
    ยอดทั้งหมด: 2,
    สรุปยอดขาย: 3,
    สรุปยอดโอน: 3,
    สรุปยอดวันนี้: 3,
    ยอดขายรวม: 3,
    รายได้: 3,
    ขายได้: 2,
    total: 2,
    takings: 3,
    report: 2,
  },
  // How much did we take (today, yesterday...), how many slips were checked in a range.
  questions: [
    { all: ["how_much", "takings"], weight: 3 },
    { all: ["how_much", "range"], weight: 3 },
    { all: ["how_much", "money"], weight: 3 },
    { all: ["how_much", "transfer"], weight: 3 },
    { all: ["how_many", "units", "range"], weight: 4 },
    // `ยอด 1-15 พ.ย.`: the word of money with days is that period's takings.
    { all: ["money", "range"], weight: 1 },
  ],
  takes: ["range", "status"],
  needsAmount: false,
};
