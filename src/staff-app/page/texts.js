// The staff app page's words in Thai and English, and how it writes dates, times, counts and money, as
// docs/thai.md says for the chat's replies. A module of its own, without the page, so that the tests read
// every text (test/render/thai.test.ts). The functions take the API's own values (ISO days and instants,
// satang, error bodies) and do all the writing: the page never shows an API value as it came.

const MONTHS = {
  th: ["ม.ค.", "ก.พ.", "มี.ค.", "เม.ย.", "พ.ค.", "มิ.ย.", "ก.ค.", "ส.ค.", "ก.ย.", "ต.ค.", "พ.ย.", "ธ.ค."],
  en: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
};
/** Thai dates count years in the Buddhist era. */
const BUDDHIST_ERA_OFFSET = 543;

const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const twoDecimals = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `12,345`: every count the page shows. */
export const formatCount = (n) => whole.format(n);

/** `฿1,500.50` from satang: a figure or a column's money. */
export const formatMoney = (satang) => `${satang < 0 ? "-" : ""}฿${twoDecimals.format(Math.abs(satang) / 100)}`;

const pad2 = (n) => String(n).padStart(2, "0");
const quote = (text) => `“${text}”`;

/** `2026-11-24` as its parts. */
function dayOf(isoDay) {
  const [year, month, day] = String(isoDay).split("-").map(Number);
  return { year, month, day };
}

const yearIn = (year, lang) => (lang === "th" ? year + BUDDHIST_ERA_OFFSET : year);

/** `24 พ.ย.` or `24 Nov`. */
function dayMonth(d, lang) {
  return `${d.day} ${MONTHS[lang][d.month - 1]}`;
}

/** `24 พ.ย. 2569` or `24 Nov 2026`, from `2026-11-24`. */
export function formatDate(isoDay, lang) {
  const d = dayOf(isoDay);
  return `${dayMonth(d, lang)} ${yearIn(d.year, lang)}`;
}

/** `24 พ.ย.` or `24 Nov`, from `2026-11-24`: a day inside a range (the chart's days). */
export function formatDayMonth(isoDay, lang) {
  return dayMonth(dayOf(isoDay), lang);
}

/** `22 พ.ย. 2569`, `1–30 พ.ย. 2569`, `28 ต.ค. – 3 พ.ย. 2569`, `28 ธ.ค. 2569 – 3 ม.ค. 2570`: the month and year once where shared. */
export function formatDateRange(fromDay, toDay, lang) {
  const from = dayOf(fromDay),
    to = dayOf(toDay);
  if (from.year !== to.year) return `${formatDate(fromDay, lang)} – ${formatDate(toDay, lang)}`;
  if (from.month !== to.month) return `${dayMonth(from, lang)} – ${formatDate(toDay, lang)}`;
  if (from.day !== to.day) return `${from.day}–${formatDate(toDay, lang)}`;
  return formatDate(fromDay, lang);
}

const zones = new Map();
/** An instant's day and time in the shop's zone, or undefined when it is missing or unreadable. */
function zonedParts(iso, timeZone) {
  if (!iso) return undefined;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return undefined;
  let format = zones.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", hourCycle: "h23" });
    zones.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour) % 24, minute: Number(parts.minute) };
}

/** `24 พ.ย. 2569 14:05 น.` (`24 Nov 2026 14:05`): an instant on its own, as a check's details show it; `–` when there is none. */
export function formatDateTime(iso, lang, timeZone) {
  const p = zonedParts(iso, timeZone);
  if (p === undefined) return "–";
  const time = `${pad2(p.hour)}:${pad2(p.minute)}`;
  return `${dayMonth(p, lang)} ${yearIn(p.year, lang)} ${lang === "th" ? `${time} น.` : time}`;
}

/**
 * `24 พ.ย. 14:05`: an instant in the history's column, bare as bank statements show times, and with its
 * year only when that is not the year the range ends in.
 */
