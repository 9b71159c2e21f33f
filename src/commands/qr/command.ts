// qr: a PromptPay QR to pay with, for customers and staff.
import { QR_WORDS } from "./words.js";
import { QR_TEXTS } from "./texts.js";
import { defineCommand } from "../define.js";
import { QR_THAI_KEYWORDS, parseQrArgs } from "./parse.js";
import type { CommandTypes, Lang, PromptPayId, Satang } from "../types.js";

declare module "../types.js" {
  interface CommandTypes {
    qr: { kind: "qr"; lang: Lang; id?: PromptPayId; amount?: Satang };
  }
}

export const qr = defineCommand({
  name: "qr",
  words: QR_WORDS.command,
  reading: QR_WORDS,
  usage: {
    en: ["qr [promptpay-id] [amount]"],
    th: ["คิวอาร์ 150", "คิวอาร์ 0812345678 150"],
  },
  example: { en: "qr 150", th: "คิวอาร์ 150" },
  description: {
    en: "PromptPay QR; without an id it uses the shop's, without an amount the payer types it",
    th: "QR พร้อมเพย์ให้ลูกค้าสแกนจ่าย ถ้าไม่ใส่เลขพร้อมเพย์ จะใช้ของร้าน ถ้าไม่ใส่ยอด ลูกค้ากรอกยอดเองในแอป",
  },
  audience: "everyone",
  bareInCustomerGroup: false,
  keywords: QR_THAI_KEYWORDS,
  parse: (args, lang, reader) => {
    const result = parseQrArgs(reader.tokens(args));
    if (!result.ok) return result;
    const command: CommandTypes["qr"] = { kind: "qr", lang };
    if (result.id !== undefined) command.id = result.id;
    if (result.amount !== undefined) command.amount = result.amount;
    return { ok: true, command };
  },
  menu: { staff: { label: "สร้าง QR", sub: "PromptPay QR" }, customer: { label: "จ่ายด้วย QR", sub: "Pay by QR" } },
  // The shop's QR is anyone's; one with the payment check, or paying someone else, is staff's.
  kinds: { qr_card: "public", qr_card_with_check: "staff", qr_card_other_payee: "staff" },
  texts: QR_TEXTS,
});
