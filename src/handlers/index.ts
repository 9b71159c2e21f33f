// The handlers' front door: the group rule, parsing, access control, one table routing commands, service failures.
import type { Command, CommandName, ParseFailure, ParseResult } from "../commands/types.js";
import { parseCommand } from "../commands/parse.js";
import { cutMentions, type MentionSpan } from "../commands/mentions.js";
import { isSlipClientError } from "../slip/errors.js";
import { renderAccessRefused, renderGreeting, renderUnknownCommand, renderUsageError } from "../render/errors.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "./context.js";
import { mayRun } from "./access.js";
import { answerServiceFailure } from "./service-failure.js";
import { handleQr } from "./qr.js";
import { handleHistory } from "./history.js";
import { handleBalance } from "./balance.js";
import { handleHelp } from "./help.js";
import { handleId } from "./id.js";

export interface TextInput {
  text: string;
  mentionees: readonly (MentionSpan & { readonly isSelf?: boolean })[];
}

type CommandHandler<K extends CommandName> = (
  command: Extract<Command, { kind: K }>,
  ctx: ChatContext,
  deps: HandlerDeps,
) => Promise<HandlerOutcome>;

/** One handler per command; the mapped type makes a missing or mistyped entry a compile error. */
const HANDLERS: { readonly [K in CommandName]: CommandHandler<K> } = {
  qr: handleQr,
  history: handleHistory,
  balance: handleBalance,
  help: handleHelp,
  id: handleId,
};

const ignored = (command: HandlerOutcome["command"]): HandlerOutcome => ({ command, outcome: "ignored" });

/** Checks access, runs the command's handler and answers any slip service failure. */
async function runCommand(command: Command, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  if (!mayRun(command.kind, ctx, deps.settings)) {
    deps.log.info({ command: command.kind, chatType: ctx.chat.type }, "staff-only command refused");
    await ctx.send(renderAccessRefused(command.lang));
    return { command: command.kind, outcome: "refused" };
  }
  // The table is keyed by kind, so the entry takes exactly this command; TypeScript cannot see that through the union.
  const handler = HANDLERS[command.kind] as (command: Command, ctx: ChatContext, deps: HandlerDeps) => Promise<HandlerOutcome>;
  try {
    return await handler(command, ctx, deps);
  } catch (error) {
    if (isSlipClientError(error)) return answerServiceFailure(error, command.kind, command.lang, ctx, deps);
    throw error;
  }
}

async function answerUsage(failure: Extract<ParseFailure, { kind: "usage" }>, ctx: ChatContext): Promise<HandlerOutcome> {
  await ctx.send(renderUsageError(failure));
  return { command: failure.command, outcome: "usage_error" };
}

function parse(text: string, ctx: ChatContext, deps: HandlerDeps): ParseResult {
  return parseCommand(text, { now: ctx.now, timeZone: deps.settings.timeZone, defaultLang: deps.settings.defaultLang });
}

/** Whether the text opens with a mention (then its first word is no command). */
function startsWithMention(input: TextInput): boolean {
  const firstCharAt = input.text.search(/\S/u);
  return firstCharAt !== -1 && input.mentionees.some((m) => m.index === firstCharAt);
}

/**
 * A text message. In a group or room the bot acts only when the first word is a command or the bot is
 * mentioned; there, anything else gets no answer. In a 1:1 chat text that is no command gets a short help.
 */
export async function handleText(input: TextInput, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const inGroup = ctx.chat.type !== "user";
  const addressed = input.mentionees.some((m) => m.isSelf === true);
  if (inGroup && !addressed && startsWithMention(input)) return ignored("none");

  const text = input.mentionees.length > 0 ? cutMentions(input.text, input.mentionees) : input.text;
  const parsed = parse(text, ctx, deps);
  if (parsed.ok) return runCommand(parsed.command, ctx, deps);

  const failure = parsed.failure;
  switch (failure.kind) {
    case "usage":
      // "pay me back later" in a group starts with a command word but is talk: answer only what looks meant.
      if (inGroup && !addressed && failure.problem.code === "unexpected") return ignored(failure.command);
      return answerUsage(failure, ctx);
    case "unknown":
    case "empty":
      if (inGroup && !addressed) return ignored("none");
      await ctx.send(renderUnknownCommand(failure.lang, failure.kind === "unknown" ? failure.word : undefined));
      return { command: "none", outcome: "unknown_command" };
  }
}

/**
 * A postback from one of our buttons: its data is a command the bot wrote (history paging), so it is
 * parsed like text, without the group rule (a tap is always meant for the bot).
 */
export async function handlePostback(data: string, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const parsed = parse(data, ctx, deps);
  if (parsed.ok) return runCommand(parsed.command, ctx, deps);
  if (parsed.failure.kind === "usage") return answerUsage(parsed.failure, ctx);
  // Not data we write (an old button, or another tool's rich menu): nothing sensible to answer.
  deps.log.warn({ chatType: ctx.chat.type }, "postback data is no command");
  return ignored("none");
}

/** Follow (1:1) or join (group): a short greeting with the help quick replies. */
export async function handleGreeting(ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  await ctx.send(renderGreeting(deps.settings.defaultLang));
  return { command: "none", outcome: "answered" };
}
