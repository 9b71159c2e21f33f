// balance: the account's tokens, package and expiry.
import type { Command } from "../commands/types.js";
import { renderBalance } from "../render/balance.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "./context.js";

export async function handleBalance(
  command: Extract<Command, { kind: "balance" }>,
  ctx: ChatContext,
  deps: HandlerDeps,
): Promise<HandlerOutcome> {
  const account = await deps.slip.accountInfo();
  await ctx.send(renderBalance({ lang: command.lang, timeZone: deps.settings.timeZone, now: ctx.now, account }));
  return { command: "balance", outcome: "answered" };
}
