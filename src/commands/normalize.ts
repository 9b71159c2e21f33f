// Text clean-up before parsing: one kind of space, ASCII digits and punctuation, Thai marks in one order, tokens.

/**
 * Characters that separate words: every Unicode space JS knows (`\s`: NBSP, full-width space,
 * newlines...), plus zero-width space and word joiner (some Thai keyboards put them between words)
 * and control characters (pasted text carries them; they never belong inside a command).
 */
const SEPARATORS = /[\s\u200B\u2060\p{Cc}]+/gu;

/** Full-width ASCII (U+FF01..U+FF5E), typed by some input methods, mapped to ASCII. */
const FULL_WIDTH = /[\uFF01-\uFF5E]/gu;

/** Thai digits ๐..๙ mean the same as 0..9. */
const THAI_DIGITS = /[\u0E50-\u0E59]/gu;

/**
 * Thai renders a tone mark after an upper vowel the same either way round, so people type both;
 * the canonical order is vowel first. Nikhahit + sara aa looks exactly like sara am.
 */
const TONE_BEFORE_VOWEL = /([\u0E48-\u0E4B])([\u0E31\u0E34-\u0E37\u0E47])/gu;
const SPLIT_SARA_AM = /\u0E4D([\u0E48-\u0E4B]?)\u0E32/gu;

/** Characters with nothing to say (soft hyphen, byte-order mark inside text). */
const INVISIBLE = /[\u00AD\uFEFF]/gu;

/** The ellipsis character that phones substitute for `...`; in a range it means `..`. */
const ELLIPSIS = /\u2026/gu;

/** Full-width ASCII and Thai digits as plain ASCII; the PromptPay id reader uses it on text that skips normalizeText. */
export function foldToAscii(text: string): string {
  return text.replace(FULL_WIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(THAI_DIGITS, (c) => String.fromCharCode(c.charCodeAt(0) - 0x0e50 + 0x30));
}

export function normalizeText(text: string): string {
  return foldToAscii(text.replace(INVISIBLE, "")).replace(TONE_BEFORE_VOWEL, "$2$1").replace(SPLIT_SARA_AM, "$1\u0E33").replace(ELLIPSIS, "..").replace(SEPARATORS, " ").trim();
}

/** One word of the text: as typed (for transRefs and echoing back) and lower-cased (for matching). */
export interface Token {
  raw: string;
  lower: string;
}

function toToken(raw: string): Token {
  return { raw, lower: raw.toLowerCase() };
}

const THAI_CHAR = /[\u0E00-\u0E7F]/u;

export function hasThai(text: string): boolean {
  return THAI_CHAR.test(text);
}

/**
 * Splits normalized text into tokens. Thai is written without spaces, so each known Thai keyword
 * also becomes a token of its own wherever it starts: `เมื่อวานซ้ำ` gives `เมื่อวาน`, `ซ้ำ` and `150บาท`
 * gives `150`, `บาท`. Keywords are Thai only, so ASCII words (a transRef) are never cut.
 * `keywordsLongestFirst` must be sorted longest first, so `เมื่อวานนี้` wins over `เมื่อวาน`; the caller
 * sorts once instead of on every message.
 */
export function tokenize(text: string, keywordsLongestFirst: readonly string[]): Token[] {
  const tokens: Token[] = [];
  for (const word of text.split(" ")) {
    if (word === "") continue;
    if (!hasThai(word)) {
      tokens.push(toToken(word));
      continue;
    }
    let pending = "";
    let i = 0;
    while (i < word.length) {
      const keyword = keywordsLongestFirst.find((k) => word.startsWith(k, i));
      if (keyword === undefined) {
        pending += word[i];
        i += 1;
        continue;
      }
      if (pending !== "") tokens.push(toToken(pending));
      pending = "";
      tokens.push(toToken(keyword));
      i += keyword.length;
    }
    if (pending !== "") tokens.push(toToken(pending));
  }
  return tokens;
}

const MAX_ECHO = 40;

/**
 * Shortens text echoed back in a usage reply (a 5,000-character word helps nobody), cutting on a
 * code point boundary.
 */
export function clip(text: string): string {
  const points = Array.from(text);
  return points.length <= MAX_ECHO ? text : `${points.slice(0, MAX_ECHO - 1).join("")}…`;
}
