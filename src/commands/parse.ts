// The command parser: message text to a typed command or a failure that says what was wrong (the README's Commands section).
import { dayOf } from "../time/calendar.js";
import type { Command, CommandName, Lang, ParseContext, ParseFailure, ParseResult, SummaryRequest, UsageProblem } from "./types.js";
import { clip, hasThai, normalizeText, tokenize, type Token } from "./normalize.js";
import { LEAD_INS, TALK_WORDS, THAI_COMMAND_WORDS, lookupCommandWord, type CommandWord } from "./registry.js";
import { QR_THAI_KEYWORDS, parseQrArgs } from "./parse-qr.js";
import { HISTORY_THAI_KEYWORDS, parseHistoryArgs } from "./parse-history.js";
import { PAID_THAI_KEYWORDS, parsePaidArgs } from "./parse-paid.js";

/** Longest first, as tokenize needs; sorted once here rather than on every message. */
const ARGUMENT_KEYWORDS: readonly string[] = [
  ...new Set([...QR_THAI_KEYWORDS, ...HISTORY_THAI_KEYWORDS, ...PAID_THAI_KEYWORDS, ...THAI_COMMAND_WORDS].map(normalizeText)),
].sort((a, b) => b.length - a.length);

/** English qr words may have the number glued on (`qr150`); other English words must stand alone (`h` in `hello`). */
const ENGLISH_GLUED_QR = /^(qr|pay|promptpay)([\d฿+].*)$/iu;
/** A glued remainder that starts like an argument (`คิวอาร์150`) rather than like more Thai words (`ประวัติศาสตร์`). */
const ARGUMENT_START = /^[\d฿+]/u;

/**
 * Endings people put after a command, glued or apart: polite ones (`เช็คยอด 150 ค่ะ`, `ขอคิวอาร์ 150
 * หน่อยครับ`) and the "yet?" of a question (`เช็คยอด 150 เข้ายังคะ`). No argument word ends like one, so
 * they are cut off the end of the arguments.
 */
const ENDINGS = /(?:\s*(?:ค่ะ|คะ|ค่า|ค้า|ครับ|คับ|ค้าบ|จ้า|จ้ะ|จ๊ะ|นะ|ให้หน่อย|ให้ด้วย|หน่อย|ด้วย|เข้าหรือยัง|เข้ารึยัง|เข้ายัง|หรือยัง|รึยัง|ยัง))+$/u;

type ArgsResult = { ok: true; command: Command } | { ok: false; problem: UsageProblem };

function failure(failure: ParseFailure): ParseResult {
  return { ok: false, failure };
}

/**
 * Commands without arguments. Another word of the same command is allowed, since Thai says
 * `ยอดคงเหลือ` or `เครดิตคงเหลือ` for "balance".
 */
function noArguments(tokens: readonly Token[], command: Command): ArgsResult {
  const extra = tokens.find((token) => lookupCommandWord(token.lower)?.name !== command.kind);
  return extra === undefined ? { ok: true, command } : { ok: false, problem: { code: "unexpected", input: extra.raw } };
}

function parseArguments(name: CommandName, lang: Lang, args: string, ctx: ParseContext): ArgsResult {
  switch (name) {
    case "qr": {
      const result = parseQrArgs(tokenize(args, ARGUMENT_KEYWORDS));
      if (!result.ok) return result;
      const command: Command = { kind: "qr", lang };
      if (result.id !== undefined) command.id = result.id;
      if (result.amount !== undefined) command.amount = result.amount;
      return { ok: true, command };
    }
    case "history": {
      // `A..B`, `A ..B` and `A.. B` all become three tokens.
      const spaced = args.replace(/ ?\.\. ?/gu, " .. ");
      const result = parseHistoryArgs(tokenize(spaced, ARGUMENT_KEYWORDS), dayOf(ctx.now, ctx.timeZone));
      return result.ok ? { ok: true, command: { kind: "history", lang, request: result.request } } : result;
    }
    case "summary":
    case "export": {
      const spaced = args.replace(/ ?\.\. ?/gu, " .. ");
      const result = parseHistoryArgs(tokenize(spaced, ARGUMENT_KEYWORDS), dayOf(ctx.now, ctx.timeZone));
      if (!result.ok) return result;
      // A summary has no pages and no reference: those words belong to `history`.
      if (result.request.by === "ref") return { ok: false, problem: { code: "unexpected", input: "ref" } };
      if (result.request.page !== 1) return { ok: false, problem: { code: "unexpected", input: `page ${result.request.page}` } };
      const request: SummaryRequest = { range: result.request.range };
      if (result.request.status !== undefined) request.status = result.request.status;
      return { ok: true, command: { kind: name, lang, request } };
    }
    case "paid": {
      const spaced = args.replace(/ ?\.\. ?/gu, " .. ");
      const result = parsePaidArgs(tokenize(spaced, ARGUMENT_KEYWORDS), dayOf(ctx.now, ctx.timeZone));
      return result.ok ? { ok: true, command: { kind: "paid", lang, request: result.request } } : result;
    }
    case "help": {
      const [topic, extra] = tokenize(args, ARGUMENT_KEYWORDS);
      if (topic === undefined) return { ok: true, command: { kind: "help", lang } };
      const found = lookupCommandWord(topic.lower.replace(/^[/!]/u, ""));
      if (found === undefined) return { ok: false, problem: { code: "unexpected", input: topic.raw } };
      if (extra !== undefined) return { ok: false, problem: { code: "unexpected", input: extra.raw } };
      return { ok: true, command: { kind: "help", lang, topic: found.name } };
    }
    case "balance":
      return noArguments(tokenize(args, ARGUMENT_KEYWORDS), { kind: "balance", lang });
    case "contact":
      return noArguments(tokenize(args, ARGUMENT_KEYWORDS), { kind: "contact", lang });
    case "id":
      return noArguments(tokenize(args, ARGUMENT_KEYWORDS), { kind: "id", lang });
  }
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

/**
 * Reads one message. Never throws. The reply language is the language of the command word; text
 * without one answers in Thai when it is written in Thai, else in `ctx.defaultLang`.
 */
export function parseCommand(text: string, ctx: ParseContext): ParseResult {
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
  const unknown = (said: string = first): ParseResult =>
    failure({ kind: "unknown", lang: hasThai(first) ? "th" : ctx.defaultLang, word: clip(said) });
  if (word === undefined) return unknown();

  const typed = (glued === "" ? rest : `${glued} ${rest}`).trim();
  const args = typed.replace(ENDINGS, "").trim();
  // `สลิปค่ะ`, `ยอด ค่ะ`, `เงินเข้ายังคะ`: a word of everyday talk about paying with nothing but an ending is
  // talk (a customer's "here is the slip"), unless a lead-in asked for it (`ขอยอดหน่อยค่ะ`). Other words
  // with an ending are meant (`คิวอาร์ค่ะ`, `โทเคนค่ะ`).
  if (args === "" && typed !== "" && !asked && TALK_WORDS.has(matched)) return unknown(body);
  const lang = asked ? "th" : word.lang;
  const result = parseArguments(word.name, lang, args, ctx);
  if (result.ok) return { ok: true, command: result.command, bare: args === "" };
  // `ประวัติศาสตร์` (the school subject) only starts like a command: it is not one.
  if (glued !== "" && !ARGUMENT_START.test(glued)) return unknown();
  return failure({ kind: "usage", lang, command: word.name, problem: clipProblem(result.problem) });
}
