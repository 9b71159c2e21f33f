// The handlers' front door: the group rule, parsing, the roles' admission, each command run by the handler
// its definition names, service failures, and what customers and staff hear when they write no command.
import type { Command, CommandName, Lang, ParseFailure, ParseResult } from "../commands/types.js";
import { parseCommand } from "../commands/parse.js";
import { cutMentions, type MentionSpan } from "../commands/mentions.js";
import { isGreeting, suggestCommand } from "../commands/suggest.js";
import { isSlipClientError } from "../slip/errors.js";
import { admitCommand, type Admission, type CommandUse } from "../roles/admission.js";
import { hasStaff } from "../roles/audience.js";
import {
  renderAskInPrivate,
  renderCustomerNote,
  renderCustomerPayHint,
  renderCustomerThanks,
  renderDidYouMean,
  renderEditedNote,
  renderGreeting,
  renderSlipPhotoHint,
  renderStaffGroupNotice,
  renderTypeAmountHint,
  renderUnknownCommand,
  renderUsageError,
} from "../render/errors.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "./context.js";
import { CHATTER } from "../stores/versions.js";
import type { Version } from "../stores/versions.js";
import { afterNote } from "../privacy/answer.js";
import { isQrKeyboardTap, isQuietMenuTap } from "../rich-menu/menus.js";
import { qrKeyboardTapLang } from "../render/quick-replies.js";
import { answerServiceFailure } from "./service-failure.js";
import { COMMAND_DEFINITIONS } from "../commands/registry.js";

export interface TextInput {
  text: string;
  mentionees: readonly (MentionSpan & { readonly isSelf?: boolean })[];
  /** LINE's message id and the event's time: what tells a message's edits apart. */
  messageId?: string | undefined;
  timestamp?: number | undefined;
}

type CommandHandler<K extends CommandName> = (command: Extract<Command, { kind: K }>, ctx: ChatContext, deps: HandlerDeps) => Promise<HandlerOutcome>;
type AnyHandler = (command: Command, ctx: ChatContext, deps: HandlerDeps) => Promise<HandlerOutcome>;

type Definition = (typeof COMMAND_DEFINITIONS)[number];
type HandlerOf<D> = D extends { readonly handler: () => Promise<infer H> } ? H : never;
/** A command whose handler does not take what the router gives (the chat, the bot's parts) or answer an outcome. */
type Misfit = { [D in Definition as D["name"]]: HandlerOf<D> extends CommandHandler<D["name"]> ? never : D["name"] }[CommandName];
/** Fails to compile, naming the command, when its handler does not fit the router. */
type NoneMisfit<T extends never> = T;
export type EveryHandlerFits = NoneMisfit<Misfit>;

/**
 * Each command's handler, named by its definition (commands/<name>/command.ts) and loaded as the bot starts,
 * so a handler that fails to load stops it there, and a command is routed from the registry's one list.
 */
const HANDLERS: ReadonlyMap<CommandName, AnyHandler> = new Map(
  await Promise.all(
    // The list is keyed by kind, so each handler takes exactly its own command (EveryHandlerFits); TypeScript cannot see that through the union.
    COMMAND_DEFINITIONS.map(async (definition) => [definition.name, (await definition.handler()) as AnyHandler] as const),
  ),
);

const ignored = (command: HandlerOutcome["command"]): HandlerOutcome => ({ command, outcome: "ignored" });

/** Says why a command is not run here, or nothing when it is talk not meant for the bot. */
async function answerAdmission(admission: Exclude<Admission, { kind: "run" }>, command: CommandName, lang: Lang, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const where = { command, role: ctx.audience.role, place: ctx.audience.place };
  switch (admission.kind) {
    case "ignore":
      return ignored(command);
    case "ask_in_private":
      deps.log.info(where, "private command asked where customers see the answer; pointed to a private chat");
      await ctx.send(renderAskInPrivate(lang));
      return { command, outcome: "pointed_to_private" };
    case "staff_only":
      // Only customers get here. To them a staff command's words are talk (`ยอด 350 นะคะ` is "I paid 350,
      // please check"): thanks, and the shop will look; like the customer note, once in a while. Never a
      // refusal about staff, nor the owner's set-up (`id` gives that while nobody is staff).
      deps.log.info({ ...where, noStaffYet: admission.noStaffYet }, "private command from a customer; thanked, nothing shown");
      if (await deps.quietNotes.claim(ctx.chat.id, ctx.now.getTime())) await ctx.send(renderCustomerThanks(lang));
      return { command, outcome: "refused" };
  }
}

