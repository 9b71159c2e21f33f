// id: the sender's user id and the group or room id, so the owner can fill the staff lists.
import type { Command } from "../commands/types.js";
import { hasStaff } from "../roles/audience.js";
import { renderId } from "../render/id.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "./context.js";

export async function handleId(
  command: Extract<Command, { kind: "id" }>,
  ctx: ChatContext,
  deps: HandlerDeps,
): Promise<HandlerOutcome> {
  await ctx.send(renderId({ lang: command.lang, userId: ctx.userId, chat: ctx.chat, noStaffYet: !hasStaff(deps.settings) }));
  return { command: "id", outcome: "answered" };
}
