// The words of `history`: what starts it, and what asks for it in a message (pure data).
import type { CommandWords } from "../define.js";

export const HISTORY_WORDS: CommandWords = {
  command: {
    en: ["history", "h", "slips"],
    th: ["ประวัติ", "รายการ", "สลิป", "เช็คสลิป", "เช็กสลิป", "ตรวจสลิป", "ประวัติตรวจสลิป", "ประวัติสลิป"],
  },
  // `สลิป` and `รายการ` alone are everyday words (a customer's "here is the slip"): they lean.
  family: {
    สลิป: 2,
    รายการ: 2,
    h: 1,
    ประวัติการโอน: 3,
    ประวัติโอน: 3,
    ประวัติการตรวจ: 3,
    ประวัติการตรวจสลิป: 3,
    รายการโอน: 3,
    รายการโอนเงิน: 3,
    รายการเงินเข้า: 3,
    ดูสลิป: 3,
    สลิปที่ตรวจ: 3,
    log: 2,
    list: 2,
  },
  // Who transferred (today): the list of the checks, names and all.
  questions: [
    { all: ["who", "transfer"], weight: 4 },
    { all: ["who", "come_in"], weight: 4 },
    { all: ["ref"], weight: 3 },
  ],
  takes: ["range", "status", "ref"],
  needsAmount: false,
};
