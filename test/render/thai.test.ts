// docs/thai.md held to: every Thai string the texts table can produce, and every Thai reply, card and menu
// the bot draws, free of the renderings the page forbids; sentences to a person ending in ค่ะ or คะ and
// labels without; money, times and date ranges written the Thai way.
import type { messagingApi } from "@line/bot-sdk";
import { describe, expect, it } from "vitest";
import type { UsageProblem } from "../../src/commands/types.js";
import { TEXTS, type Texts as SharedTexts } from "../../src/render/text.js";
import { COMMAND_NAMES, COMMANDS } from "../../src/commands/registry.js";
import type { IdTexts } from "../../src/commands/id/texts.js";
import type { ContactTexts } from "../../src/commands/contact/texts.js";
import type { QrTexts } from "../../src/commands/qr/texts.js";
import type { HistoryTexts } from "../../src/commands/history/texts.js";
import type { SummaryTexts } from "../../src/commands/summary/texts.js";
import type { ExportTexts } from "../../src/commands/export/texts.js";
import type { PaidTexts } from "../../src/commands/paid/texts.js";
import type { BalanceTexts } from "../../src/commands/balance/texts.js";
import type { HelpTexts } from "../../src/commands/help/texts.js";
import { renderContact } from "../../src/commands/contact/render.js";
import { formatBaht, formatDateRange, formatTokens } from "../../src/render/format.js";
import { renderQr } from "../../src/commands/qr/render.js";
import { renderPaid } from "../../src/commands/paid/render.js";
import { renderHistory } from "../../src/commands/history/render.js";
import { renderSummary } from "../../src/commands/summary/render.js";
import { renderBalance } from "../../src/commands/balance/render.js";
import { renderHelp } from "../../src/commands/help/render.js";
import { renderId } from "../../src/commands/id/render.js";
import { renderExpiryAlert, renderLowTokensAlert, renderPaymentReceived } from "../../src/render/alerts.js";
import { messagesOf, type Answer } from "../../src/privacy/answer.js";
import {
  renderAskInPrivate,
  renderCustomerNote,
  renderCustomerPayHint,
  renderCustomerThanks,
  renderDidYouMean,
  renderEditedNote,
  renderGreeting,
  renderNoPromptPayId,
  renderQrAskStaff,
  renderQrShopOnly,
  renderServiceFailure,
  renderSlipPhotoHint,
  renderStaffGroupNotice,
  renderTypeAmountHint,
  renderUnknownCommand,
  renderUsageError,
} from "../../src/render/errors.js";
import { designMenus } from "../../src/rich-menu/menus.js";
import { computeFigures } from "../../src/summary/figures.js";
import type { HistoryItem } from "../../src/slip/types.js";
import { ACCOUNT, VALID_ITEM } from "../slip/fixtures.js";
import { visibleText } from "./line-limits.js";
import { quickReplyTaps } from "../kit/messages.js";
import { loadPageTexts, type ApiRefusal, type PageLang, type PageView } from "../kit/staff-app-page.js";

type Texts = SharedTexts & QrTexts & HistoryTexts & SummaryTexts & ExportTexts & PaidTexts & BalanceTexts & HelpTexts & ContactTexts & IdTexts;

/** Every Thai text the bot says: the shared table's and each command's own. */
const th = Object.assign({}, TEXTS.th, ...COMMAND_NAMES.map((name) => COMMANDS[name].texts?.th ?? {})) as Texts;

/** What docs/thai.md, section 6, says never to write, each with why. */
const FORBIDDEN: readonly [RegExp, string][] = [
  [/ยอดที่ผ่าน/u, "reads as 'past totals'"],
  [/ตรวจผ่าน API|ผ่าน API/u, "ผ่าน means valid"],
  [/ข้อมูลบัญชี/u, "next to money, บัญชี is a bank account"],
  [/ในช่วงนี้/u, "reads as 'lately'"],
  [/แชต/u, "LINE's Thai interface writes แชท"],
  [/อีวอลเล็ต/u, "bank apps write e-Wallet"],
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/u, "a raw UTC instant"],
  [/รูปแบบที่อ่านไม่ได้|ไม่รับคำขอนี้/u, "translated error English"],
  [/ได้รับ \d/u, "reads as an announcement, not the payment check"],
  [/\[[^\]]*\||‹|›|<[^>]*>/u, "programmer notation"],
  [/ยังไม่เข้า/u, "claims the bank has no money; the bot knows checked slips only"],
  [/จำนวนเงิน/u, "the amount is ยอดเงิน"],
  [/เมนูด้านล่าง/u, "name the button: ปุ่ม “จ่ายด้วย QR” ด้านล่าง"],
  [/มุมมอง/u, "'view' put into Thai"],
  [/จาก \?|(?:^|\s)\? →|→ \?(?:\s|$)/u, "a missing name as a question mark"],
  [/ยังไม่พบสลิปยอดนี้ที่ตรวจแล้ว/u, "untrue when a fake slip of that amount was checked"],
  [/; /u, "English punctuation"],
];

function forbiddenIn(text: string): string[] {
  return FORBIDDEN.filter(([pattern]) => pattern.test(text)).map(([pattern, why]) => `${pattern.source} (${why}) in ${JSON.stringify(text)}`);
}

/**
 * A sentence said to a person ends with ค่ะ or คะ, an emoji or a notice's time in brackets at most after it
 * (docs/thai.md, section 4).
 */
const ENDS_POLITELY = /(?:ค่ะ|คะ)(?: ?\p{Extended_Pictographic}\uFE0F?| \(\d{1,2}:\d{2} น\.\))?$/u;

type Kind = "sentence" | "label" | "lead" | "steps";

/**
 * Every entry of the texts table: a sentence to a person (ends with ค่ะ/คะ), a label (title, figure,
 * button, note: no ending), a lead (its first line is a sentence, the lines after it commands to copy), or
 * steps (sentences, then numbered lines with no ending). A new entry must be placed here, or this does not
 * compile.
 */
const KIND: Record<keyof Texts, Kind> = {
  statusWord: "label",
  sourceWord: "label",
  payeeType: "label",
  qrTitle: "label",
  qrPayerEntersAmount: "label",
  qrPayeeLabel: "label",
  qrScanHint: "label",
  qrSendSlip: "sentence",
  qrAlt: "label",
  historyTitle: "label",
  rangeName: "label",
  filterAll: "label",
  filterStatus: "label",
  filterRef: "label",
  summaryChecks: "label",
  summaryValidTotal: "label",
  summaryPartial: "label",
  noChecks: "sentence",
  historyEmptyRef: "sentence",
  pageOf: "label",
  pastEnd: "sentence",
  rowsCut: "label",
  nextPage: "label",
  previousPage: "label",
  refShort: "label",
  quickToday: "label",
  quickYesterday: "label",
  quick7Days: "label",
  historyAlt: "label",
  historyAltFigures: "label",
  historyAltEmpty: "sentence",
  noName: "label",
  exportReady: "sentence",
  exportOpen: "sentence",
  exportOnce: "sentence",
  exportEnglish: "label",
  exportDaysCut: "sentence",
  exportNeedsPublicUrl: "sentence",
  exportNoUser: "sentence",
  summaryTitle: "label",
  summaryValidLabel: "label",
  summaryByStatus: "label",
  summaryByChannel: "label",
  summaryTokensUsed: "label",
  summaryPerHour: "label",
  summaryPerDay: "label",
  summaryAsOf: "label",
  summaryCapped: "label",
  summaryDaysCut: "label",
  summaryAlt: "label",
  summaryNoSource: "label",
  summaryOthers: "label",
  paidTitle: "label",
  paidSince: "label",
  paidToday: "label",
  paidFound: "label",
  paidNotYet: "sentence",
  paidNoSender: "label",
  paidAskAgain: "label",
  paidAlt: "label",
  qrCheckPayment: "label",
  forecastTitle: "label",
  forecastPerDay: "label",
  forecastLasts: "label",
  forecastTokensFirst: "sentence",
  forecastPackageFirst: "label",
  forecastNoHistory: "label",
  alertLowTokens: "sentence",
  alertExpiry: "sentence",
  alertPaymentReceived: "sentence",
  dailySummaryLead: "label",
  balanceTitle: "label",
  balancePackage: "label",
  balanceTokens: "label",
  balanceCredits: "label",
  balanceEstimate: "label",
  balanceRate: "label",
  balanceApi: "label",
  balanceChat: "label",
  balanceSlips: "label",
  balancePerCheck: "label",
  balanceExpires: "label",
  daysLeft: "label",
  expiredDaysAgo: "label",
  warnExpiring: "sentence",
  warnExpired: "sentence",
  warnLowSlips: "sentence",
  balanceAlt: "label",
  helpTitle: "label",
  helpIntro: "sentence",
  helpExampleLabel: "label",
  helpAlt: "label",
  helpFooter: "sentence",
  customerHelpTitle: "label",
  customerHelpPay: "steps",
  customerHelpAsk: "sentence",
  payByQrButton: "label",
  contactShop: "sentence",
  howToType: "lead",
  commandList: "label",
  usageProblem: "sentence",
  unknownCommand: "sentence",
  didYouMean: "sentence",
  notUnderstood: "sentence",
  packageExpired: "sentence",
  invalidRequest: "sentence",
  serviceUnavailable: "sentence",
  serviceError: "sentence",
  unauthorized: "sentence",
  responseShape: "sentence",
  qrMismatch: "sentence",
  noPromptPayId: "sentence",
  noStaffYet: "steps",
  askInPrivate: "sentence",
  editedNote: "sentence",
  staffGroupNotice: "sentence",
  qrShopOnly: "sentence",
  qrAskStaff: "sentence",
  customerNote: "sentence",
  customerThanks: "sentence",
  customerPayHint: "sentence",
  typeAmountHint: "sentence",
  customerGreeting: "sentence",
  greeting: "sentence",
  slipPhotoHint: "sentence",
  apology: "sentence",
  restarting: "sentence",
  idYourUser: "label",
  idNoUser: "sentence",
  idChat: "label",
  idOnStaffList: "sentence",
  idUserInPrivate: "sentence",
};

