// contact: "write to the shop". The bot says the staff will answer here, and then keeps quiet in this
// chat (the customer note is claimed), so the message that follows is left for a person to answer.
import type { Command } from "../types.js";
import { renderContact } from "./render.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../../handlers/context.js";

export async function handleContact(command: Extract<Command, { kind: "contact" }>, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  if (ctx.audience.role === "customer") await deps.quietNotes.claim(ctx.chat.id, ctx.now.getTime());
  await ctx.send(renderContact(command.lang));
  return { command: "contact", outcome: "answered" };
}
