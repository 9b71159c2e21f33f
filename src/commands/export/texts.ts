// What `export` says, in Thai and English side by side (docs/thai.md's words and endings).
import type { Lang } from "../types.js";
import { quote } from "../quote.js";

export interface ExportTexts {
  /**
   * The chat's `export`: a link to the range's checks as CSV, in lines: the file (`name` the range's name if
   * it has one, `dates` the days the file holds), how to open it, and for whom and how long the link works.
   */
  exportReady: (name: string | undefined, dates: string) => string;
  exportOpen: string;
  exportOnce: string;
  /** A range longer than a file holds: `firstDay` is the first day in the file. */
  exportDaysCut: (firstDay: string) => string;
  /** Under the link: the same file with English headers and the service's own words, for accounting software. */
  exportEnglish: string;
  exportNeedsPublicUrl: string;
  exportNoUser: (exportWord: string) => string;
}

export const EXPORT_TEXTS: { readonly [L in Lang]: ExportTexts } = {
  th: {
    // A count of days (`7 วันล่าสุด`) is set off from ของ by a space, as Thai writes a number after a word.
    exportReady: (name, dates) => (name === undefined ? `ไฟล์ประวัติตรวจสลิปวันที่ ${dates} พร้อมแล้วค่ะ` : `ไฟล์ประวัติตรวจสลิปของ${/^\d/.test(name) ? " " : ""}${name} (${dates}) พร้อมแล้วค่ะ`),
    exportOpen: "กดลิงก์ด้านล่างเพื่อดาวน์โหลด ไฟล์เปิดด้วย Excel ได้ค่ะ",
    exportOnce: "ลิงก์นี้ใช้ได้ครั้งเดียว ภายใน 10 นาที และใช้ได้เฉพาะคุณค่ะ",
    exportDaysCut: (firstDay) => `ไฟล์หนึ่งมีได้ไม่เกิน 31 วัน จึงไม่มีวันก่อน ${firstDay} ค่ะ`,
    exportEnglish: "ไฟล์ภาษาอังกฤษล้วน สำหรับโปรแกรมบัญชี",
    // ที่อยู่ alone reads as a postal address; the owner is who sets the bot up, as every other reply says.
    exportNeedsPublicUrl: "ยังทำลิงก์ดาวน์โหลดไฟล์ไม่ได้ค่ะ เจ้าของร้านต้องตั้งค่า PUBLIC_URL เป็นลิงก์ https ของบอท (เช่น https://bot.example.com) แล้วเริ่มบอทใหม่ก่อนนะคะ",
    exportNoUser: (exportWord) => `LINE ไม่ได้ส่งไอดีผู้ใช้ของคุณมา จึงทำลิงก์เฉพาะคุณไม่ได้ค่ะ ลองพิมพ์ “${exportWord}” ในแชทส่วนตัวกับบอทนะคะ`,
  },
  en: {
    exportReady: (name, dates) => `The slip checks file for ${name === undefined ? dates : `${name.toLowerCase()} (${dates})`} is ready.`,
    exportOpen: "Tap the link below to download it; it opens in Excel.",
    exportOnce: "The link works once, within 10 minutes, for you only.",
    exportDaysCut: (firstDay) => `A file holds at most 31 days, so it starts on ${firstDay}.`,
    exportEnglish: "The same file with the service's own fields only, for accounting software:",
    exportNeedsPublicUrl:
      "Export needs PUBLIC_URL: set it to the bot's public https address (such as https://bot.example.com) and restart the bot. The download links are made on that address.",
    exportNoUser: (exportWord) => `LINE did not send your user id, so no link can be made for you. Send ${quote(exportWord)} in a 1:1 chat with the shop.`,
  },
};
