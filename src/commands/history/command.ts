// history: the slips checked in a range (or by reference), a page at a time.
import { HISTORY_TEXTS } from "./texts.js";
import { defineCommand } from "../define.js";
import { HISTORY_THAI_KEYWORDS, parseHistoryArgs, spaceRanges } from "../parse-history.js";
import type { HistoryRequest, Lang } from "../types.js";

declare module "../types.js" {
  interface CommandTypes {
    history: { kind: "history"; lang: Lang; request: HistoryRequest };
  }
}

export const history = defineCommand({
  name: "history",
  words: {
    en: ["history", "h", "slips"],
    th: ["ประวัติ", "รายการ", "สลิป", "เช็คสลิป", "เช็กสลิป", "ตรวจสลิป", "ประวัติตรวจสลิป", "ประวัติสลิป"],
  },
  usage: {
    en: ["history [today|yesterday|7d|month|lastmonth|date|A..B] [status] [page N]", "history ref <transRef>"],
    th: ["ประวัติ เมื่อวาน", "ประวัติ 1/11 ถึง 15/11 ปลอม", "ประวัติ อ้างอิง 015326095622AQR01234"],
  },
  // The first example a new cashier sees: the plain one, not a filter.
  example: { en: "history yesterday", th: "ประวัติ เมื่อวาน" },
  description: {
    en: "slips checked in a period, with totals; statuses: valid, invalid, fraud, duplicate, not_found, error",
    th: "สลิปที่ตรวจในวันที่เลือก พร้อมยอดโอนเข้า เลือกดูตามสถานะได้: ผ่าน ไม่ผ่าน ปลอม ซ้ำ ไม่พบ ผิดพลาด",
  },
  audience: "staff",
  bareInCustomerGroup: false,
  keywords: HISTORY_THAI_KEYWORDS,
  parse: (args, lang, reader) => {
    const result = parseHistoryArgs(reader.tokens(spaceRanges(args)), reader.today);
    return result.ok ? { ok: true, command: { kind: "history", lang, request: result.request } } : result;
  },
  menu: { staff: { label: "ประวัติวันนี้", sub: "History today" } },
  kinds: { history: "staff" },
  handler: async () => (await import("./handle.js")).handleHistory,
  texts: HISTORY_TEXTS,
});
