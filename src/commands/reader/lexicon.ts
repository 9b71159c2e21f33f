// Every word the reader knows, from the commands' words.ts files, the shared words and the range reader's:
// the segmenter's pieces are joined back into these.
import { COMMAND_DEFINITIONS } from "../registry.js";
import { normalizeText } from "../normalize.js";
import { DAY_UNITS, DAYS_AGO, MONTH_BY_NAME, RANGE_SEPARATORS, RANGE_WORDS, REF_WORDS, STATUS_BY_WORD } from "../parse-history.js";
import { CURRENCY, FAMILIES, FILLERS, NOT_AMOUNT_AFTER, NOT_AMOUNT_BEFORE, TALK, THANKS, TOTAL_BEFORE } from "./words.js";
import { cutWords, type Piece } from "./tokens.js";

const lower = (word: string): string => normalizeText(word).toLowerCase();

/** Words only the joining needs: `วันที่ 20`, `ตั้งแต่`, `เดือน`, `ไม้ยมก` and the like. */
const JOINING: readonly string[] = ["วันที่", "ตั้งแต่", "เดือน", "ๆ", "การ", "ล่าสุด", "ที่แล้ว", "ก่อน"];

export const LEXICON: ReadonlySet<string> = new Set(
  [
    ...COMMAND_DEFINITIONS.flatMap((d) => [...d.words.th, ...d.words.en, ...Object.keys(d.reading.family)]),
    ...Object.values(FAMILIES).flat(),
    ...FILLERS,
    ...CURRENCY,
    ...TOTAL_BEFORE,
    ...NOT_AMOUNT_BEFORE,
    ...NOT_AMOUNT_AFTER,
    ...TALK,
    ...THANKS,
    ...RANGE_WORDS.keys(),
    ...DAYS_AGO.keys(),
    ...MONTH_BY_NAME.keys(),
    ...STATUS_BY_WORD.keys(),
    ...REF_WORDS,
    ...DAY_UNITS,
    ...RANGE_SEPARATORS,
    ...JOINING,
  ].map(lower),
);

/** A message's words: normalized, lower case, cut with the reader's lexicon; positions are into `text`. */
export function wordsOf(text: string): Piece[] {
  return cutWords(text, LEXICON);
}
