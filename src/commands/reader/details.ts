// The details of a message, wherever they are in it: the amount (in all the ways money is written), the days
// (words, dates, the bot's own `20 พ.ย.` and `1-15 พ.ย.`, `วันที่ 20`, Buddhist-era years), a status, a transfer
// reference, a PromptPay id; and the numbers that are none of these (an order number, a count, a time, a fee).
import type { CalendarDate, PromptPayId, RangeSpec, Satang } from "../types.js";
import type { SlipStatus } from "../../slip/types.js";
import type { Token } from "../normalize.js";
import { parseAmount } from "../amount.js";
import { parsePromptPayId } from "../promptpay-id.js";
import { DAY_UNITS, DAYS_AGO, MONTH_BY_NAME, PAGE_WORDS, RANGE_SEPARATORS, RANGE_WORDS, REF_WORDS, STATUS_BY_WORD, isTransRef, parseRangeArgs } from "../parse-history.js";
import { CURRENCY, NOT_AMOUNT_AFTER, NOT_AMOUNT_BEFORE, TOTAL_BEFORE } from "./words.js";
import type { Piece } from "./tokens.js";

/** How sure a number is the amount: marked as money (`฿150`, `150บ`, `150.-`), after a total's word, or plain. */
export type AmountStrength = "money" | "total" | "plain";

export interface Details {
  /** The amount meant, when one number is it. */
  amount?: Satang;
  /** Numbers that could each be the amount, with nothing to choose between them. */
  amountChoices: number;
  /** A number that looks like an amount but is none (`0`, three decimals). */
  badAmount: boolean;
  range?: RangeSpec;
  /** Days written in a way that makes no range (`31/02`), a page, two statuses: the message is not read for a command. */
  badRange: boolean;
  status?: SlipStatus;
  ref?: string;
  id?: PromptPayId;
  /** The pieces that are details or belong to one (`บาท`, `ถึง`, `#`): the rest are words. */
  used: ReadonlySet<number>;
  /** What was found, for the log: `amount`, `range:yesterday`, `not_amount:14:30`... */
  found: string[];
}

const CURRENCY_SET = new Set(CURRENCY);
const TOTAL_SET = new Set(TOTAL_BEFORE);
const NOT_BEFORE = new Set(NOT_AMOUNT_BEFORE);
const NOT_AFTER = new Set(NOT_AMOUNT_AFTER);
/** English month names are English words too (`may I`): a month only beside a number. */
const LATIN = /^[a-z]/u;
const PLAIN_NUMBER = /^\d+$/u;
const AMOUNT_TEXT = /^(\d[\d,]*(?:\.\d+)?)(\.-|-)?$/u;
const DATE_TEXT = /^\d{1,4}[/-]\d{1,2}(?:[/-]\d{2,4})?$/u;
const DAY_SPAN = /^(\d{1,2})[-\u2013](\d{1,2})$/u;
/** `14:30`; `14.30` is a time only with `น.` after it (NOT_AMOUNT_AFTER), else it may be an amount. */
const TIME_TEXT = /^\d{1,2}:\d{2}$/u;
/** Words around a day of the month: `วันที่ 20`. */
const DAY_WORDS = new Set(["วันที่", "วัน"]);
/** "since" before one date: from it to today. */
const SINCE = new Set(["ตั้งแต่", "since", "from"]);
const ENGLISH_RANGE_PAIRS = new Map([
  ["last week", "lastweek"],
  ["last month", "lastmonth"],
  ["this week", "thisweek"],
  ["this month", "thismonth"],
]);

const token = (raw: string): Token => ({ raw, lower: raw.toLowerCase() });

/** The month's name as the range reader knows it (`พ.ย` typed without its last dot is `พ.ย.`). */
function monthName(piece: Piece | undefined): string | undefined {
  if (piece === undefined) return undefined;
  if (MONTH_BY_NAME.has(piece.text)) return piece.text;
  const dotted = `${piece.text}.`;
  return piece.text.includes(".") && MONTH_BY_NAME.has(dotted) ? dotted : undefined;
}

function monthOf(piece: Piece | undefined): number | undefined {
  const name = monthName(piece);
  return name === undefined ? undefined : MONTH_BY_NAME.get(name);
}

/** A year after a month (`2569`, `69`, `2026`), for the date it ends. */
function yearAfter(piece: Piece | undefined): string | undefined {
  return piece !== undefined && piece.kind === "number" && /^(?:\d{2}|\d{4})$/u.test(piece.text) ? piece.text : undefined;
}

