// The words of `balance` (tokens, package, expiry): what starts it, and what asks for it in a message (pure data).
import type { CommandWords } from "../define.js";

export const BALANCE_WORDS: CommandWords = {
  command: {
    en: ["balance", "credit", "tokens", "info"],
    th: ["โทเคน", "โทเค็น", "เครดิต", "คงเหลือ", "ยอดคงเหลือ", "แพ็กเกจ", "แพ็คเกจ", "แพคเกจ", "แพ็กเกจตรวจสลิป", "เช็คโทเคน", "เช็กโทเคน", "โทเคนเหลือ", "เหลือกี่โทเคน", "วันหมดอายุ"],
  },
  family: {
    เครดิตเหลือ: 3,
    เช็คเครดิต: 3,
    เช็กเครดิต: 3,
    เช็คโทเค็น: 3,
    เช็กโทเค็น: 3,
    โทเค็นเหลือ: 3,
    เหลือกี่โทเค็น: 3,
    เหลือกี่เครดิต: 3,
    เหลือกี่สลิป: 3,
    หมดอายุ: 2,
    token: 3,
    credits: 3,
  },
  // How many slips (tokens, credits) are left, how many more can be checked.
  questions: [
    { all: ["how_many", "units", "left"], weight: 4 },
    { all: ["how_much", "units", "left"], weight: 4 },
    { all: ["units", "left"], weight: 3 },
  ],
  takes: [],
  needsAmount: false,
};
