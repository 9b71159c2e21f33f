// What the bot says about a slip photo, in Thai and English side by side (docs/thai.md's words and endings).
import type { Lang } from "../commands/types.js";

export interface SlipPhotoTexts {
  checkedTitle: string;
  resultLabel: string;
  amountLabel: string;
  fromLabel: string;
  toLabel: string;
  checkedAtLabel: string;
  viaLabel: string;
  refLabel: string;
  /** Several checks of one slip: how many, and that the first is shown (a second check of a valid slip is the duplicate trick). */
  checkedTimes: (count: number) => string;
  /** The checks after the first: how many, and the latest's result and time. */
  sinceFirst: (more: number, latestStatus: string, latestAt: string) => string;
  checkedAlt: (status: string, amount: string) => string;
  notCheckedTitle: string;
  notCheckedBody: string;
  notCheckedAlt: string;
  unreadable: string;
  /** A payment QR (PromptPay) was found: the customer sent the shop's QR, not the slip. */
  paymentQr: string;
  /** LINE no longer has the photo, or did not give it in time. */
  photoMissing: string;
  tooManyPhotos: string;
  /** The push to the staff groups: a customer's slip, looked up. */
  pushChecked: (payer: string | undefined, amount: string, status: string, at: string, via: string) => string;
  pushNotChecked: (ref: string) => string;
  /** `14:02 น.` / `14:02`, or with the date when not today. */
  at: (time: string, date: string | undefined) => string;
}

export const SLIP_PHOTO_TEXTS: { readonly [L in Lang]: SlipPhotoTexts } = {
  th: {
    checkedTitle: "สลิปนี้ตรวจแล้ว",
    resultLabel: "ผล",
    amountLabel: "ยอด",
    fromLabel: "ผู้โอน",
    toLabel: "ผู้รับ",
    checkedAtLabel: "ตรวจเมื่อ",
    viaLabel: "ช่องทาง",
    refLabel: "เลขอ้างอิง",
    checkedTimes: (count) => `สลิปนี้ถูกตรวจ ${count} ครั้ง ด้านบนคือครั้งแรก`,
    sinceFirst: (more, latestStatus, latestAt) => `หลังจากนั้นตรวจอีก ${more} ครั้ง ล่าสุด: ${latestStatus} ${latestAt}`,
    checkedAlt: (status, amount) => `สลิปนี้ตรวจแล้ว: ${status} ${amount}`,
    notCheckedTitle: "สลิปนี้ยังไม่เคยตรวจค่ะ",
    notCheckedBody: "ยังไม่มีผลตรวจของสลิปนี้ในระบบตรวจสลิปของร้าน ส่งสลิปไปตรวจที่ LINE OA หรือแดชบอร์ดของระบบตรวจสลิปที่ร้านใช้ได้เลยค่ะ",
    notCheckedAlt: "สลิปนี้ยังไม่เคยตรวจ",
    unreadable: "อ่าน QR ของสลิปในรูปนี้ไม่ได้ค่ะ กรุณาส่งรูปสลิปต้นฉบับ (ภาพหน้าจอจากแอปธนาคาร) มาอีกครั้งนะคะ",
    paymentQr: "รูปนี้เป็น QR สำหรับจ่ายเงิน ไม่ใช่ QR ของสลิปค่ะ กรุณาส่งรูปสลิปต้นฉบับหลังโอนเงินแล้วนะคะ",
    photoMissing: "ดึงรูปนี้จาก LINE ไม่ได้ค่ะ กรุณาส่งรูปมาอีกครั้งนะคะ",
    tooManyPhotos: "ตอนนี้มีรูปรออ่านอยู่มาก กรุณาส่งรูปนี้อีกครั้งในอีกสักครู่นะคะ",
    pushChecked: (payer, amount, status, at, via) => `ลูกค้าส่งสลิป${payer === undefined ? "" : `ของ ${payer}`}: ${amount} · ${status} · ตรวจ ${at} ผ่าน ${via}`,
    pushNotChecked: (ref) => `ลูกค้าส่งสลิปที่ยังไม่เคยตรวจ (เลขอ้างอิง ${ref})`,
    at: (time, date) => (date === undefined ? `${time} น.` : `${date} ${time} น.`),
  },
  en: {
    checkedTitle: "This slip was checked",
    resultLabel: "Result",
    amountLabel: "Amount",
    fromLabel: "From",
    toLabel: "To",
    checkedAtLabel: "Checked",
    viaLabel: "Via",
    refLabel: "Ref",
    checkedTimes: (count) => `Checked ${count} times; the first check is shown`,
    sinceFirst: (more, latestStatus, latestAt) => `${more} more ${more === 1 ? "check" : "checks"} since; the latest: ${latestStatus} ${latestAt}`,
    checkedAlt: (status, amount) => `This slip was checked: ${status}, ${amount}`,
    notCheckedTitle: "This slip has not been checked yet",
    notCheckedBody: "The shop's slip service has no check of this slip. Check it where the shop checks slips: the service's LINE OA or its dashboard.",
    notCheckedAlt: "This slip has not been checked yet",
    unreadable: "No slip QR could be read in this photo. Please send the original slip image (a screenshot from the bank app).",
    paymentQr: "This is a QR to pay with, not a slip's QR. Please send the slip image from after the transfer.",
    photoMissing: "Could not get this photo from LINE. Please send it again.",
    tooManyPhotos: "Many photos are waiting to be read right now. Please send this one again in a moment.",
    pushChecked: (payer, amount, status, at, via) => `A customer sent a slip${payer === undefined ? "" : ` from ${payer}`}: ${amount}, ${status}, checked ${at} via ${via}`,
    pushNotChecked: (ref) => `A customer sent a slip that has not been checked yet (ref ${ref})`,
    at: (time, date) => (date === undefined ? time : `${date} ${time}`),
  },
};
