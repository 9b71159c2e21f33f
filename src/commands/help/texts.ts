// What `help` says, in Thai and English side by side (docs/thai.md's words and endings).
import type { Lang } from "../types.js";
import { quote } from "../quote.js";

export interface HelpTexts {
  helpTitle: string;
  helpIntro: string;
  helpExampleLabel: string;
  helpAlt: (examples: readonly string[]) => string;
  helpFooter: string;

  customerHelpTitle: string;
  /** `qrWord`: the QR command word; the texts show it with an amount (`คิวอาร์ 150`). */
  customerHelpPay: (qrWord: string) => string;
  customerHelpAsk: string;
}

export const HELP_TEXTS: { readonly [L in Lang]: HelpTexts } = {
  th: {
    helpTitle: "วิธีใช้",
    helpIntro: "พิมพ์ตามตัวอย่างได้เลย ใช้คำไทยหรือคำอังกฤษก็ได้ค่ะ",
    helpExampleLabel: "เช่น",
    helpAlt: (examples) => `วิธีใช้: ${examples.map(quote).join(" ")}`,
    helpFooter: "ในกลุ่ม พิมพ์คำสั่งขึ้นต้นข้อความ หรือแท็กบอทก่อนค่ะ",

    customerHelpTitle: "ชำระเงินด้วย QR พร้อมเพย์",
    // The customer pays with the phone the QR comes to: a banking app scans it from the saved picture.
    customerHelpPay: (qrWord) =>
      ["ทำตามนี้ได้เลยค่ะ", `1. พิมพ์ ${quote(qrWord)} ตามด้วยยอดเงิน เช่น ${quote(`${qrWord} 150`)}`, "2. กดบันทึกรูป QR", "3. เปิดแอปธนาคาร เลือกสแกนจากรูปภาพ"].join("\n"),
    customerHelpAsk: "มีคำถามพิมพ์ทิ้งไว้ได้เลยนะคะ ทางร้านจะรีบตอบค่ะ",
  },
  en: {
    helpTitle: "How to use",
    helpIntro: "Send a command like the examples, in English or Thai.",
    helpExampleLabel: "e.g.",
    helpAlt: (examples) => `Commands: ${examples.join(", ")}`,
    helpFooter: "In a group, start with the command or mention the bot.",

    customerHelpTitle: "Pay by PromptPay QR",
    customerHelpPay: (qrWord) =>
      [
        "Here is how:",
        `1. Send ${quote(qrWord)} with the amount, like ${quote(`${qrWord} 150`)}`,
        "2. Save the QR's picture",
        "3. Open your banking app and scan it from your photos",
      ].join("\n"),
    customerHelpAsk: "Questions? Just write them here: the shop will reply soon.",
  },
};
