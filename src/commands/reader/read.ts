// The one reader of a message as people type it: an intent scored from each command's words and question
// forms, plus the details found wherever they are. It says what to run, what to ask back, or that the message
// asks nothing of the bot, and why, for the log. Deterministic: the same text and day read the same.
import type { CalendarDate, CommandName, Lang, ParseWhy, RangeSpec, Satang } from "../types.js";
import { COMMAND_DEFINITIONS, COMMAND_NAMES, COMMANDS, commandWord } from "../registry.js";
import { STATUS_WORDS } from "../parse-history.js";
import { hasThai, normalizeText } from "../normalize.js";
import { closestCommand } from "../suggest.js";
import { FAMILIES, FILLERS, TALK, THANKS, type Family } from "./words.js";
import { wordsOf } from "./lexicon.js";
import { findDetails, type Details } from "./details.js";
import type { Piece } from "./tokens.js";

/** Why a message was read as it was: the intent, its score, the words and details that decided, the words not known. */
export type ReadingWhy = ParseWhy;

/**
 * `run`: the command `text` writes, understood with every detail; `ask`: the command it probably is, asked back
 * as `text` (the quick reply sends exactly it); `none`: it asks nothing of the bot, or nothing it can tell.
 */
export type Reading = { kind: "run" | "ask"; name: CommandName; text: string; lang: Lang; why: ReadingWhy } | { kind: "none"; why: ReadingWhy };

/** Enough to run; enough to ask back. */
const RUN_SCORE = 3;
const ASK_SCORE = 2;
/** A run needs a clear lead over the next command. */
const RUN_MARGIN = 2;
/** More unknown words than this and the message is talk, not a request. */
const MAX_UNKNOWN_TO_ASK = 3;

const lower = (word: string): string => normalizeText(word).toLowerCase();

/** Each word's weight for each command: its command words 3, its family as written in its words.ts. */
const WEIGHTS: ReadonlyMap<string, ReadonlyMap<CommandName, number>> = (() => {
  const table = new Map<string, Map<CommandName, number>>();
  const add = (word: string, name: CommandName, weight: number): void => {
    const entry = table.get(word) ?? new Map<CommandName, number>();
    entry.set(name, weight);
    table.set(word, entry);
  };
  for (const d of COMMAND_DEFINITIONS) {
    for (const word of [...d.words.th, ...d.words.en]) add(lower(word), d.name, 3);
    for (const [word, weight] of Object.entries(d.reading.family)) add(lower(word), d.name, weight);
  }
  return table;
})();

const FAMILY_OF: ReadonlyMap<string, readonly Family[]> = (() => {
  const table = new Map<string, Family[]>();
  for (const [family, words] of Object.entries(FAMILIES) as [Family, readonly string[]][]) {
    for (const word of words) table.set(lower(word), [...(table.get(lower(word)) ?? []), family]);
  }
  return table;
})();

/** Words that say nothing of what is asked: fillers, and the words that say what a number is. */
const QUIET = new Set([...FILLERS, "ๆ"].map(lower));
/** Question forms and "check"/"see" ask without saying what: any command may carry them. */
const ASKING: ReadonlySet<Family> = new Set(["yet", "check", "how_much", "how_many", "when"]);
/** A busy message (an order with its items) may carry a word or two the reader does not know, when it asks clearly. */
const CLEAR_QUESTION = 4;
const MAX_UNKNOWN_TO_RUN = 1;
/** The families that make a question (not just details side by side). */
const QUESTIONS: ReadonlySet<Family> = new Set(["come_in", "yet", "how_much", "how_many", "who", "when"]);
const TALK_SET = new Set(TALK.map(lower));
const THANKS_SET = new Set(THANKS.map(lower));

const none = (decided: string, partial: Partial<ReadingWhy> = {}): Reading => ({
  kind: "none",
  why: { intent: "none", score: 0, runnerUp: 0, words: [], details: [], unknown: 0, ...partial, decided },
});

/** The details each command has a place for, made once (a message is read on every group message). */
const TAKES: ReadonlyMap<CommandName, ReadonlySet<string>> = new Map(COMMAND_DEFINITIONS.map((d) => [d.name, new Set<string>(d.reading.takes)]));

/** Whether a command has a place for each detail found. */
function fits(name: CommandName, details: Details): boolean {
  const takes = TAKES.get(name) ?? new Set<string>();
  if ((details.amount !== undefined || details.amountChoices > 0 || details.badAmount) && !takes.has("amount")) return false;
  if (details.range !== undefined && !takes.has("range")) return false;
  if (details.status !== undefined && !takes.has("status")) return false;
  if (details.ref !== undefined && !takes.has("ref")) return false;
  if (details.id !== undefined && !takes.has("id")) return false;
  // A reference names one transfer: no days or status beside it.
  if (details.ref !== undefined && (details.range !== undefined || details.status !== undefined)) return false;
  return true;
}

