// summary: every check of a range summed up; the daily summary push is its answer too.
import { SUMMARY_WORDS } from "./words.js";
import { SUMMARY_TEXTS } from "./texts.js";
import { defineCommand } from "../define.js";
import { HISTORY_THAI_KEYWORDS, parseSummaryArgs, spaceRanges } from "../parse-history.js";
import type { Lang, SummaryRequest } from "../types.js";

declare module "../types.js" {
  interface CommandTypes {
    summary: { kind: "summary"; lang: Lang; request: SummaryRequest };
  }
}

export const summary = defineCommand({
  name: "summary",
  words: SUMMARY_WORDS.command,
  reading: SUMMARY_WORDS,
  usage: {
    en: ["summary [today|yesterday|7d|month|lastmonth|date|A..B] [status]"],
    th: ["ยอด", "ยอดเมื่อวาน", "ยอด 1/11 ถึง 15/11"],
  },
  example: { en: "summary 7d", th: "ยอดเมื่อวาน" },
  description: {
    en: "totals of a period: checks, valid amount, per status and channel, tokens used, a chart",
    th: "สรุปยอดโอนเข้าของวันนี้หรือวันที่เลือก: จำนวนสลิป แยกตามสถานะและช่องทาง โทเคนที่ใช้ พร้อมกราฟ",
  },
  audience: "staff",
  bareInCustomerGroup: false,
  keywords: HISTORY_THAI_KEYWORDS,
  parse: (args, lang, reader) => {
    const result = parseSummaryArgs(reader.tokens(spaceRanges(args)), reader.today);
    return result.ok ? { ok: true, command: { kind: "summary", lang, request: result.request } } : result;
  },
  menu: { staff: { label: "ยอดวันนี้", sub: "Today's summary" } },
  kinds: { summary: "staff", daily_summary: "staff" },
  texts: SUMMARY_TEXTS,
});
