// The command parser: message text to a typed command, a command to ask back, or a failure that says what was
// wrong. First the documented grammar (docs/commands.md: a command word, then its arguments, each
// command's own parser reading the rest); what it does not read, the reader (reader/) reads as people type it.
import { dayOf } from "../time/calendar.js";
import type { CommandName, ExplainedParse, ParseContext, ParseFailure, ParseResult, UsageProblem } from "./types.js";
import { clip, hasThai, normalizeText, tokenize } from "./normalize.js";
import { ARGUMENT_KEYWORDS, COMMANDS, LEAD_INS, TALK_WORDS, THAI_COMMAND_WORDS, lookupCommandWord, type CommandWord } from "./registry.js";
import type { ArgumentReader } from "./define.js";
import { wordsOf } from "./reader/lexicon.js";
import { readMessage } from "./reader/read.js";
import { FAMILIES } from "./reader/words.js";

/** English qr words may have the number glued on (`qr150`); other English words must stand alone (`h` in `hello`). */
const ENGLISH_GLUED_QR = /^(qr|pay|promptpay)([\d฿+].*)$/iu;
/** A glued remainder that starts like an argument (`คิวอาร์150`) rather than like more Thai words (`ประวัติศาสตร์`). */
const ARGUMENT_START = /^[\d฿+]/u;

/**
 * Words people put after a command, glued or apart: polite ones (`เช็คยอด 150 ค่ะ`, `ขอคิวอาร์ 150
 * หน่อยครับ`), the question of "yet?" (`เช็คยอด 150 เข้ายังคะ`, `…เข้ามั้ย`) and `ให้ลูกค้า` ("for the
 * customer"). No argument word is one, so whole words of these are cut off the end of the arguments.
 */
const ENDINGS: ReadonlySet<string> = new Set([
  ...["ค่ะ", "คะ", "ค่า", "ค้า", "ครับ", "คับ", "ค้าบ", "จ้า", "จ้ะ", "จ๊ะ", "นะ", "นะคะ", "นะครับ", "หน่อย", "หน่อยค่ะ", "ด้วย", "ให้", "ให้ลูกค้า", "ลูกค้า", "?"],
  ...FAMILIES.yet,
]);
/** "Come in", cut with the question after it: `150 เข้ายัง`, `150 เข้ามั้ย`. */
const COME_IN: ReadonlySet<string> = new Set(["เข้า", "เข้ามา", "โอนมา", "เข้าแล้ว"]);

/** `typed` without the endings at its end, cut between whole words (never `ค้า` off `ลูกค้า`). */
function withoutEndings(typed: string): string {
  const lower = typed.toLowerCase();
  if (lower.length !== typed.length) return typed;
  const pieces = wordsOf(lower);
  let cut = pieces.length;
  let asked = false;
  while (cut > 0) {
    const piece = pieces[cut - 1];
    if (piece === undefined) break;
    if (ENDINGS.has(piece.text)) asked ||= (FAMILIES.yet as readonly string[]).includes(piece.text);
    else if (!(asked && COME_IN.has(piece.text))) break;
    cut -= 1;
  }
  const end = cut === pieces.length ? typed.length : (pieces[cut]?.start ?? typed.length);
  return typed.slice(0, end).trim();
}

/** `150บ`, `150 บ`: an amount with the baht sign the grammar does not know. */
const BAHT_WITHOUT_DOT = /^\d[\d,]*(?:\.\d{1,2})?\s?บ$/u;

/**
 * Whether the reader's sure reading goes before the grammar's usage answer: it is another command (`ยอด 150`
 * is the payment check), or the grammar stopped at words the reader knows (`…เข้ามั้ย`, `…ให้ลูกค้า`), at days in
 * the bot's style or at `150บ`. A wrong amount, a day the calendar lacks, a page or a reference keeps its usage answer.
 */
function readsPast(failure: Extract<ParseFailure, { kind: "usage" }>, name: CommandName): boolean {
  if (name !== failure.command) return true;
  // Words it did not expect, or days in the bot's own style (`1-15 พ.ย.`), that the reader read whole.
  if (["unexpected", "bad_date", "no_such_date"].includes(failure.problem.code)) return true;
  return failure.problem.code === "bad_amount" && BAHT_WITHOUT_DOT.test(failure.problem.input);
}

/** What a command's parser reads its arguments with: the keywords of every command, today, the word table. */
function argumentReader(ctx: ParseContext): ArgumentReader {
  return { tokens: (text) => tokenize(text, ARGUMENT_KEYWORDS), today: dayOf(ctx.now, ctx.timeZone), lookup: lookupCommandWord };
}

function failure(failure: ParseFailure): ParseResult {
  return { ok: false, failure };
}

/** Echoed text never floods a reply. */
function clipProblem(problem: UsageProblem): UsageProblem {
  return "input" in problem ? { ...problem, input: clip(problem.input) } : problem;
}

/** Whether `text` starts with a command word, alone or with arguments glued on. */
function startsWithCommandWord(text: string): boolean {
  const first = text.split(" ")[0] ?? "";
  const lower = first.toLowerCase();
  return lookupCommandWord(first) !== undefined || THAI_COMMAND_WORDS.some((w) => lower.startsWith(w)) || ENGLISH_GLUED_QR.test(first);
}

/**
 * `ขอคิวอาร์ 150` is `คิวอาร์ 150`, `ขอดูประวัติ` is `ประวัติ`, `สร้าง QR` is `QR`: a lead-in is taken off
 * only when a command word follows, so `ขอบคุณ` and `ดูแล` stay as they are.
 */
