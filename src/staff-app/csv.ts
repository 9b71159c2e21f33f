// A check as a CSV row: the history item's fields, and its two times again in the shop's zone. UTF-8 with a
// byte-order mark so that Excel reads the Thai names; RFC 4180 quoting.
import type { HistoryItem } from "../slip/types.js";

export const CSV_BOM = "\uFEFF";

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

export function csvHeader(): string {
  return `${CSV_COLUMNS.join(",")}\r\n`;
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

export function csvRow(item: HistoryItem, timeZone: string): string {
  const fields = [
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
  return `${fields.map(csvField).join(",")}\r\n`;
}
