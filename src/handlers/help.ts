// help: every command with an example, or one command's usage.
import type { Command } from "../commands/types.js";
import { renderHelp } from "../render/help.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "./context.js";

export async function handleHelp(
  command: Extract<Command, { kind: "help" }>,
  ctx: ChatContext,
  _deps: HandlerDeps,
): Promise<HandlerOutcome> {
  await ctx.send(renderHelp({ lang: command.lang, topic: command.topic }));
  return { command: "help", outcome: "answered" };
}
