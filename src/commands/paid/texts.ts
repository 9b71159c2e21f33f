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
  paidAskAgain: string;
  paidAlt: (amount: string, count: number) => string;
}

export const PAID_TEXTS: { readonly [L in Lang]: PaidTexts } = {
  th: {
    paidTitle: (amount) => `ยอด ${amount} เข้าหรือยัง`,
    paidSince: (time) => `วันนี้ ตั้งแต่ ${time} น.`,
    paidToday: "วันนี้",
    paidFound: (count) => `เข้าแล้ว ${count} รายการ`,
    // The bot knows the slips that were checked, not the bank: "not yet" would tell a customer who paid otherwise.
    paidNotYet: "ยังไม่พบสลิปยอดนี้ที่ตรวจแล้วค่ะ ถ้าลูกค้าโอนแล้ว ให้ส่งสลิปตรวจก่อน แล้วเช็คอีกครั้งนะคะ",
    paidAskAgain: "เช็คอีกครั้ง",
    paidAlt: (amount, count) => (count === 0 ? `ยอด ${amount} ยังไม่พบสลิป` : `ยอด ${amount} เข้าแล้ว ${count} รายการ`),
  },
  en: {
    paidTitle: (amount) => `Has ${amount} arrived?`,
    paidSince: (time) => `Since ${time} today`,
    paidToday: "Today",
    paidFound: (count) => (count === 1 ? "Arrived: 1 check" : `Arrived: ${count} checks`),
    paidNotYet: "Not yet. Check again in a moment.",
    paidAskAgain: "Check again",
    paidAlt: (amount, count) => (count === 0 ? `${amount} has not arrived yet` : `${amount} arrived: ${count} ${count === 1 ? "check" : "checks"}`),
  },
};