export function formatRowTime(iso, lang, timeZone, rangeEndDay) {
  const p = zonedParts(iso, timeZone);
  if (p === undefined) return "–";
  const year = rangeEndDay !== undefined && dayOf(rangeEndDay).year !== p.year ? ` ${yearIn(p.year, lang)}` : "";
  return `${dayMonth(p, lang)}${year} ${pad2(p.hour)}:${pad2(p.minute)}`;
}

/** `09:00`: an hour as the chart's ends write it (a column of times stays bare). */
export const formatHour = (hour) => `${pad2(hour)}:00`;

/** How to open the app, naming a button that exists: the staff rich menu's in LINE, the chat console's in local mode. */
const OPEN = {
  th: { line: "กดปุ่ม “แอปพนักงาน” ในเมนูแชท LINE ของร้าน", local: "กดปุ่ม “Open the staff app” ในหน้าแชททดลอง" },
  en: { line: "tap “แอปพนักงาน” (Staff app) in the menu of the shop's LINE chat", local: "click “Open the staff app” in the chat console" },
};

/**
 * The range being looked at, as the page knows it: `range` is a chip's name (`today`, `yesterday`,
 * `week`, `days7`, `month`, `lastmonth`) or `custom`; `from` and `to` are ISO days; `status` is the status word
 * chosen, if any; `q` the search, if any.
 */