/** The details of `pieces`. `today` (the business zone) is for dates without their year and `วันที่ 20`. */
export function findDetails(pieces: readonly Piece[], today: CalendarDate): Details {
  const used = new Set<number>();
  const found: string[] = [];
  const rangeTokens: Token[] = [];
  const candidates: { satang: Satang; strength: AmountStrength; at: number }[] = [];
  let badAmount = false;
  let unreadable = false;
  let status: SlipStatus | undefined;
  let ref: string | undefined;
  let id: PromptPayId | undefined;
  const at = (i: number): Piece | undefined => pieces[i];
  const text = (i: number): string => at(i)?.text ?? "";
  const thisMonth = (day: string): string => {
    // `วันที่ 25` on the 22nd is most likely last month's 25th: no day to come has slips.
    const month = Number(day) > today.day ? (today.month === 1 ? 12 : today.month - 1) : today.month;
    const year = Number(day) > today.day && today.month === 1 ? today.year - 1 : today.year;
    return `${day}/${month}/${year}`;
  };

  for (let i = 0; i < pieces.length; i++) {
    const piece = at(i);
    if (piece === undefined || used.has(i)) continue;
    const word = piece.text;

    // A reference: after its word, or a code of letters and digits.
    if (REF_WORDS.has(word) && (at(i + 1)?.kind === "latin" || at(i + 1)?.kind === "number") && isTransRef(pieces[i + 1]?.text.toUpperCase() ?? "")) {
      if (ref !== undefined) unreadable = true;
      ref = (at(i + 1)?.text ?? "").toUpperCase();
      used.add(i).add(i + 1);
      found.push("ref");
      i += 1;
      continue;
    }
    if (piece.kind === "latin" && /\d/u.test(word) && /[a-z]/u.test(word) && word.length >= 10 && isTransRef(word)) {
      ref = word.toUpperCase();
      used.add(i);
      found.push("ref");
      continue;
    }

    // Pages are the buttons' (the grammar reads them); two statuses, or two references, say two things at once.
    if (PAGE_WORDS.has(word) && at(i + 1)?.kind === "number") {
      unreadable = true;
      continue;
    }
    const statusOf = STATUS_BY_WORD.get(word);
    if (statusOf !== undefined && !(piece.kind === "latin" && word === "ok")) {
      if (status !== undefined && status !== statusOf) unreadable = true;
      status = statusOf;
      used.add(i);
      found.push(`status:${statusOf}`);
      continue;
    }

    // Days as words: `วันนี้`, `เมื่อวาน`, `เดือนนี้`, `last week`.
    const pair = ENGLISH_RANGE_PAIRS.get(`${word} ${text(i + 1)}`);
    if (pair !== undefined) {
      rangeTokens.push(token(pair));
      used.add(i).add(i + 1);
      i += 1;
      continue;
    }
    if (RANGE_WORDS.has(word) || DAYS_AGO.has(word)) {
      rangeTokens.push(token(word));
      used.add(i);
      continue;
    }
    if (word === "เดือน" && monthOf(at(i + 1)) !== undefined) {
      used.add(i);
      continue;
    }
    const month = monthOf(piece);
    if (month !== undefined && !(LATIN.test(word) && at(i - 1)?.kind !== "number" && at(i + 1)?.kind !== "number")) {
      // A month alone (`ยอด พ.ย.`): the whole month, with its year when one follows.
      const year = yearAfter(at(i + 1));
      rangeTokens.push(token(monthName(piece) ?? word));
      used.add(i);
      if (year !== undefined) {
        rangeTokens.push(token(year));
        used.add(i + 1);
        i += 1;
      }
      continue;
    }
    if (RANGE_SEPARATORS.has(word) && rangeTokens.length > 0 && (DATE_TEXT.test(text(i + 1)) || monthOf(at(i + 2)) !== undefined || DAY_WORDS.has(text(i + 1)))) {
      rangeTokens.push(token(word === "~" || word === "\u2013" || word === "\u2014" ? "-" : word));
      used.add(i);
      continue;
    }
    if (SINCE.has(word) && (at(i + 1)?.kind === "number" || DAY_WORDS.has(text(i + 1)))) {
      used.add(i);
      found.push("since");
      continue;
    }

    if (piece.kind !== "number") continue;

    // The bot's own style typed back: `20 พ.ย.`, `1-15 พ.ย.`, `20 พ.ย. 2569`; `วันที่ 20`.
    const span = DAY_SPAN.exec(word);
    const monthNext = monthOf(at(i + 1));
    if ((PLAIN_NUMBER.test(word) || span !== null) && monthNext !== undefined) {
      const year = yearAfter(at(i + 2));
      const suffix = `/${monthNext}${year === undefined ? "" : `/${year}`}`;
      if (span !== null) rangeTokens.push(token(`${span[1] ?? ""}${suffix}`), token("-"), token(`${span[2] ?? ""}${suffix}`));
      else rangeTokens.push(token(`${word}${suffix}`));
      used.add(i).add(i + 1);
      if (year !== undefined) used.add(i + 2);
      i += year === undefined ? 1 : 2;
      continue;
    }
    if (DAY_WORDS.has(text(i - 1)) && text(i - 1) === "วันที่" && (PLAIN_NUMBER.test(word) || span !== null) && Number(span?.[2] ?? word) <= 31) {
      if (span !== null) rangeTokens.push(token(thisMonth(span[1] ?? "")), token("-"), token(thisMonth(span[2] ?? "")));
      else rangeTokens.push(token(thisMonth(word)));
      used.add(i - 1).add(i);
      continue;
    }
    if (DATE_TEXT.test(word) && !TIME_TEXT.test(word)) {
      rangeTokens.push(token(word));
      used.add(i);
      continue;
    }
    // `7 วัน`, `7วันล่าสุด`, `30 days`: the last days.
    if (PLAIN_NUMBER.test(word) && DAY_UNITS.has(text(i + 1)) && text(i + 2) !== "ที่") {
      rangeTokens.push(token(word), token("วัน"));
      used.add(i).add(i + 1);
      i += 1;
      continue;
    }

    // A PromptPay id: a phone, citizen or e-wallet number, dashes and all.
    const asId = /^[\d-]+$/u.test(word) && word.replace(/-/gu, "").length >= 10 ? parsePromptPayId(word) : undefined;
    if (asId !== undefined) {
      id = asId;
      used.add(i);
      found.push(`id:${asId.type}`);
      continue;
    }

    // Numbers that are no amount: a time, an order or table number, a fee, a count, a page.
    const before = text(i - 1);
    const after = text(i + 1);
    if (TIME_TEXT.test(word) || NOT_BEFORE.has(before) || (NOT_AFTER.has(after) && !CURRENCY_SET.has(after))) {
      used.add(i);
      if (NOT_BEFORE.has(before)) used.add(i - 1);
      // `ออเดอร์ #1024`: the word before the `#` says the same.
      if (before === "#" && NOT_BEFORE.has(text(i - 2))) used.add(i - 2);
      if (NOT_AFTER.has(after)) used.add(i + 1);
      // Only a word of the lists is named (the debug log shows these): a time's neighbour is whatever was typed.
      const why = NOT_AFTER.has(after) ? after : NOT_BEFORE.has(before) ? before : "time";
      found.push(`not_amount:${before === "#" && NOT_BEFORE.has(text(i - 2)) ? "#" : ""}${why}`);
      continue;
    }

    const amount = AMOUNT_TEXT.exec(word);
    if (amount === null) {
      badAmount = true;
      continue;
    }
    const read = parseAmount(amount[1] ?? "");
    used.add(i);
    if (!read.ok) {
      badAmount = true;
      continue;
    }
    let strength: AmountStrength = amount[2] !== undefined ? "money" : "plain";
    if (before === "฿") {
      strength = "money";
      used.add(i - 1);
    }
    if (CURRENCY_SET.has(after)) {
      strength = "money";
      used.add(i + 1);
    }
    if (strength === "plain" && TOTAL_SET.has(before)) strength = "total";
    candidates.push({ satang: read.satang, strength, at: i });
  }

  // A lone `฿` or currency word with no number beside it says nothing more.
  const details: Details = { amountChoices: 0, badAmount, badRange: unreadable, used, found };
  const pick = pickAmount(candidates);
  if (pick !== undefined) {
    details.amount = pick;
    found.push("amount");
  } else if (candidates.length > 1) {
    details.amountChoices = candidates.length;
    found.push(`amounts:${candidates.length}`);
  }
  if (rangeTokens.length > 0) {
    const since = found.includes("since") && rangeTokens.length === 1;
    const range = parseRangeArgs(since ? [...rangeTokens, token("-"), token(`${today.day}/${today.month}/${today.year}`)] : rangeTokens, today);
    if (range.ok) {
      details.range = range.range;
      found.push(`range:${range.range.kind}`);
    } else {
      details.badRange = true;
      found.push("bad_range");
    }
  }
  if (status !== undefined) details.status = status;
  if (ref !== undefined) details.ref = ref;
  if (id !== undefined) details.id = id;
  return details;
}

/** The amount among the numbers: the one marked as money, else after a total's word, else the only one. */
function pickAmount(candidates: readonly { satang: Satang; strength: AmountStrength }[]): Satang | undefined {
  for (const strength of ["money", "total", "plain"] as const) {
    const these = candidates.filter((c) => c.strength === strength);
    if (these.length === 1) return these[0]?.satang;
    if (these.length > 1) return new Set(these.map((c) => c.satang)).size === 1 ? these[0]?.satang : undefined;
  }
  return undefined;
}
