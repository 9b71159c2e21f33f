// What `paid` says, in Thai and English side by side (docs/thai.md's words and endings).
import type { Lang } from "../types.js";

export interface PaidTexts {
  /** Amounts in sentences come as a sentence writes them (`150 บาท`, formatBaht). */
  paidTitle: (amount: string) => string;
  /** Times come as a clock (`14:05`); the Thai adds `น.`. */
  paidSince: (time: string) => string;
  paidToday: string;
  paidFound: (count: number) => string;
  paidNotYet: string;
  /** A payer the slip gives no name for. */
  paidNoSender: string;
  paidAskAgain: string;
  paidAlt: (amount: string, count: number) => string;
}

export const PAID_TEXTS: { readonly [L in Lang]: PaidTexts } = {
  th: {
    paidTitle: (amount) => `ยอด ${amount} เข้าหรือยัง`,
    paidSince: (time) => `วันนี้ ตั้งแต่ ${time} น.`,
    paidToday: "วันนี้",
    paidFound: (count) => `เข้าแล้ว ${count} รายการ`,
    // The bot knows the slips that passed the check, not the bank: "not yet" would tell a customer who paid
    // otherwise, and "no checked slip" is untrue when a fake slip of this amount was checked. The bot checks no
    // slips itself: the shop's slip service does, and the quick reply under this asks again.
    paidNotYet: "ยังไม่พบสลิปยอดนี้ที่ผ่านการตรวจค่ะ\nถ้าลูกค้าบอกว่าโอนแล้ว ให้นำสลิปไปตรวจกับระบบตรวจสลิปของร้านก่อน แล้วกดปุ่ม “เช็คอีกครั้ง” ด้านล่างนะคะ",
    paidNoSender: "ไม่ระบุชื่อผู้โอน",
    paidAskAgain: "เช็คอีกครั้ง",
    paidAlt: (amount, count) => (count === 0 ? `ยอด ${amount} ยังไม่พบสลิปที่ผ่านการตรวจ` : `ยอด ${amount} เข้าแล้ว ${count} รายการ`),
  },
  en: {
    paidTitle: (amount) => `Has ${amount} arrived?`,
    paidSince: (time) => `Since ${time} today`,
    paidToday: "Today",
    paidFound: (count) => (count === 1 ? "Arrived: 1 check" : `Arrived: ${count} checks`),
    paidNotYet: "No valid slip of this amount yet.\nIf the customer says they paid, check their slip with the shop's slip service first, then tap “Check again” below.",
    paidNoSender: "Payer not named",
    paidAskAgain: "Check again",
    paidAlt: (amount, count) => (count === 0 ? `${amount}: no valid slip yet` : `${amount} arrived: ${count} ${count === 1 ? "check" : "checks"}`),
  },
};