const PROBLEMS: readonly UsageProblem[] = [
  { code: "bad_amount", input: "abc" },
  { code: "amount_decimals", input: "1.505" },
  { code: "amount_too_large", input: "99999999999" },
  { code: "bad_promptpay_id", input: "12345" },
  { code: "bad_promptpay_id", input: "081234567", digits: 9 },
  { code: "bad_date", input: "32/13" },
  { code: "no_such_date", input: "31/02" },
  { code: "range_too_long", input: "400วัน", maxDays: 366 },
  { code: "bad_page", input: "0" },
  { code: "missing_ref" },
  { code: "missing_amount" },
  { code: "unexpected", input: "พรุ่งนี้" },
];

/**
 * Sample arguments for each function entry, as callers pass them: money as a sentence writes it, times as
 * a clock, dates in the Buddhist era.
 */
const SAMPLES: { [K in keyof Texts]?: Texts[K] extends (...args: infer A) => unknown ? readonly A[] : never } = {
  qrAlt: [
    ["150 บาท", "081-xxx-5678", "เบอร์โทร"],
    [undefined, "081-xxx-5678", "เบอร์โทร"],
  ],
  rangeName: [[{ kind: "today" }], [{ kind: "yesterday" }], [{ kind: "days", days: 7 }], [{ kind: "week" }], [{ kind: "lastweek" }], [{ kind: "month" }], [{ kind: "lastmonth" }]],
  filterStatus: [["ผ่าน"]],
  filterRef: [["015326095622AQR01234"]],
  summaryChecks: [["12"]],
  summaryPartial: [["2,000"]],
  noChecks: [
    [{ kind: "today" }, "22 พ.ย. 2569", undefined],
    [{ kind: "yesterday" }, "21 พ.ย. 2569", "ปลอม"],
    [{ kind: "week" }, "16–22 พ.ย. 2569", undefined],
    [{ kind: "dates", from: { year: 2026, month: 11, day: 1 }, to: { year: 2026, month: 11, day: 15 } }, "1–15 พ.ย. 2569", undefined],
  ],
  historyEmptyRef: [["015326095622AQR01234"]],
  pageOf: [["1", "3"]],
  pastEnd: [["5", "3"]],
  historyAlt: [["วันนี้ · 22 พ.ย. 2569 (ทุกสถานะ)", "ตรวจ 12 สลิป ยอดโอนเข้า 3,450 บาท", "หน้า 1 จาก 2"]],
  historyAltEmpty: [
    ["วันนี้ · 22 พ.ย. 2569", "วันนี้ยังไม่มีการตรวจสลิปค่ะ"],
    [undefined, "ไม่พบสลิปที่มีเลขอ้างอิง 015326095622AQR01234 ค่ะ"],
  ],
  historyAltFigures: [
    ["ตรวจ 12 สลิป", "ยอดโอนเข้า 4,500 บาท", ["ผ่าน 10", "ซ้ำ 2"]],
    ["ตรวจ 1 สลิป", "ยอดโอนเข้า 150 บาท", []],
  ],
  summaryTokensUsed: [["12"]],
  summaryAsOf: [["14:05"]],
  summaryCapped: [["20,000", "25,000"]],
  summaryDaysCut: [["23 ต.ค. – 22 พ.ย. 2569"]],
  exportReady: [
    ["เมื่อวาน", "21 พ.ย. 2569"],
    ["7 วันล่าสุด", "16–22 พ.ย. 2569"],
    [undefined, "1–15 พ.ย. 2569"],
  ],
  exportDaysCut: [["23 ต.ค. 2569"]],
  exportNoUser: [["ส่งออก"]],
  summaryAlt: [["วันนี้ · 22 พ.ย. 2569", "12", "3,450 บาท"]],
  summaryOthers: [["3"]],
  paidTitle: [["150 บาท"]],
  paidSince: [["14:05"]],
  paidFound: [[1], [3]],
  paidAlt: [
    ["150 บาท", 0],
    ["150 บาท", 2],
  ],
  forecastPerDay: [["20"]],
  forecastLasts: [["35", "27 ธ.ค. 2569"]],
  alertLowTokens: [["40", "50"]],
  alertExpiry: [
    [0, "22 พ.ย. 2569"],
    [1, "23 พ.ย. 2569"],
    [3, "25 พ.ย. 2569"],
  ],
  alertPaymentReceived: [
    ["150 บาท", "นาย สมชาย ใจดี", "14:05"],
    ["150 บาท", undefined, "14:05"],
  ],
  balanceSlips: [["8,230"]],
  balancePerCheck: [["1"]],
  daysLeft: [[0], [1], [70]],
  expiredDaysAgo: [[0], [2]],
  warnExpiring: [[0], [1], [3]],
  warnLowSlips: [["40"]],
  balanceAlt: [["ร้านกาแฟดีใจ", "12,345", "8,230", "31 ม.ค. 2570"]],
  helpAlt: [[["คิวอาร์ 150", "ประวัติ เมื่อวาน"]]],
  customerHelpPay: [["คิวอาร์"]],
  howToType: [[["เช็คยอด 150", "เช็คยอด 1,500.50"], "เช็คยอด 150"]],
  commandList: [[["คิวอาร์", "ประวัติ", "ยอด"]]],
  usageProblem: PROBLEMS.map((problem) => [problem] as const),
  unknownCommand: [["abc", "“คิวอาร์ 150”, “ประวัติ” หรือ “ยอด”"]],
  didYouMean: [["เชคยอด", "เช็คยอด"]],
  notUnderstood: [["“คิวอาร์ 150”, “ประวัติ” หรือ “ยอด”"]],
  invalidRequest: [
    ["accountNumber must be a 10-digit phone", true],
    ["limit must be at most 100", false],
  ],
  noPromptPayId: [["คิวอาร์ 0812345678 150"]],
  noStaffYet: [["วิธีใช้"]],
  qrShopOnly: [["คิวอาร์ 150"]],
  customerNote: [["จ่ายด้วย QR"]],
  customerPayHint: [["คิวอาร์"]],
  typeAmountHint: [["คิวอาร์ 150"]],
  customerGreeting: [["คิวอาร์"]],
  slipPhotoHint: [["ประวัติ"]],
  idYourUser: [["U1234"]],
  idChat: [
    ["group", "C5678"],
    ["room", "R5678"],
  ],
  idOnStaffList: [["user"], ["group"], ["room"]],
  idUserInPrivate: [["ไอดี"]],
};

