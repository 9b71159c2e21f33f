// Arguments of `qr`: an optional PromptPay id and an optional amount, told apart as people write them.
import type { PromptPayId, Satang, UsageProblem } from "../types.js";
import type { Token } from "../normalize.js";
import { parseAmount } from "../amount.js";
import { parsePromptPayId } from "../promptpay-id.js";

/** Thai words the tokenizer must cut out of glued text (`150บาท`, `150บ.`). */
export const QR_THAI_KEYWORDS: readonly string[] = ["บาท", "บ."];

export type QrArgs = { ok: true; id?: PromptPayId; amount?: Satang } | { ok: false; problem: UsageProblem };

/** Words after a number that say it is money (`150.-` is how Thai price tags write 150 baht). `฿` may also come before it. */
const CURRENCY_SUFFIX = /^(.+?)(฿|baht|thb|\.-)$/iu;
const CURRENCY_WORDS = new Set(["บาท", "บ.", "baht", "thb", "฿"]);

/** Digits grouped with dashes, maybe with a leading +: a PromptPay id or a broken one. */
const ID_CHARS = /^\+?[\d\-\u2010-\u2015\u2212]+$/u;
/** Digits with thousands commas and a decimal point: an amount or a broken one. */
const AMOUNT_CHARS = /^[\d,.]+$/u;
const DIGIT = /\d/u;

// Two tests instead of one `[...]*\d[...]*` pattern, which backtracks quadratically on long input.
const ID_LIKE = { test: (text: string) => ID_CHARS.test(text) && DIGIT.test(text) };
const AMOUNT_LIKE = { test: (text: string) => AMOUNT_CHARS.test(text) && DIGIT.test(text) };
const PLAIN_DIGITS = /^\d+$/u;

interface Word {
  raw: string;
  /** `฿` or `บาท` came with it, so it is the amount whatever it looks like. */
  money: boolean;
}

/** Takes `฿` and `บาท`/`baht`/`thb` off their numbers, marking those numbers as money. */
function collectWords(tokens: readonly Token[]): Word[] | { unexpected: string } {
  const words: Word[] = [];
  // A currency word standing alone waits for the number after it (`฿ 150`, `บาท 150`).
  let pending: string | undefined;
  for (const token of tokens) {
    let text = token.raw;
    let money = false;
    while (text.startsWith("฿")) {
      money = true;
      text = text.slice(1);
    }
    if (text === "" || CURRENCY_WORDS.has(text.toLowerCase())) {
      const previous = words[words.length - 1];
      // `150 บาท` marks the number before; `฿ 150` the number after.
      if (text !== "" && !money && pending === undefined && previous !== undefined) previous.money = true;
      else pending ??= token.raw;
      continue;
    }
    const suffix = CURRENCY_SUFFIX.exec(text);
    if (suffix !== null) {
      text = suffix[1] ?? text;
      money = true;
    }
    words.push({ raw: text, money: money || pending !== undefined });
    pending = undefined;
  }
  if (pending !== undefined) {
    // `150 ฿`: nothing came after the sign, so it belongs to the number before it.
    const previous = words[words.length - 1];
    if (previous === undefined) return { unexpected: pending };
    previous.money = true;
  }
  return words;
}

function joined(words: readonly Word[]): string {
  return words.map((w) => w.raw).join(" ");
}

function idOf(words: readonly Word[]): PromptPayId | undefined {
  return words.length === 0 ? undefined : parsePromptPayId(joined(words));
}

/** Why words that should be an id are none. */
function idProblem(words: readonly Word[]): UsageProblem {
  const odd = words.find((w) => !ID_LIKE.test(w.raw));
  if (odd === undefined) return wrongDigits(joined(words));
  if (AMOUNT_LIKE.test(odd.raw)) return { code: "unexpected", input: odd.raw };
  return { code: /\d/u.test(odd.raw) ? "bad_promptpay_id" : "unexpected", input: odd.raw };
}

/** Digits (with spaces or dashes) that make no id: say how many there are, since that is usually the mistake. */
function wrongDigits(input: string): UsageProblem {
  const digits = input.replace(/\D/gu, "").length;
  return /^[+]/u.test(input) ? { code: "bad_promptpay_id", input } : { code: "bad_promptpay_id", input, digits };
}

/** `-5`, `−5`: a negative number, which is a wrong amount rather than part of an id. */
const NEGATIVE = /^[-\u2010-\u2015\u2212][\d,.]*\d[\d,.]*$/u;

