// What staff and customers can ask the bot, as typed values: the output of the command parser.
import type { CalendarDate } from "../time/calendar.js";
import type { SlipStatus } from "../slip/types.js";

export type Lang = "th" | "en";

export type PromptPayIdType = "phone" | "citizen" | "ewallet";

/** A PromptPay id, normalised: `digits` is 10 digits starting with 0 (phone), 13 (citizen/tax id) or 15 (e-wallet). */
export interface PromptPayId {
  type: PromptPayIdType;
  digits: string;
}

/** Money inside the code is an integer number of satang (1 baht = 100 satang). */
export type Satang = number;

/** A calendar day (Gregorian) in the business time zone. */
export type { CalendarDate } from "../time/calendar.js";

/** A history range as staff said it; resolved to instants with the clock and the business time zone. */
export type RangeSpec =
  | { kind: "today" }
  | { kind: "yesterday" }
  | { kind: "days"; days: number } // `7d`, `7วัน`, `Nd`: the last N days up to and including today
  | { kind: "week" } // `week`, `อาทิตย์นี้`: Monday of this week to today
  | { kind: "lastweek" } // `อาทิตย์ที่แล้ว`: Monday to Sunday of the week before
  | { kind: "month" }
  | { kind: "lastmonth" }
  | { kind: "dates"; from: CalendarDate; to: CalendarDate }; // one date: from equals to

export type HistoryRequest = { by: "range"; range: RangeSpec; status?: SlipStatus; page: number } | { by: "ref"; transRef: string; page: number };

/** A summary of a range: figures over every check in it (optionally of one status). */
export interface SummaryRequest {
  range: RangeSpec;
  status?: SlipStatus;
}

/**
 * "Has it arrived?": valid checks of exactly this amount in `range` (today when absent), created after
 * `after` when given (a QR's time).
 */
export interface PaidRequest {
  amount: Satang;
  after?: Date;
  range?: RangeSpec;
}

/**
 * Each command's typed value, by its name. A command's folder adds its own entry beside its definition
 * (commands/<name>/command.ts, `declare module "../types.js"`), so a new command's type touches no shared
 * file; the registry holds every name to a definition as the bot starts.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- empty here: each command's folder fills it in
export interface CommandTypes {}

export type CommandName = keyof CommandTypes;
export type Command = CommandTypes[CommandName];

/** What was wrong with a command's arguments; rendered as a usage reply in the command's language. */
export type UsageProblem =
  | { code: "bad_amount"; input: string } // not a number, zero or negative
  | { code: "amount_decimals"; input: string } // more than 2 decimals
  | { code: "amount_too_large"; input: string } // above 9,999,999,999.99
  /** `digits`: how many digits it has, when it is only digits of the wrong count. */
  | { code: "bad_promptpay_id"; input: string; digits?: number }
  | { code: "bad_date"; input: string } // not written like a date
  | { code: "no_such_date"; input: string } // written like one, but the calendar has no such day (31/02)
  | { code: "range_too_long"; input: string; maxDays: number }
  | { code: "bad_page"; input: string }
  | { code: "missing_ref" }
  | { code: "missing_amount" } // `paid` without the amount
  | { code: "unexpected"; input: string }; // an argument that fits nothing

export type ParseFailure =
  | { kind: "usage"; lang: Lang; command: CommandName; problem: UsageProblem }
  /** Probably `command`, written out as `suggestion` with every detail understood: asked back, never run. */
  | { kind: "unsure"; lang: Lang; command: CommandName; suggestion: string; typed: string }
  | { kind: "unknown"; lang: Lang; word: string } // the first word is not a command
  | { kind: "empty"; lang: Lang };

/**
 * How a command was read (absent on a result: `documented`): `documented`, in the grammar of the help (a command word, then its arguments);
 * `natural`, by the reader from a message as people type it (an intent and its details); `talk`, a command
 * word that is also everyday talk, with only an ending (`ยอดค่ะ`), meant only where staff ask the bot alone.
 */
export type ReadHow = "documented" | "natural" | "talk";

/** Why a message was read as it was, for the debug log (commands/reader/read.ts). */
export interface ParseWhy {
  readonly intent: CommandName | "none";
  readonly score: number;
  readonly runnerUp: number;
  readonly words: readonly string[];
  readonly details: readonly string[];
  readonly unknown: number;
  readonly decided: string;
}

/** `bare`: the command word came alone, without arguments (`ยอด`, `help`), which in a group may be mere talk. */
export type ParseResult = { ok: true; command: Command; bare: boolean; how?: Exclude<ReadHow, "documented"> } | { ok: false; failure: ParseFailure };

/** A reading with why it was read so (the reader's, when the grammar did not read it alone). */
export interface ExplainedParse {
  readonly result: ParseResult;
  readonly why?: ParseWhy;
  /** The documented grammar's own answer, when `result` is read beyond it: what a place where it may not run gets. */
  readonly documented?: ParseResult;
}

/** What the parser needs besides the text: the clock and zone (for `20/11` = this year) and the default language. */
export interface ParseContext {
  now: Date;
  timeZone: string;
  defaultLang: Lang;
}
