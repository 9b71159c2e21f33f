// Who may run a command: staff-only commands answer listed users, or anyone in a listed group.
import type { CommandName } from "../commands/types.js";
import { COMMANDS } from "../commands/registry.js";
import type { BotSettings } from "../config.js";
import type { ChatContext } from "./context.js";

/** Whether any staff list is set; with none, every command is open to everyone. */
function accessRestricted(settings: BotSettings): boolean {
  return settings.staffUserIds.size > 0 || settings.staffGroupIds.size > 0;
}

export function mayRun(command: CommandName, ctx: Pick<ChatContext, "chat" | "userId">, settings: BotSettings): boolean {
  if (!COMMANDS[command].staffOnly || !accessRestricted(settings)) return true;
  if (ctx.userId !== undefined && settings.staffUserIds.has(ctx.userId)) return true;
  // A staff group vouches for everyone in it, including members LINE sends no user id for.
  return ctx.chat.type !== "user" && settings.staffGroupIds.has(ctx.chat.id);
}