/** `1500.5` baht as `1,500.50`, the way the bot writes an amount in a command. */
function amountText(satang: Satang): string {
  const baht = Math.floor(satang / 100);
  const rest = satang % 100;
  const whole = baht.toString().replace(/\B(?=(\d{3})+(?!\d))/gu, ",");
  return rest === 0 ? whole : `${whole}.${rest.toString().padStart(2, "0")}`;
}

const RANGE_TEXT: Readonly<Record<Lang, Readonly<Record<Exclude<RangeSpec["kind"], "days" | "dates">, string>>>> = {
  th: { today: "วันนี้", yesterday: "เมื่อวาน", week: "อาทิตย์นี้", lastweek: "อาทิตย์ที่แล้ว", month: "เดือนนี้", lastmonth: "เดือนที่แล้ว" },
  en: { today: "today", yesterday: "yesterday", week: "week", lastweek: "lastweek", month: "month", lastmonth: "lastmonth" },
};

/** A range as a command writes it: its word, `7วัน`, `20/11`, `1/11 ถึง 15/11` (with the year when not this one). */
function rangeText(range: RangeSpec, lang: Lang, today: CalendarDate): string {
  switch (range.kind) {
    case "days":
      return lang === "th" ? `${range.days}วัน` : `${range.days}d`;
    case "dates": {
      const date = (d: CalendarDate): string => (d.year === today.year ? `${d.day}/${d.month}` : `${d.day}/${d.month}/${d.year}`);
      if (range.from.year === range.to.year && range.from.month === range.to.month && range.from.day === range.to.day) return date(range.from);
      return `${date(range.from)}${lang === "th" ? " ถึง " : ".."}${date(range.to)}`;
    }
    default:
      return RANGE_TEXT[lang][range.kind];
  }
}

/** The command, with every detail understood, as the bot writes it: what runs, or what the quick reply sends. */
function commandText(name: CommandName, details: Details, lang: Lang, today: CalendarDate): string {
  const parts = [commandWord(name, lang)];
  if (details.ref !== undefined) parts.push(lang === "th" ? "อ้างอิง" : "ref", details.ref);
  if (details.id !== undefined) parts.push(details.id.digits);
  if (details.amount !== undefined) parts.push(amountText(details.amount));
  if (details.range !== undefined) parts.push(rangeText(details.range, lang, today));
  if (details.status !== undefined) parts.push(STATUS_WORDS[details.status][lang][0] ?? details.status);
  return parts.join(" ");
}

/** Whether a message says only thanks or please (with endings): staff get a warm word back. */
export function isThanks(text: string): boolean {
  const pieces = wordsOf(lower(text));
  return (
    pieces.some((p) => THANKS_SET.has(p.text)) &&
    pieces.every((p) => THANKS_SET.has(p.text) || QUIET.has(p.text) || p.text === "มาก" || p.text === "so" || p.text === "much" || p.text === "!")
  );
}

