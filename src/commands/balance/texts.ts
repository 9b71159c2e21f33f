// What `balance` says, in Thai and English side by side (docs/thai.md's words and endings).
import type { Lang } from "../types.js";

export interface BalanceTexts {
  forecastTitle: string;
  forecastPerDay: (tokens: string) => string;
  forecastLasts: (days: string, date: string) => string;
  forecastTokensFirst: string;
  forecastPackageFirst: string;
  forecastNoHistory: string;

  balanceTitle: string;
  balancePackage: string;
  balanceTokens: string;
  balanceCredits: string;
  balanceEstimate: string;
  balanceRate: string;
  balanceApi: string;
  balanceChat: string;
  balanceSlips: (count: string) => string;
  balancePerCheck: (tokens: string) => string;
  balanceExpires: string;
  expiredDaysAgo: (days: number) => string;
  warnExpiring: (days: number) => string;
  warnExpired: string;
  warnLowSlips: (count: string) => string;
  balanceAlt: (store: string, tokens: string, slips: string, expires: string) => string;
}

export const BALANCE_TEXTS: { readonly [L in Lang]: BalanceTexts } = {
  th: {
    forecastTitle: "คาดการณ์โทเคน",
    forecastPerDay: (tokens) => `7 วันล่าสุดใช้เฉลี่ยวันละ ${tokens} โทเคน`,
    forecastLasts: (days, date) => `ถ้าใช้เท่านี้ โทเคนจะพอใช้อีกประมาณ ${days} วัน (ถึง ${date})`,
    forecastTokensFirst: "⚠️ โทเคนจะหมดก่อนแพ็กเกจหมดอายุ เติมโทเคนไว้ก่อนนะคะ",
    forecastPackageFirst: "แพ็กเกจจะหมดอายุก่อนโทเคนหมด",
    forecastNoHistory: "ใน 7 วันล่าสุดไม่มีการตรวจสลิป จึงยังคาดการณ์ไม่ได้",

    balanceTitle: "แพ็กเกจตรวจสลิป",
    balancePackage: "แพ็กเกจ",
    balanceTokens: "โทเคนคงเหลือ",
    balanceCredits: "เครดิตสำรอง",
    balanceEstimate: "ตรวจได้อีกประมาณ",
    balanceRate: "ใช้ต่อสลิป",
    balanceApi: "API",
    balanceChat: "แชท",
    balanceSlips: (count) => `${count} สลิป`,
    balancePerCheck: (tokens) => `${tokens} โทเคน`,
    balanceExpires: "หมดอายุ",
    expiredDaysAgo: (days) => (days === 0 ? "หมดอายุแล้ว" : `หมดอายุไปแล้ว ${days} วัน`),
    warnExpiring: (days) => `⚠️ แพ็กเกจ${days <= 0 ? "หมดอายุวันนี้" : days === 1 ? "จะหมดอายุพรุ่งนี้" : `จะหมดอายุในอีก ${days} วัน`} ต่ออายุด้วยนะคะ`,
    warnExpired: "⚠️ แพ็กเกจหมดอายุแล้ว ต่ออายุด้วยนะคะ",
    warnLowSlips: (count) => `⚠️ โทเคนเหลือพอตรวจสลิปทาง API อีกประมาณ ${count} สลิป เติมโทเคนด้วยนะคะ`,
    balanceAlt: (store, tokens, slips, expires) => `${store}: โทเคนคงเหลือ ${tokens} (ตรวจทาง API ได้อีกประมาณ ${slips} สลิป) หมดอายุ ${expires}`,
  },
  en: {
    forecastTitle: "Token forecast",
    forecastPerDay: (tokens) => `Last 7 days: ${tokens} tokens a day on average`,
    forecastLasts: (days, date) => `At this pace, tokens last about ${days} days (until ${date})`,
    forecastTokensFirst: "⚠️ Tokens run out before the package expires.",
    forecastPackageFirst: "The package expires before the tokens run out.",
    forecastNoHistory: "No checks in the last 7 days, so no forecast yet.",

    balanceTitle: "Account",
    balancePackage: "Package",
    balanceTokens: "Tokens left",
    balanceCredits: "Reserve credits",
    balanceEstimate: "Slips left (approx.)",
    balanceRate: "Tokens per check",
    balanceApi: "API",
    balanceChat: "Chat",
    balanceSlips: (count) => `${count} slips`,
    balancePerCheck: (tokens) => `${tokens} tokens`,
    balanceExpires: "Expires",
    expiredDaysAgo: (days) => (days === 0 ? "expired" : days === 1 ? "expired 1 day ago" : `expired ${days} days ago`),
    warnExpiring: (days) => `⚠️ The package expires ${days <= 0 ? "today" : days === 1 ? "tomorrow" : `in ${days} days`}. Please renew it.`,
    warnExpired: "⚠️ The package has expired. Please renew it.",
    warnLowSlips: (count) => `⚠️ Tokens are left for about ${count} API checks. Please top up.`,
    balanceAlt: (store, tokens, slips, expires) => `${store}: ${tokens} tokens left (about ${slips} API checks), expires ${expires}`,
  },
};
