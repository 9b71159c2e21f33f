// balance: the account's tokens, package and expiry, with a forecast from the last 7 days' use.
import { resolveRange } from "../range.js";
import type { Command } from "../types.js";
import { renderBalance } from "./render.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../../handlers/context.js";

export async function handleBalance(command: Extract<Command, { kind: "balance" }>, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const { timeZone } = deps.settings;
  const [account, usage] = await Promise.all([deps.slip.accountInfo(), recentUsage(ctx, deps)]);
  await ctx.send(renderBalance({ lang: command.lang, timeZone, now: ctx.now, account, ...(usage === undefined ? {} : { usage }) }));
  return { command: "balance", outcome: "answered" };
}

/** Tokens charged over the last 7 days, for the forecast; a failure leaves the forecast out, not the balance. */
async function recentUsage(ctx: ChatContext, deps: HandlerDeps): Promise<{ tokensCharged: number; days: number } | undefined> {
  const days = 7;
  try {
    const range = resolveRange({ kind: "days", days }, ctx.now, deps.settings.timeZone);
    const loaded = await deps.summaries.load(range, deps.settings.timeZone);
    return { tokensCharged: loaded.figures.tokensCharged, days };
  } catch (err) {
    deps.log.warn({ err }, "token forecast left out: the week's history could not be read");
    return undefined;
  }
}
