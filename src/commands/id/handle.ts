// id: the ids the owner needs for the staff lists, as much of them as the place's readers may see.
import type { Command } from "../types.js";
import { hasStaff } from "../../roles/audience.js";
import { renderId } from "./render.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../../handlers/context.js";

export async function handleId(command: Extract<Command, { kind: "id" }>, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  await ctx.send(renderId({ lang: command.lang, userId: ctx.userId, chat: ctx.chat, staffPlace: ctx.audience.staffPlace, noStaffYet: !hasStaff(deps.settings) }));
  return { command: "id", outcome: "answered" };
}
