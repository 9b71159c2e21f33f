// Every user-facing string, Thai and English side by side in one typed table so the two cannot drift. The
// Thai follows docs/thai.md: its words, its polite endings, its numbers and times.
import type { Lang, PromptPayIdType, RangeSpec, UsageProblem } from "../commands/types.js";
import type { ListedSource, SlipStatus } from "../slip/types.js";
import type { ChatType } from "../roles/audience.js";

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
  qrAlt: (amount: string | undefined, payee: string, payeeType: string) => string;

  historyTitle: string;
  rangeName: (range: RangeSpec) => string | undefined;
  filterAll: string;
  filterStatus: (statusWord: string) => string;
  filterRef: (ref: string) => string;
  summaryChecks: (count: string) => string;
  summaryValidTotal: string;
  summaryPartial: (fetched: string) => string;
  historyEmpty: string;
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

  summaryTitle: string;
  summaryValidLabel: string;
  summaryByStatus: string;
  summaryByChannel: string;
  summaryTokensUsed: (tokens: string) => string;
  summaryPerHour: string;
  summaryPerDay: string;
  summaryEmpty: string;
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
  alertPaymentReceived: (amount: string, from: string, time: string) => string;
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
  helpAlt: (commands: string) => string;
  helpFooter: string;

  customerHelpTitle: string;
  /** `qrWord`: the QR command word; the texts show it with an amount (`คิวอาร์ 150`). */
  customerHelpPay: (qrWord: string) => string;
  customerHelpAsk: string;
  /** The answer to `contact` (the rich menu's "contact the shop"). */
  contactShop: string;

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
  staffOnly: (idWord: string) => string;
  noStaffYet: (idWord: string) => string;
  askInPrivate: string;
  /** Told to a staff group when someone joins it: everyone there sees the shop's data. */
  staffGroupNotice: string;
  /** Before the answer to an edited message. */
  editedNote: string;
  qrShopOnly: (qrExample: string) => string;
  qrAskStaff: string;
  customerNote: (qrWord: string) => string;
  customerGreeting: (qrWord: string) => string;
  greeting: string;
  /** A photo from staff: this bot reads no slips; they are checked with the slip service itself. */
  slipPhotoHint: (historyWord: string) => string;
  apology: string;
  restarting: string;

  idYourUser: (userId: string) => string;
  idNoUser: string;
  idChat: (chatType: Exclude<ChatType, "user">, chatId: string) => string;
  idHint: string;
}

/** The one way both languages quote what a person typed or should type. */
function quote(input: string): string {
  return `“${input}”`;
}

