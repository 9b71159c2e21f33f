// id: the ids the owner needs for the staff lists, as much of them as the place's readers may see.
import type { Command } from "../commands/types.js";
import { hasStaff } from "../roles/audience.js";
import { renderId } from "../render/id.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "./context.js";

export async function handleId(
  command: Extract<Command, { kind: "id" }>,
  ctx: ChatContext,
  deps: HandlerDeps,
): Promise<HandlerOutcome> {
  await ctx.send(
    renderId({ lang: command.lang, userId: ctx.userId, chat: ctx.chat, staffPlace: ctx.audience.staffPlace, noStaffYet: !hasStaff(deps.settings) }),
  );
  return { command: "id", outcome: "answered" };
}
