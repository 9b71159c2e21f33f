// The shop's checks as the staff app reads them from the slip service: a page as the service pages them, or,
// with a channel or a search (the service filters neither), the range read page by page and filtered here.
import type { HistoryItem, HistoryPage, SlipClient, SlipStatus } from "../slip/types.js";
import { matchesSearch as matches } from "../slip/search.js";
import type { ChecksQuery } from "./query.js";

/** The most the service serves per call. */
export const SERVICE_PAGE_LIMIT = 100;
/** Checks read at most for one answer, as the chat's summary does. */
export const MAX_CHECKS = 20_000;

export interface ChecksScope {
  from: Date;
  to: Date;
  status: SlipStatus | undefined;
}

/**
 * The range's checks, newest first, page by page (the next page asked while this one is used), at most
 * `max` of them. `total` is what the service counts in the range.
 */
export async function* readChecks(slip: SlipClient, scope: ChecksScope, max = MAX_CHECKS, onTotal?: (total: number) => void): AsyncGenerator<HistoryItem[]> {
  const ask = (page: number): Promise<HistoryPage> =>
    slip.slipHistory({ from: scope.from, to: scope.to, ...(scope.status === undefined ? {} : { status: scope.status }), limit: SERVICE_PAGE_LIMIT, page });
  const first = await ask(1);
  onTotal?.(first.pagination.total);
  const size = Math.max(1, first.pagination.limit);
  const pages = Math.min(first.pagination.pages, Math.ceil(max / size));
  let given = 0;
  let next: Promise<HistoryPage> | undefined = pages > 1 ? ask(2) : undefined;
  let current: HistoryPage | undefined = first;
  for (let page = 1; current !== undefined; page += 1) {
    const items = current.items.slice(0, max - given);
    given += items.length;
    // The page after next is asked before this one is handed over: the service works while the rows are written.
    const after: Promise<HistoryPage> | undefined = page + 2 <= pages ? ask(page + 2) : undefined;
    // A page not awaited yet must not reject unheard if the reader stops here.
    after?.catch(() => undefined);
    if (items.length > 0) yield items;
    if (given >= max || next === undefined) break;
    current = await next;
    next = after;
  }
}

export interface HistoryAnswer {
  items: HistoryItem[];
  pagination: { page: number; limit: number; total: number; pages: number };
  /** With a channel or a search: set when only the newest checks of the range were searched. */
  searched?: { checks: number; cut: boolean };
}

/** Matching checks of a search remembered briefly, so that paging through them reads the range once. */
const SEARCH_REUSE_MS = 30_000;
const MAX_SEARCHES = 32;

export function createHistoryReader(slip: SlipClient, now: () => number): (query: ChecksQuery) => Promise<HistoryAnswer> {
  const searches = new Map<string, { until: number; value: Promise<{ items: HistoryItem[]; scanned: number; total: number }> }>();

  async function search(query: ChecksQuery): Promise<{ items: HistoryItem[]; scanned: number; total: number }> {
    const found: HistoryItem[] = [];
    let scanned = 0;
    let total = 0;
    for await (const items of readChecks(slip, query, MAX_CHECKS, (t) => (total = t))) {
      scanned += items.length;
      for (const item of items) if (matches(item, query)) found.push(item);
    }
    return { items: found, scanned, total };
  }

  return async (query) => {
    if (query.source === undefined && query.q === undefined) {
      const page = await slip.slipHistory({
        from: query.from,
        to: query.to,
        ...(query.status === undefined ? {} : { status: query.status }),
        page: query.page,
        limit: query.limit,
      });
      return { items: page.items, pagination: page.pagination };
    }
    const key = JSON.stringify([query.from, query.to, query.status, query.source, query.q]);
    const at = now();
    for (const [k, entry] of searches) if (entry.until <= at) searches.delete(k);
    let entry = searches.get(key);
    if (entry === undefined) {
      if (searches.size >= MAX_SEARCHES) searches.delete(searches.keys().next().value ?? "");
      entry = { until: at + SEARCH_REUSE_MS, value: search(query) };
      searches.set(key, entry);
      entry.value.catch(() => searches.delete(key));
    }
    const { items, scanned, total } = await entry.value;
    const start = (query.page - 1) * query.limit;
    return {
      items: items.slice(start, start + query.limit),
      pagination: { page: query.page, limit: query.limit, total: items.length, pages: Math.ceil(items.length / query.limit) },
      searched: { checks: scanned, cut: scanned < total },
    };
  };
}