/** Every string an entry can give: its value, its record's values, or its results for the sample arguments. */
function stringsOf(key: keyof Texts): string[] {
  const entry: unknown = th[key];
  if (typeof entry === "string") return [entry];
  if (typeof entry === "function") {
    const samples = (SAMPLES[key] ?? []) as readonly unknown[][];
    if (samples.length === 0) throw new Error(`no sample arguments for ${key}`);
    return samples.map((args) => (entry as (...a: unknown[]) => string | undefined)(...args) ?? "");
  }
  return Object.values(entry as Record<string, string>);
}

const KEYS = Object.keys(KIND) as (keyof Texts)[];

describe("the Thai texts table", () => {
  it("has an entry kind for every entry, and sample arguments for every function", () => {
    expect(Object.keys(th).sort()).toEqual([...KEYS].sort());
    for (const key of KEYS) expect(stringsOf(key).length, key).toBeGreaterThan(0);
  });

  it.each(KEYS)("%s writes none of docs/thai.md's forbidden renderings", (key) => {
    expect(stringsOf(key).flatMap(forbiddenIn)).toEqual([]);
  });

  it.each(KEYS.filter((key) => KIND[key] === "sentence"))("%s ends each message to a person with ค่ะ or คะ, and writes money in บาท", (key) => {
    for (const text of stringsOf(key)) {
      expect(text, key).toMatch(ENDS_POLITELY);
      expect(text, key).not.toContain("฿");
    }
  });

  it.each(KEYS.filter((key) => KIND[key] === "label"))("%s is a label: no ending particle", (key) => {
    for (const text of stringsOf(key)) expect(text, key).not.toMatch(/(?:ค่ะ|คะ)$/u);
  });

  it("shows how to type a command as a polite line, then the commands one a line", () => {
    expect(th.howToType(["เช็คยอด 150", "เช็คยอด 1,500.50"], "เช็คยอด 150")).toBe("พิมพ์ตามตัวอย่างนี้ได้เลยค่ะ\nเช็คยอด 150\nเช็คยอด 1,500.50");
  });

  it.each(KEYS)("%s writes a time with น. after it", (key) => {
    for (const text of stringsOf(key)) expect(text, key).not.toMatch(/\d{1,2}:\d{2}(?! น\.)/u);
  });

  it.each(KEYS.filter((key) => KIND[key] === "steps"))("%s: sentences end politely, then numbered steps take no ending, one a line", (key) => {
    for (const text of stringsOf(key)) {
      const lines = text.split("\n");
      const first = lines.findIndex((line) => /^\d+\. /u.test(line));
      expect(first, key).toBeGreaterThan(0);
      for (const line of lines.slice(0, first)) expect(line, key).toMatch(ENDS_POLITELY);
      for (const line of lines.slice(first)) {
        expect(line, key).toMatch(/^\d+\. /u);
        expect(line, key).not.toMatch(/(?:ค่ะ|คะ)$/u);
        expect(line.length, line).toBeLessThanOrEqual(90);
      }
    }
  });
});

describe("numbers, dates and times the Thai way", () => {
  it.each([
    [150, "150 บาท"],
    [1500.5, "1,500.50 บาท"],
    [9_999_999_999.99, "9,999,999,999.99 บาท"],
    [0.1 + 0.2, "0.30 บาท"],
  ])("%s baht in a sentence is %s", (baht, expected) => {
    expect(formatBaht(baht, "th")).toBe(expected);
  });

  it("keeps the card form in English sentences", () => {
    expect(formatBaht(150, "en")).toBe("฿150.00");
  });

  const d = (year: number, month: number, day: number) => ({ year, month, day });
  it.each([
    [d(2026, 11, 22), d(2026, 11, 22), "th", "22 พ.ย. 2569"],
    [d(2026, 11, 1), d(2026, 11, 30), "th", "1–30 พ.ย. 2569"],
    [d(2026, 10, 28), d(2026, 11, 3), "th", "28 ต.ค. – 3 พ.ย. 2569"],
    [d(2026, 12, 28), d(2027, 1, 3), "th", "28 ธ.ค. 2569 – 3 ม.ค. 2570"],
    [d(2026, 11, 1), d(2026, 11, 30), "en", "1–30 Nov 2026"],
    [d(2026, 10, 28), d(2026, 11, 3), "en", "28 Oct – 3 Nov 2026"],
  ] as const)("%j to %j in %s is %s", (from, to, lang, expected) => {
    expect(formatDateRange(from, to, lang)).toBe(expected);
  });

  it("counts whole tokens without .00", () => {
    expect(formatTokens(12)).toBe("12");
    expect(formatTokens(12.5)).toBe("12.50");
  });
});

// --------------------------------------------------------------- every Thai reply the bot draws

const TZ = "Asia/Bangkok";
const NOW = new Date("2026-11-22T07:05:00.000Z"); // 14:05 in Bangkok
const QR_URL = "https://slip.example/api/qr-image?data=000201&size=1024";

function check(partial: Partial<HistoryItem>): HistoryItem {
  return { ...VALID_ITEM, createdAt: "2026-11-22T06:00:00.000Z", source: "line_oa_merchant", ...partial };
}

// Few API checks left and the package ending in 3 days, so the card carries its warnings too.
const account = { ...ACCOUNT, rate: { chat: 1, api: 1.5 }, estimatedSlips: { chat: 700, api: 40 }, expiresAt: "2026-11-25T16:59:59.000Z" };

