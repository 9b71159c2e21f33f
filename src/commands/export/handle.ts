// export: a link on PUBLIC_URL that downloads a range's checks as CSV from the staff app, signed for the one
// who asked, good once and for 10 minutes. Without PUBLIC_URL, what to set.
import { resolveRange } from "../range.js";
import type { Command } from "../types.js";
import { renderExport } from "./render.js";
import { addCalendarDays, calendarDaysBetween } from "../../time/calendar.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../../handlers/context.js";

export async function handleExport(command: Extract<Command, { kind: "export" }>, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const { lang } = command;
  const links = deps.exportLinks;
  if (links === undefined) {
    deps.log.warn("export asked, but PUBLIC_URL is not set: no download link can be made");
    await ctx.send(renderExport({ kind: "no_public_url", lang }));
    return { command: "export", outcome: "answered" };
  }
  if (ctx.userId === undefined) {
    await ctx.send(renderExport({ kind: "no_user", lang }));
    return { command: "export", outcome: "answered" };
  }
  const { range, status } = command.request;
  const resolved = resolveRange(range, ctx.now, deps.settings.timeZone);
  const days = calendarDaysBetween(resolved.fromDate, resolved.toDate) + 1;
  const coveredFrom = days > links.maxDays ? addCalendarDays(resolved.toDate, -(links.maxDays - 1)) : resolved.fromDate;
  const request = { userId: ctx.userId, fromDate: coveredFrom, toDate: resolved.toDate, status };
  // Two links, each good once: the file in the shop's words, and the all-English one for accounting software.
  const url = links.link(request, ctx.now);
  const rawUrl = links.link({ ...request, format: "raw" }, ctx.now);
  await ctx.send(renderExport({ kind: "link", lang, range, url, rawUrl, coveredFrom, coveredTo: resolved.toDate, askedFrom: resolved.fromDate }));
  return { command: "export", outcome: "answered" };
}
