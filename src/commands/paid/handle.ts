// paid: has a slip of exactly this amount been checked today (or on the day asked, or since the QR was
// made)? The valid checks of that amount, newest first, or "no checked slip yet".
import { formatPaidCommand } from "../format.js";
import { resolveRange } from "../range.js";
import type { Command } from "../types.js";
import { renderPaid } from "./render.js";
import type { HistoryItem, SlipClient } from "../../slip/types.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../../handlers/context.js";

/** Valid checks read at most per question: 20 pages of 100. */
const MOST_PAGES = 20;

/** The valid checks of exactly `amountSatang` made between `from` and `to` (and after `after`), newest first. */
export async function findPayments(slip: SlipClient, window: { from: Date; to: Date; after?: Date | undefined }, amountSatang: number): Promise<HistoryItem[]> {
  const found: HistoryItem[] = [];
  for (let page = 1; page <= MOST_PAGES; page++) {
    const result = await slip.slipHistory({ from: window.after ?? window.from, to: window.to, status: "valid", limit: 100, page });
    for (const item of result.items) {
      if (item.amount === null || Math.round(item.amount * 100) !== amountSatang) continue;
      const at = item.createdAt === null ? Number.NaN : Date.parse(item.createdAt);
      if (window.after !== undefined && !(at > window.after.getTime())) continue;
      found.push(item);
    }
    if (page >= result.pagination.pages) break;
  }
  return found;
}

export async function handlePaid(command: Extract<Command, { kind: "paid" }>, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const { timeZone } = deps.settings;
  const { amount, after, range } = command.request;
  const days = resolveRange(range ?? { kind: "today" }, ctx.now, timeZone);
  const found = await findPayments(deps.slip, { from: days.from, to: days.to, after }, amount);
  await ctx.send(
    renderPaid({
      lang: command.lang,
      timeZone,
      amountSatang: amount,
      after,
      range: range === undefined ? undefined : { spec: range, fromDate: days.fromDate, toDate: days.toDate },
      found,
      askAgain: formatPaidCommand(command.request, command.lang),
    }),
  );
  return { command: "paid", outcome: "answered" };
}
