// The command registry: every command, one line each, checked together as the bot starts; the word
// lookups, help order and answer kinds everything else reads come from here, and the router's handlers.
import type { CommandName, Lang } from "./types.js";
import { normalizeText } from "./normalize.js";
import { SHARED_PUBLIC_KINDS, SHARED_STAFF_KINDS } from "../privacy/kinds.js";
import type { AnswerAudience, CommandInfo, CommandWord } from "./define.js";
import { qr } from "./qr/command.js";
import { history } from "./history/command.js";
import { summary } from "./summary/command.js";
import { exportCommand } from "./export/command.js";
import { paid } from "./paid/command.js";
import { balance } from "./balance/command.js";
import { contact } from "./contact/command.js";
import { help } from "./help/command.js";
import { id } from "./id/command.js";

export type { CommandInfo, CommandWord } from "./define.js";

/** Every command, in the order help lists them: registering a command is its line here. */
export const COMMAND_DEFINITIONS = [qr, history, summary, exportCommand, paid, balance, contact, help, id] as const;

type Definition = (typeof COMMAND_DEFINITIONS)[number];
/** A command whose folder declares its type (types.ts's CommandTypes) but that is not listed above. */
type Unlisted = Exclude<CommandName, Definition["name"]>;
/** Fails to compile, naming the command, when one is left out of the list. */
type NoneUnlisted<T extends never> = T;
export type EveryCommandListed = NoneUnlisted<Unlisted>;
type KindsOf<D, A extends AnswerAudience> = D extends { readonly kinds: infer K } ? { [P in keyof K]: K[P] extends A ? P : never }[keyof K] & string : never;
/** The answer kinds the commands make for anyone, and for staff places only. */
export type CommandPublicKind = KindsOf<Definition, "public">;
export type CommandStaffKind = KindsOf<Definition, "staff">;

/** The definitions by name; a name defined twice, or a command name without its definition, stops the bot at load. */
function byName(definitions: readonly CommandInfo[]): Readonly<Record<CommandName, CommandInfo>> {
  const table = new Map<string, CommandInfo>();
  for (const definition of definitions) {
    if (table.has(definition.name)) throw new Error(`command ${definition.name} is registered twice`);
    table.set(definition.name, definition);
  }
  return Object.fromEntries(table) as Record<CommandName, CommandInfo>;
}

/** The order help lists them in. */
export const COMMAND_NAMES: readonly CommandName[] = COMMAND_DEFINITIONS.map((definition) => definition.name);

export const COMMANDS: Readonly<Record<CommandName, CommandInfo>> = byName(COMMAND_DEFINITIONS);

/**
 * Indexes the words of a table; a word that two commands (or one command twice) claim throws, so a
 * mistake in the table stops the bot at load instead of silently answering the wrong command.
 */
export function buildWordIndex(table: Readonly<Record<CommandName, CommandInfo>>): ReadonlyMap<string, CommandWord> {
  const index = new Map<string, CommandWord>();
  for (const name of COMMAND_NAMES) {
    const info = table[name];
    for (const lang of ["en", "th"] as const) {
      for (const written of info.words[lang]) {
        const word = normalizeText(written).toLowerCase();
        if (word === "" || word.includes(" ")) throw new Error(`command word "${written}" of ${name} must be one word`);
        const taken = index.get(word);
        if (taken !== undefined) {
          throw new Error(`command word "${written}" is used by both ${taken.name} and ${name}`);
        }
        index.set(word, { name, lang });
      }
    }
  }
  return index;
}

const WORD_INDEX = buildWordIndex(COMMANDS);

/**
 * Every answer kind with its audience: the commands' and the shared ones (privacy/kinds.ts). A kind made by
 * two commands, or both shared and a command's, throws: each kind has one audience and one maker.
 */
export function buildKindIndex(definitions: readonly CommandInfo[]): ReadonlyMap<string, AnswerAudience> {
  const index = new Map<string, AnswerAudience>();
  const owner = new Map<string, string>();
  const add = (kind: string, audience: AnswerAudience, by: string): void => {
    const taken = owner.get(kind);
    if (taken !== undefined) throw new Error(`answer kind ${kind} is made by both ${taken} and ${by}`);
    owner.set(kind, by);
    index.set(kind, audience);
  };
  for (const kind of SHARED_PUBLIC_KINDS) add(kind, "public", "the shared answers");
  for (const kind of SHARED_STAFF_KINDS) add(kind, "staff", "the shared answers");
  for (const definition of definitions) for (const [kind, audience] of Object.entries(definition.kinds)) add(kind, audience, definition.name);
  return index;
}

/** Who may read each answer kind. */
export const ANSWER_KINDS: ReadonlyMap<string, AnswerAudience> = buildKindIndex(COMMAND_DEFINITIONS);

/**
 * Words before a command word that only ask: `ขอ` ("may I have"), `ขอดู`, `ดู` ("see"), `สร้าง` ("make", as
 * the menu's `สร้าง QR` says), `จ่ายด้วย` ("pay with"), longest first (docs/thai.md, section 2).
 */
export const LEAD_INS: readonly string[] = ["จ่ายด้วย", "สร้าง", "ขอดู", "ขอ", "ดู"];

/**
 * Command words that are also everyday talk about paying: alone with an ending (`สลิปค่ะ`, `ยอดค่ะ`,
 * `เงินเข้ายังคะ`) they are talk, not the command (docs/thai.md, section 2).
 */
export const TALK_WORDS: ReadonlySet<string> = new Set(
  ["สลิป", "รายการ", "ยอด", "ยอดโอน", "ยอดเข้า", "เงินเข้า", "โอนเข้า", "เข้ายัง", "ได้รับ", "จ่าย", "จ่ายเงิน", "ชำระเงิน", "สแกนจ่าย", "เช็ค", "เช็ก"].map((word) => {
    // A word no command has would silently do nothing: stop at load instead.
    if (!WORD_INDEX.has(word)) throw new Error(`talk word "${word}" is no command word`);
    return word;
  }),
);

/** The Thai command words, longest first: Thai is written without spaces, so they may have text glued on. */
export const THAI_COMMAND_WORDS: readonly string[] = [...WORD_INDEX.entries()]
  .filter(([, entry]) => entry.lang === "th")
  .map(([word]) => word)
  .sort((a, b) => b.length - a.length);

/** Every Thai word the tokenizer cuts out of glued arguments (the commands' keywords and words), longest first. */
export const ARGUMENT_KEYWORDS: readonly string[] = [
  ...new Set([...COMMAND_DEFINITIONS.flatMap((definition) => definition.keywords), ...THAI_COMMAND_WORDS].map(normalizeText)),
].sort((a, b) => b.length - a.length);

/** The command a word starts (any case, without `/` or `!`), with the language of the word. */
export function lookupCommandWord(word: string): CommandWord | undefined {
  return WORD_INDEX.get(word.toLowerCase());
}

/** The word the bot writes for a command in a language (help texts, quick replies, postback data). */
export function commandWord(name: CommandName, lang: Lang): string {
  const word = COMMANDS[name].words[lang][0];
  if (word === undefined) throw new Error(`command ${name} has no ${lang} word`);
  return word;
}
