// summary: every check of a range summed up (per status, per channel, tokens, a chart) in one bubble.
import { resolveRange } from "../range.js";
import type { Command } from "../types.js";
import { renderSummary } from "./render.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../../handlers/context.js";

export async function handleSummary(command: Extract<Command, { kind: "summary" }>, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const { timeZone } = deps.settings;
  const { range, status } = command.request;
  const resolved = resolveRange(range, ctx.now, timeZone);
  // A month is dozens of service calls: let a 1:1 chat see that the bot is working.
  if (ctx.chat.type === "user") ctx.showLoading();
  const loaded = await deps.summaries.load({ ...resolved, status }, timeZone);
  await ctx.send(
    renderSummary({
      lang: command.lang,
      timeZone,
      range,
      status,
      figures: loaded.figures,
      coveredFrom: loaded.coveredFrom,
      coveredTo: loaded.coveredTo,
      askedFrom: resolved.fromDate,
      total: loaded.total,
      at: loaded.at,
    }),
  );
  return { command: "summary", outcome: "answered" };
}
