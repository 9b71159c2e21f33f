// help: every command with an example, or one command's usage; customers see only how to pay.
import type { Command } from "../commands/types.js";
import { renderHelp } from "../render/help.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "./context.js";

export async function handleHelp(
  command: Extract<Command, { kind: "help" }>,
  ctx: ChatContext,
  _deps: HandlerDeps,
): Promise<HandlerOutcome> {
  await ctx.send(renderHelp({ lang: command.lang, role: ctx.audience.role, topic: command.topic }));
  return { command: "help", outcome: "answered" };
}