/** A customer's words that ask nothing of the bot: the friendly note, at most once per chat per 12 hours. */
async function noteCustomer(command: HandlerOutcome["command"], lang: Lang, addressed: boolean, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  if (ctx.chat.type !== "user" && !addressed) return ignored(command);
  if (!(await deps.quietNotes.claim(ctx.chat.id, ctx.now.getTime()))) return ignored(command);
  await ctx.send(renderCustomerNote(lang));
  return { command, outcome: "noted" };
}

/**
 * A customer's command that does not read: never a command's error or notation. Words the command has no
 * place for make it talk (`จ่ายเงิน 350 แล้วค่ะ` is "I paid 350", `คิวอาร์ 150 2 แก้ว` an order); a QR with
 * a wrong amount or id gets one example to copy.
 */
async function answerCustomerUsage(failure: Extract<ParseFailure, { kind: "usage" }>, use: CommandUse, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  if (failure.command !== "qr" || failure.problem.code === "unexpected") return noteCustomer(failure.command, failure.lang, use.addressed, ctx, deps);
  await ctx.send(renderCustomerPayHint(failure.lang));
  return { command: failure.command, outcome: "usage_error" };
}

/** Admits the command for who asked and where, runs its handler and answers any slip service failure. */
async function runCommand(command: Command, use: CommandUse, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const admission = admitCommand(command.kind, use, ctx.audience, hasStaff(deps.settings));
  if (admission.kind !== "run") return answerAdmission(admission, command.kind, command.lang, ctx, deps);
  const handler = HANDLERS.get(command.kind);
  if (handler === undefined) throw new Error(`command ${command.kind} has no handler`);
  try {
    return await handler(command, ctx, deps);
  } catch (error) {
    if (isSlipClientError(error)) return answerServiceFailure(error, command.kind, command.lang, ctx, deps);
    throw error;
  }
}

async function answerUsage(failure: Extract<ParseFailure, { kind: "usage" }>, use: CommandUse, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  // A mistyped private command is still private: a customer is thanked, never shown its usage.
  const admission = admitCommand(failure.command, use, ctx.audience, hasStaff(deps.settings));
  if (admission.kind !== "run") return answerAdmission(admission, failure.command, failure.lang, ctx, deps);
  // Where customers read the answer it is theirs, whoever mistyped: never a command's error or notation.
  if (!ctx.audience.staffPlace) return answerCustomerUsage(failure, use, ctx, deps);
  await ctx.send(renderUsageError(failure));
  return { command: failure.command, outcome: "usage_error" };
}

/**
 * Text that is no command, answered by where the answer goes. In a staff place: a greeting back, a "did you
 * mean" for a typo, or a short help, each with the staff commands to tap. Anywhere else what a customer gets
 * there, whoever wrote: at most one friendly note per chat per 12 hours (in a group only when the bot is
 * addressed), then quiet so the shop can answer by hand; a staff member whose typo meant a private command
 * gets the pointer that command would have got.
 */
async function answerNoCommand(
  failure: Extract<ParseFailure, { kind: "unknown" | "empty" }>,
  text: string,
  addressed: boolean,
  ctx: ChatContext,
  deps: HandlerDeps,
): Promise<HandlerOutcome> {
  if (ctx.chat.type !== "user" && !addressed) return ignored("none");
  const word = failure.kind === "unknown" ? failure.word : undefined;
  const meant = word === undefined ? undefined : suggestCommand(word);
  if (!ctx.audience.staffPlace) {
    if (meant !== undefined) {
      const asMeant = admitCommand(meant, { bare: false, addressed }, ctx.audience, hasStaff(deps.settings));
      if (asMeant.kind === "ask_in_private") return answerAdmission(asMeant, meant, failure.lang, ctx, deps);
    }
    return noteCustomer("none", failure.lang, addressed, ctx, deps);
  }
  if (isGreeting(text)) {
    await ctx.send(renderGreeting(failure.lang, "staff"));
    return { command: "none", outcome: "answered" };
  }
  if (word !== undefined && meant !== undefined) {
    await ctx.send(renderDidYouMean(failure.lang, word, meant));
    return { command: "none", outcome: "unknown_command" };
  }
  await ctx.send(renderUnknownCommand(failure.lang, word));
  return { command: "none", outcome: "unknown_command" };
}

function parse(text: string, ctx: ChatContext, deps: HandlerDeps): ParseResult {
  return parseCommand(text, { now: ctx.now, timeZone: deps.settings.timeZone, defaultLang: deps.settings.defaultLang });
}

/** Whether the text opens with a mention (then its first word is no command). */
function startsWithMention(input: TextInput): boolean {
  const firstCharAt = input.text.search(/\S/u);
  return firstCharAt !== -1 && input.mentionees.some((m) => m.index === firstCharAt);
}

