// What a command is, defined in one place: its words, usage, parser, texts and the audience of each answer it
// makes. defineCommand checks one definition as its module loads; the registry checks them together. Its handler
// is named in the router's table (handlers/routes.ts), above the renderers this layer is read by.
import type { CalendarDate } from "../time/calendar.js";
import type { Command, CommandName, Lang, UsageProblem } from "./types.js";
import type { Token } from "./normalize.js";
import type { Family } from "./reader/words.js";

/**
 * A command's words (its folder's words.ts, pure data): the words that start it, and the words and question
 * forms that point at it anywhere in a message, which the reader (commands/reader/) scores.
 */
export interface CommandWords {
  /**
   * Words that start the command, lower case; the first of each language is the one the bot writes.
   * The Thai words and why each is there: docs/thai.md, section 2.
   */
  readonly command: Readonly<Record<Lang, readonly string[]>>;
  /**
   * Other words and compounds that point at it anywhere in a message, by weight: 3 names it, 2 points at it
   * (asked back, never run, when nothing else says more), 1 leans. Its command words weigh 3 unless listed.
   */
  readonly family: Readonly<Record<string, number>>;
  /** Question forms: families (commands/reader/words.ts) or details found together, and their weight. */
  readonly questions: readonly { readonly all: readonly Family[]; readonly weight: number }[];
  /** The details it has a place for; a message with another is not this command. */
  readonly takes: readonly ("amount" | "range" | "status" | "ref" | "id")[];
  /** It cannot run without an amount (`paid`). */
  readonly needsAmount: boolean;
}

/** Who may read an answer: `public` (anyone, customers too) or `staff` (staff places only). */
export type AnswerAudience = "public" | "staff";

export interface CommandWord {
  readonly name: CommandName;
  readonly lang: Lang;
}

/** What a command's parser is given besides its arguments' text. */
export interface ArgumentReader {
  /** Splits the arguments into tokens, every Thai keyword and command word cut out of glued text. */
  tokens(text: string): Token[];
  /** Today in the business time zone, for a date without its year (`20/11`). */
  readonly today: CalendarDate;
  /** The command a word starts, for arguments that name a command (`help history`). */
  lookup(word: string): CommandWord | undefined;
}

export type ArgsResult<C extends Command = Command> = { ok: true; command: C } | { ok: false; problem: UsageProblem };

/** Each answer kind a command makes, with who may read it. */
export type AnswerKinds = Readonly<Record<string, AnswerAudience>>;

export interface MenuLabel {
  /** Thai, large. */
  readonly label: string;
  /** English, under it. */
  readonly sub: string;
}

/** A command as the registry holds it; CommandDefinition is the same with its own name, command and kinds typed. */
export interface CommandInfo {
  readonly name: CommandName;
  /**
   * Words that start the command, lower case; the first of each language is the one the bot writes.
   * The Thai words and why each is there: docs/thai.md, section 2.
   */
  readonly words: Readonly<Record<Lang, readonly string[]>>;
  /** Its words as the reader scores them (its folder's words.ts); `words` is their `command`. */
  readonly reading: CommandWords;
  /**
   * How to type it, one line each: in Thai two or three real commands to copy (shop staff read
   * examples, not notation), in English the argument pattern. Every Thai line parses (a test checks).
   */
  readonly usage: Readonly<Record<Lang, readonly string[]>>;
  /** One command a person can copy; it parses to a command (a test checks this). */
  readonly example: Readonly<Record<Lang, string>>;
  /** What it does, one short line. */
  readonly description: Readonly<Record<Lang, string>>;
  /**
   * Who it is for. `staff`: it shows the shop's private data (its checks, tokens, package), so only
   * staff see it, and only in a 1:1 chat or a staff group. `everyone`: customers may use it too.
   */
  readonly audience: "staff" | "everyone";
  /**
   * Whether its word alone, unaddressed, is acted on in a customer group. Most command words are also
   * everyday words there (`เมนู`, `?`, `ยอด`, `สลิป`, `จ่ายเงิน`): alone they are talk, with arguments
   * (`qr 150`) or with a mention they are meant. `id` alone is how the owner learns a group's id.
   */
  readonly bareInCustomerGroup: boolean;
  /** Thai words of its arguments the tokenizer must cut out of glued text (`เมื่อวานซ้ำ`, `150บาท`). */
  readonly keywords: readonly string[];
  /** Reads the arguments (the text after the command word, endings cut off) in the language of the word. */
  readonly parse: (args: string, lang: Lang, reader: ArgumentReader) => ArgsResult;
  /** The answers it makes, each with who may read it; privacy/answer.ts seals them by this. */
  readonly kinds: AnswerKinds;
  /** Its rich-menu button for each role that has one: the Thai label, and the English under it. */
  readonly menu?: Readonly<Partial<Record<"staff" | "customer", MenuLabel>>>;
  /** What it says in its own words, the same entries in both languages; the shared table has the rest. */
  readonly texts?: Readonly<Record<Lang, object>>;
}

