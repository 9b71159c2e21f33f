// help: every command with an example, or one command's usage, in a staff place; elsewhere only how to pay.
import type { Command } from "../types.js";
import { followedBy } from "../../privacy/answer.js";
import { renderAskInPrivate } from "../../render/errors.js";
import { renderHelp } from "./render.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../../handlers/context.js";

export async function handleHelp(command: Extract<Command, { kind: "help" }>, ctx: ChatContext, _deps: HandlerDeps): Promise<HandlerOutcome> {
  // The help of the place: where customers see it, the customers' help (and the pointer, for staff).
  if (ctx.audience.staffPlace) {
    await ctx.send(renderHelp({ lang: command.lang, role: "staff", topic: command.topic }));
  } else {
    const customers = renderHelp({ lang: command.lang, role: "customer" });
    await ctx.send(ctx.audience.role === "staff" ? followedBy(customers, renderAskInPrivate(command.lang)) : customers);
  }
  return { command: "help", outcome: "answered" };
}
