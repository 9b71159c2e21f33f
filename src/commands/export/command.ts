// export: a link to download a range's checks as CSV, signed for the one who asked.
import { EXPORT_WORDS } from "./words.js";
import { EXPORT_TEXTS } from "./texts.js";
import { defineCommand } from "../define.js";
import { HISTORY_THAI_KEYWORDS, parseSummaryArgs, spaceRanges } from "../parse-history.js";
import type { Lang, SummaryRequest } from "../types.js";

declare module "../types.js" {
  interface CommandTypes {
    /** A link to download a range's checks as CSV (the staff app's export), signed for the one who asked. */
    export: { kind: "export"; lang: Lang; request: SummaryRequest };
  }
}

export const exportCommand = defineCommand({
  name: "export",
  words: EXPORT_WORDS.command,
  reading: EXPORT_WORDS,
  usage: {
    en: ["export [today|yesterday|7d|month|lastmonth|date|A..B] [status]"],
    th: ["ส่งออก เมื่อวาน", "ส่งออก 1/11 ถึง 15/11"],
  },
  example: { en: "export yesterday", th: "ส่งออก เมื่อวาน" },
  description: {
    en: "a link that downloads the slip checks of a period as a CSV file (opens in Excel), good for 10 minutes",
    th: "ลิงก์ดาวน์โหลดประวัติตรวจสลิปของวันที่เลือกเป็นไฟล์ CSV (เปิดใน Excel ได้) ใช้ได้ 10 นาที",
  },
  audience: "staff",
  bareInCustomerGroup: false,
  keywords: HISTORY_THAI_KEYWORDS,
  parse: (args, lang, reader) => {
    const result = parseSummaryArgs(reader.tokens(spaceRanges(args)), reader.today);
    return result.ok ? { ok: true, command: { kind: "export", lang, request: result.request } } : result;
  },
  kinds: { export_link: "staff" },
  texts: EXPORT_TEXTS,
});