/** Every Thai reply, one of each kind, as the bot would send it. */
function thaiReplies(): Record<string, messagingApi.Message[]> {
  const items = [check({}), check({ status: "fraud", amount: 99.5 }), check({ status: "duplicate", senderName: null })];
  const figures = computeFigures(items, { fromDate: { year: 2026, month: 11, day: 1 }, toDate: { year: 2026, month: 11, day: 22 }, timeZone: TZ });
  const days = { coveredFrom: { year: 2026, month: 11, day: 1 }, coveredTo: { year: 2026, month: 11, day: 22 } };
  const answers: Record<string, Answer> = {
    qr: renderQr({
      paysShop: true,
      lang: "th",
      payee: { type: "ewallet", digits: "123456789012345" },
      amount: 150,
      url: QR_URL,
      checkPayment: "เช็คยอด 150 หลัง 2026-11-22T07:05:00.000Z",
      forCustomers: false,
    }),
    qrNoAmount: renderQr({ paysShop: true, lang: "th", payee: { type: "phone", digits: "0812345678" }, amount: null, url: QR_URL, forCustomers: false }),
    qrForCustomers: renderQr({ paysShop: true, lang: "th", payee: { type: "phone", digits: "0812345678" }, amount: 150, url: QR_URL, forCustomers: true }),
    paidNotYet: renderPaid({ lang: "th", timeZone: TZ, amountSatang: 15000, after: NOW, found: [], askAgain: "เช็คยอด 150 หลัง 2026-11-22T07:05:00.000Z" }),
    paidFound: renderPaid({ lang: "th", timeZone: TZ, amountSatang: 15000, found: [check({})], askAgain: "เช็คยอด 150" }),
    paidUnnamed: renderPaid({ lang: "th", timeZone: TZ, amountSatang: 15000, found: [check({ senderName: null })], askAgain: "เช็คยอด 150" }),
    paidYesterday: renderPaid({
      lang: "th",
      timeZone: TZ,
      amountSatang: 15000,
      range: { spec: { kind: "yesterday" }, fromDate: { year: 2026, month: 11, day: 21 }, toDate: { year: 2026, month: 11, day: 21 } },
      found: [],
      askAgain: "เช็คยอด 150 เมื่อวาน",
    }),
    history: renderHistory({
      lang: "th",
      timeZone: TZ,
      scope: { by: "range", range: { kind: "month" }, fromDate: days.coveredFrom, toDate: days.coveredTo },
      page: 1,
      summary: {
        count: 23,
        validTotal: 3450,
        byStatus: [
          { status: "valid", count: 20 },
          { status: "fraud", count: 3 },
        ],
        validTotalOver: 20,
      },
      rows: items,
    }),
    historyEmpty: renderHistory({
      lang: "th",
      timeZone: TZ,
      scope: { by: "ref", transRef: "NOPE123" },
      page: 1,
      summary: { count: 0, validTotal: 0, byStatus: [] },
      rows: [],
    }),
    historyEmptyToday: renderHistory({
      lang: "th",
      timeZone: TZ,
      scope: { by: "range", range: { kind: "today" }, fromDate: { year: 2026, month: 11, day: 22 }, toDate: { year: 2026, month: 11, day: 22 } },
      page: 1,
      summary: { count: 0, validTotal: 0, byStatus: [] },
      rows: [],
    }),
    historyPage2: renderHistory({
      lang: "th",
      timeZone: TZ,
      scope: { by: "range", range: { kind: "week" }, fromDate: { year: 2026, month: 11, day: 16 }, toDate: { year: 2026, month: 11, day: 22 } },
      page: 2,
      summary: {
        count: 25,
        validTotal: 4500,
        byStatus: [
          { status: "valid", count: 23 },
          { status: "duplicate", count: 2 },
        ],
      },
      rows: items,
    }),
    summary: renderSummary({
      lang: "th",
      timeZone: TZ,
      range: { kind: "days", days: 60 },
      figures,
      ...days,
      askedFrom: { year: 2026, month: 9, day: 24 },
      total: 30,
      at: NOW,
      lead: TEXTS.th.dailySummaryLead,
    }),
    balance: renderBalance({ lang: "th", timeZone: TZ, now: NOW, account, usage: { tokensCharged: 140, days: 7 } }),
    help: renderHelp({ lang: "th", role: "staff" }),
    customerHelp: renderHelp({ lang: "th", role: "customer" }),
    id: renderId({ lang: "th", userId: "U1234", chat: { type: "room", id: "R5678" }, staffPlace: true, noStaffYet: false }),
    idCustomerGroup: renderId({ lang: "th", userId: "U1234", chat: { type: "group", id: "C5678" }, staffPlace: false, noStaffYet: false }),
    idNoStaffYet: renderId({ lang: "th", userId: "U1234", chat: { type: "user", id: "U1234" }, staffPlace: false, noStaffYet: true }),
    unknown: renderUnknownCommand("th", "abc"),
    didYouMean: renderDidYouMean("th", "เชคยอด", "paid"),
    customerThanks: renderCustomerThanks("th"),
    customerPayHint: renderCustomerPayHint("th"),
    typeAmountHint: renderTypeAmountHint("th"),
    askInPrivate: renderAskInPrivate("th"),
    noPromptPayId: renderNoPromptPayId("th"),
    qrShopOnly: renderQrShopOnly("th"),
    qrAskStaff: renderQrAskStaff("th"),
    customerNote: renderCustomerNote("th"),
    contact: renderContact("th"),
    greeting: renderGreeting("th", "staff"),
    customerGreeting: renderGreeting("th", "customer"),
    slipPhoto: renderSlipPhotoHint("th"),
    editedNote: renderEditedNote("th"),
    serviceFailure: renderServiceFailure({ kind: "response_shape", command: "balance" }, "th"),
    invalidRequest: renderServiceFailure({ kind: "invalid_request", serviceMessage: "accountNumber is invalid", command: "qr" }, "th"),
    staffGroupNotice: renderStaffGroupNotice("th"),
    lowTokens: renderLowTokensAlert("th", 40, 50),
    expiry: renderExpiryAlert("th", 3, { year: 2026, month: 11, day: 25 }),
    paymentReceived: renderPaymentReceived({ lang: "th", amountSatang: 15000, payer: "นาย สมชาย ใจดี", at: NOW, timeZone: TZ }),
  };
  for (const name of ["qr", "history", "summary", "paid", "balance", "contact", "help", "id"] as const) {
    answers[`help ${name}`] = renderHelp({ lang: "th", role: "staff", topic: name });
  }
  for (const problem of PROBLEMS) answers[`usage ${problem.code}`] = renderUsageError({ lang: "th", command: "history", problem });
  return Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, [...messagesOf(answer)]]));
}

/** Everything a person reads: texts, alt texts, button and quick reply labels, what a tap shows in the chat. */
function readable(messages: readonly messagingApi.Message[]): string[] {
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      for (const key of ["text", "altText", "label", "displayText", "fillInText", "chatBarText"]) {
        const value = record[key];
        if (typeof value === "string") out.push(value);
      }
      // Postback data is the bot's own, never shown; everything else is walked.
      for (const [key, value] of Object.entries(record)) if (key !== "data" && typeof value === "object") walk(value);
    }
  };
  walk(messages);
  return out;
}

describe("every Thai reply, card and menu", () => {
  it.each(Object.entries(thaiReplies()))("%s shows none of the forbidden renderings", (_name, messages) => {
    expect(readable(messages).flatMap(forbiddenIn)).toEqual([]);
  });

  it("the rich menus show none of them either, and say the words the glossary gives", () => {
    const menus = designMenus("ร้านกาแฟดีใจ");
    const shown = Object.values(menus).flatMap((menu) => [
      menu.chatBarText,
      ...[...menu.buttons, ...(menu.header.switchTo === undefined ? [] : [menu.header.switchTo])].flatMap((b) => [b.label, ...readable([b.action as never])]),
    ]);
    expect(shown.flatMap(forbiddenIn)).toEqual([]);
    expect(shown).toEqual(expect.arrayContaining(["ยอดวันนี้", "เช็คยอดเข้า", "เช็คยอด ", "โทเคนคงเหลือ", "วิธีใช้", "จ่ายด้วย QR", "วิธีจ่ายเงิน", "ดูเมนูลูกค้า", "กลับเมนูพนักงาน"]));
  });

  it("the QR card's button and the 'ask again' quick reply show what a person would type, keeping the QR's instant hidden", () => {
    const replies = thaiReplies();
    const qrButton = readable(replies.qr ?? []);
    expect(qrButton).toContain("เช็คยอด 150");
    expect(quickReplyTaps(replies.paidNotYet ?? [])).toEqual([{ shows: "เช็คยอด 150", sends: "เช็คยอด 150 หลัง 2026-11-22T07:05:00.000Z" }]);
  });

  it("writes 150 บาท in the paid card's title and alt text, and ฿ only in the QR card's big figure", () => {
    const replies = thaiReplies();
    const paid = replies.paidNotYet?.[0];
    expect(paid?.type === "flex" ? paid.altText : "").toBe("ยอด 150 บาท ยังไม่พบสลิปที่ผ่านการตรวจ");
    expect(visibleText(replies.paidNotYet ?? [])).toContain("ยอด 150 บาท เข้าหรือยัง\nวันนี้ ตั้งแต่ 14:05 น.");
    const qr = replies.qr?.[0];
    expect(qr?.type === "flex" ? qr.altText : "").toBe("QR พร้อมเพย์ 150 บาท โอนเข้า 123-xxxx-xxxx-2345 (e-Wallet)");
    expect(visibleText(replies.qr ?? [])).toContain("฿150.00");
  });

  it("writes a one-month range once, with its month and year, in the summary and history cards", () => {
    const replies = thaiReplies();
    expect(visibleText(replies.history ?? [])).toContain("เดือนนี้ · 1–22 พ.ย. 2569");
    const summary = visibleText(replies.summary ?? []);
    expect(summary).toContain("60 วันล่าสุด · 1–22 พ.ย. 2569");
    expect(summary).toContain("สรุปได้ครั้งละไม่เกิน 31 วัน จึงแสดงเฉพาะวันที่ 1–22 พ.ย. 2569");
    expect(summary).toContain("ข้อมูล ณ 14:05 น.");
  });
});

// ------------------------------------------------- what a native reader wrote, word for word