const th = {
  title: "แอปพนักงาน",
  today: "วันนี้",
  yesterday: "เมื่อวาน",
  week: "อาทิตย์นี้",
  days7: "7 วัน",
  month: "เดือนนี้",
  lastmonth: "เดือนที่แล้ว",
  custom: "เลือกวันที่",
  from: "ตั้งแต่",
  to: "ถึง",
  apply: "ดู",
  search: "ค้นหา",
  searchHint: "เลขอ้างอิง หรือชื่อผู้โอน/ผู้รับเงิน",
  allStatuses: "ทุกสถานะ",
  allChannels: "ทุกช่องทาง",
  statusLabel: "สถานะ",
  channelLabel: "ช่องทาง",
  perPageLabel: "จำนวนต่อหน้า",
  perPageBefore: "แสดงหน้าละ",
  perPageAfter: "รายการ",
  checks: "สลิปที่ตรวจ",
  validAmount: "ยอดโอนเข้า (สลิปที่ผ่าน)",
  byStatus: "แยกตามสถานะ",
  byChannel: "แยกตามช่องทาง",
  history: "ประวัติตรวจสลิป",
  // Owners say โหลดไฟล์; ส่งออก is an accountant's word.
  export: "ดาวน์โหลดไฟล์ (Excel)",
  exportRaw: "ไฟล์ภาษาอังกฤษล้วน สำหรับโปรแกรมบัญชี",
  prev: "หน้าก่อน",
  next: "หน้าถัดไป",
  details: "รายละเอียดสลิป",
  close: "ปิด",
  loading: "กำลังโหลด…",
  exporting: "กำลังเตรียมไฟล์…",
  page: (page, pages) => `หน้า ${formatCount(page)} จาก ${formatCount(pages)}`,
  /** A chip's range by its name, as the chat names it; undefined for chosen dates. */
  rangeName: (range) => ({ today: "วันนี้", yesterday: "เมื่อวาน", week: "อาทิตย์นี้", days7: "7 วันล่าสุด", month: "เดือนนี้", lastmonth: "เดือนที่แล้ว" })[range],
  /** Under the chips, the days shown as the chat's cards write them: `7 วันล่าสุด · 23–29 พ.ย. 2569`. */
  daysLine: (view) => {
    const name = th.rangeName(view.range);
    const dates = formatDateRange(view.from, view.to, "th");
    return name === undefined ? dates : `${name} · ${dates}`;
  },
  empty: (view) => {
    const name = th.rangeName(view.range);
    const dates = `ในวันที่ ${formatDateRange(view.from, view.to, "th")}`;
    // A count of days takes ใน before it (`ใน 7 วันล่าสุด`), as the chat writes it.
    const when = name !== undefined && /^\d/.test(name) ? `ใน ${name}` : name;
    if (view.q) return when === undefined ? `ไม่พบสลิปที่ตรงกับ ${quote(view.q)} ${dates} ค่ะ` : `${when}ไม่พบสลิปที่ตรงกับ ${quote(view.q)} ค่ะ`;
    const slips = view.status ? `สลิปสถานะ ${quote(view.status)} ` : "การตรวจสลิป";
    // A range that runs to today may still get some: "not yet".
    const ongoing = view.range === "today" || view.range === "week" || view.range === "days7" || view.range === "month";
    return when === undefined ? `ไม่มี${slips}${dates} ค่ะ` : `${when}${ongoing ? "ยังไม่มี" : "ไม่มี"}${slips}ค่ะ`;
  },
  cutDays: (from, to) => `ช่วงวันที่ยาวเกิน 31 วัน สรุปและไฟล์จึงนับเฉพาะวันที่ ${formatDateRange(from, to, "th")} ค่ะ`,
  cutChecks: (counted) => `มีการตรวจเกิน 20,000 สลิป จึงนับเฉพาะ ${formatCount(counted)} สลิปล่าสุดค่ะ`,
  // The days are named under the chips: the note says only what was left out.
  searchCut: (searched) => `ค้นหาจาก ${formatCount(searched)} สลิปล่าสุดเท่านั้นค่ะ`,
  exportCutDays: "ไฟล์มีข้อมูลไม่ครบทุกวัน ดูหมายเหตุด้านบนค่ะ",
  exportCutChecks: "ไฟล์มีเฉพาะ 20,000 สลิปล่าสุด ดูหมายเหตุด้านบนค่ะ",
  /** The chart's title, as the chat's summary card names it. */
  chartTitle: (per) => (per === "hour" ? "จำนวนสลิปรายชั่วโมง" : "จำนวนสลิปรายวัน"),
  /** Under the chart until a bar is tapped: a phone shows no hover. */
  chartHint: "แตะที่แท่งกราฟเพื่อดูตัวเลข",
  /** A bar's figures, shown when it is tapped: `24 พ.ย.: ตรวจ 3 สลิป ยอดโอนเข้า ฿450.00`; an hour is `09:00 น.`. */
  chartTip: (per, at, count, validSatang) =>
    `${per === "hour" ? `${formatHour(at)} น.` : formatDayMonth(at, "th")}: ตรวจ ${formatCount(count)} สลิป ยอดโอนเข้า ${formatMoney(validSatang)}`,
  notLoggedIn: (mode) => `ยังไม่ได้เข้าสู่ระบบ LINE ค่ะ เปิดแอปนี้โดย${OPEN.th[mode]}นะคะ`,
  loginFailed: (mode) => `เข้าสู่ระบบ LINE ไม่สำเร็จค่ะ ปิดหน้านี้แล้ว${OPEN.th[mode]}อีกครั้งนะคะ`,
  liffScript: "เชื่อมต่อ LINE ไม่ได้ค่ะ ตรวจสอบอินเทอร์เน็ตแล้วเปิดแอปอีกครั้งนะคะ",
  offline: "ติดต่อบอทของร้านไม่ได้ค่ะ ตรวจสอบอินเทอร์เน็ตแล้วลองใหม่อีกครั้งนะคะ",
  apology: "ขออภัยค่ะ เกิดข้อผิดพลาด ลองใหม่อีกครั้งนะคะ",
  /** The API's refusals by their `error` code (`code.reason` or `code.problem` first): what happened, then what to do. */
  errors: {
    // Customers open it too: what the page is for first, then what a staff member does.
    not_staff: (body) =>
      body.userId
        ? `หน้านี้สำหรับพนักงานของร้านเท่านั้นค่ะ\nถ้าคุณเป็นพนักงาน ส่งไอดีด้านล่างให้เจ้าของร้านเพิ่มชื่อคุณ แล้วเปิดแอปอีกครั้งนะคะ\nไอดีผู้ใช้ของคุณ: ${body.userId}`
        : "หน้านี้สำหรับพนักงานของร้านเท่านั้นค่ะ\nถ้าคุณเป็นพนักงาน ให้เจ้าของร้านเพิ่มชื่อคุณในรายชื่อพนักงาน แล้วเปิดแอปอีกครั้งนะคะ",
    token_expired: (_body, mode) => `การเข้าสู่ระบบ LINE หมดอายุแล้วค่ะ ปิดหน้านี้แล้ว${OPEN.th[mode]}อีกครั้งนะคะ`,
    "invalid_token.missing": (_body, mode) => th.notLoggedIn(mode),
    invalid_token: (_body, mode) => `บัญชี LINE ที่เข้าสู่ระบบไว้ใช้กับแอปของร้านนี้ไม่ได้ค่ะ ปิดหน้านี้แล้ว${OPEN.th[mode]}อีกครั้งนะคะ`,
    line_unreachable: () => "ตอนนี้ตรวจสอบการเข้าสู่ระบบกับ LINE ไม่ได้ค่ะ รอสักครู่แล้วลองใหม่นะคะ",
    too_many_requests: () => "เปิดดูถี่เกินไปค่ะ รอประมาณ 1 นาทีแล้วลองใหม่นะคะ",
    service_failed: () => "ตอนนี้ระบบตรวจสลิปไม่ตอบค่ะ รอสักครู่แล้วลองใหม่นะคะ",
    try_again: () => "ตอนนี้ทำรายการนี้ไม่ได้ค่ะ รอสักครู่แล้วลองใหม่นะคะ",
    app_off: () => "แอปพนักงานของร้านนี้ยังไม่ได้เปิดใช้ค่ะ เจ้าของร้านต้องตั้งค่า LINE_LOGIN_CHANNEL_ID และ LIFF_ID แล้วเริ่มบอทใหม่ก่อนนะคะ",
    not_found: (_body, mode) => `ลิงก์นี้ไม่ใช่แอปพนักงานของร้านค่ะ เปิดแอปโดย${OPEN.th[mode]}นะคะ`,
    "bad_parameter.bad_day": () => `อ่านวันที่ไม่ออกค่ะ เลือกวันที่ใหม่ แล้วกด ${quote(th.apply)} อีกครั้งนะคะ`,
    "bad_parameter.reversed": () => `วันที่ใน ${quote(th.from)} อยู่หลังวันที่ใน ${quote(th.to)} ค่ะ สลับวันที่ แล้วกด ${quote(th.apply)} อีกครั้งนะคะ`,
    "bad_parameter.range_too_long": () => `ดูย้อนหลังได้ครั้งละไม่เกิน 1 ปีค่ะ เลือกช่วงวันที่ให้สั้นลง แล้วกด ${quote(th.apply)} อีกครั้งนะคะ`,
    "bad_parameter.q_too_long": () => `คำค้นหายาวเกิน 100 ตัวอักษรค่ะ ใส่ให้สั้นลง แล้วกด ${quote(th.search)} อีกครั้งนะคะ`,
    "bad_parameter.bad_format": () => `ทำไฟล์แบบนี้ไม่ได้ค่ะ กด ${quote(th.export)} อีกครั้งนะคะ`,
    bad_parameter: (body) => `หน้านี้ส่งค่า ${quote(body.parameter || "?")} ที่บอทอ่านไม่ออกค่ะ ปิดแอปแล้วเปิดใหม่อีกครั้งนะคะ`,
  },
  fields: {
    createdAt: "เวลาตรวจ",
    transDate: "เวลาโอน",
    status: "สถานะ",
    amount: "ยอดเงิน",
    transRef: "เลขอ้างอิง",
    senderName: "ผู้โอน",
    receiverName: "ผู้รับเงิน",
    receiverAccount: "บัญชีผู้รับ",
    // The service's result code is left out: a number that means nothing to staff.
    source: "ช่องทางที่ตรวจ",
    tokensCharged: "โทเคนที่ใช้",
  },
  status: { valid: "ผ่าน", invalid: "ไม่ผ่าน", fraud: "ปลอม", duplicate: "ซ้ำ", not_found: "ไม่พบ", error: "ผิดพลาด" },
  source: {
    api: "API",
    dashboard: "แดชบอร์ด",
    line_partner: "LINE พาร์ทเนอร์",
    line_group: "กลุ่ม LINE",
    line_oa_system: "LINE OA ของระบบ",
    line_oa_merchant: "LINE OA ของร้าน",
    facebook_page: "เพจ Facebook",
  },
};

