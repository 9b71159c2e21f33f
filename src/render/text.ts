// The shared user-facing strings, Thai and English side by side in one typed table so the two cannot drift
// (a command that says things of its own keeps them in its folder's texts.ts). The Thai follows
// docs/thai.md: its words, its polite endings, its numbers and times.
import type { CalendarDate, Lang, PromptPayIdType, RangeSpec, UsageProblem } from "../commands/types.js";
import { formatDateRange } from "./format.js";
import { quote } from "../commands/quote.js";
import type { ListedSource, SlipStatus } from "../slip/types.js";

/** Echoed user input is cut to this many UTF-16 units so a 5,000-character paste cannot flood a reply. */
export const ECHO_UNITS = 40;

export interface Texts {
  statusWord: Record<SlipStatus, string>;
  sourceWord: Record<ListedSource, string>;
  payeeType: Record<PromptPayIdType, string>;

  qrTitle: string;
  qrPayerEntersAmount: string;
  qrPayeeLabel: string;
  qrScanHint: string;
  /** Under a customer's QR, and in their help: what to do once they have paid. */
  qrSendSlip: string;
  qrAlt: (amount: string | undefined, payee: string, payeeType: string) => string;

  historyTitle: string;
  rangeName: (range: RangeSpec) => string | undefined;
  filterAll: string;
  filterStatus: (statusWord: string) => string;
  filterRef: (ref: string) => string;
  /** How many slips were checked (every status), beside the money that came in. */
  summaryChecks: (count: string) => string;
  summaryValidTotal: string;
  summaryPartial: (fetched: string) => string;
  /** No checks in a range: `dates` is the range written out, `status` the filter's word. */
  noChecks: (range: RangeSpec, dates: string, status: string | undefined) => string;
  historyEmptyRef: (ref: string) => string;
  pageOf: (page: string, pages: string) => string;
  pastEnd: (page: string, pages: string) => string;
  rowsCut: string;
  nextPage: string;
  previousPage: string;
  refShort: string;
  quickToday: string;
  quickYesterday: string;
  quick7Days: string;
  historyAlt: (header: string, summary: string, page: string) => string;
  /** The figures in a history's alt text: the checks, the money in, and the count of each status. */
  historyAltFigures: (checks: string, validTotal: string, statusCounts: readonly string[]) => string;

  /** The chat's `export`: a link to the range's checks as CSV. */
  exportReady: (range: string) => string;
  exportDaysCut: (dates: string) => string;
  exportNeedsPublicUrl: string;
  exportNoUser: (exportWord: string) => string;

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

  /** Amounts in sentences come as a sentence writes them (`150 บาท`, formatBaht). */
  paidTitle: (amount: string) => string;
  /** Times come as a clock (`14:05`); the Thai adds `น.`. */
  paidSince: (time: string) => string;
  paidToday: string;
  paidFound: (count: number) => string;
  paidNotYet: string;
  paidAskAgain: string;
  paidAlt: (amount: string, count: number) => string;
  qrCheckPayment: string;

  forecastTitle: string;
  forecastPerDay: (tokens: string) => string;
  forecastLasts: (days: string, date: string) => string;
  forecastTokensFirst: string;
  forecastPackageFirst: string;
  forecastNoHistory: string;

  alertLowTokens: (slips: string, threshold: string) => string;
  alertExpiry: (days: number, date: string) => string;
  /** `from` is the payer's name as the slip gives it, when it gives one. */
  alertPaymentReceived: (amount: string, from: string | undefined, time: string) => string;
  dailySummaryLead: string;

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
  daysLeft: (days: number) => string;
  expiredDaysAgo: (days: number) => string;
  warnExpiring: (days: number) => string;
  warnExpired: string;
  warnLowSlips: (count: string) => string;
  balanceAlt: (store: string, tokens: string, slips: string, expires: string) => string;

  helpTitle: string;
  helpIntro: string;
  helpExampleLabel: string;
  helpAlt: (examples: readonly string[]) => string;
  helpFooter: string;

  customerHelpTitle: string;
  /** `qrWord`: the QR command word; the texts show it with an amount (`คิวอาร์ 150`). */
  customerHelpPay: (qrWord: string) => string;
  customerHelpAsk: string;
  /** The customers' quick reply and menu button that makes a QR, named in what they are told. */
  payByQrButton: string;