/** The review's sentences as the bot must now write them, each from the reply a person gets. Copied, not built. */
describe("the Thai review's wording", () => {
  const replies = thaiReplies();
  const shown = (name: string): string => visibleText(replies[name] ?? []);

  it.each([
    ["customerThanks", "ขอบคุณค่ะ 🙏 ทางร้านจะตรวจสอบแล้วรีบตอบกลับนะคะ"],
    ["customerNote", "ขอบคุณที่ทักมานะคะ ทางร้านจะรีบตอบกลับค่ะ 🙏\nถ้าต้องการชำระเงิน กดปุ่ม “จ่ายด้วย QR” ด้านล่างได้เลยนะคะ"],
    ["customerPayHint", "ถ้าจะชำระเงิน พิมพ์ “คิวอาร์” ตามด้วยยอดเงิน เช่น “คิวอาร์ 150” ได้เลยนะคะ"],
    ["typeAmountHint", "พิมพ์ยอดเงินต่อท้ายได้เลยค่ะ เช่น “คิวอาร์ 150” แล้วกดส่งนะคะ"],
    ["qrAskStaff", "ขออภัยค่ะ ตอนนี้สร้าง QR ไม่ได้ รบกวนพิมพ์แจ้งไว้ในแชทนี้ ทางร้านจะส่งช่องทางชำระเงินให้นะคะ 🙏"],
    ["qrShopOnly", "ขออภัยค่ะ สร้าง QR ได้เฉพาะพร้อมเพย์ของร้านนี้นะคะ ถ้าจะชำระเงินให้ร้าน พิมพ์ “คิวอาร์ 150” ได้เลยค่ะ"],
    ["editedNote", "✏️ ตอบตามข้อความที่แก้แล้วนะคะ"],
    ["askInPrivate", "ข้อมูลร้านดูได้เฉพาะในแชทส่วนตัว หรือในกลุ่มพนักงานค่ะ"],
    [
      "staffGroupNotice",
      "มีสมาชิกใหม่เข้ากลุ่มนี้ค่ะ\nกลุ่มนี้เป็นกลุ่มพนักงาน ทุกคนในกลุ่มจะเห็นข้อมูลของร้าน ทั้งรายการสลิป ชื่อผู้โอน ยอดเงิน และโทเคนค่ะ\nถ้ามีลูกค้าอยู่ในกลุ่มนี้ เจ้าของร้านควรเอาไอดีกลุ่มนี้ออกจาก STAFF_GROUP_IDS แล้วเริ่มบอทใหม่ค่ะ",
    ],
    ["invalidRequest", "ระบบตรวจสลิปทำรายการนี้ไม่ได้ค่ะ ลองตรวจเลขพร้อมเพย์และยอดเงิน แล้วส่งใหม่อีกครั้งนะคะ\nระบบแจ้งว่า “accountNumber is invalid”\nถ้ายังไม่ได้ ส่งข้อความนี้ให้เจ้าของร้านดูนะคะ"],
    ["didYouMean", "หมายถึง “เช็คยอด” หรือเปล่าคะ"],
    ["unknown", "ไม่รู้จักคำสั่ง “abc” ค่ะ ลองพิมพ์ “คิวอาร์ 150”, “ประวัติ” หรือ “ยอด” นะคะ\nพิมพ์ “วิธีใช้” เพื่อดูคำสั่งทั้งหมดค่ะ"],
    ["slipPhoto", "บอทนี้ตรวจสลิปจากรูปไม่ได้ค่ะ ส่งสลิปไปตรวจที่ LINE OA หรือแดชบอร์ดของระบบตรวจสลิปที่ร้านใช้ แล้วพิมพ์ “ประวัติ” ที่นี่เพื่อดูผลได้เลยค่ะ"],
    ["paymentReceived", "✅ ยอด 150 บาท จาก นาย สมชาย ใจดี เข้าแล้วค่ะ (14:05 น.)"],
    ["lowTokens", "⚠️ โทเคนเหลือพอตรวจสลิปทาง API อีกประมาณ 40 สลิป (ต่ำกว่าที่ตั้งไว้ 50 สลิป) เติมโทเคนด้วยนะคะ"],
    ["customerGreeting", "สวัสดีค่ะ ขอบคุณที่เพิ่มเพื่อนนะคะ 🙏\nถ้าจะชำระเงิน พิมพ์ “คิวอาร์” ตามด้วยยอดเงิน เช่น “คิวอาร์ 150” ได้เลยค่ะ\nมีคำถามพิมพ์ทิ้งไว้ได้เลยนะคะ ทางร้านจะรีบตอบค่ะ"],
    ["noPromptPayId", "ยังไม่ได้ตั้งเลขพร้อมเพย์ของร้านค่ะ ใส่เลขพร้อมเพย์ก่อนยอดเงิน เช่น “คิวอาร์ 0812345678 150” หรือให้เจ้าของร้านตั้งค่า PROMPTPAY_ID นะคะ"],
  ])("%s reads: %s", (name, expected) => {
    expect(shown(name)).toBe(expected);
  });

  it.each<[string, string]>([
    ["paidNotYet", "ยังไม่พบสลิปยอดนี้ที่ผ่านการตรวจค่ะ\nถ้าลูกค้าบอกว่าโอนแล้ว ให้นำสลิปไปตรวจกับระบบตรวจสลิปของร้านก่อน แล้วกดปุ่ม “เช็คอีกครั้ง” ด้านล่างนะคะ"],
    ["paidYesterday", "ยอด 150 บาท เข้าหรือยัง\nเมื่อวาน · 21 พ.ย. 2569"],
    ["qrForCustomers", "สแกนจ่ายได้ทุกแอปธนาคาร หรือกดบันทึกรูปแล้วสแกนจากแอป\nโอนแล้วส่งสลิปในแชทนี้ได้เลยนะคะ 🙏"],
    ["customerHelp", "ทำตามนี้ได้เลยค่ะ\n1. พิมพ์ “คิวอาร์” ตามด้วยยอดเงิน เช่น “คิวอาร์ 150”\n2. กดบันทึกรูป QR\n3. เปิดแอปธนาคาร เลือกสแกนจากรูปภาพ\nโอนแล้วส่งสลิปในแชทนี้ได้เลยนะคะ 🙏"],
    ["historyEmptyToday", "วันนี้ยังไม่มีการตรวจสลิปค่ะ"],
    ["history", "ตรวจ 23 สลิป"],
    ["history", "ยอดโอนเข้าคิดจาก 20 สลิปล่าสุดเท่านั้น"],
    ["history", "ไม่ระบุชื่อ → ร้านกาแฟดีใจ"],
    ["paidUnnamed", "ไม่ระบุชื่อผู้โอน"],
    ["summary", "ตัวเลขคิดจาก 3 สลิปล่าสุด (ตรวจทั้งหมด 30 สลิป)"],
    ["summary", "ปิดยอดประจำวัน\nสรุปยอด"],
    ["history", "LINE OA ของร้าน"],
    ["historyPage2", "อาทิตย์นี้ · 16–22 พ.ย. 2569"],
    ["summary", "ตรวจ 3 สลิป"],
    ["help", "เช่น คิวอาร์ 150"],
    ["help", "QR พร้อมเพย์ให้ลูกค้าสแกนจ่าย ถ้าไม่ใส่เลขพร้อมเพย์ จะใช้ของร้าน ถ้าไม่ใส่ยอด ลูกค้ากรอกยอดเองในแอป"],
    ["help", "ดูว่าวันนี้มีสลิปยอดนี้ที่ผ่านการตรวจแล้วหรือยัง"],
    ["help", "พิมพ์ตามตัวอย่างได้เลย ใช้คำไทยหรือคำอังกฤษก็ได้ค่ะ"],
    ["usage bad_date", "อ่านวันที่ “32/13” ไม่ออกค่ะ ใส่แบบ 20/11 หรือ 20/11/2569 นะคะ"],
    ["idNoStaffYet", "ยังไม่ได้ตั้งรายชื่อพนักงาน บอทจึงยังไม่แสดงข้อมูลร้านให้ใครดูค่ะ\nเจ้าของร้านทำตามนี้ได้เลยค่ะ\n1. เพิ่มไอดีด้านบนในรายชื่อพนักงานของบอท\n2. เริ่มบอทใหม่ แล้วพิมพ์ “วิธีใช้” ในแชทนี้"],
  ])("%s shows: %s", (name, expected) => {
    expect(shown(name)).toContain(expected);
  });

  it("says an empty history's sentence once in its notification", () => {
    const alt = (name: string): string => {
      const message = replies[name]?.[0];
      return message?.type === "flex" ? message.altText : "";
    };
    expect(alt("historyEmptyToday")).toBe("ประวัติตรวจสลิป วันนี้ · 22 พ.ย. 2569: วันนี้ยังไม่มีการตรวจสลิปค่ะ");
    expect(alt("historyEmpty")).toBe("ประวัติตรวจสลิป: ไม่พบสลิปที่มีเลขอ้างอิง NOPE123 ค่ะ");
  });

  it("shows new cashiers the plain history example, and leaves 'contact the shop' out of the staff's help", () => {
    const help = shown("help");
    expect(help).toContain("เช่น ประวัติ เมื่อวาน\n");
    expect(help).not.toContain("ประวัติ เมื่อวาน ซ้ำ");
    expect(help).not.toContain("ติดต่อร้าน");
    expect(shown("customerHelp")).not.toContain("ติดต่อร้าน");
  });

  it("writes an expired package's days with ไปแล้ว, and ใน before a count of days", () => {
    expect(th.expiredDaysAgo(4)).toBe("หมดอายุไปแล้ว 4 วัน");
    expect(th.forecastNoHistory).toBe("ใน 7 วันล่าสุดไม่มีการตรวจสลิป จึงยังคาดการณ์ไม่ได้");
  });

  it("writes the notification of a history page the Thai way: figures run on, the statuses in brackets", () => {
    const alt = replies.historyPage2?.[0];
    expect(alt?.type === "flex" ? alt.altText : "").toBe("ประวัติตรวจสลิป อาทิตย์นี้ · 16–22 พ.ย. 2569 (ทุกสถานะ): ตรวจ 25 สลิป ยอดโอนเข้า 4,500 บาท (ผ่าน 23 ซ้ำ 2) (หน้า 2 จาก 3)");
  });

  it("shows on the paging buttons the command a person could type, not 'next page'", () => {
    const history = replies.historyPage2 ?? [];
    const buttons = JSON.stringify(history).match(/"displayText":"[^"]*"/gu) ?? [];
    expect(buttons).toEqual(expect.arrayContaining(['"displayText":"ประวัติ 16/11/2569 ถึง 22/11/2569"', '"displayText":"ประวัติ 16/11/2569 ถึง 22/11/2569 หน้า 3"']));
    expect(buttons.join(" ")).not.toMatch(/หน้าถัดไป|หน้าก่อน/u);
  });

  it("writes the expiry the Thai way: tomorrow, and today", () => {
    expect(th.alertExpiry(1, "23 พ.ย. 2569")).toBe("⚠️ แพ็กเกจตรวจสลิปจะหมดอายุพรุ่งนี้ (23 พ.ย. 2569) ต่ออายุด้วยนะคะ");
    expect(th.warnExpiring(1)).toBe("⚠️ แพ็กเกจจะหมดอายุพรุ่งนี้ ต่ออายุด้วยนะคะ");
    expect(th.daysLeft(0)).toBe("หมดอายุวันนี้");
  });

  it("says what a PromptPay id is, in a list Thai reads", () => {
    expect(th.usageProblem({ code: "bad_promptpay_id", input: "12345" })).toBe(
      "“12345” ไม่ใช่เลขพร้อมเพย์ค่ะ เลขพร้อมเพย์ต้องเป็นเบอร์โทร 10 หลัก (ขึ้นต้นด้วย 0), เลขบัตรประชาชน/เลขผู้เสียภาษี 13 หลัก หรือเลข e-Wallet 15 หลักค่ะ",
    );
  });

  it("leaves a payer with no name out of the payment notice", () => {
    expect(th.alertPaymentReceived("150 บาท", undefined, "14:05")).toBe("✅ ยอด 150 บาท เข้าแล้วค่ะ (14:05 น.)");
  });

  it.each<[string, Parameters<Texts["noChecks"]>, string]>([
    ["yesterday", [{ kind: "yesterday" }, "21 พ.ย. 2569", undefined], "เมื่อวานไม่มีการตรวจสลิปค่ะ"],
    ["the last 7 days", [{ kind: "days", days: 7 }, "16–22 พ.ย. 2569", undefined], "ใน 7 วันล่าสุดยังไม่มีการตรวจสลิปค่ะ"],
    [
      "dates",
      [{ kind: "dates", from: { year: 2026, month: 11, day: 1 }, to: { year: 2026, month: 11, day: 15 } }, "1–15 พ.ย. 2569", undefined],
      "ไม่มีการตรวจสลิปในวันที่ 1–15 พ.ย. 2569 ค่ะ",
    ],
    ["a status today", [{ kind: "today" }, "22 พ.ย. 2569", "ปลอม"], "วันนี้ยังไม่มีสลิปสถานะ “ปลอม” ค่ะ"],
  ])("says 'no checks' of the range looked at (%s)", (_name, args, expected) => {
    expect(th.noChecks(...args)).toBe(expected);
  });

  it("shows '–' for a package end date the service wrote in a form that cannot be read, never the raw text", () => {
    const unreadable = renderBalance({ lang: "th", timeZone: TZ, now: NOW, account: { ...account, expiresAt: "2026-13-45 nonsense" } });
    const text = visibleText([...messagesOf(unreadable)]);
    expect(text).not.toContain("nonsense");
    expect(text).toMatch(/หมดอายุ\n–/u);
  });
});