/**
 * A command's handler (its folder's handle.ts): it takes its own command, then what the router gives every
 * handler (the chat, the bot's parts; handlers/context.ts, a layer above this one).
 */
export type CommandHandler<N extends CommandName> = (command: Extract<Command, { kind: N }>, ...context: never[]) => Promise<unknown>;

export interface CommandDefinition<N extends CommandName, A extends AnswerKinds> extends CommandInfo {
  readonly name: N;
  readonly parse: (args: string, lang: Lang, reader: ArgumentReader) => ArgsResult<Extract<Command, { kind: N }>>;
  readonly kinds: A;
}

const LANGS: readonly Lang[] = ["th", "en"];

/** A text entry that says nothing: missing, or an empty string. */
function isMissing(entry: unknown): boolean {
  return entry === undefined || entry === null || entry === "";
}

/**
 * A command, checked as its module loads: words, usage, an example and a description in both languages,
 * every answer kind with an audience, and every text in both languages. A mistake stops the bot at start-up.
 */
export function defineCommand<const N extends CommandName, const A extends AnswerKinds>(definition: CommandDefinition<N, A>): CommandDefinition<N, A> {
  const { name } = definition;
  for (const lang of LANGS) {
    if ((definition.words[lang] ?? []).length === 0) throw new Error(`command ${name} has no ${lang} word`);
    if (definition.reading.command[lang] !== definition.words[lang]) throw new Error(`command ${name}'s ${lang} words are not its words.ts's`);
    if ((definition.usage[lang] ?? []).length === 0) throw new Error(`command ${name} has no ${lang} usage`);
    if (isMissing(definition.example[lang])) throw new Error(`command ${name} has no ${lang} example`);
    if (isMissing(definition.description[lang])) throw new Error(`command ${name} has no ${lang} description`);
  }
  const kinds = Object.entries(definition.kinds);
  if (kinds.length === 0) throw new Error(`command ${name} declares no answer kind`);
  for (const [kind, audience] of kinds) {
    if (audience !== "public" && audience !== "staff") throw new Error(`answer kind ${kind} of ${name} has no audience (public or staff)`);
  }
  const texts = definition.texts;
  if (texts !== undefined) {
    const keys = new Set(LANGS.flatMap((lang) => Object.keys(texts[lang] ?? {})));
    for (const lang of LANGS) {
      const table = (texts[lang] ?? {}) as Readonly<Record<string, unknown>>;
      for (const key of keys) if (isMissing(table[key])) throw new Error(`text ${key} of ${name} is missing in ${lang}`);
    }
  }
  return definition;
}

/**
 * The arguments of a command that takes none: nothing, or another word of the same command, since Thai
 * says `ยอดคงเหลือ` or `เครดิตคงเหลือ` for "balance".
 */
export function noArguments<C extends Command>(args: string, reader: ArgumentReader, command: C): ArgsResult<C> {
  const extra = reader.tokens(args).find((token) => reader.lookup(token.lower)?.name !== command.kind);
  return extra === undefined ? { ok: true, command } : { ok: false, problem: { code: "unexpected", input: extra.raw } };
}