/** What a text asks of the bot, before anything is answered: the same reading serves a message and its edits. */
type Reading =
  | { kind: "ignore"; command: CommandName | "none" }
  | { kind: "command"; command: Command; use: CommandUse }
  | { kind: "usage"; failure: Extract<ParseFailure, { kind: "usage" }>; use: CommandUse }
  | { kind: "no_command"; failure: Extract<ParseFailure, { kind: "unknown" | "empty" }>; text: string; addressed: boolean };

/**
 * In a group or room the bot acts only when the first word is a command or the bot is mentioned, and in a
 * customer group a command word alone only with a mention (the roles' admission decides that part).
 */
function read(input: TextInput, ctx: ChatContext, deps: HandlerDeps): Reading {
  const inGroup = ctx.chat.type !== "user";
  const addressed = input.mentionees.some((m) => m.isSelf === true);
  if (inGroup && !addressed && startsWithMention(input)) return { kind: "ignore", command: "none" };
  const text = input.mentionees.length > 0 ? cutMentions(input.text, input.mentionees) : input.text;
  const parsed = parse(text, ctx, deps);
  if (parsed.ok) return { kind: "command", command: parsed.command, use: { bare: parsed.bare, addressed } };
  const failure = parsed.failure;
  switch (failure.kind) {
    case "usage":
      // "pay me back later" in a group starts with a command word but is talk: answer only what looks meant.
      if (inGroup && !addressed && failure.problem.code === "unexpected") return { kind: "ignore", command: failure.command };
      return { kind: "usage", failure, use: { bare: false, addressed } };
    case "unknown":
    case "empty":
      return { kind: "no_command", failure, text, addressed };
  }
}

function answer(reading: Reading, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  switch (reading.kind) {
    case "ignore":
      return Promise.resolve(ignored(reading.command));
    case "command":
      return runCommand(reading.command, reading.use, ctx, deps);
    case "usage":
      return answerUsage(reading.failure, reading.use, ctx, deps);
    case "no_command":
      return answerNoCommand(reading.failure, reading.text, reading.addressed, ctx, deps);
  }
}

/**
 * What a reading would do, as a string that two versions of a message share exactly when they ask the same
 * thing: spacing, case, the language of the command word and a typo outside the command do not count.
 * Text that asks nothing of the bot is CHATTER.
 */
function whatItDoes(reading: Reading, ctx: ChatContext, deps: HandlerDeps): string {
  switch (reading.kind) {
    case "ignore":
    case "no_command":
      return CHATTER;
    case "usage":
      return `usage:${reading.failure.command}:${reading.failure.problem.code}`;
    case "command": {
      const admission = admitCommand(reading.command.kind, reading.use, ctx.audience, hasStaff(deps.settings));
      if (admission.kind === "ignore") return CHATTER;
      if (admission.kind !== "run") return `${admission.kind}:${reading.command.kind}`;
      const { lang: _lang, ...what } = reading.command;
      // `qr 200` and `qr 0812345678 200` make the same QR when the shop's id is 0812345678.
      const resolved = what.kind === "qr" ? { ...what, id: what.id ?? deps.settings.promptPayId } : what;
      return `run:${canonicalJson(resolved)}`;
    }
  }
}

/** JSON with every object's keys in order, so two equal commands give one string however they were built. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

/** Remembers what a group message asked for, so that its edits can be told apart; a failure only costs that. */
async function recordVersion(input: TextInput, fingerprint: string, ctx: ChatContext, deps: HandlerDeps): Promise<Version | undefined> {
  if (deps.versions === undefined || input.messageId === undefined || input.timestamp === undefined) return undefined;
  try {
    return await deps.versions.record(input.messageId, input.timestamp, fingerprint);
  } catch (err) {
    deps.log.warn({ err, chatType: ctx.chat.type }, "could not remember the message's version for its edits");
    return undefined;
  }
}

/** Remembers what a group message first asked for, once it is answered; a failure only costs its edits' comparison. */
async function rememberVersion(input: TextInput, fingerprint: string, ctx: ChatContext, deps: HandlerDeps): Promise<void> {
  if (deps.versions === undefined || input.messageId === undefined || input.timestamp === undefined) return;
  try {
    await deps.versions.remember(input.messageId, input.timestamp, fingerprint);
  } catch (err) {
    deps.log.warn({ err, chatType: ctx.chat.type }, "could not remember the message's version for its edits");
  }
}

/**
 * A text message. Who may see what is the roles' admission; text that is no command is
 * `answerNoCommand`'s. In a group (where LINE lets people edit a text) what it asked is remembered, after
 * the answer (nothing waits for it). Chatter is not: an edit of it is answered whether its version before
 * is unknown (`first`) or chatter (`changed`), and most of what a group says is chatter.
 */