/** Replies only customers get, or that customers may see: docs/thai.md, section 3. */
const CUSTOMER_REPLIES = [
  "qrForCustomers",
  "customerHelp",
  "customerNote",
  "customerThanks",
  "customerPayHint",
  "typeAmountHint",
  "customerGreeting",
  "qrShopOnly",
  "qrAskStaff",
  "contact",
] as const;

describe("what customers read", () => {
  const replies = thaiReplies();
  it.each(CUSTOMER_REPLIES)("%s speaks of the shop, never of the bot, of staff rights or in command notation", (name) => {
    const text = readable(replies[name] ?? []).join("\n");
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/บอท|พนักงานของร้านเท่านั้น|สิทธิ์|ไม่เข้าใจคำว่า|0812345678|[[\]|‹›]/u);
  });
});

// ------------------------------------------- the staff web app's page (src/staff-app/page/texts.js)

const page = await loadPageTexts();
const pageTh = page.TEXTS.th;

/** What the page must not write beyond the chat's list: the API's raw values and the review's findings. */
const PAGE_FORBIDDEN: readonly [RegExp, string][] = [
  ...FORBIDDEN,
  [/\d{4}-\d{2}-\d{2}/u, "an ISO date from the API"],
  [/\d\s?ใบ/u, "slips are counted in สลิป"],
  [/ช่วงนี้/u, "reads as 'lately'"],
  [/เปิดแอปพนักงาน/u, "no button has this name"],
  [/ก่อนหน้า|^ถัดไป$/u, "the chat pages with หน้าก่อน and หน้าถัดไป"],
];

type PageKind = "sentence" | "label" | "errors";

/** Every entry of the page's table. A new entry must be placed here, or the first test fails. */
const PAGE_KIND: Record<string, PageKind> = {
  title: "label",
  today: "label",
  yesterday: "label",
  week: "label",
  days7: "label",
  month: "label",
  lastmonth: "label",
  custom: "label",
  from: "label",
  to: "label",
  apply: "label",
  search: "label",
  searchHint: "label",
  allStatuses: "label",
  allChannels: "label",
  statusLabel: "label",
  channelLabel: "label",
  perPageLabel: "label",
  perPageBefore: "label",
  perPageAfter: "label",
  checks: "label",
  validAmount: "label",
  byStatus: "label",
  byChannel: "label",
  history: "label",
  export: "label",
  exportRaw: "label",
  prev: "label",
  next: "label",
  details: "label",
  close: "label",
  loading: "label",
  exporting: "label",
  page: "label",
  rangeName: "label",
  daysLine: "label",
  chartTitle: "label",
  chartHint: "label",
  chartTip: "label",
  fields: "label",
  status: "label",
  source: "label",
  empty: "sentence",
  cutDays: "sentence",
  cutChecks: "sentence",
  searchCut: "sentence",
  exportCutDays: "sentence",
  exportCutChecks: "sentence",
  notLoggedIn: "sentence",
  loginFailed: "sentence",
  liffScript: "sentence",
  offline: "sentence",
  apology: "sentence",
  errors: "errors",
};