  /** How to type a command: its usage lines (Thai: real commands to copy), and one example. */
  howToType: (usage: readonly string[], example: string) => string;
  /** Command words to try, in a sentence. */
  commandList: (words: readonly string[]) => string;
  usageProblem: (problem: UsageProblem) => string;
  unknownCommand: (word: string, suggestions: string) => string;
  didYouMean: (word: string, command: string) => string;
  notUnderstood: (suggestions: string) => string;
  packageExpired: string;
  invalidRequest: (serviceMessage: string) => string;
  serviceUnavailable: string;
  serviceError: string;
  unauthorized: string;
  responseShape: string;
  qrMismatch: string;
  noPromptPayId: (example: string) => string;
  askInPrivate: string;
  /** Told to a staff group when someone joins it: everyone there sees the shop's data. */
  staffGroupNotice: string;
  /** Before the answer to an edited message. */
  editedNote: string;
  qrShopOnly: (qrExample: string) => string;
  qrAskStaff: string;
  /** Customers' words that are no command: thanks, the shop will answer, and the button to pay with. */
  customerNote: (payButton: string) => string;
  /** A customer used a staff command's words (`ยอด 350 นะคะ`): they mean "I paid, please check". */
  customerThanks: string;
  /** A customer's QR with a wrong amount or id: how to ask for one, as one example. */
  customerPayHint: (qrWord: string) => string;
  /** The customers' "pay by QR" menu tap opened the keyboard with the QR word typed: add the amount. */
  typeAmountHint: (qrExample: string) => string;
  customerGreeting: (qrWord: string) => string;
  greeting: string;
  /** A photo from staff: this bot reads no slips; they are checked with the slip service itself. */
  slipPhotoHint: (historyWord: string) => string;
  apology: string;
  restarting: string;
}

const PROMPTPAY_FORMS = {
  th: "เบอร์โทร 10 หลัก (ขึ้นต้นด้วย 0), เลขบัตรประชาชน/เลขผู้เสียภาษี 13 หลัก หรือเลข e-Wallet 15 หลัก",
  en: "a phone number has 10 digits (starting with 0), a citizen or tax id 13, an e-wallet id 15",
} as const;

