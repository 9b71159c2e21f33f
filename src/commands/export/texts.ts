// What `export` says, in Thai and English side by side (docs/thai.md's words and endings).
import type { Lang } from "../types.js";
import { quote } from "../quote.js";

export interface ExportTexts {
  /** The chat's `export`: a link to the range's checks as CSV. */
  exportReady: (range: string) => string;
  exportDaysCut: (dates: string) => string;
  exportNeedsPublicUrl: string;
  exportNoUser: (exportWord: string) => string;
}

export const EXPORT_TEXTS: { readonly [L in Lang]: ExportTexts } = {
  th: {
    exportReady: (range) => `ไฟล์ CSV ประวัติตรวจสลิป ${range} พร้อมแล้วค่ะ กดลิงก์ด้านล่างเพื่อดาวน์โหลด (เปิดใน Excel ได้) ลิงก์ใช้ได้ครั้งเดียว ภายใน 10 นาที และเฉพาะคุณเท่านั้นค่ะ`,
    exportDaysCut: (dates) => `ช่วงยาวเกิน 31 วัน ไฟล์จึงมีเฉพาะ ${dates} ค่ะ`,
    exportNeedsPublicUrl: "ยังส่งออกไฟล์ไม่ได้ค่ะ ผู้ดูแลต้องตั้งค่า PUBLIC_URL เป็นที่อยู่ https ของบอท (เช่น https://bot.example.com) แล้วเริ่มบอทใหม่ ลิงก์ดาวน์โหลดจะอยู่บนที่อยู่นี้ค่ะ",
    exportNoUser: (exportWord) => `LINE ไม่ได้ส่งไอดีผู้ใช้ของคุณมา จึงทำลิงก์เฉพาะคุณไม่ได้ค่ะ ลองพิมพ์ “${exportWord}” ในแชทส่วนตัวกับบอทนะคะ`,
  },
  en: {
    exportReady: (range) => `Slip checks ${range} as a CSV file (opens in Excel). Tap the link below to download it: it works once, within 10 minutes, for you only.`,
    exportDaysCut: (dates) => `More than 31 days: the file holds ${dates} only.`,
    exportNeedsPublicUrl:
      "Export needs PUBLIC_URL: set it to the bot's public https address (such as https://bot.example.com) and restart the bot. The download links are made on that address.",
    exportNoUser: (exportWord) => `LINE did not send your user id, so no link can be made for you. Send ${quote(exportWord)} in a 1:1 chat with the shop.`,
  },
};
