// What a person probably meant: the command a typo (English or Thai) is closest to, and whether text is a greeting.
import type { CommandName } from "./types.js";
import { COMMAND_NAMES, COMMANDS, LEAD_INS } from "./registry.js";
import { hasThai, normalizeText } from "./normalize.js";
import { wordsOf } from "./reader/lexicon.js";
import { FILLERS, TALK } from "./reader/words.js";

/**
 * Edit distance with adjacent swaps counted as one edit (`histroy` is one edit from `history`), for
 * short words only; gives up past `limit`.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...Array.from({ length: b.length }, (_, j) => (i === 0 ? j + 1 : 0))]);
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] ?? [];
    const above = rows[i - 1] ?? [];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row[j] = best;
    }
  }
  return rows[a.length]?.[b.length] ?? limit + 1;
}

/** English command words long enough that a near miss is a typo, not another word (`h`, `id`, `qr` are not). */
const TYPO_TARGETS: readonly { word: string; name: CommandName }[] = COMMAND_NAMES.flatMap((name) =>
  COMMANDS[name].words.en.filter((word) => word.length >= 4).map((word) => ({ word, name })),
);

/** Every Thai command word, longest first, so `ยอดคงเหลือค่ะ` is read as `ยอดคงเหลือ` rather than `ยอด`. */
const THAI_WORDS: readonly { word: string; name: CommandName }[] = COMMAND_NAMES.flatMap((name) =>
  COMMANDS[name].words.th.map((word) => ({ word: normalizeText(word), name })),
).sort((a, b) => b.word.length - a.word.length);

/** Vowel and tone marks written above or below a letter: the ones a quick typist drops or swaps. */
const THAI_MARKS = /[\u0E31\u0E34-\u0E3A\u0E47-\u0E4E]/gu;

function withoutMarks(word: string): string {
  return word.replace(THAI_MARKS, "");
}

/**
 * Thai command words long enough that a near miss is a typo (three letters, `ยอด`, are one edit from
 * many words), compared by their letters alone: a missing or wrong mark (`เชคยอด`, `ประวัต`) costs nothing.
 */
const THAI_TYPO_TARGETS = THAI_WORDS.filter((target) => target.word.length >= 4).map((target) => ({ ...target, word: withoutMarks(target.word) }));

/** The Thai letters a word starts with (`เชคยอด150` gives `เชคยอด`). */
const THAI_RUN = /^[\u0E00-\u0E7F]+/u;

/** The one command closest to `typed` among `targets`, within `limit` edits. */
function closest(typed: string, targets: readonly { word: string; name: CommandName }[], limit: number): CommandName | undefined {
  let best: { distance: number; names: Set<CommandName> } = { distance: limit + 1, names: new Set() };
  for (const target of targets) {
    const distance = editDistance(typed, target.word, limit);
    if (distance < best.distance) best = { distance, names: new Set([target.name]) };
    else if (distance === best.distance) best.names.add(target.name);
  }
  if (best.distance > limit || best.names.size !== 1) return undefined;
  return [...best.names][0];
}

/** What may follow a command word and leave it the command: endings, "please", the amount. */
const QUIET = new Set(FILLERS);
const TALK_WORDS = new Set(TALK);

/** A Thai typo of a command word: marks aside, one edit for words of up to 5 letters, two for longer ones; never 3 letters. */
function thaiTypo(word: string): CommandName | undefined {
  const typed = withoutMarks(THAI_RUN.exec(word)?.[0] ?? "");
  // Three letters are one edit from too many words (`เงิน` and `เมนู` share `เ?น`).
  if (typed.length < 4 || typed.length > 30) return undefined;
  return closest(typed, THAI_TYPO_TARGETS, typed.length <= 5 ? 1 : 2);
}

/**
 * The command Thai text was probably meant as: a command word with only endings or an amount glued on
 * (`ยอดค่ะ`, `ประวัติหน่อย`, `เชคยอด150`), or a typo of one (`เชคยอด`, `ประวัต`). Everyday words that start
 * like one (`เช็คบิล`, `เช็คอิน`, `ยอดเยี่ยม`) are none.
 */
function suggestThai(text: string): CommandName | undefined {
  // A lead-in (`ขอ`, "may I have") in front only asks; it is not part of the word.
  const typedFirst = normalizeText(text).toLowerCase().split(" ")[0] ?? "";
  const lead = LEAD_INS.find((word) => typedFirst.startsWith(word) && typedFirst.length >= word.length + 3);
  const first = lead === undefined ? typedFirst : typedFirst.slice(lead.length);
  const pieces = wordsOf(first);
  if (pieces.some((p) => TALK_WORDS.has(p.text))) return undefined;
  const started = THAI_WORDS.find((target) => first.startsWith(target.word));
  if (started !== undefined && wordsOf(first.slice(started.word.length)).every((p) => QUIET.has(p.text) || p.kind === "number")) return started.name;
  return thaiTypo(first);
}

/** The command one typed word is a typo of (the reader's: no glued words, no lead-ins), if exactly one is that close. */
export function closestCommand(word: string): CommandName | undefined {
  if (hasThai(word)) return thaiTypo(word);
  return suggestCommand(word);
}

/**
 * The command a word is a typo of. English: one edit away for words of up to 5 letters, two for
 * longer ones, and only when a single command is that close. Thai: see suggestThai.
 */
export function suggestCommand(word: string): CommandName | undefined {
  if (hasThai(word)) return suggestThai(word);
  const typed = word.toLowerCase();
  if (!/^[a-z]{3,20}$/u.test(typed)) return undefined;
  // A command word itself is no typo.
  if (TYPO_TARGETS.some((target) => target.word === typed)) return undefined;
  return closest(typed, TYPO_TARGETS, typed.length <= 5 ? 1 : 2);
}

const GREETINGS = /^(?:(?:hello|hi|hey|hiya|good (?:morning|afternoon|evening))(?![a-z])|สวัสดี|หวัดดี|ดีค่ะ|ดีครับ|ดีจ้า)/u;

/** `hello`, `hi there`, `สวัสดีครับ`, `หวัดดีค่ะ`: a greeting rather than a request. */
export function isGreeting(text: string): boolean {
  return GREETINGS.test(normalizeText(text).toLowerCase());
}