/** A single word without a currency sign: an id if it is one, else the amount. */
function parseLone(word: Word): QrArgs {
  const id = parsePromptPayId(word.raw);
  if (id !== undefined) return { ok: true, id };
  if (AMOUNT_LIKE.test(word.raw)) {
    // 10 or more bare digits cannot be an amount (an amount has at most 9); they are a mistyped id.
    if (PLAIN_DIGITS.test(word.raw) && word.raw.length >= 10) return { ok: false, problem: wrongDigits(word.raw) };
    const amount = parseAmount(word.raw);
    return amount.ok ? { ok: true, amount: amount.satang } : amount;
  }
  if (NEGATIVE.test(word.raw)) return { ok: false, problem: { code: "bad_amount", input: word.raw } };
  if (ID_LIKE.test(word.raw)) return { ok: false, problem: wrongDigits(word.raw) };
  if (/\d/u.test(word.raw)) return { ok: false, problem: { code: "bad_amount", input: word.raw } };
  return { ok: false, problem: { code: "unexpected", input: word.raw } };
}

export function parseQrArgs(tokens: readonly Token[]): QrArgs {
  const words = collectWords(tokens);
  if (!Array.isArray(words)) return { ok: false, problem: { code: "unexpected", input: words.unexpected } };
  if (words.length === 0) return { ok: true };

  const money = words.filter((w) => w.money);
  if (money.length > 1) return { ok: false, problem: { code: "unexpected", input: money[1]?.raw ?? "" } };
  const marked = money[0];
  if (marked !== undefined) {
    const amount = parseAmount(marked.raw);
    if (!amount.ok) return amount;
    const rest = words.filter((w) => w !== marked);
    if (rest.length === 0) return { ok: true, amount: amount.satang };
    const id = idOf(rest);
    return id === undefined ? { ok: false, problem: idProblem(rest) } : { ok: true, id, amount: amount.satang };
  }

  const [first] = words;
  if (first === undefined) return { ok: true };
  if (words.length === 1) return parseLone(first);
  const textless = words.find((w) => !/\d/u.test(w.raw));
  if (textless !== undefined) return { ok: false, problem: { code: "unexpected", input: textless.raw } };

  const last = words[words.length - 1] ?? first;
  const head = words.slice(0, -1);
  const tail = words.slice(1);
  const headId = idOf(head);
  const tailId = idOf(tail);
  const lastAmount = AMOUNT_LIKE.test(last.raw) ? parseAmount(last.raw) : undefined;
  const firstAmount = AMOUNT_LIKE.test(first.raw) ? parseAmount(first.raw) : undefined;

  // `0812345678 150`: id then amount, the grammar's order; preferred over reading `0812345678150`
  // as a 13-digit id, since an id written in groups does not end in a lone short group.
  if (headId !== undefined && lastAmount?.ok === true) return { ok: true, id: headId, amount: lastAmount.satang };
  // `150 0812345678`: the amount first, which people do write; without this it would silently be
  // the 13-digit id 1500812345678.
  if (tailId !== undefined && firstAmount?.ok === true) return { ok: true, id: tailId, amount: firstAmount.satang };
  // `081 234 5678`, `1 2345 67890 12 3`: one id in groups.
  const wholeId = idOf(words);
  if (wholeId !== undefined) return { ok: true, id: wholeId };
  // An id followed by a wrong amount: say what is wrong with the amount.
  if (headId !== undefined && lastAmount !== undefined && !lastAmount.ok) return lastAmount;
  if (tailId !== undefined && firstAmount !== undefined && !firstAmount.ok) return firstAmount;
  // `0812345678 -5`: a negative amount, not a dash inside the id.
  if (headId !== undefined && NEGATIVE.test(last.raw)) return { ok: false, problem: { code: "bad_amount", input: last.raw } };
  if (tailId !== undefined && NEGATIVE.test(first.raw)) return { ok: false, problem: { code: "bad_amount", input: first.raw } };
  // `081234567 150`: a good amount after a near-id (9 digits or more) that is no id: the id is the
  // mistake, and only the id. (`081 234 567` stays one broken id: its last group is no amount.)
  if (lastAmount?.ok === true && head.every((w) => ID_LIKE.test(w.raw)) && joined(head).replace(/\D/gu, "").length >= 9) {
    return { ok: false, problem: idProblem(head) };
  }
  // A number with a decimal point or commas at the end is the amount, so the id is before it.
  if (lastAmount !== undefined && /[.,]/u.test(last.raw)) {
    if (!lastAmount.ok) return lastAmount;
    return { ok: false, problem: idProblem(head) };
  }
  return { ok: false, problem: idProblem(words) };
}