const en = {
  title: "Staff app",
  today: "Today",
  yesterday: "Yesterday",
  week: "This week",
  days7: "7 days",
  month: "This month",
  lastmonth: "Last month",
  custom: "Dates",
  from: "From",
  to: "To",
  apply: "Show",
  search: "Search",
  searchHint: "Reference, or payer's or receiver's name",
  allStatuses: "All statuses",
  allChannels: "All channels",
  statusLabel: "Status",
  channelLabel: "Channel",
  perPageLabel: "Checks per page",
  perPageBefore: "Show",
  perPageAfter: "a page",
  checks: "Checks",
  validAmount: "Valid total",
  byStatus: "By status",
  byChannel: "By channel",
  history: "Slip checks",
  export: "Download file (Excel)",
  exportRaw: "All-English file, for accounting software",
  prev: "Previous page",
  next: "Next page",
  details: "Check details",
  close: "Close",
  loading: "Loading…",
  exporting: "Preparing the file…",
  page: (page, pages) => `Page ${formatCount(page)} of ${formatCount(pages)}`,
  rangeName: (range) => ({ today: "today", yesterday: "yesterday", week: "this week", days7: "in the last 7 days", month: "this month", lastmonth: "last month" })[range],
  daysLine: (view) => {
    const name = { today: "Today", yesterday: "Yesterday", week: "This week", days7: "Last 7 days", month: "This month", lastmonth: "Last month" }[view.range];
    const dates = formatDateRange(view.from, view.to, "en");
    return name === undefined ? dates : `${name} · ${dates}`;
  },
  empty: (view) => {
    const when = en.rangeName(view.range) ?? `on ${formatDateRange(view.from, view.to, "en")}`;
    if (view.q) return `No slip checks match ${quote(view.q)} ${when}.`;
    return `No ${view.status ? `${quote(view.status)} ` : ""}slip checks ${when}.`;
  },
  cutDays: (from, to) => `More than 31 days: the summary and the export cover ${formatDateRange(from, to, "en")} only.`,
  cutChecks: (counted) => `More than 20,000 checks: only the newest ${formatCount(counted)} are counted.`,
  searchCut: (searched) => `Only the newest ${formatCount(searched)} checks were searched.`,
  exportCutDays: "The file does not hold every day: see the note above.",
  exportCutChecks: "The file holds the newest 20,000 checks only: see the note above.",
  chartTitle: (per) => (per === "hour" ? "Checks per hour" : "Checks per day"),
  chartHint: "Tap a bar to see its figures",
  chartTip: (per, at, count, validSatang) =>
    `${per === "hour" ? formatHour(at) : formatDayMonth(at, "en")}: ${formatCount(count)} ${count === 1 ? "check" : "checks"}, valid total ${formatMoney(validSatang)}`,
  notLoggedIn: (mode) => `You are not logged in with LINE. To open this app, ${OPEN.en[mode]}.`,
  loginFailed: (mode) => `The LINE login did not work. Close this page and ${OPEN.en[mode]} again.`,
  liffScript: "The LINE login script could not be loaded. Check the connection and open the app again.",
  offline: "The shop's bot could not be reached. Check the connection and try again.",
  apology: "Sorry, something went wrong. Please try again.",
  errors: {
    not_staff: (body) =>
      body.userId
        ? `This app is for the shop's staff. Give the user id below to the shop's owner to add to the bot's staff list, or ask them to add you to the staff group, then open the app again.\nYour user id: ${body.userId}`
        : "This app is for the shop's staff. Ask the shop's owner to add you to the bot's staff list or to the staff group, then open the app again.",
    token_expired: (_body, mode) => `Your LINE login has expired. Close this page and ${OPEN.en[mode]} again.`,
    "invalid_token.missing": (_body, mode) => en.notLoggedIn(mode),
    invalid_token: (_body, mode) => `This login is not for this shop's app. Close this page and ${OPEN.en[mode]} again.`,
    line_unreachable: () => "LINE could not check your login just now. Wait a moment and try again.",
    too_many_requests: () => "Too many requests. Wait a minute and try again.",
    service_failed: () => "The slip service is not answering right now. Wait a moment and try again.",
    try_again: () => "This cannot be done just now. Wait a moment and try again.",
    app_off: () => "The staff app is off for this shop. The owner needs to set LINE_LOGIN_CHANNEL_ID and LIFF_ID, then restart the bot.",
    not_found: (_body, mode) => `No shop has its staff app at this address. To open it, ${OPEN.en[mode]}.`,
    "bad_parameter.bad_day": () => `That date cannot be read. Pick the dates again and tap ${quote(en.apply)}.`,
    "bad_parameter.reversed": () => `The ${quote(en.from)} date is after the ${quote(en.to)} date. Swap them and tap ${quote(en.apply)}.`,
    "bad_parameter.range_too_long": () => `The app looks back at most a year at a time. Pick a shorter range and tap ${quote(en.apply)}.`,
    "bad_parameter.q_too_long": () => `The search is longer than 100 characters. Shorten it and tap ${quote(en.search)}.`,
    "bad_parameter.bad_format": () => `That file cannot be made. Tap ${quote(en.export)} again.`,
    bad_parameter: (body) => `The page sent a value the bot cannot read (${body.parameter || "?"}). Close the app and open it again.`,
  },
  fields: {
    createdAt: "Checked",
    transDate: "Transferred",
    status: "Status",
    amount: "Amount",
    transRef: "Reference",
    senderName: "Payer",
    receiverName: "Receiver",
    receiverAccount: "Receiver's account",
    source: "Checked through",
    tokensCharged: "Tokens",
  },
  status: { valid: "Valid", invalid: "Invalid", fraud: "Fraud", duplicate: "Duplicate", not_found: "Not found", error: "Error" },
  source: {
    api: "API",
    dashboard: "Dashboard",
    line_partner: "LINE partner",
    line_group: "LINE group",
    line_oa_system: "LINE OA (system)",
    line_oa_merchant: "LINE OA (shop)",
    facebook_page: "Facebook page",
  },
};

export const TEXTS = { th, en };

/**
 * What the page shows for an API refusal: the text for its code in the shop's language (the reason or
 * problem's own text first), else the API's English message, else an apology.
 */
export function errorText(lang, mode, body) {
  const texts = TEXTS[lang].errors;
  const own = (key) => (typeof key === "string" && Object.hasOwn(texts, key) ? texts[key] : undefined);
  const detail = body.reason || body.problem;
  const text = (detail ? own(`${body.error}.${detail}`) : undefined) || own(body.error);
  if (text) return text(body, mode);
  return body.message || TEXTS[lang].apology;
}
