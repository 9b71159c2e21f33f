// history: fetches a range (or a transRef) from the service in pages of 100, sums it up and shows one page of 10 rows.
import { compareCalendarDates } from "../../time/calendar.js";
import type { Command, HistoryRequest, RangeSpec } from "../types.js";
import { resolveRange } from "../range.js";
import { toSatang } from "../../render/format.js";
import { HISTORY_PAGE_SIZE, orderStatusCounts, renderHistory, type HistoryScope, type HistorySummary } from "./render.js";
import { SLIP_STATUSES, type HistoryItem, type HistoryQuery, type SlipClient } from "../../slip/types.js";
import PQueue from "p-queue";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../../handlers/context.js";

/** The most the service serves per call (docs/slip-service.md). */
const SERVICE_PAGE_LIMIT = 100;
/** Past this many checks the summary stops fetching items and is marked partial. */
const SUMMARY_ITEM_CAP = 2_000;
/** Service calls in flight at once while fetching a long range: enough to be quick, few enough to be polite. */
const FETCH_CONCURRENCY = 4;

interface HistoryData {
  summary: HistorySummary;
  rows: HistoryItem[];
}

/** Count, valid total and per-status counts of the items fetched. */
function summarize(items: readonly HistoryItem[], count: number): HistorySummary {
  const counts = new Map<string, number>();
  let validSatang = 0;
  for (const item of items) {
    if (item.status !== null) counts.set(item.status, (counts.get(item.status) ?? 0) + 1);
    if (item.status === "valid" && item.amount !== null) validSatang += toSatang(item.amount);
  }
  return { count, validTotal: validSatang / 100, byStatus: orderStatusCounts(counts) };
}

/**
 * The summary and the rows of our page `page` (10 rows a page) for a query. One call when the range
 * holds at most 100 checks; otherwise up to 2,000 checks are fetched for the summary, and past that the
 * per-status counts come from one `limit=1` call per status and the valid total is marked partial.
 */
async function loadHistory(slip: SlipClient, query: HistoryQuery, page: number): Promise<HistoryData> {
  const first = await slip.slipHistory({ ...query, limit: SERVICE_PAGE_LIMIT, page: 1 });
  const total = first.pagination.total;
  // The service says what page size it served; trust that over what was asked.
  const size = Math.max(1, first.pagination.limit);
  const servicePages = Math.ceil(total / size);
  const fetchedPages = Math.min(servicePages, Math.max(1, Math.floor(SUMMARY_ITEM_CAP / size)));

  /** The items of service pages `from` to `to` (inclusive), in order. */
  const itemsOfPages = async (from: number, to: number): Promise<HistoryItem[]> => {
    const pages = await new PQueue({ concurrency: FETCH_CONCURRENCY }).addAll(
      Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => () => slip.slipHistory({ ...query, limit: size, page: from + i }).then((p) => p.items)),
    );
    return pages.flat();
  };

  const items = [...first.items, ...(await itemsOfPages(2, fetchedPages))];
  const partial = servicePages > fetchedPages;

  let summary = summarize(items, total);
  if (partial) {
    const counts = new Map<string, number>();
    if (query.status !== undefined) {
      counts.set(query.status, total);
    } else {
      const perStatus = await new PQueue({ concurrency: FETCH_CONCURRENCY }).addAll(
        SLIP_STATUSES.map((status) => () => slip.slipHistory({ ...query, status, limit: 1, page: 1 }).then((p) => [status, p.pagination.total] as const)),
      );
      for (const [status, count] of perStatus) counts.set(status, count);
    }
    summary = { ...summary, byStatus: orderStatusCounts(counts), validTotalOver: items.length };
  }

  const start = (page - 1) * HISTORY_PAGE_SIZE;
  const end = start + HISTORY_PAGE_SIZE;
  if (start >= total) return { summary, rows: [] };
  if (end <= items.length || items.length >= total) return { summary, rows: items.slice(start, end) };

  // The page lies past what the summary fetched: ask for the service pages that hold it.
  const firstPage = Math.floor(start / size) + 1;
  const lastPage = Math.floor((Math.min(end, total) - 1) / size) + 1;
  const held = await itemsOfPages(firstPage, lastPage);
  const offset = start - (firstPage - 1) * size;
  return { summary, rows: held.slice(offset, offset + HISTORY_PAGE_SIZE) };
}

/**
 * The range as staff would name it: "next page" carries absolute dates (so it pages the same days after
 * midnight), but page 2 of today is still today to the person reading it.
 */
function namedRange(range: RangeSpec, now: Date, timeZone: string): RangeSpec {
  if (range.kind !== "dates" || compareCalendarDates(range.from, range.to) !== 0) return range;
  for (const kind of ["today", "yesterday"] as const) {
    if (compareCalendarDates(resolveRange({ kind }, now, timeZone).fromDate, range.from) === 0) return { kind };
  }
  return range;
}

function scopeOf(request: HistoryRequest, now: Date, timeZone: string): { scope: HistoryScope; query: HistoryQuery } {
  if (request.by === "ref") return { scope: { by: "ref", transRef: request.transRef }, query: { transRef: request.transRef } };
  const { status } = request;
  const resolved = resolveRange(request.range, now, timeZone);
  const range = namedRange(request.range, now, timeZone);
  return {
    scope: { by: "range", range, fromDate: resolved.fromDate, toDate: resolved.toDate, status },
    query: { from: resolved.from, to: resolved.to, status },
  };
}

export async function handleHistory(command: Extract<Command, { kind: "history" }>, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const { timeZone } = deps.settings;
  const { scope, query } = scopeOf(command.request, ctx.now, timeZone);
  // Several service calls may follow; let a 1:1 chat see that the bot is working.
  if (ctx.chat.type === "user") ctx.showLoading();
  const page = command.request.page;
  const data = await loadHistory(deps.slip, query, page);
  await ctx.send(renderHistory({ lang: command.lang, timeZone, scope, page, summary: data.summary, rows: data.rows }));
  return { command: "history", outcome: "answered" };
}
