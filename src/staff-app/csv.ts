// A check as a CSV row. The file an owner takes to the accountant opens with columns in the shop's words
// (Thai headers, `ผ่าน`, `LINE OA ของร้าน`, times on the shop's clock), then the service's raw fields for
// machines; `raw` is those raw fields alone, all English, for accounting software. UTF-8 with a byte-order
// mark so that Excel reads the Thai; RFC 4180 quoting; CRLF line ends.
import type { Lang } from "../commands/types.js";
import { texts } from "../render/text.js";
import { isListedSource, isSlipStatus, type HistoryItem } from "../slip/types.js";

export const CSV_BOM = "\uFEFF";

/** `readable`: the shop's words first, then the raw fields; `raw`: the raw fields only (the `format=raw` choice). */
export type CsvFormat = "readable" | "raw";

/** The readable columns' headers: what each is called on a shop's paperwork. */
export const READABLE_HEADERS: { readonly [L in Lang]: readonly string[] } = {
  th: ["เวลาตรวจ", "เวลาโอน", "สถานะ", "ยอดเงิน", "เลขอ้างอิง", "ผู้โอน", "ผู้รับเงิน", "บัญชีผู้รับ", "ช่องทาง", "โทเคนที่ใช้"],
  en: ["Checked at", "Transferred at", "Status", "Amount", "Reference", "Payer", "Receiver", "Receiver's account", "Channel", "Tokens used"],
};

/** The service's fields as it names them, and the two times again on the shop's clock. */
export const CSV_COLUMNS = [
  "createdAt",
  "createdAtLocal",
  "transDate",
  "transDateLocal",
  "status",
  "amount",
  "transRef",
  "senderName",
  "receiverName",
  "receiverAccount",
  "source",
  "tokensCharged",
  "code",
] as const;

export function csvHeader(format: CsvFormat, lang: Lang): string {
  const columns = format === "raw" ? CSV_COLUMNS : [...READABLE_HEADERS[lang], ...CSV_COLUMNS];
  return `${columns.map(csvField).join(",")}\r\n`;
}

/**
 * A text a spreadsheet would run as a formula: one starting with a tab or CR, or whose first non-blank character
 * is = + - @ or its full-width form (spreadsheets skip leading spaces, and some read ＝ as =).
 */
const FORMULA_LIKE = /^(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

/** A field as CSV: quoted when it holds a comma, quote or line break; a text a spreadsheet would run as a formula gets a leading '. */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = FORMULA_LIKE.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** An instant as `YYYY-MM-DD HH:mm:ss` on the shop's clock; empty when it is not a time. */
export function localTime(iso: string | null, timeZone: string): string {
  if (iso === null) return "";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts["year"]}-${parts["month"]}-${parts["day"]} ${parts["hour"]}:${parts["minute"]}:${parts["second"]}`;
}

/** The readable fields: the chat's words for a status and a channel (an unknown one as the service wrote it). */
function readableFields(item: HistoryItem, timeZone: string, lang: Lang): (string | number | null)[] {
  const t = texts(lang);
  const status = item.status !== null && isSlipStatus(item.status) ? t.statusWord[item.status] : item.status;
  const source = item.source !== null && isListedSource(item.source) ? t.sourceWord[item.source] : item.source;
  return [
    localTime(item.createdAt, timeZone),
    localTime(item.transDate, timeZone),
    status,
    item.amount,
    item.transRef,
    item.senderName,
    item.receiverName,
    item.receiverAccount,
    source,
    item.tokensCharged,
  ];
}

export function csvRow(item: HistoryItem, timeZone: string, format: CsvFormat, lang: Lang): string {
  const raw = [
    item.createdAt,
    localTime(item.createdAt, timeZone),
    item.transDate,
    localTime(item.transDate, timeZone),
    item.status,
    item.amount,
    item.transRef,
    item.senderName,
    item.receiverName,
    item.receiverAccount,
    item.source,
    item.tokensCharged,
    item.code,
  ];
  const fields = format === "raw" ? raw : [...readableFields(item, timeZone, lang), ...raw];
  return `${fields.map(csvField).join(",")}\r\n`;
}