function withoutLeadIn(body: string): string {
  for (const lead of LEAD_INS) {
    if (!body.startsWith(lead)) continue;
    const rest = withoutLeadIn(body.slice(lead.length).trimStart());
    if (startsWithCommandWord(rest)) return rest;
  }
  return body;
}

/** A talk word with an ending read as its command, with what it was before (talk: unknown). */
type Documented = ParseResult | (Extract<ParseResult, { ok: true }> & { talk: ParseResult });

/** The documented grammar: a command word (after a lead-in), then the command's arguments. */
function parseDocumented(text: string, ctx: ParseContext): Documented {
  const said = normalizeText(text).replace(/^[/!] ?/u, "");
  const body = withoutLeadIn(said);
  // `ขอ qr 150`, `สร้าง QR` are asked in Thai, so they are answered in Thai.
  const asked = body !== said;
  if (body === "") return failure({ kind: "empty", lang: ctx.defaultLang });

  const space = body.indexOf(" ");
  const first = space === -1 ? body : body.slice(0, space);
  const rest = space === -1 ? "" : body.slice(space + 1);

  let word: CommandWord | undefined = lookupCommandWord(first);
  let matched = first.toLowerCase();
  let glued = "";
  if (word === undefined) {
    // Thai runs words together: `ประวัติเมื่อวาน`, `คิวอาร์150`.
    const lower = first.toLowerCase();
    const thai = THAI_COMMAND_WORDS.find((w) => lower.startsWith(w));
    const english = ENGLISH_GLUED_QR.exec(first);
    if (thai !== undefined) {
      word = lookupCommandWord(thai);
      matched = thai;
      glued = first.slice(thai.length);
    } else if (english !== null) {
      word = lookupCommandWord(english[1] ?? "");
      glued = english[2] ?? "";
    }
  }
  const unknown = (said: string = first): ParseResult => failure({ kind: "unknown", lang: hasThai(first) ? "th" : ctx.defaultLang, word: clip(said) });
  if (word === undefined) return unknown();

  const typed = (glued === "" ? rest : `${glued} ${rest}`).trim();
  const args = withoutEndings(typed);
  const lang = asked ? "th" : word.lang;
  // `สลิปค่ะ`, `ยอด ค่ะ`, `เงินเข้ายังคะ`: a word of everyday talk about paying with nothing but an ending is
  // talk (a customer's "here is the slip") unless a lead-in asked for it (`ขอยอดหน่อยค่ะ`); staff asking the
  // bot alone mean it. Other words with an ending are meant (`คิวอาร์ค่ะ`, `โทเคนค่ะ`).
  const talk = args === "" && typed !== "" && !asked && TALK_WORDS.has(matched);
  const result = COMMANDS[word.name].parse(args, lang, argumentReader(ctx));
  if (talk) {
    // Only a request for the shop's own figures (`ยอดค่ะ`, `สลิปค่ะ`) may be meant so; `จ่ายค่ะ` is a customer's.
    return result.ok && COMMANDS[word.name].audience === "staff" ? { ok: true, command: result.command, bare: true, how: "talk", talk: unknown(body) } : unknown(body);
  }
  if (result.ok) return { ok: true, command: result.command, bare: args === "" };
  // `ประวัติศาสตร์` (the school subject) only starts like a command: it is not one.
  if (glued !== "" && !ARGUMENT_START.test(glued)) return unknown();
  return failure({ kind: "usage", lang, command: word.name, problem: clipProblem(result.problem) });
}

/**
 * Reads one message, and says why. Never throws. The documented grammar first; what it does not read (or reads
 * as a mistake) the reader reads for an intent and its details: run when sure, asked back when not, else the
 * grammar's answer stands. The reply language is the language of the command word; text without one answers
 * in Thai when it is written in Thai, else in `ctx.defaultLang`.
 */
export function explainCommand(text: string, ctx: ParseContext): ExplainedParse {
  const documented = parseDocumented(text, ctx);
  if ("talk" in documented) {
    const { talk, ...result } = documented;
    return { result, documented: talk };
  }
  if (documented.ok || documented.failure.kind === "empty") return { result: documented };
  const reading = readMessage(text, dayOf(ctx.now, ctx.timeZone));
  if (reading.kind === "none") return { result: documented, why: reading.why };
  // A command word with arguments the grammar says are wrong: its usage answer says which, better than a guess;
  // only a reading sure of every word (`ยอด 150`, `คิวอาร์ 150บ`, `เช็คยอด 150 เข้ามั้ย`) goes before it.
  if (documented.failure.kind === "usage" && !(reading.kind === "run" && readsPast(documented.failure, reading.name))) {
    return { result: documented, why: { ...reading.why, decided: "usage answer kept" } };
  }
  const written = parseDocumented(reading.text, ctx);
  // What the reader writes is in the grammar; should it ever not be, the grammar's answer stands.
  if (!written.ok) return { result: documented, why: { ...reading.why, decided: "written command did not parse" } };
  if (reading.kind === "run") return { result: { ok: true, command: written.command, bare: false, how: "natural" }, why: reading.why, documented };
  return {
    result: { ok: false, failure: { kind: "unsure", lang: reading.lang, command: reading.name, suggestion: reading.text, typed: clip(normalizeText(text)) } },
    why: reading.why,
  };
}

/** Reads one message (explainCommand, without the why). */
export function parseCommand(text: string, ctx: ParseContext): ParseResult {
  return explainCommand(text, ctx).result;
}
