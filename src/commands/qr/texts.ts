// What `qr` says, in Thai and English side by side (docs/thai.md's words and endings).
import type { Lang, PromptPayIdType } from "../types.js";

export interface QrTexts {
  payeeType: Record<PromptPayIdType, string>;

  qrTitle: string;
  qrPayerEntersAmount: string;
  qrPayeeLabel: string;
  qrScanHint: string;
  qrAlt: (amount: string | undefined, payee: string, payeeType: string) => string;
  qrCheckPayment: string;
}

export const QR_TEXTS: { readonly [L in Lang]: QrTexts } = {
  th: {
    payeeType: { phone: "เบอร์โทร", citizen: "เลขบัตรประชาชน/เลขผู้เสียภาษี", ewallet: "e-Wallet" },

    qrTitle: "QR พร้อมเพย์",
    qrPayerEntersAmount: "ใส่ยอดเงินตอนสแกนจ่าย",
    qrPayeeLabel: "ผู้รับเงิน",
    // The customer pays with the phone the QR is on: they save the picture and scan it from the banking app.
    qrScanHint: "สแกนจ่ายได้ทุกแอปธนาคาร หรือกดบันทึกรูปแล้วสแกนจากแอป",
    qrAlt: (amount, payee, payeeType) =>
      amount === undefined ? `QR พร้อมเพย์ โอนเข้า ${payee} (${payeeType}) ใส่ยอดเงินตอนสแกนจ่าย` : `QR พร้อมเพย์ ${amount} โอนเข้า ${payee} (${payeeType})`,
    qrCheckPayment: "เช็คยอดเข้า",
  },
  en: {
    payeeType: { phone: "phone number", citizen: "citizen/tax id", ewallet: "e-wallet" },

    qrTitle: "PromptPay QR",
    qrPayerEntersAmount: "Payer enters the amount",
    qrPayeeLabel: "Pay to",
    qrScanHint: "Scan it, or save the picture and pay from any Thai banking app",
    qrAlt: (amount, payee, payeeType) =>
      amount === undefined ? `PromptPay QR to ${payee} (${payeeType}), payer enters the amount` : `PromptPay QR for ${amount} to ${payee} (${payeeType})`,
    qrCheckPayment: "Check payment",
  },
};