/** Reads `text`; `today` is the business day, for the days it names. */
export function readMessage(text: string, today: CalendarDate): Reading {
  const said = lower(text).replace(/^[/!] ?/u, "");
  const lang: Lang = hasThai(said) ? "th" : "en";
  // `!!qr`: a second command mark is no way of asking.
  if (/^[/!]/u.test(said)) return none("a second command mark");
  const pieces = wordsOf(said);
  if (pieces.length === 0) return none("empty");
  const talk = pieces.find((p) => TALK_SET.has(p.text));
  if (talk !== undefined) return none(`talk word ${talk.text}`);

  const details = findDetails(pieces, today);
  const scores = new Map<CommandName, number>();
  const deciding = new Map<CommandName, string[]>();
  const families = new Set<Family>();
  const unknown: Piece[] = [];
  /** Words that are neither filler nor a detail: each must be explained by the intent chosen. */
  const meaningful: Piece[] = [];
  const seen = new Set<string>();
  for (const [i, piece] of pieces.entries()) {
    if (details.used.has(i)) continue;
    const word = piece.text;
    const weights = WEIGHTS.get(word);
    const inFamilies = FAMILY_OF.get(word);
    for (const family of inFamilies ?? []) families.add(family);
    if (weights !== undefined && !seen.has(word)) {
      seen.add(word);
      for (const [name, weight] of weights) {
        scores.set(name, (scores.get(name) ?? 0) + weight);
        deciding.set(name, [...(deciding.get(name) ?? []), word]);
      }
    }
    if (QUIET.has(word)) continue;
    meaningful.push(piece);
    // Thanks are known words (the handlers answer them): no typo of a command to look for.
    if (weights === undefined && inFamilies === undefined && piece.kind !== "mark" && !THANKS_SET.has(word)) unknown.push(piece);
  }
  if (details.amount !== undefined || details.amountChoices > 0) families.add("amount");
  if (details.range !== undefined) families.add("range");
  if (details.status !== undefined) families.add("status");
  if (details.ref !== undefined) families.add("ref");

  // A typo of a command word (`ประวัต`, `เชคยอด`) points at it, with its details kept, but is only asked back.
  let typo = false;
  if (scores.size === 0 && unknown.length > 0) {
    // The segmenter cuts a misspelt word into pieces (`ประ|วัต`): the first unknown pieces that touch are one word.
    let touching = 1;
    while (unknown[touching] !== undefined && unknown[touching]?.start === unknown[touching - 1]?.end) touching += 1;
    const word = unknown
      .slice(0, touching)
      .map((p) => p.text)
      .join("");
    const meant = closestCommand(word);
    if (meant !== undefined) {
      scores.set(meant, ASK_SCORE);
      deciding.set(meant, [`~${word}`]);
      const typed = new Set(unknown.splice(0, touching));
      meaningful.splice(0, meaningful.length, ...meaningful.filter((p) => !typed.has(p)));
      typo = true;
    }
  }

  // Question forms: the best one of each command counts.
  const asked = new Map<CommandName, readonly Family[]>();
  for (const d of COMMAND_DEFINITIONS) {
    const matched = d.reading.questions.filter((q) => q.all.every((f) => families.has(f)));
    const best = matched.reduce((top, q) => (q.weight > top.weight ? q : top), { all: [] as readonly Family[], weight: 0 });
    if (best.weight > 0) {
      asked.set(d.name, best.all);
      scores.set(d.name, (scores.get(d.name) ?? 0) + best.weight);
      deciding.set(d.name, [...(deciding.get(d.name) ?? []), best.all.join("+")]);
    }
  }

  const ranked = COMMAND_NAMES.map((name) => ({ name, score: scores.get(name) ?? 0 }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score);
  const fitting = ranked.filter((r) => fits(r.name, details));
  const best = fitting[0];
  const runnerUp = fitting[1]?.score ?? 0;
  // Every word must be explained by the intent: one of its words, a family its question used, or a question form.
  const explained = (p: Piece): boolean =>
    best !== undefined && ((WEIGHTS.get(p.text)?.has(best.name) ?? false) || (FAMILY_OF.get(p.text) ?? []).some((f) => ASKING.has(f) || (asked.get(best.name) ?? []).includes(f)));
  const unexplained = meaningful.filter((p) => !explained(p));
  const why = (decided: string): ReadingWhy => ({
    intent: best?.name ?? "none",
    score: best?.score ?? 0,
    runnerUp,
    words: best === undefined ? [] : (deciding.get(best.name) ?? []),
    details: details.found,
    unknown: unexplained.length,
    decided,
  });
  if (best === undefined) return { kind: "none", why: why(ranked.length === 0 ? "no command's words" : "no command has a place for its details") };
  // A command named outright whose details are wrong is not silently another one (`ประวัติ 150`).
  const top = ranked[0];
  if (top !== undefined && top.name !== best.name && top.score >= RUN_SCORE && top.score > best.score)
    return { kind: "none", why: why(`${top.name} has no place for its details`) };
  if (details.badRange || details.badAmount) return { kind: "none", why: why("days or an amount that do not read") };

  const missingAmount = COMMANDS[best.name].reading.needsAmount && details.amount === undefined;
  const strongWord = (deciding.get(best.name) ?? []).some((w) => w.includes("+") || (WEIGHTS.get(w)?.get(best.name) ?? 0) >= RUN_SCORE);
  const hasDetail = details.found.some((f) => !f.startsWith("not_amount") && f !== "since");
  const text2 = (): string => commandText(best.name, details, lang, today);

  const question = asked.get(best.name) ?? [];
  const allowedUnknown = best.score >= CLEAR_QUESTION && question.some((f) => QUESTIONS.has(f)) ? MAX_UNKNOWN_TO_RUN : 0;
  if (!typo && !missingAmount && details.amountChoices === 0 && unexplained.length <= allowedUnknown && best.score >= RUN_SCORE && best.score - runnerUp >= RUN_MARGIN) {
    return { kind: "run", name: best.name, text: text2(), lang, why: why("run") };
  }
  if (
    best.score >= ASK_SCORE &&
    best.score > runnerUp &&
    (strongWord || hasDetail || typo) &&
    unexplained.length <= MAX_UNKNOWN_TO_ASK &&
    !(missingAmount && details.amountChoices === 0 && !typo)
  ) {
    return { kind: "ask", name: best.name, text: text2(), lang, why: why(typo ? "typo: asked back" : "unsure: asked back") };
  }
  return { kind: "none", why: why("not sure enough to ask") };
}
