// What `history` says, in Thai and English side by side (docs/thai.md's words and endings).
import type { Lang } from "../types.js";

export interface HistoryTexts {
  historyTitle: string;
  filterRef: (ref: string) => string;
  summaryValidTotal: string;
  summaryPartial: (fetched: string) => string;
  historyEmptyRef: (ref: string) => string;
  pageOf: (page: string, pages: string) => string;
  pastEnd: (page: string, pages: string) => string;
  rowsCut: string;
  nextPage: string;
  previousPage: string;
  quickToday: string;
  quickYesterday: string;
  quick7Days: string;
  historyAlt: (header: string, summary: string, page: string) => string;
  /** The alt text when nothing was found: the empty line says it all, once (`header` is the days, if any). */
  historyAltEmpty: (header: string | undefined, empty: string) => string;
  /** In a row, for a payer or receiver the slip gives no name for. */
  noName: string;
  /** The figures in a history's alt text: the checks, the money in, and the count of each status. */
  historyAltFigures: (checks: string, validTotal: string, statusCounts: readonly string[]) => string;
}

export const HISTORY_TEXTS: { readonly [L in Lang]: HistoryTexts } = {
  th: {
    historyTitle: "ประวัติตรวจสลิป",
    filterRef: (ref) => `เลขอ้างอิง ${ref}`,
    summaryValidTotal: "ยอดโอนเข้า",
    summaryPartial: (fetched) => `ยอดโอนเข้าคิดจาก ${fetched} สลิปล่าสุดเท่านั้น`,
    historyEmptyRef: (ref) => `ไม่พบสลิปที่มีเลขอ้างอิง ${ref} ค่ะ`,
    pageOf: (page, pages) => `หน้า ${page} จาก ${pages}`,
    pastEnd: (page, pages) => `มีทั้งหมด ${pages} หน้า ไม่มีหน้า ${page} ค่ะ`,
    rowsCut: "แสดงได้ไม่ครบทุกรายการ เพราะข้อความยาวเกินที่ LINE รับได้",
    nextPage: "หน้าถัดไป",
    previousPage: "หน้าก่อน",
    quickToday: "วันนี้",
    quickYesterday: "เมื่อวาน",
    quick7Days: "7 วัน",
    historyAlt: (header, summary, page) => `ประวัติตรวจสลิป ${header}: ${summary} (${page})`,
    historyAltEmpty: (header, empty) => (header === undefined ? `ประวัติตรวจสลิป: ${empty}` : `ประวัติตรวจสลิป ${header}: ${empty}`),
    // Never `?`: a question mark where a name should be reads as a broken character.
    noName: "ไม่ระบุชื่อ",
    historyAltFigures: (checks, validTotal, statusCounts) => (statusCounts.length === 0 ? `${checks} ${validTotal}` : `${checks} ${validTotal} (${statusCounts.join(" ")})`),
  },
  en: {
    historyTitle: "Slip checks",
    filterRef: (ref) => `Ref ${ref}`,
    summaryValidTotal: "Valid total",
    summaryPartial: (fetched) => `Total counted over the newest ${fetched} checks`,
    historyEmptyRef: (ref) => `No slip check with reference ${ref}.`,
    pageOf: (page, pages) => `Page ${page} of ${pages}`,
    pastEnd: (page, pages) => (pages === "1" ? `There is no page ${page}: there is only 1 page.` : `There is no page ${page}: there are only ${pages} pages.`),
    rowsCut: "Some rows are left out to stay within LINE's size limit.",
    nextPage: "Next page",
    previousPage: "Previous page",
    quickToday: "Today",
    quickYesterday: "Yesterday",
    quick7Days: "7 days",
    historyAlt: (header, summary, page) => `Slip checks ${header}: ${summary} (${page})`,
    historyAltEmpty: (header, empty) => (header === undefined ? `Slip checks: ${empty}` : `Slip checks ${header}: ${empty}`),
    noName: "(no name)",
    historyAltFigures: (checks, validTotal, statusCounts) => (statusCounts.length === 0 ? `${checks}, ${validTotal}` : `${checks}, ${validTotal}; ${statusCounts.join(" · ")}`),
  },
};
