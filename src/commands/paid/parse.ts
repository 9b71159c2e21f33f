// Arguments of `paid`: an amount (`150`, `฿150`, `150 บาท`, `150.-`), optionally the days to look in
// (`เมื่อวาน`, `20/11`), and, as the QR card's button writes it, `after` with the instant the QR was made.
import type { CalendarDate, PaidRequest, UsageProblem } from "../types.js";
import type { Token } from "../normalize.js";
import { parseAmount } from "../amount.js";
import { parseRangeArgs } from "../parse-history.js";

/** Thai words the tokenizer must cut out of glued text (`150บาท`, `150บ.`, `150เข้ายัง`). */
export const PAID_THAI_KEYWORDS: readonly string[] = ["บาท", "บ.", "หลัง", "ยัง", "รึยัง", "หรือยัง", "เข้า"];

const AFTER_WORDS = new Set(["after", "หลัง"]);
/** "Yet?" inside the question (`เงินเข้ายัง 150`, `150 เข้ารึยัง`): part of asking, not of the amount. */
const QUESTION_WORDS = new Set(["ยัง", "รึยัง", "หรือยัง", "เข้า"]);
const CURRENCY = /^(?:฿|บาท|บ\.|baht|thb)$/iu;
/** A number with its currency on either side: `฿150`, `150บาท`, `150.-`. */
const AMOUNT_WORD = /^฿*([\d,]*\d(?:\.\d+)?)(?:฿|บาท|บ\.|baht|thb|\.-)?$/iu;
/** An instant as the button writes it: UTC ISO 8601. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?Z$/u;

export type PaidArgs = { ok: true; request: PaidRequest } | { ok: false; problem: UsageProblem };

/** The words after `paid`; `today` (in the business zone) is for a date without its year. */
export function parsePaidArgs(tokens: readonly Token[], today: CalendarDate): PaidArgs {
  let after: Date | undefined;
  let amountText: string | undefined;
  const rest: Token[] = [];
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
    if (CURRENCY.test(token.raw) || QUESTION_WORDS.has(token.lower)) continue;
    // The first number is the amount; the other words may be the days to look in (`150 เมื่อวาน`, `150 20/11`).
    const amount = amountText === undefined ? AMOUNT_WORD.exec(token.raw) : null;
    if (amount === null) rest.push(token);
    else amountText = amount[1] ?? "";
  }
  const range = rest.length === 0 ? undefined : parseRangeArgs(rest, today);
  if (amountText === undefined) {
    // Days without an amount forgot the amount; anything else is a wrong one.
    const first = rest[0];
    return first === undefined || range?.ok === true ? { ok: false, problem: { code: "missing_amount" } } : { ok: false, problem: { code: "bad_amount", input: first.raw } };
  }
  const amount = parseAmount(amountText);
  if (!amount.ok) return amount;
  const request: PaidRequest = { amount: amount.satang };
  if (after !== undefined) request.after = after;
  if (range !== undefined) {
    if (!range.ok) return range;
    // The QR's button asks about today, since the QR; days beside it are no button's.
    if (after !== undefined) return { ok: false, problem: { code: "unexpected", input: rest.map((t) => t.raw).join(" ") } };
    request.range = range.range;
  }
  return { ok: true, request };
}