const PROMPTPAY_FORMS = {
  th: "เบอร์โทร 10 หลัก (ขึ้นต้นด้วย 0) เลขบัตรประชาชนหรือเลขผู้เสียภาษี 13 หลัก หรือเลข e-Wallet 15 หลัก",
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
    line_oa_system: "LINE OA (ระบบ)",
    line_oa_merchant: "LINE OA (ร้าน)",
    facebook_page: "เพจ Facebook",
  },
  payeeType: { phone: "เบอร์โทร", citizen: "เลขบัตรประชาชน/เลขผู้เสียภาษี", ewallet: "e-Wallet" },

  qrTitle: "QR พร้อมเพย์",
  qrPayerEntersAmount: "ใส่จำนวนเงินตอนสแกนจ่าย",
  qrPayeeLabel: "ผู้รับเงิน",
  qrScanHint: "สแกนจ่ายได้ทุกแอปธนาคาร",
  qrAlt: (amount, payee, payeeType) =>
    amount === undefined
      ? `QR พร้อมเพย์ โอนเข้า ${payee} (${payeeType}) ใส่จำนวนเงินตอนสแกนจ่าย`
      : `QR พร้อมเพย์ ${amount} โอนเข้า ${payee} (${payeeType})`,

  historyTitle: "ประวัติตรวจสลิป",
  rangeName: (range) => {
    switch (range.kind) {
      case "today":
        return "วันนี้";
      case "yesterday":
        return "เมื่อวาน";
      case "days":
        return `${range.days} วันล่าสุด`;
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
  summaryChecks: (count) => `${count} รายการ`,
  summaryValidTotal: "ยอดโอนเข้า",
  summaryPartial: (fetched) => `ยอดโอนเข้านับจาก ${fetched} รายการล่าสุดเท่านั้น`,
  historyEmpty: "ไม่มีการตรวจสลิปในวันที่เลือกค่ะ",
  historyEmptyRef: (ref) => `ไม่พบสลิปที่มีเลขอ้างอิง ${ref} ค่ะ`,
  pageOf: (page, pages) => `หน้า ${page} จาก ${pages}`,
  pastEnd: (page, pages) => `มีทั้งหมด ${pages} หน้า ไม่มีหน้า ${page} ค่ะ`,
  rowsCut: "แสดงไม่ครบทุกรายการ เพราะการ์ดยาวเกินที่ LINE รับได้",
  nextPage: "หน้าถัดไป",
  previousPage: "หน้าก่อน",
  refShort: "อ้างอิง",
  quickToday: "วันนี้",
  quickYesterday: "เมื่อวาน",
  quick7Days: "7 วัน",
  historyAlt: (header, summary, page) => `ประวัติตรวจสลิป ${header}: ${summary} (${page})`,

  summaryTitle: "สรุปยอด",
  summaryValidLabel: "ยอดโอนเข้า (สลิปที่ผ่าน)",
  summaryByStatus: "แยกตามสถานะ",
  summaryByChannel: "แยกตามช่องทางที่ตรวจ (ยอดโอนเข้า)",
  summaryTokensUsed: (tokens) => `ใช้ไป ${tokens} โทเคน`,
  summaryPerHour: "จำนวนสลิปรายชั่วโมง",
  summaryPerDay: "จำนวนสลิปรายวัน",
  summaryEmpty: "ไม่มีการตรวจสลิปในวันที่เลือกค่ะ",
  summaryAsOf: (time) => `ข้อมูล ณ ${time} น.`,
  summaryCapped: (covered, total) => `ตัวเลขคิดจาก ${covered} รายการล่าสุด จากทั้งหมด ${total} รายการ`,
  summaryDaysCut: (dates) => `สรุปได้ครั้งละไม่เกิน 31 วัน ตัวเลขนี้จึงเป็นของวันที่ ${dates}`,
  summaryAlt: (range, checks, valid) => `สรุปยอด ${range}: ${checks} รายการ ยอดโอนเข้า ${valid}`,
  summaryNoSource: "ไม่ระบุ",
  summaryOthers: (kinds) => `อื่น ๆ อีก ${kinds} แบบ`,

  paidTitle: (amount) => `ยอด ${amount} เข้าหรือยัง`,
  paidSince: (time) => `วันนี้ ตั้งแต่ ${time} น.`,
  paidToday: "วันนี้",
  paidFound: (count) => `เข้าแล้ว ${count} รายการ`,
  paidNotYet: "ยังไม่เข้าค่ะ ลองเช็คอีกครั้งในอีกสักครู่นะคะ",
  paidAskAgain: "เช็คอีกครั้ง",
  paidAlt: (amount, count) => (count === 0 ? `ยอด ${amount} ยังไม่เข้า` : `ยอด ${amount} เข้าแล้ว ${count} รายการ`),
  qrCheckPayment: "เช็คยอดเข้า",

  forecastTitle: "คาดการณ์โทเคน",
  forecastPerDay: (tokens) => `7 วันล่าสุดใช้เฉลี่ยวันละ ${tokens} โทเคน`,
  forecastLasts: (days, date) => `ถ้าใช้เท่านี้ โทเคนจะพอใช้อีกประมาณ ${days} วัน (ถึง ${date})`,
  forecastTokensFirst: "⚠️ โทเคนจะหมดก่อนแพ็กเกจหมดอายุ เติมโทเคนไว้ก่อนนะคะ",
  forecastPackageFirst: "แพ็กเกจจะหมดอายุก่อนโทเคนหมด",
  forecastNoHistory: "7 วันล่าสุดไม่มีการตรวจสลิป จึงยังคาดการณ์ไม่ได้",

  alertLowTokens: (slips, threshold) => `⚠️ โทเคนเหลือพอตรวจสลิปทาง API อีกประมาณ ${slips} สลิป (ต่ำกว่า ${threshold}) เติมโทเคนด้วยนะคะ`,
  alertExpiry: (days, date) =>
    days <= 0
      ? `⚠️ แพ็กเกจตรวจสลิปหมดอายุวันนี้ (${date}) ต่ออายุด้วยนะคะ`
      : `⚠️ แพ็กเกจตรวจสลิปจะหมดอายุในอีก ${days} วัน (${date}) ต่ออายุด้วยนะคะ`,
  alertPaymentReceived: (amount, from, time) => `✅ ยอด ${amount} จาก ${from} เข้าแล้วเมื่อ ${time} น. ค่ะ`,
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
  daysLeft: (days) => (days === 0 ? "หมดวันนี้" : `เหลือ ${days} วัน`),
  expiredDaysAgo: (days) => (days === 0 ? "หมดอายุแล้ว" : `หมดอายุมาแล้ว ${days} วัน`),
  warnExpiring: (days) =>
    days === 0 ? "⚠️ แพ็กเกจหมดอายุวันนี้ ต่ออายุด้วยนะคะ" : `⚠️ แพ็กเกจจะหมดอายุในอีก ${days} วัน ต่ออายุด้วยนะคะ`,
  warnExpired: "⚠️ แพ็กเกจหมดอายุแล้ว ต่ออายุด้วยนะคะ",
  warnLowSlips: (count) => `⚠️ โทเคนเหลือพอตรวจสลิปทาง API อีกประมาณ ${count} สลิป เติมโทเคนด้วยนะคะ`,
  balanceAlt: (store, tokens, slips, expires) =>
    `${store}: โทเคนคงเหลือ ${tokens} (ตรวจทาง API ได้อีกประมาณ ${slips} สลิป) หมดอายุ ${expires}`,

  helpTitle: "วิธีใช้",
  helpIntro: "พิมพ์ตามตัวอย่างได้เลยค่ะ ใช้คำไทยหรือคำอังกฤษก็ได้ค่ะ",
  helpExampleLabel: "ตัวอย่าง",
  helpAlt: (commands) => `วิธีใช้: ${commands}`,
  helpFooter: "ในกลุ่ม พิมพ์คำสั่งขึ้นต้นข้อความ หรือแท็กบอทก่อนค่ะ",

  customerHelpTitle: "ชำระเงินด้วย QR พร้อมเพย์",
  customerHelpPay: (qrWord) =>
    `พิมพ์ ${quote(qrWord)} ตามด้วยยอดที่จะจ่าย เช่น ${quote(`${qrWord} 150`)} แล้วสแกน QR ที่ได้ด้วยแอปธนาคารไหนก็ได้ค่ะ`,
  customerHelpAsk: "มีคำถามพิมพ์ทิ้งไว้ได้เลยนะคะ ทางร้านจะรีบตอบค่ะ",
  contactShop: "พิมพ์ข้อความถึงร้านได้เลยค่ะ พนักงานจะรีบตอบในแชทนี้นะคะ 🙏",

  howToType: (usage) => `พิมพ์ตามตัวอย่างนี้ได้เลยค่ะ\n${usage.join("\n")}`,
  commandList: (words) => words.map(quote).join(" "),
  usageProblem: (problem) => {
    switch (problem.code) {
      case "bad_amount":
        return `${quote(problem.input)} ไม่ใช่จำนวนเงิน ใส่เป็นตัวเลขที่มากกว่า 0 เช่น 150 หรือ 1,500.50 ค่ะ`;
      case "amount_decimals":
        return `${quote(problem.input)} มีทศนิยมเกิน 2 ตำแหน่ง ใส่สตางค์ได้ไม่เกิน 2 หลัก เช่น 150.50 ค่ะ`;
      case "amount_too_large":
        return `${quote(problem.input)} มากเกินไป QR รับได้ไม่เกิน 9,999,999,999.99 บาทค่ะ`;
      case "bad_promptpay_id":
        return problem.digits === undefined
          ? `${quote(problem.input)} ไม่ใช่เลขพร้อมเพย์ ใช้${PROMPTPAY_FORMS.th}ค่ะ`
          : `${quote(problem.input)} มี ${problem.digits} หลัก ไม่ใช่เลขพร้อมเพย์ ใช้${PROMPTPAY_FORMS.th}ค่ะ`;
      case "bad_date":
        return `อ่านวันที่ ${quote(problem.input)} ไม่ออก ใส่แบบ 20/11/2569, 20/11 หรือ 2026-11-20 ค่ะ`;
      case "no_such_date":
        return `ไม่มีวันที่ ${quote(problem.input)} ในปฏิทิน ลองดูวันที่อีกครั้งนะคะ`;
      case "range_too_long":
        return `${quote(problem.input)} ยาวเกินไป ดูย้อนหลังได้ไม่เกิน ${problem.maxDays} วันค่ะ`;
      case "bad_range":
        return `ช่วงวันที่ ${quote(problem.input)} วันเริ่มอยู่หลังวันสุดท้าย ให้ใส่วันเริ่มก่อน เช่น 1/11 ถึง 15/11 ค่ะ`;
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
  unknownCommand: (word, suggestions) =>
    `ไม่รู้จักคำสั่ง ${quote(word)} ค่ะ ลองพิมพ์ ${suggestions} หรือพิมพ์ ${quote("วิธีใช้")} เพื่อดูคำสั่งทั้งหมดค่ะ`,
  didYouMean: (word, command) => `ไม่รู้จักคำสั่ง ${quote(word)} ค่ะ หมายถึง ${quote(command)} หรือเปล่าคะ`,
  notUnderstood: (suggestions) => `ลองพิมพ์ ${suggestions} หรือพิมพ์ ${quote("วิธีใช้")} เพื่อดูคำสั่งทั้งหมดค่ะ`,
  packageExpired: "แพ็กเกจตรวจสลิปของร้านหมดอายุแล้วค่ะ ต่ออายุแพ็กเกจ แล้วลองใหม่อีกครั้งนะคะ",
  invalidRequest: (serviceMessage) =>
    `ระบบตรวจสลิปทำรายการนี้ไม่ได้ค่ะ ระบบแจ้งว่า ${quote(serviceMessage)}\nแก้ตามที่แจ้งแล้วส่งใหม่อีกครั้งนะคะ`,
  serviceUnavailable: "ตอนนี้ระบบตรวจสลิปไม่ตอบค่ะ รอสักครู่แล้วลองใหม่นะคะ",
  serviceError: "ระบบตรวจสลิปขัดข้องค่ะ รอสักครู่แล้วลองใหม่นะคะ",
  unauthorized: "บอทเข้าระบบตรวจสลิปไม่ได้ค่ะ เจ้าของร้านช่วยตรวจค่า SLIP_API_SECRET ในการตั้งค่าบอทด้วยนะคะ",
  responseShape: "บอทอ่านคำตอบจากระบบตรวจสลิปไม่ออกค่ะ รอสักครู่แล้วลองใหม่นะคะ",
  qrMismatch:
    "ระบบตรวจสลิปส่ง QR ของบัญชีอื่นหรือยอดเงินอื่นกลับมา บอทจึงไม่แสดง QR นี้ค่ะ เจ้าของร้านช่วยตรวจค่า SLIP_API_BASE_URL ในการตั้งค่าบอทด้วยนะคะ",
  noPromptPayId: (example) =>
    `ร้านยังไม่ได้ตั้งเลขพร้อมเพย์ของร้านค่ะ ใส่เลขพร้อมเพย์ก่อนยอดเงิน เช่น ${quote(example)} หรือให้เจ้าของร้านตั้งค่า PROMPTPAY_ID ค่ะ`,
  staffOnly: (idWord) =>
    `ขออภัยค่ะ คำสั่งนี้สำหรับพนักงานของร้านเท่านั้น ถ้าเป็นพนักงาน พิมพ์ ${quote(idWord)} แล้วส่งไอดีให้เจ้าของร้านเพิ่มสิทธิ์ให้นะคะ`,
  noStaffYet: (idWord) =>
    [
      "ยังไม่ได้ตั้งรายชื่อพนักงานค่ะ ตอนนี้บอทจึงยังไม่แสดงข้อมูลร้านให้ใครดู",
      "เจ้าของร้านทำตามนี้ได้เลยค่ะ",
      `1. พิมพ์ ${quote(idWord)} ในแชทนี้`,
      "2. เพิ่มไอดีที่ได้ในรายชื่อพนักงานของบอทค่ะ",
    ].join("\n"),
  askInPrivate: "ข้อมูลของร้านขอดูได้ในแชทส่วนตัวกับบอท หรือในกลุ่มพนักงานค่ะ",
  editedNote: "✏️ ข้อความถูกแก้ไขแล้ว บอทตอบตามข้อความใหม่ค่ะ",
  staffGroupNotice: [
    "มีสมาชิกใหม่เข้ากลุ่มนี้ค่ะ",
    "กลุ่มนี้เป็นกลุ่มพนักงาน ทุกคนในกลุ่มจะเห็นข้อมูลของร้าน (รายการสลิป ชื่อผู้โอน ยอดเงิน โทเคน)",
    "ถ้ามีลูกค้าอยู่ในกลุ่มนี้ เจ้าของร้านควรเอาไอดีกลุ่มนี้ออกจาก STAFF_GROUP_IDS แล้วเริ่มบอทใหม่ค่ะ",
  ].join("\n"),
  qrShopOnly: (qrExample) =>
    `ขออภัยค่ะ บอทสร้าง QR ได้เฉพาะพร้อมเพย์ของร้านนี้ ถ้าจะจ่ายให้ร้าน พิมพ์ ${quote(qrExample)} ได้เลยค่ะ`,
  qrAskStaff: "ขออภัยค่ะ ตอนนี้ยังสร้าง QR ไม่ได้ รบกวนสอบถามพนักงานของร้านนะคะ",
  customerNote: (qrWord) =>
    `ขอบคุณที่ทักมานะคะ ทางร้านจะรีบตอบค่ะ ถ้าจะชำระเงิน พิมพ์ ${quote(qrWord)} ตามด้วยยอด เช่น ${quote(`${qrWord} 150`)} หรือกดเมนูด้านล่างได้เลยค่ะ`,
  customerGreeting: (qrWord) =>
    [
      "สวัสดีค่ะ ขอบคุณที่เพิ่มเพื่อนนะคะ",
      `ชำระเงินได้โดยพิมพ์ ${quote(qrWord)} ตามด้วยยอด เช่น ${quote(`${qrWord} 150`)} แล้วสแกน QR ที่ได้`,
      "มีคำถามพิมพ์ทิ้งไว้ได้เลย ทางร้านจะรีบตอบค่ะ",
    ].join("\n"),
  greeting: `สวัสดีค่ะ บอทนี้สร้าง QR พร้อมเพย์ ดูประวัติตรวจสลิป สรุปยอด และโทเคนคงเหลือของร้านได้ กดปุ่มด้านล่าง หรือพิมพ์ ${quote("วิธีใช้")} ได้เลยค่ะ`,
  slipPhotoHint: (historyWord) =>
    `บอทนี้ตรวจสลิปจากรูปไม่ได้ค่ะ ส่งสลิปตรวจได้ที่ LINE OA หรือแดชบอร์ดของระบบตรวจสลิปที่ร้านใช้ แล้วพิมพ์ ${quote(historyWord)} ที่นี่เพื่อดูผลตรวจได้ค่ะ`,
  apology: "ขออภัยค่ะ เกิดข้อผิดพลาด ลองใหม่อีกครั้งนะคะ",
  restarting: "ขออภัยค่ะ บอทกำลังเริ่มระบบใหม่ เลยยังตอบข้อความนี้ไม่ได้ รบกวนส่งอีกครั้งในอีกสักครู่นะคะ",

  idYourUser: (userId) => `ไอดีผู้ใช้ของคุณ: ${userId}`,
  idNoUser: "LINE ไม่ได้ส่งไอดีผู้ใช้ของคุณมา เพราะยังไม่ได้ยินยอมให้ใช้ข้อมูลโปรไฟล์ค่ะ",
  idChat: (chatType, chatId) => `ไอดี${chatType === "group" ? "กลุ่ม" : "ห้องแชท"}นี้: ${chatId}`,
  idHint: "ส่งไอดีนี้ให้เจ้าของร้าน เพื่อเพิ่มในรายชื่อพนักงานของบอทค่ะ",
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
  qrScanHint: "Scan with any Thai banking app",
  qrAlt: (amount, payee, payeeType) =>
    amount === undefined
      ? `PromptPay QR to ${payee} (${payeeType}), payer enters the amount`
      : `PromptPay QR for ${amount} to ${payee} (${payeeType})`,

  historyTitle: "Slip checks",
  rangeName: (range) => {
    switch (range.kind) {
      case "today":
        return "Today";
      case "yesterday":
        return "Yesterday";
      case "days":
        return `Last ${range.days} days`;
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
  historyEmpty: "No slip checks in this range.",
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

  summaryTitle: "Summary",
  summaryValidLabel: "Valid total",
  summaryByStatus: "By status",
  summaryByChannel: "By channel (valid amount)",
  summaryTokensUsed: (tokens) => `Tokens used: ${tokens}`,
  summaryPerHour: "Per hour",
  summaryPerDay: "Per day",
  summaryEmpty: "No slip checks in this range.",
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
  alertExpiry: (days, date) =>
    days <= 0 ? `⚠️ The slip-check package expires today (${date}). Please renew it.` : `⚠️ The slip-check package expires in ${days === 1 ? "1 day" : `${days} days`} (${date}). Please renew it.`,
  alertPaymentReceived: (amount, from, time) => `✅ ${amount} received from ${from} at ${time}.`,
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
  daysLeft: (days) => (days === 0 ? "ends today" : days === 1 ? "1 day left" : `${days} days left`),
  expiredDaysAgo: (days) => (days === 0 ? "expired" : days === 1 ? "expired 1 day ago" : `expired ${days} days ago`),
  warnExpiring: (days) =>
    days === 0
      ? "⚠️ The package expires today. Please renew it."
      : `⚠️ The package expires in ${days === 1 ? "1 day" : `${days} days`}. Please renew it.`,
  warnExpired: "⚠️ The package has expired. Please renew it.",
  warnLowSlips: (count) => `⚠️ Tokens are left for about ${count} API checks. Please top up.`,
  balanceAlt: (store, tokens, slips, expires) =>
    `${store}: ${tokens} tokens left (about ${slips} API checks), expires ${expires}`,

  helpTitle: "How to use",
  helpIntro: "Send a command like the examples, in English or Thai.",
  helpExampleLabel: "e.g.",
  helpAlt: (commands) => `Commands: ${commands}`,
  helpFooter: "In a group, start with the command or mention the bot.",

  customerHelpTitle: "Pay by PromptPay QR",
  customerHelpPay: (qrWord) => `Send ${quote(qrWord)} with the amount to pay, like ${quote(`${qrWord} 150`)}, then scan the QR with any Thai banking app.`,
  customerHelpAsk: "Questions? Just write them here: the shop will reply soon.",
  contactShop: "Write your message to the shop here; a staff member will answer in this chat soon 🙏",

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
      case "bad_range":
        return `${quote(problem.input)} starts after it ends.`;
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
  noPromptPayId: (example) =>
    `No default PromptPay id is set for this shop. Put the id before the amount, like ${quote(example)}, or set PROMPTPAY_ID.`,
  staffOnly: (idWord) =>
    `Sorry, this command is for shop staff only. If you are staff, send ${quote(idWord)} and give your id to the shop owner.`,
  noStaffYet: (idWord) =>
    `No staff are set up yet, so the shop's data is shown to nobody. Owner: send ${quote(idWord)} here, ` +
    "then add the id to the bot's staff list.",
  askInPrivate: "Please ask me for the shop's data in our 1:1 chat or in the staff group.",
  editedNote: "✏️ (edited) Answering the new text.",
  staffGroupNotice:
    "Someone joined this group. It is a staff group, so everyone in it sees the shop's data (slip checks, payer names, amounts, tokens). " +
    "If customers are in this group, the owner should take its id off STAFF_GROUP_IDS and restart the bot.",
  qrShopOnly: (qrExample) => `Sorry, I can only make QR codes that pay this shop. Send ${quote(qrExample)} to pay the shop.`,
  qrAskStaff: "Sorry, I cannot make a payment QR right now. Please ask the shop's staff.",
  customerNote: (qrWord) =>
    `Thanks for your message! The shop will reply soon. To pay, send ${quote(qrWord)} with the amount, like ${quote(`${qrWord} 150`)}, or tap the menu below.`,
  customerGreeting: (qrWord) =>
    `Hello, and thanks for adding us! To pay, send ${quote(qrWord)} with the amount, like ${quote(`${qrWord} 150`)}. Questions? Write them here and the shop will reply soon.`,
  greeting: `Hello! This bot makes PromptPay QR codes and shows the shop's slip checks and token balance. Tap a button below or send ${quote("help")}.`,
  slipPhotoHint: (historyWord) =>
    `This bot does not read slip images. Check slips with the slip service's own LINE OA or dashboard; the checked slips show here with ${quote(historyWord)}.`,
  apology: "Sorry, something went wrong. Please try again.",
  restarting: "Sorry, the bot is restarting and could not answer this. Please send it again in a moment.",

  idYourUser: (userId) => `Your user id: ${userId}`,
  idNoUser: "LINE did not send your user id (it needs your consent to share your profile).",
  idChat: (chatType, chatId) => `This ${chatType === "group" ? "group" : "room"}'s id: ${chatId}`,
  idHint: "Give this id to the shop owner to add to the bot's staff list.",
};

export const TEXTS: { readonly [L in Lang]: Texts } = { th, en };

export function texts(lang: Lang): Texts {
  return TEXTS[lang];
}
