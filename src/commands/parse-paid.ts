// Arguments of `paid`: an amount (`150`, `฿150`, `150 บาท`), and, as the QR card's button writes it, `after`
// with the instant the QR was made.
import type { PaidRequest, UsageProblem } from "./types.js";
import type { Token } from "./normalize.js";
import { parseAmount } from "./amount.js";

/** Thai words the tokenizer must cut out of glued text (`150บาท`). */
export const PAID_THAI_KEYWORDS: readonly string[] = ["บาท", "หลัง"];

const AFTER_WORDS = new Set(["after", "หลัง"]);
const CURRENCY = /^(?:฿|บาท|baht|thb)$/iu;
/** An instant as the button writes it: UTC ISO 8601. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?Z$/u;

export type PaidArgs = { ok: true; request: PaidRequest } | { ok: false; problem: UsageProblem };

export function parsePaidArgs(tokens: readonly Token[]): PaidArgs {
  let after: Date | undefined;
  const amountWords: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === undefined) break;
    if (AFTER_WORDS.has(token.lower)) {
      const next = tokens[i + 1]?.raw ?? "";
      const at = INSTANT.test(next) ? new Date(next) : undefined;
      if (at === undefined || Number.isNaN(at.getTime()) || after !== undefined) return { ok: false, problem: { code: "unexpected", input: `${token.raw} ${next}`.trim() } };
      after = at;
      i += 1;
      continue;
    }
    if (CURRENCY.test(token.raw)) continue;
    amountWords.push(token.raw.replace(/^฿+/u, "").replace(/(?:฿|บาท|baht|thb)$/iu, ""));
  }
  if (amountWords.length === 0) return { ok: false, problem: { code: "missing_amount" } };
  if (amountWords.length > 1) return { ok: false, problem: { code: "unexpected", input: amountWords[1] ?? "" } };
  const amount = parseAmount(amountWords[0] ?? "");
  if (!amount.ok) return amount;
  return { ok: true, request: { amount: amount.satang, ...(after === undefined ? {} : { after }) } };
}