const TODAY: PageView = { range: "today", from: "2026-11-24", to: "2026-11-24" };
const CHOSEN: PageView = { range: "custom", from: "2026-11-01", to: "2026-11-15" };

/** Sample arguments as the page passes them: the API's own values (ISO days, satang), not written ones. */
const PAGE_SAMPLES: Record<string, readonly unknown[][]> = {
  page: [
    [1, 3],
    [12, 1234],
  ],
  rangeName: [["today"], ["yesterday"], ["week"], ["days7"], ["month"], ["lastmonth"]],
  daysLine: [[TODAY], [{ range: "days7", from: "2026-11-23", to: "2026-11-29" }], [{ range: "week", from: "2026-11-23", to: "2026-11-26" }], [CHOSEN]],
  chartTitle: [["hour"], ["day"]],
  chartTip: [
    ["day", "2026-11-24", 3, 45000],
    ["hour", 9, 1, 15000],
    ["hour", 14, 1234, 123456789],
  ],
  empty: [
    [TODAY],
    [{ ...TODAY, range: "yesterday", status: "ปลอม" }],
    [{ range: "month", from: "2026-11-01", to: "2026-11-24", q: "สมชาย" }],
    [CHOSEN],
    [{ ...CHOSEN, q: "015326095622AQR01234" }],
    [{ range: "days7", from: "2026-11-18", to: "2026-11-24" }],
    [{ range: "week", from: "2026-11-23", to: "2026-11-24", q: "สมชาย" }],
    [{ range: "custom", from: "2026-10-28", to: "2026-11-03", status: "ซ้ำ" }],
  ],
  cutDays: [
    ["2026-10-01", "2026-10-31"],
    ["2026-10-21", "2026-11-20"],
    ["2025-12-20", "2026-01-19"],
  ],
  cutChecks: [[20000]],
  searchCut: [[20000]],
  notLoggedIn: [["line"], ["local"]],
  loginFailed: [["line"], ["local"]],
};

/** Every refusal the API sends the page, as its bodies carry them. */
const REFUSALS: readonly ApiRefusal[] = [
  { error: "not_staff", userId: "U7c3a2e9f5d4b6c8d0e1f2a3b4c5d6e7f" },
  { error: "not_staff" },
  { error: "token_expired", reason: "expired" },
  { error: "invalid_token", reason: "missing" },
  { error: "invalid_token", reason: "malformed" },
  { error: "invalid_token", reason: "foreign" },
  { error: "line_unreachable" },
  { error: "too_many_requests" },
  { error: "service_failed" },
  { error: "try_again" },
  { error: "app_off" },
  { error: "not_found" },
  ...(["unknown_parameter", "repeated", "bad_day", "reversed", "range_too_long", "bad_status", "bad_source", "q_too_long", "bad_page", "bad_limit", "bad_format"] as const).map(
    (problem): ApiRefusal => ({ error: "bad_parameter", problem, parameter: "from" }),
  ),
];

function pageStrings(lang: PageLang, key: string): string[] {
  const entry = page.TEXTS[lang][key];
  if (typeof entry === "string") return [entry];
  if (typeof entry === "function") {
    const samples = PAGE_SAMPLES[key] ?? [[]];
    return samples.map((args) => (entry as (...a: unknown[]) => string | undefined)(...args) ?? "");
  }
  if (key === "errors") return REFUSALS.flatMap((body) => (["line", "local"] as const).map((mode) => page.errorText(lang, mode, body)));
  return Object.values(entry as Record<string, string>);
}

const PAGE_KEYS = Object.keys(PAGE_KIND);

/** A line of a refusal that gives the user's id to pass on: a label after the sentence. */
const ID_LINE = /^ไอดีผู้ใช้ของคุณ: U[0-9a-f]{32}$/u;

describe("the staff app page's Thai", () => {
  it("has an entry kind for every entry, in Thai and in English alike", () => {
    expect(Object.keys(pageTh).sort()).toEqual([...PAGE_KEYS].sort());
    expect(Object.keys(page.TEXTS.en).sort()).toEqual([...PAGE_KEYS].sort());
    expect(Object.keys(pageTh["errors"] as object).sort()).toEqual(Object.keys(page.TEXTS.en["errors"] as object).sort());
  });

  it.each(PAGE_KEYS)("%s writes none of docs/thai.md's forbidden renderings, and no date or instant as the API sent it", (key) => {
    const found = pageStrings("th", key).flatMap((text) =>
      PAGE_FORBIDDEN.filter(([pattern]) => pattern.test(text)).map(([pattern, why]) => `${pattern.source} (${why}) in ${JSON.stringify(text)}`),
    );
    expect(found).toEqual([]);
  });

  it.each(PAGE_KEYS.filter((key) => PAGE_KIND[key] !== "label"))("%s ends each sentence with ค่ะ or คะ, with no colon or semicolon between its clauses", (key) => {
    for (const text of pageStrings("th", key)) {
      for (const line of text.split("\n").filter((l) => !ID_LINE.test(l))) {
        expect(line, key).toMatch(ENDS_POLITELY);
        expect(line, key).not.toMatch(/[:;] /u);
      }
    }
  });

  it.each(PAGE_KEYS.filter((key) => PAGE_KIND[key] === "label"))("%s is a label: no ending particle", (key) => {
    for (const text of pageStrings("th", key)) expect(text, key).not.toMatch(/(?:ค่ะ|คะ)$/u);
  });

  it.each(PAGE_KEYS)("%s writes a time with น. after it", (key) => {
    for (const text of pageStrings("th", key)) expect(text, key).not.toMatch(/\d{1,2}:\d{2}(?! น\.)/u);
  });

  it("names only buttons that exist: the staff menu's แอปพนักงาน in LINE, the console's “Open the staff app” on this machine", () => {
    const line = page.errorText("th", "line", { error: "invalid_token", reason: "missing" });
    expect(line).toBe("ยังไม่ได้เข้าสู่ระบบ LINE ค่ะ เปิดแอปนี้โดยกดปุ่ม “แอปพนักงาน” ในเมนูแชท LINE ของร้านนะคะ");
    expect(page.errorText("th", "local", { error: "invalid_token", reason: "missing" })).toContain("“Open the staff app”");
    expect(designMenus("ร้านกาแฟดีใจ", { staffAppUrl: "https://liff.line.me/1650000001-AbCdEfGh" }).staff.buttons.map((b) => b.label)).toContain("แอปพนักงาน");
  });
});