export async function handleText(input: TextInput, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const reading = read(input, ctx, deps);
  const asked = ctx.chat.type === "user" ? undefined : whatItDoes(reading, ctx, deps);
  try {
    return await answer(reading, ctx, deps);
  } finally {
    if (asked !== undefined && asked !== CHATTER) await rememberVersion(input, asked, ctx, deps);
  }
}

/**
 * A text edited in a group. Answered as the new command, with a short "(edited)" note, when it asks for
 * something else than the version before (a new amount or id, another command); an edit that changes
 * nothing the command does, an older edit arriving after a newer one, and an edit into chatter get nothing.
 * When the versions cannot be compared (Redis away), nothing: a missed edit beats a second QR card.
 */
export async function handleEditedText(input: TextInput, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const reading = read(input, ctx, deps);
  const fingerprint = whatItDoes(reading, ctx, deps);
  const command = reading.kind === "command" ? reading.command.kind : reading.kind === "usage" ? reading.failure.command : "none";
  const version = await recordVersion(input, fingerprint, ctx, deps);
  if (fingerprint === CHATTER || version === undefined || version === "older" || version === "same") {
    return { command, outcome: "edit_unchanged" };
  }
  const lang = reading.kind === "command" ? reading.command.lang : reading.kind === "usage" ? reading.failure.lang : deps.settings.defaultLang;
  let noted = false;
  const withNote: ChatContext = {
    ...ctx,
    send(answer) {
      const first = !noted;
      noted = true;
      return ctx.send(first ? afterNote(renderEditedNote(lang), answer) : answer);
    },
  };
  return answer(reading, withNote, deps);
}

/**
 * A message that is not text. Only a staff member's 1:1 chat gets an answer, since a photo met by silence
 * leaves them wondering whether the bot works: for a photo (most likely a slip) where slips are checked,
 * else the short help; a sticker is a gesture, not a request. Customers send slips and stickers to the
 * shop, which answers by hand, and a photo cannot address the bot in a group: silence, whoever sent it.
 */
export async function handleNonText(messageType: string, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  if (ctx.chat.type !== "user" || !ctx.audience.staffPlace || messageType === "sticker") return ignored("none");
  await ctx.send(messageType === "image" ? renderSlipPhotoHint(deps.settings.defaultLang) : renderUnknownCommand(deps.settings.defaultLang));
  return { command: "none", outcome: "unknown_command" };
}

/**
 * A postback from one of our buttons: its data is a command the bot wrote (history paging, a row), so it
 * is parsed like text, without the group rule (a tap is always meant for the bot), and admitted like it.
 */
export async function handlePostback(data: string, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  // The staff's QR quick reply opened the keyboard with `คิวอาร์ ` typed, and the chat shows their tap as
  // `คิวอาร์`: where the amount goes, answered as the customers' menu tap is.
  const typing = qrKeyboardTapLang(data);
  if (typing !== undefined) {
    await ctx.send(renderTypeAmountHint(typing));
    return { command: "qr", outcome: "answered" };
  }
  // A menu tap that opened the keyboard or switched the menu: the person acts next. A customer whose "pay by
  // QR" opened the keyboard with `คิวอาร์ ` typed is told to add the amount (the menus are Thai).
  if (isQuietMenuTap(data)) {
    if (!isQrKeyboardTap(data) || ctx.audience.role !== "customer") return ignored("none");
    await ctx.send(renderTypeAmountHint("th"));
    return { command: "qr", outcome: "answered" };
  }
  const parsed = parse(data, ctx, deps);
  const use: CommandUse = { bare: false, addressed: true };
  if (parsed.ok) return runCommand(parsed.command, use, ctx, deps);
  if (parsed.failure.kind === "usage") return answerUsage(parsed.failure, use, ctx, deps);
  // Not data we write (an old button, or another tool's rich menu): nothing sensible to answer.
  deps.log.warn({ chatType: ctx.chat.type }, "postback data is no command");
  return ignored("none");
}

/** Follow (1:1) or join (group): a short greeting for a staff place or for customers, with their quick replies. */
export async function handleGreeting(ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  await ctx.send(renderGreeting(deps.settings.defaultLang, ctx.audience.staffPlace ? "staff" : "customer"));
  return { command: "none", outcome: "answered" };
}

/**
 * Someone joined a group the bot is in. A staff group trusts everyone in it, so the group is told once per
 * join that every member sees the shop's data, and how to take the group off the list; the join is logged.
 * Elsewhere the bot stays silent.
 */
export async function handleMemberJoined(joined: number, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  if (!ctx.audience.staffPlace) return ignored("none");
  deps.log.info({ chatType: ctx.chat.type, groupId: ctx.chat.id, joined }, "member joined a staff group; told the group who sees its data");
  await ctx.send(renderStaffGroupNotice(deps.settings.defaultLang));
  return { command: "none", outcome: "answered" };
}
