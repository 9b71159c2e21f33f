// PromptPay ids: reading one as people write it (spaces, dashes, +66) and masking one for display.
import type { PromptPayId } from "./types.js";
import { foldToAscii } from "./normalize.js";

/** Spaces and every dash people (and phones' autocorrect) put between digit groups. */
const GROUPING = /[\s\u00A0\u3000\-\u2010-\u2015\u2212\uFE63\uFF0D]/gu;

/**
 * A PromptPay id, or undefined when the text is none: 10 digits starting with 0 (a phone; `+66` or
 * `66` with 9 digits, or `+66 0` with the 0 kept by habit, becomes `0` + 9 digits), 13 digits (citizen
 * or juristic tax id, a leading 0 kept) or 15 digits (e-wallet). Thai and full-width digits count.
 */
export function parsePromptPayId(input: string): PromptPayId | undefined {
  const compact = foldToAscii(input).replace(GROUPING, "");
  const international = /^\+?66(0?)(\d{9})$/u.exec(compact);
  if (international !== null) {
    // 66 + 9 digits is 11 digits, which is no other kind of id, so reading it as a phone is safe.
    return { type: "phone", digits: `0${international[2] ?? ""}` };
  }
  if (!/^\d+$/u.test(compact)) return undefined;
  if (compact.length === 10 && compact.startsWith("0")) return { type: "phone", digits: compact };
  if (compact.length === 13) return { type: "citizen", digits: compact };
  if (compact.length === 15) return { type: "ewallet", digits: compact };
  return undefined;
}

/**
 * The id as shown to customers: enough to check they pay the right shop, not enough to reuse it.
 * Every kind keeps its last 4 digits, like bank apps and slips do.
 * - phone `081-xxx-5678`: the first 3 digits only name the mobile operator.
 * - citizen / tax id `x-xxxx-xxxx5-67-8`: the usual 1-4-5-2-1 grouping, so staff recognise the kind,
 *   with the leading digits hidden because they encode the holder's category and registration office.
 * - e-wallet `140-xxxx-xxxx-5678`: the first 3 digits name the wallet provider (`140` TrueMoney), as the
 *   phone's operator prefix does; the rest is usually the holder's phone number, hidden like one.
 */
export function maskPromptPayId(id: PromptPayId): string {
  const { digits } = id;
  if (id.type === "phone" && digits.length === 10) {
    return `${digits.slice(0, 3)}-xxx-${digits.slice(6)}`;
  }
  if (id.type === "citizen" && digits.length === 13) {
    return `x-xxxx-xxxx${digits.slice(9, 10)}-${digits.slice(10, 12)}-${digits.slice(12)}`;
  }
  if (id.type === "ewallet" && digits.length === 15) {
    return `${digits.slice(0, 3)}-xxxx-xxxx-${digits.slice(11)}`;
  }
  // Not one parsePromptPayId makes; still never show more than the last 4.
  return `${"x".repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}