/** The review's findings as the page must now write them. Copied, not built. */
describe("the staff app page's Thai, as the review asked", () => {
  const call = (key: string, ...args: unknown[]): string => (pageTh[key] as (...a: unknown[]) => string)(...args);
  const word = (key: string): string => pageTh[key] as string;

  it.each<[string, string, string]>([
    ["a check's details", page.formatDateTime("2026-11-24T07:05:00.000Z", "th", "Asia/Bangkok"), "24 พ.ย. 2569 14:05 น."],
    ["a check's details in English", page.formatDateTime("2026-11-24T07:05:00.000Z", "en", "Asia/Bangkok"), "24 Nov 2026 14:05"],
    ["a missing time", page.formatDateTime(null, "th", "Asia/Bangkok"), "–"],
    ["a row in its column", page.formatRowTime("2026-11-24T07:05:00.000Z", "th", "Asia/Bangkok", "2026-11-30"), "24 พ.ย. 14:05"],
    ["a row of another year than the range's end", page.formatRowTime("2026-12-31T17:30:00.000Z", "th", "Asia/Bangkok", "2026-12-31"), "1 ม.ค. 2570 00:30"],
    ["the chart's day", page.formatDayMonth("2026-11-24", "th"), "24 พ.ย."],
    ["the chart's hour", page.formatHour(9), "09:00"],
    ["a count", page.formatCount(12345), "12,345"],
    ["money in a figure", page.formatMoney(123456789), "฿1,234,567.89"],
    ["a long range's note", call("cutDays", "2026-10-01", "2026-10-31"), "ช่วงวันที่ยาวเกิน 31 วัน สรุปและไฟล์จึงนับเฉพาะวันที่ 1–31 ต.ค. 2569 ค่ะ"],
    ["a long range across months", call("cutDays", "2026-10-21", "2026-11-20"), "ช่วงวันที่ยาวเกิน 31 วัน สรุปและไฟล์จึงนับเฉพาะวันที่ 21 ต.ค. – 20 พ.ย. 2569 ค่ะ"],
    ["a tapped bar", call("chartTip", "day", "2026-11-24", 3, 45000), "24 พ.ย.: ตรวจ 3 สลิป ยอดโอนเข้า ฿450.00"],
    ["a tapped hour bar", call("chartTip", "hour", 9, 1234, 45000), "09:00 น.: ตรวจ 1,234 สลิป ยอดโอนเข้า ฿450.00"],
    ["the chart's title by the hour", call("chartTitle", "hour"), "จำนวนสลิปรายชั่วโมง"],
    ["the chart's title by the day", call("chartTitle", "day"), "จำนวนสลิปรายวัน"],
    ["the days shown, 7 days", call("daysLine", { range: "days7", from: "2026-11-23", to: "2026-11-29" }), "7 วันล่าสุด · 23–29 พ.ย. 2569"],
    ["the days shown, today", call("daysLine", { range: "today", from: "2026-11-29", to: "2026-11-29" }), "วันนี้ · 29 พ.ย. 2569"],
    ["the days shown, this week", call("daysLine", { range: "week", from: "2026-11-23", to: "2026-11-26" }), "อาทิตย์นี้ · 23–26 พ.ย. 2569"],
    ["the days shown, chosen", call("daysLine", { range: "custom", from: "2026-10-28", to: "2026-11-03" }), "28 ต.ค. – 3 พ.ย. 2569"],
    ["the week chip", word("week"), "อาทิตย์นี้"],
    ["too many checks", call("cutChecks", 20000), "มีการตรวจเกิน 20,000 สลิป จึงนับเฉพาะ 20,000 สลิปล่าสุดค่ะ"],
    ["a search cut", call("searchCut", 20000), "ค้นหาจาก 20,000 สลิปล่าสุดเท่านั้นค่ะ"],
    ["nothing today", call("empty", TODAY), "วันนี้ยังไม่มีการตรวจสลิปค่ะ"],
    ["nothing in 7 days", call("empty", { range: "days7", from: "2026-11-18", to: "2026-11-24" }), "ใน 7 วันล่าสุดยังไม่มีการตรวจสลิปค่ะ"],
    ["nothing yesterday of a status", call("empty", { ...TODAY, range: "yesterday", status: "ปลอม" }), "เมื่อวานไม่มีสลิปสถานะ “ปลอม” ค่ะ"],
    ["nothing on chosen days", call("empty", CHOSEN), "ไม่มีการตรวจสลิปในวันที่ 1–15 พ.ย. 2569 ค่ะ"],
    ["the export button", word("export"), "ดาวน์โหลดไฟล์ (Excel)"],
    ["while exporting", word("exporting"), "กำลังเตรียมไฟล์…"],
    ["the LIFF script failed", word("liffScript"), "เชื่อมต่อ LINE ไม่ได้ค่ะ ตรวจสอบอินเทอร์เน็ตแล้วเปิดแอปอีกครั้งนะคะ"],
    ["a wrong address", page.errorText("th", "line", { error: "not_found" }), "ลิงก์นี้ไม่ใช่แอปพนักงานของร้านค่ะ เปิดแอปโดยกดปุ่ม “แอปพนักงาน” ในเมนูแชท LINE ของร้านนะคะ"],
    [
      "another shop's login",
      page.errorText("th", "line", { error: "invalid_token", reason: "foreign" }),
      "บัญชี LINE ที่เข้าสู่ระบบไว้ใช้กับแอปของร้านนี้ไม่ได้ค่ะ ปิดหน้านี้แล้วกดปุ่ม “แอปพนักงาน” ในเมนูแชท LINE ของร้านอีกครั้งนะคะ",
    ],
    ["the selects' names", `${word("statusLabel")} ${word("channelLabel")} ${word("perPageLabel")}`, "สถานะ ช่องทาง จำนวนต่อหน้า"],
    ["the page size", `${word("perPageBefore")} 20 ${word("perPageAfter")}`, "แสดงหน้าละ 20 รายการ"],
    ["the export cut", word("exportCutDays"), "ไฟล์มีข้อมูลไม่ครบทุกวัน ดูหมายเหตุด้านบนค่ะ"],
    ["the pager", `${word("prev")} ${call("page", 2, 1234)} ${word("next")}`, "หน้าก่อน หน้า 2 จาก 1,234 หน้าถัดไป"],
  ])("%s: %s", (_what, shown, expected) => {
    expect(shown).toBe(expected);
  });

  it("pages with the chat's words", () => {
    expect([pageTh["prev"], pageTh["next"]]).toEqual([th.previousPage, th.nextPage]);
  });

  it("names the chips' ranges as the chat does", () => {
    for (const [chip, chat] of [
      ["today", "วันนี้"],
      ["yesterday", "เมื่อวาน"],
      ["week", "อาทิตย์นี้"],
      ["days7", "7 วันล่าสุด"],
      ["month", "เดือนนี้"],
      ["lastmonth", "เดือนที่แล้ว"],
    ] as const) {
      expect(call("rangeName", chip)).toBe(chat);
    }
    expect(th.rangeName({ kind: "week" })).toBe("อาทิตย์นี้");
  });

  it("labels a check's details in the glossary's words, without the service's result code", () => {
    expect(pageTh["fields"]).toEqual({
      createdAt: "เวลาตรวจ",
      transDate: "เวลาโอน",
      status: "สถานะ",
      amount: "ยอดเงิน",
      transRef: "เลขอ้างอิง",
      senderName: "ผู้โอน",
      receiverName: "ผู้รับเงิน",
      receiverAccount: "บัญชีผู้รับ",
      source: "ช่องทางที่ตรวจ",
      tokensCharged: "โทเคนที่ใช้",
    });
  });

  it("shows a customer's 403 in Thai: why, what the owner does, and the id to give them", () => {
    const text = page.errorText("th", "line", { error: "not_staff", message: "This app is for the shop's staff.", userId: "U7c3a2e9f5d4b6c8d0e1f2a3b4c5d6e7f" });
    expect(text).toBe("หน้านี้สำหรับพนักงานของร้านเท่านั้นค่ะ\nถ้าคุณเป็นพนักงาน ส่งไอดีด้านล่างให้เจ้าของร้านเพิ่มชื่อคุณ แล้วเปิดแอปอีกครั้งนะคะ\nไอดีผู้ใช้ของคุณ: U7c3a2e9f5d4b6c8d0e1f2a3b4c5d6e7f");
  });

  it("says a reversed range in the words of the page's own fields, and falls back to the API's message for a code it does not know", () => {
    expect(page.errorText("th", "line", { error: "bad_parameter", problem: "reversed", parameter: "from" })).toBe("วันที่ใน “ตั้งแต่” อยู่หลังวันที่ใน “ถึง” ค่ะ สลับวันที่ แล้วกด “ดู” อีกครั้งนะคะ");
    expect(page.errorText("th", "line", { error: "something_new", message: "Something new happened." })).toBe("Something new happened.");
    expect(page.errorText("th", "line", { error: "toString" })).toBe("ขออภัยค่ะ เกิดข้อผิดพลาด ลองใหม่อีกครั้งนะคะ");
  });
});