const th: Texts = {
  statusWord: {
    valid: "ผ่าน",
    invalid: "ไม่ผ่าน",
    fraud: "ปลอม",
    duplicate: "ซ้ำ",
    not_found: "ไม่พบ",
    error: "ผิดพลาด",
  },
  sourceWord: {
    api: "API",
    dashboard: "แดชบอร์ด",
    line_partner: "LINE พาร์ทเนอร์",
    line_group: "กลุ่ม LINE",
    line_oa_system: "LINE OA ของระบบ",
    line_oa_merchant: "LINE OA ของร้าน",
    facebook_page: "เพจ Facebook",
  },
  payeeType: { phone: "เบอร์โทร", citizen: "เลขบัตรประชาชน/เลขผู้เสียภาษี", ewallet: "e-Wallet" },

  qrTitle: "QR พร้อมเพย์",
  qrPayerEntersAmount: "ใส่ยอดเงินตอนสแกนจ่าย",
  qrPayeeLabel: "ผู้รับเงิน",
  // The customer pays with the phone the QR is on: they save the picture and scan it from the banking app.
  qrScanHint: "สแกน หรือบันทึกรูปไปจ่ายได้ทุกแอปธนาคาร",
  qrSendSlip: "โอนแล้วส่งสลิปในแชทนี้ได้เลยนะคะ 🙏",
  qrAlt: (amount, payee, payeeType) =>
    amount === undefined ? `QR พร้อมเพย์ โอนเข้า ${payee} (${payeeType}) ใส่ยอดเงินตอนสแกนจ่าย` : `QR พร้อมเพย์ ${amount} โอนเข้า ${payee} (${payeeType})`,

  historyTitle: "ประวัติตรวจสลิป",
  rangeName: (range) => {
    switch (range.kind) {
      case "today":
        return "วันนี้";
      case "yesterday":
        return "เมื่อวาน";
      case "days":
        return `${range.days} วันล่าสุด`;
      case "week":
        return "อาทิตย์นี้";
      case "lastweek":
        return "อาทิตย์ที่แล้ว";
      case "month":
        return "เดือนนี้";
      case "lastmonth":
        return "เดือนที่แล้ว";
      case "dates":
        return undefined;
    }
  },
  filterAll: "ทุกสถานะ",
  filterStatus: (word) => `สถานะ: ${word}`,
  filterRef: (ref) => `เลขอ้างอิง ${ref}`,
  summaryChecks: (count) => `ตรวจ ${count} สลิป`,
  summaryValidTotal: "ยอดโอนเข้า",
  summaryPartial: (fetched) => `ยอดโอนเข้านี้รวมเฉพาะ ${fetched} สลิปล่าสุด`,
  noChecks: (range, dates, status) => {
    const slips = status === undefined ? "สลิปที่ตรวจ" : `สลิปสถานะ “${status}” `;
    const name = th.rangeName(range);
    // A range that runs to today may still get some: "not yet".
    const ongoing = range.kind === "today" || range.kind === "week" || range.kind === "month" || range.kind === "days";
    return name === undefined ? `ไม่มี${slips}ในวันที่ ${dates} ค่ะ` : `${name}${ongoing ? "ยังไม่มี" : "ไม่มี"}${slips}ค่ะ`;
  },
  historyEmptyRef: (ref) => `ไม่พบสลิปที่มีเลขอ้างอิง ${ref} ค่ะ`,
  pageOf: (page, pages) => `หน้า ${page} จาก ${pages}`,
  pastEnd: (page, pages) => `มีทั้งหมด ${pages} หน้า ไม่มีหน้า ${page} ค่ะ`,
  rowsCut: "แสดงได้ไม่ครบทุกรายการ เพราะข้อความยาวเกินที่ LINE รับได้",
  nextPage: "หน้าถัดไป",
  previousPage: "หน้าก่อน",
  refShort: "อ้างอิง",
  quickToday: "วันนี้",
  quickYesterday: "เมื่อวาน",
  quick7Days: "7 วัน",
  historyAlt: (header, summary, page) => `ประวัติตรวจสลิป ${header}: ${summary} (${page})`,
  historyAltFigures: (checks, validTotal, statusCounts) => (statusCounts.length === 0 ? `${checks} ${validTotal}` : `${checks} ${validTotal} (${statusCounts.join(" ")})`),

  exportReady: (range) => `ไฟล์ CSV ประวัติตรวจสลิป ${range} พร้อมแล้วค่ะ กดลิงก์ด้านล่างเพื่อดาวน์โหลด (เปิดใน Excel ได้) ลิงก์ใช้ได้ครั้งเดียว ภายใน 10 นาที และเฉพาะคุณเท่านั้นค่ะ`,
  exportDaysCut: (dates) => `ช่วงยาวเกิน 31 วัน ไฟล์จึงมีเฉพาะ ${dates} ค่ะ`,
  exportNeedsPublicUrl: "ยังส่งออกไฟล์ไม่ได้ค่ะ ผู้ดูแลต้องตั้งค่า PUBLIC_URL เป็นที่อยู่ https ของบอท (เช่น https://bot.example.com) แล้วเริ่มบอทใหม่ ลิงก์ดาวน์โหลดจะอยู่บนที่อยู่นี้ค่ะ",
  exportNoUser: (exportWord) => `LINE ไม่ได้ส่งไอดีผู้ใช้ของคุณมา จึงทำลิงก์เฉพาะคุณไม่ได้ค่ะ ลองพิมพ์ “${exportWord}” ในแชทส่วนตัวกับบอทนะคะ`,
  summaryTitle: "สรุปยอด",
  summaryValidLabel: "ยอดโอนเข้า (สลิปที่ผ่าน)",
  summaryByStatus: "แยกตามสถานะ",
  summaryByChannel: "แยกตามช่องทางที่ตรวจ (ยอดโอนเข้า)",
  summaryTokensUsed: (tokens) => `ใช้ไป ${tokens} โทเคน`,
  summaryPerHour: "จำนวนสลิปรายชั่วโมง",
  summaryPerDay: "จำนวนสลิปรายวัน",
  summaryAsOf: (time) => `ข้อมูล ณ ${time} น.`,
  summaryCapped: (covered, total) => `ตัวเลขนี้รวมเฉพาะ ${covered} สลิปล่าสุด จากที่ตรวจทั้งหมด ${total} สลิป`,
  summaryDaysCut: (dates) => `สรุปได้ครั้งละไม่เกิน 31 วัน จึงแสดงเฉพาะวันที่ ${dates}`,
  summaryAlt: (range, checks, valid) => `สรุปยอด ${range}: ตรวจ ${checks} สลิป ยอดโอนเข้า ${valid}`,
  summaryNoSource: "ไม่ระบุ",
  summaryOthers: (kinds) => `อื่น ๆ อีก ${kinds} แบบ`,

  paidTitle: (amount) => `ยอด ${amount} เข้าหรือยัง`,
  paidSince: (time) => `วันนี้ ตั้งแต่ ${time} น.`,
  paidToday: "วันนี้",
  paidFound: (count) => `เข้าแล้ว ${count} รายการ`,
  // The bot knows the slips that were checked, not the bank: "not yet" would tell a customer who paid otherwise.
  paidNotYet: "ยังไม่พบสลิปยอดนี้ที่ตรวจแล้วค่ะ ถ้าลูกค้าโอนแล้ว ให้ส่งสลิปตรวจก่อน แล้วเช็คอีกครั้งนะคะ",
  paidAskAgain: "เช็คอีกครั้ง",
  paidAlt: (amount, count) => (count === 0 ? `ยอด ${amount} ยังไม่พบสลิป` : `ยอด ${amount} เข้าแล้ว ${count} รายการ`),
  qrCheckPayment: "เช็คยอดเข้า",

  forecastTitle: "คาดการณ์โทเคน",
  forecastPerDay: (tokens) => `7 วันล่าสุดใช้เฉลี่ยวันละ ${tokens} โทเคน`,
  forecastLasts: (days, date) => `ถ้าใช้เท่านี้ โทเคนจะพอใช้อีกประมาณ ${days} วัน (ถึง ${date})`,
  forecastTokensFirst: "⚠️ โทเคนจะหมดก่อนแพ็กเกจหมดอายุ เติมโทเคนไว้ก่อนนะคะ",
  forecastPackageFirst: "แพ็กเกจจะหมดอายุก่อนโทเคนหมด",
  forecastNoHistory: "7 วันล่าสุดไม่มีการตรวจสลิป จึงยังคาดการณ์ไม่ได้",

  alertLowTokens: (slips, threshold) => `⚠️ โทเคนเหลือพอตรวจสลิปทาง API อีกประมาณ ${slips} สลิป (ต่ำกว่าที่ตั้งไว้ ${threshold} สลิป) เติมโทเคนด้วยนะคะ`,
  alertExpiry: (days, date) => `⚠️ แพ็กเกจตรวจสลิป${days <= 0 ? "หมดอายุวันนี้" : days === 1 ? "จะหมดอายุพรุ่งนี้" : `จะหมดอายุในอีก ${days} วัน`} (${date}) ต่ออายุด้วยนะคะ`,
  alertPaymentReceived: (amount, from, time) => `✅ ยอด ${amount}${from === undefined ? "" : ` จาก ${from}`} เข้าแล้วค่ะ (${time} น.)`,
  dailySummaryLead: "สรุปยอดประจำวัน",

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
  daysLeft: (days) => (days === 0 ? "หมดอายุวันนี้" : `เหลือ ${days} วัน`),
  expiredDaysAgo: (days) => (days === 0 ? "หมดอายุแล้ว" : `หมดอายุมาแล้ว ${days} วัน`),
  warnExpiring: (days) => `⚠️ แพ็กเกจ${days <= 0 ? "หมดอายุวันนี้" : days === 1 ? "จะหมดอายุพรุ่งนี้" : `จะหมดอายุในอีก ${days} วัน`} ต่ออายุด้วยนะคะ`,
  warnExpired: "⚠️ แพ็กเกจหมดอายุแล้ว ต่ออายุด้วยนะคะ",
  warnLowSlips: (count) => `⚠️ โทเคนเหลือพอตรวจสลิปทาง API อีกประมาณ ${count} สลิป เติมโทเคนด้วยนะคะ`,
  balanceAlt: (store, tokens, slips, expires) => `${store}: โทเคนคงเหลือ ${tokens} (ตรวจทาง API ได้อีกประมาณ ${slips} สลิป) หมดอายุ ${expires}`,

  helpTitle: "วิธีใช้",
  helpIntro: "พิมพ์ตามตัวอย่างได้เลย ใช้คำไทยหรือคำอังกฤษก็ได้ค่ะ",
  helpExampleLabel: "เช่น",
  helpAlt: (examples) => `วิธีใช้: ${examples.map(quote).join(" ")}`,
  helpFooter: "ในกลุ่ม พิมพ์คำสั่งขึ้นต้นข้อความ หรือแท็กบอทก่อนค่ะ",

  customerHelpTitle: "ชำระเงินด้วย QR พร้อมเพย์",
  // The customer pays with the phone the QR comes to: a banking app scans it from the saved picture.
  customerHelpPay: (qrWord) =>
    ["ทำตามนี้ได้เลยค่ะ", `1. พิมพ์ ${quote(qrWord)} ตามด้วยยอดเงิน เช่น ${quote(`${qrWord} 150`)}`, "2. กดบันทึกรูป QR", "3. เปิดแอปธนาคาร เลือกสแกนจากรูปภาพ"].join("\n"),
  customerHelpAsk: "มีคำถามพิมพ์ทิ้งไว้ได้เลยนะคะ ทางร้านจะรีบตอบค่ะ",
  payByQrButton: "จ่ายด้วย QR",

  howToType: (usage) => `พิมพ์ตามตัวอย่างนี้ได้เลยค่ะ\n${usage.join("\n")}`,
  commandList: (words) => {
    const quoted = words.map(quote);
    const last = quoted.pop();
    return quoted.length === 0 ? (last ?? "") : `${quoted.join(", ")} หรือ ${last ?? ""}`;
  },
  usageProblem: (problem) => {
    switch (problem.code) {
      case "bad_amount":
        return `${quote(problem.input)} ไม่ใช่ยอดเงิน ใส่เป็นตัวเลขที่มากกว่า 0 เช่น 150 หรือ 1,500.50 ค่ะ`;
      case "amount_decimals":
        return `${quote(problem.input)} มีทศนิยมเกิน 2 ตำแหน่ง ใส่สตางค์ได้ไม่เกิน 2 หลัก เช่น 150.50 ค่ะ`;
      case "amount_too_large":
        return `${quote(problem.input)} มากเกินไป QR รับได้ไม่เกิน 9,999,999,999.99 บาทค่ะ`;
      case "bad_promptpay_id":
        return `${quote(problem.input)}${problem.digits === undefined ? "" : ` มี ${problem.digits} หลัก`} ไม่ใช่เลขพร้อมเพย์ค่ะ เลขพร้อมเพย์ต้องเป็น${PROMPTPAY_FORMS.th}ค่ะ`;
      case "bad_date":
        return `อ่านวันที่ ${quote(problem.input)} ไม่ออกค่ะ ใส่แบบ 20/11 หรือ 20/11/2569 นะคะ`;
      case "no_such_date":
        return `ไม่มีวันที่ ${quote(problem.input)} ในปฏิทิน ลองดูวันที่อีกครั้งนะคะ`;
      case "range_too_long":
        return `${quote(problem.input)} ยาวเกินไป ดูย้อนหลังได้ไม่เกิน ${problem.maxDays} วันค่ะ`;
      case "bad_page":
        return `${quote(problem.input)} ไม่ใช่เลขหน้า ใส่เลขตั้งแต่ 1 ขึ้นไปค่ะ`;
      case "missing_ref":
        return `ใส่เลขอ้างอิงของสลิปต่อจาก ${quote("อ้างอิง")} ด้วยค่ะ`;
      case "missing_amount":
        return "ใส่ยอดเงินที่จะเช็คด้วยค่ะ";
      case "unexpected":
        return `ไม่เข้าใจคำว่า ${quote(problem.input)} ในคำสั่งนี้ค่ะ`;
    }
  },
  unknownCommand: (word, suggestions) => `ไม่รู้จักคำสั่ง ${quote(word)} ค่ะ ลองพิมพ์ ${suggestions} นะคะ\nพิมพ์ ${quote("วิธีใช้")} เพื่อดูคำสั่งทั้งหมดค่ะ`,
  // What was typed is not echoed: it was a typo or had an ending glued on, and the echo read oddly.
  didYouMean: (_word, command) => `หมายถึง ${quote(command)} หรือเปล่าคะ`,
  notUnderstood: (suggestions) => `ลองพิมพ์ ${suggestions} นะคะ\nพิมพ์ ${quote("วิธีใช้")} เพื่อดูคำสั่งทั้งหมดค่ะ`,
  packageExpired: "แพ็กเกจตรวจสลิปของร้านหมดอายุแล้วค่ะ ต่ออายุแพ็กเกจ แล้วลองใหม่อีกครั้งนะคะ",
  invalidRequest: (serviceMessage) => `ระบบตรวจสลิปทำรายการนี้ไม่ได้ค่ะ ระบบแจ้งว่า ${quote(serviceMessage)}\nแก้ตามที่แจ้งแล้วส่งใหม่อีกครั้งนะคะ`,
  serviceUnavailable: "ตอนนี้ติดต่อระบบตรวจสลิปไม่ได้ค่ะ รอสักครู่แล้วลองใหม่นะคะ",
  serviceError: "ระบบตรวจสลิปขัดข้องค่ะ รอสักครู่แล้วลองใหม่นะคะ",
  unauthorized: "บอทเข้าระบบตรวจสลิปไม่ได้ค่ะ เจ้าของร้านช่วยตรวจค่า SLIP_API_SECRET ในการตั้งค่าบอทด้วยนะคะ",
  responseShape: "บอทอ่านคำตอบจากระบบตรวจสลิปไม่ออกค่ะ รอสักครู่แล้วลองใหม่นะคะ",
  qrMismatch: "ระบบตรวจสลิปส่ง QR ของบัญชีอื่นหรือยอดเงินอื่นกลับมา บอทจึงไม่แสดง QR นี้ค่ะ เจ้าของร้านช่วยตรวจค่า SLIP_API_BASE_URL ในการตั้งค่าบอทด้วยนะคะ",
  noPromptPayId: (example) => `ยังไม่ได้ตั้งเลขพร้อมเพย์ของร้านค่ะ ใส่เลขพร้อมเพย์ก่อนยอดเงิน เช่น ${quote(example)} หรือให้เจ้าของร้านตั้งค่า PROMPTPAY_ID นะคะ`,
  // Numbered steps take no ending (docs/thai.md, section 4).
  askInPrivate: "ดูข้อมูลร้านได้เฉพาะในแชทส่วนตัวกับบอท หรือในกลุ่มพนักงานค่ะ",
  editedNote: "✏️ ตอบตามข้อความที่แก้แล้วนะคะ",
  staffGroupNotice: [
    "มีสมาชิกใหม่เข้ากลุ่มนี้ค่ะ",
    "กลุ่มนี้เป็นกลุ่มพนักงาน ทุกคนในกลุ่มจะเห็นข้อมูลของร้าน (รายการสลิป ชื่อผู้โอน ยอดเงิน โทเคน)",
    "ถ้ามีลูกค้าอยู่ในกลุ่มนี้ เจ้าของร้านควรเอาไอดีกลุ่มนี้ออกจาก STAFF_GROUP_IDS แล้วเริ่มบอทใหม่ค่ะ",
  ].join("\n"),
  qrShopOnly: (qrExample) => `ขออภัยค่ะ สร้าง QR ได้เฉพาะพร้อมเพย์ของร้านนี้นะคะ ถ้าจะชำระเงินให้ร้าน พิมพ์ ${quote(qrExample)} ได้เลยค่ะ`,
  // Online there may be no staff to ask: the customer writes here, and the shop answers.
  qrAskStaff: "ขออภัยค่ะ ตอนนี้สร้าง QR ไม่ได้ รบกวนพิมพ์แจ้งไว้ในแชทนี้ ทางร้านจะส่งช่องทางชำระเงินให้นะคะ 🙏",
  // Two lines: the thanks stands alone, since the words it answers may well be "I have paid".
  customerNote: (payButton) => [`ขอบคุณที่ทักมานะคะ ทางร้านจะรีบตอบกลับค่ะ 🙏`, `ถ้าต้องการชำระเงิน กดปุ่ม ${quote(payButton)} ด้านล่างได้เลยนะคะ`].join("\n"),
  customerThanks: "ขอบคุณค่ะ 🙏 ทางร้านจะตรวจสอบแล้วรีบตอบกลับนะคะ",
  customerPayHint: (qrWord) => `ถ้าจะชำระเงิน พิมพ์ ${quote(qrWord)} ตามด้วยยอดเงิน เช่น ${quote(`${qrWord} 150`)} ได้เลยนะคะ`,
  typeAmountHint: (qrExample) => `พิมพ์ยอดเงินต่อท้ายได้เลยค่ะ เช่น ${quote(qrExample)} แล้วกดส่งนะคะ`,
  customerGreeting: (qrWord) =>
    ["สวัสดีค่ะ ขอบคุณที่เพิ่มเพื่อนนะคะ 🙏", `ถ้าจะชำระเงิน พิมพ์ ${quote(qrWord)} ตามด้วยยอดเงิน เช่น ${quote(`${qrWord} 150`)} ได้เลยค่ะ`, "มีคำถามพิมพ์ทิ้งไว้ได้เลยนะคะ ทางร้านจะรีบตอบค่ะ"].join("\n"),
  greeting: `สวัสดีค่ะ บอทนี้สร้าง QR พร้อมเพย์ ดูประวัติตรวจสลิป สรุปยอด และโทเคนคงเหลือของร้านได้ กดปุ่มด้านล่าง หรือพิมพ์ ${quote("วิธีใช้")} ได้เลยค่ะ`,
  slipPhotoHint: (historyWord) => `บอทนี้ตรวจสลิปจากรูปไม่ได้ค่ะ ส่งสลิปไปตรวจที่ LINE OA หรือแดชบอร์ดของระบบตรวจสลิปที่ร้านใช้ แล้วพิมพ์ ${quote(historyWord)} ที่นี่เพื่อดูผลได้เลยค่ะ`,
  apology: "ขออภัยค่ะ เกิดข้อผิดพลาด ลองใหม่อีกครั้งนะคะ",
  // Customers read it too: the shop's system, not the bot.
  restarting: "ขออภัยค่ะ ระบบขัดข้องชั่วคราว รบกวนส่งข้อความอีกครั้งในอีกสักครู่นะคะ",
};

