// What `summary` says, in Thai and English side by side (docs/thai.md's words and endings).
import type { Lang } from "../types.js";

export interface SummaryTexts {
  summaryTitle: string;
  summaryValidLabel: string;
  summaryByStatus: string;
  summaryByChannel: string;
  summaryTokensUsed: (tokens: string) => string;
  summaryPerHour: string;
  summaryPerDay: string;
  summaryAsOf: (time: string) => string;
  summaryCapped: (covered: string, total: string) => string;
  /** `dates`: the days the figures cover, written as one range. */
  summaryDaysCut: (dates: string) => string;
  summaryAlt: (range: string, checks: string, valid: string) => string;
  summaryNoSource: string;
  /** The row that folds the statuses or channels past the first few. */
  summaryOthers: (kinds: string) => string;
}

export const SUMMARY_TEXTS: { readonly [L in Lang]: SummaryTexts } = {
  th: {
    summaryTitle: "สรุปยอด",
    summaryValidLabel: "ยอดโอนเข้า (สลิปที่ผ่าน)",
    summaryByStatus: "แยกตามสถานะ",
    summaryByChannel: "แยกตามช่องทางที่ตรวจ (ยอดโอนเข้า)",
    summaryTokensUsed: (tokens) => `ใช้ไป ${tokens} โทเคน`,
    summaryPerHour: "จำนวนสลิปรายชั่วโมง",
    summaryPerDay: "จำนวนสลิปรายวัน",
    summaryAsOf: (time) => `ข้อมูล ณ ${time} น.`,
    summaryCapped: (covered, total) => `ตัวเลขคิดจาก ${covered} สลิปล่าสุด (ตรวจทั้งหมด ${total} สลิป)`,
    summaryDaysCut: (dates) => `สรุปได้ครั้งละไม่เกิน 31 วัน จึงแสดงเฉพาะวันที่ ${dates}`,
    summaryAlt: (range, checks, valid) => `สรุปยอด ${range}: ตรวจ ${checks} สลิป ยอดโอนเข้า ${valid}`,
    summaryNoSource: "ไม่ระบุ",
    summaryOthers: (kinds) => `อื่น ๆ อีก ${kinds} แบบ`,
  },
  en: {
    summaryTitle: "Summary",
    summaryValidLabel: "Valid total",
    summaryByStatus: "By status",
    summaryByChannel: "By channel (valid amount)",
    summaryTokensUsed: (tokens) => `Tokens used: ${tokens}`,
    summaryPerHour: "Per hour",
    summaryPerDay: "Per day",
    summaryAsOf: (time) => `As of ${time}`,
    summaryCapped: (covered, total) => `Figures over the newest ${covered} of ${total} checks.`,
    summaryDaysCut: (dates) => `A summary covers at most 31 days: these figures are for ${dates}.`,
    summaryAlt: (range, checks, valid) => `Summary ${range}: ${checks} checks, valid ${valid}`,
    summaryNoSource: "unknown",
    summaryOthers: (kinds) => `${kinds} others`,
  },
};
