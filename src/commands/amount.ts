// Amounts as staff type them (`150`, `1,500.50`), read into integer satang with string arithmetic.
import type { Satang, UsageProblem } from "./types.js";

import { MAX_AMOUNT_SATANG } from "../promptpay/amount.js";

/** Plain digits, or digits grouped by thousands with commas; then optionally a point and decimals. */
const AMOUNT = /^(\d+|\d{1,3}(?:,\d{3})+)(?:\.(\d+))?$/u;

export type AmountResult = { ok: true; satang: Satang } | { ok: false; problem: UsageProblem };

/**
 * Reads an amount without its currency sign (`฿` and `บาท` are taken off by the caller). No floats:
 * `0.1 + 0.2` style rounding must never change what a customer pays.
 */
export function parseAmount(text: string): AmountResult {
  const match = AMOUNT.exec(text);
  if (match === null) return { ok: false, problem: { code: "bad_amount", input: text } };
  const whole = (match[1] ?? "").replace(/,/gu, "").replace(/^0+(?=\d)/u, "");
  const decimals = match[2] ?? "";
  if (decimals.length > 2) return { ok: false, problem: { code: "amount_decimals", input: text } };
  // More than 10 whole digits is over the limit; checking the length first keeps Number() exact.
  if (whole.length > 10) return { ok: false, problem: { code: "amount_too_large", input: text } };
  const satang = Number(whole) * 100 + Number(decimals.padEnd(2, "0"));
  if (satang === 0) return { ok: false, problem: { code: "bad_amount", input: text } };
  if (satang > MAX_AMOUNT_SATANG) return { ok: false, problem: { code: "amount_too_large", input: text } };
  return { ok: true, satang };
}