const en: Texts = {
  statusWord: {
    valid: "Valid",
    invalid: "Invalid",
    fraud: "Fraud",
    duplicate: "Duplicate",
    not_found: "Not found",
    error: "Error",
  },
  sourceWord: {
    api: "API",
    dashboard: "Dashboard",
    line_partner: "LINE partner",
    line_group: "LINE group",
    line_oa_system: "LINE OA (system)",
    line_oa_merchant: "LINE OA (shop)",
    facebook_page: "Facebook page",
  },
  payeeType: { phone: "phone number", citizen: "citizen/tax id", ewallet: "e-wallet" },

  qrTitle: "PromptPay QR",
  qrPayerEntersAmount: "Payer enters the amount",
  qrPayeeLabel: "Pay to",
  qrScanHint: "Scan it, or save the picture and pay from any Thai banking app",
  qrSendSlip: "Once paid, please send the slip in this chat 🙏",
  qrAlt: (amount, payee, payeeType) =>
    amount === undefined ? `PromptPay QR to ${payee} (${payeeType}), payer enters the amount` : `PromptPay QR for ${amount} to ${payee} (${payeeType})`,

  historyTitle: "Slip checks",
  rangeName: (range) => {
    switch (range.kind) {
      case "today":
        return "Today";
      case "yesterday":
        return "Yesterday";
      case "days":
        return `Last ${range.days} days`;
      case "week":
        return "This week";
      case "lastweek":
        return "Last week";
      case "month":
        return "This month";
      case "lastmonth":
        return "Last month";
      case "dates":
        return undefined;
    }
  },
  filterAll: "All statuses",
  filterStatus: (word) => `Status: ${word}`,
  filterRef: (ref) => `Ref ${ref}`,
  summaryChecks: (count) => (count === "1" ? "1 check" : `${count} checks`),
  summaryValidTotal: "Valid total",
  summaryPartial: (fetched) => `Total counted over the newest ${fetched} checks`,
  noChecks: (range, dates, status) => {
    const checks = status === undefined ? "slip checks" : `${quote(status)} slip checks`;
    const when = ((): string => {
      switch (range.kind) {
        case "today":
          return "today";
        case "yesterday":
          return "yesterday";
        case "days":
          return `in the last ${range.days} days`;
        case "week":
          return "this week";
        case "lastweek":
          return "last week";
        case "month":
          return "this month";
        case "lastmonth":
          return "last month";
        case "dates":
          return `on ${dates}`;
      }
    })();
    return `No ${checks} ${when}.`;
  },
  historyEmptyRef: (ref) => `No slip check with reference ${ref}.`,
  pageOf: (page, pages) => `Page ${page} of ${pages}`,
  pastEnd: (page, pages) => (pages === "1" ? `There is no page ${page}: there is only 1 page.` : `There is no page ${page}: there are only ${pages} pages.`),
  rowsCut: "Some rows are left out to stay within LINE's size limit.",
  nextPage: "Next page",
  previousPage: "Previous page",
  refShort: "Ref",
  quickToday: "Today",
  quickYesterday: "Yesterday",
  quick7Days: "7 days",
  historyAlt: (header, summary, page) => `Slip checks ${header}: ${summary} (${page})`,
  historyAltFigures: (checks, validTotal, statusCounts) => (statusCounts.length === 0 ? `${checks}, ${validTotal}` : `${checks}, ${validTotal}; ${statusCounts.join(" · ")}`),

  exportReady: (range) => `Slip checks ${range} as a CSV file (opens in Excel). Tap the link below to download it: it works once, within 10 minutes, for you only.`,
  exportDaysCut: (dates) => `More than 31 days: the file holds ${dates} only.`,
  exportNeedsPublicUrl:
    "Export needs PUBLIC_URL: set it to the bot's public https address (such as https://bot.example.com) and restart the bot. The download links are made on that address.",
  exportNoUser: (exportWord) => `LINE did not send your user id, so no link can be made for you. Send ${quote(exportWord)} in a 1:1 chat with the shop.`,
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

  paidTitle: (amount) => `Has ${amount} arrived?`,
  paidSince: (time) => `Since ${time} today`,
  paidToday: "Today",
  paidFound: (count) => (count === 1 ? "Arrived: 1 check" : `Arrived: ${count} checks`),
  paidNotYet: "Not yet. Check again in a moment.",
  paidAskAgain: "Check again",
  paidAlt: (amount, count) => (count === 0 ? `${amount} has not arrived yet` : `${amount} arrived: ${count} ${count === 1 ? "check" : "checks"}`),
  qrCheckPayment: "Check payment",

  forecastTitle: "Token forecast",
  forecastPerDay: (tokens) => `Last 7 days: ${tokens} tokens a day on average`,
  forecastLasts: (days, date) => `At this pace, tokens last about ${days} days (until ${date})`,
  forecastTokensFirst: "⚠️ Tokens run out before the package expires.",
  forecastPackageFirst: "The package expires before the tokens run out.",
  forecastNoHistory: "No checks in the last 7 days, so no forecast yet.",

  alertLowTokens: (slips, threshold) => `⚠️ Tokens are left for about ${slips} API checks (below ${threshold}). Please top up.`,
  alertExpiry: (days, date) => `⚠️ The slip-check package expires ${days <= 0 ? "today" : days === 1 ? "tomorrow" : `in ${days} days`} (${date}). Please renew it.`,
  alertPaymentReceived: (amount, from, time) => `✅ ${amount} received${from === undefined ? "" : ` from ${from}`} at ${time}.`,
  dailySummaryLead: "Today's summary",

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
  daysLeft: (days) => (days === 0 ? "expires today" : days === 1 ? "1 day left" : `${days} days left`),
  expiredDaysAgo: (days) => (days === 0 ? "expired" : days === 1 ? "expired 1 day ago" : `expired ${days} days ago`),
  warnExpiring: (days) => `⚠️ The package expires ${days <= 0 ? "today" : days === 1 ? "tomorrow" : `in ${days} days`}. Please renew it.`,
  warnExpired: "⚠️ The package has expired. Please renew it.",
  warnLowSlips: (count) => `⚠️ Tokens are left for about ${count} API checks. Please top up.`,
  balanceAlt: (store, tokens, slips, expires) => `${store}: ${tokens} tokens left (about ${slips} API checks), expires ${expires}`,

  helpTitle: "How to use",
  helpIntro: "Send a command like the examples, in English or Thai.",
  helpExampleLabel: "e.g.",
  helpAlt: (examples) => `Commands: ${examples.join(", ")}`,
  helpFooter: "In a group, start with the command or mention the bot.",

  customerHelpTitle: "Pay by PromptPay QR",
  customerHelpPay: (qrWord) =>
    [
      "Here is how:",
      `1. Send ${quote(qrWord)} with the amount, like ${quote(`${qrWord} 150`)}`,
      "2. Save the QR's picture",
      "3. Open your banking app and scan it from your photos",
    ].join("\n"),
  customerHelpAsk: "Questions? Just write them here: the shop will reply soon.",
  payByQrButton: "Pay by QR",

  howToType: (usage, example) => `Usage: ${usage.join("\n  or ")}\nExample: ${example}`,
  commandList: (words) => words.join(", "),
  usageProblem: (problem) => {
    switch (problem.code) {
      case "bad_amount":
        return `${quote(problem.input)} is not an amount. Use a number greater than 0, like 150 or 1,500.50.`;
      case "amount_decimals":
        return `${quote(problem.input)} has more than 2 decimals.`;
      case "amount_too_large":
        return `${quote(problem.input)} is too large: a QR holds at most ฿9,999,999,999.99.`;
      case "bad_promptpay_id":
        return problem.digits === undefined
          ? `${quote(problem.input)} is not a PromptPay id: ${PROMPTPAY_FORMS.en}.`
          : `${quote(problem.input)} has ${problem.digits} ${problem.digits === 1 ? "digit" : "digits"}: ${PROMPTPAY_FORMS.en}.`;
      case "bad_date":
        return `${quote(problem.input)} is not a date I can read. Use 2026-11-20, 20/11/2026 or 20/11.`;
      case "no_such_date":
        return `${quote(problem.input)} does not exist: the calendar has no such day.`;
      case "range_too_long":
        return `${quote(problem.input)} is too long: history goes back at most ${problem.maxDays} days.`;
      case "bad_page":
        return `${quote(problem.input)} is not a page number (1 or more).`;
      case "missing_ref":
        return `Put the transfer reference after ${quote("ref")}.`;
      case "missing_amount":
        return "Put the amount to look for.";
      case "unexpected":
        return `${quote(problem.input)} does not fit this command.`;
    }
  },
  unknownCommand: (word, suggestions) => `Unknown command ${quote(word)}. Try ${suggestions}, or send ${quote("help")}.`,
  didYouMean: (word, command) => `Unknown command ${quote(word)}. Did you mean ${quote(command)}?`,
  notUnderstood: (suggestions) => `Try ${suggestions}, or send ${quote("help")} to see every command.`,
  packageExpired: "The shop's slip-check package has expired. Please renew the package, then try again.",
  invalidRequest: (serviceMessage) => `The slip service did not accept this: ${serviceMessage}`,
  serviceUnavailable: "The slip service is not answering right now. Please try again shortly.",
  serviceError: "The slip service answered with an error. Please try again shortly.",
  unauthorized: "The bot cannot sign in to the slip service. Please check the SLIP_API_SECRET setting.",
  responseShape: "The slip service sent an answer the bot cannot read. Please try again shortly.",
  qrMismatch: "The slip service returned a QR for another account or amount, so it is not shown. Please check the SLIP_API_BASE_URL setting.",
  noPromptPayId: (example) => `No default PromptPay id is set for this shop. Put the id before the amount, like ${quote(example)}, or set PROMPTPAY_ID.`,
  askInPrivate: "Please ask me for the shop's data in our 1:1 chat or in the staff group.",
  editedNote: "✏️ (edited) Answering the new text.",
  staffGroupNotice:
    "Someone joined this group. It is a staff group, so everyone in it sees the shop's data (slip checks, payer names, amounts, tokens). " +
    "If customers are in this group, the owner should take its id off STAFF_GROUP_IDS and restart the bot.",
  qrShopOnly: (qrExample) => `Sorry, I can only make QR codes that pay this shop. Send ${quote(qrExample)} to pay the shop.`,
  qrAskStaff: "Sorry, a payment QR cannot be made right now. Please leave a message here and the shop will send you a way to pay 🙏",
  customerNote: (payButton) => `Thanks for your message! The shop will reply soon 🙏\nTo pay, tap ${quote(payButton)} below.`,
  customerThanks: "Thank you 🙏 The shop will check and reply soon.",
  customerPayHint: (qrWord) => `To pay, send ${quote(qrWord)} with the amount, like ${quote(`${qrWord} 150`)}.`,
  typeAmountHint: (qrExample) => `Type the amount after it, like ${quote(qrExample)}, and send.`,
  customerGreeting: (qrWord) =>
    `Hello, and thanks for adding us! To pay, send ${quote(qrWord)} with the amount, like ${quote(`${qrWord} 150`)}. Questions? Write them here and the shop will reply soon.`,
  greeting: `Hello! This bot makes PromptPay QR codes and shows the shop's slip checks and token balance. Tap a button below or send ${quote("help")}.`,
  slipPhotoHint: (historyWord) =>
    `This bot does not read slip images. Check slips with the slip service's own LINE OA or dashboard; the checked slips show here with ${quote(historyWord)}.`,
  apology: "Sorry, something went wrong. Please try again.",
  restarting: "Sorry, the bot is restarting and could not answer this. Please send it again in a moment.",
};

export const TEXTS: { readonly [L in Lang]: Texts } = { th, en };

/** `วันนี้ · 24 พ.ย. 2569`: a range's name and its dates, or the dates alone for a range without a name. */
export function rangeLine(range: RangeSpec, from: CalendarDate, to: CalendarDate, lang: Lang): string {
  const name = TEXTS[lang].rangeName(range);
  const dates = formatDateRange(from, to, lang);
  return name === undefined ? dates : `${name} · ${dates}`;
}

export function texts(lang: Lang): Texts {
  return TEXTS[lang];
}
