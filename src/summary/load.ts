// Loads a summary: every check of the range from the service (pages of 100, a few at a time), within
// bounds, into figures; the same range asked again within a minute reuses them.
import { addCalendarDays, calendarDaysBetween } from "../time/calendar.js";
import PQueue from "p-queue";
import { resolveRange } from "../commands/range.js";
import type { CalendarDate } from "../commands/types.js";
import { matchesSearch } from "../slip/search.js";
import type { ChecksSearch } from "../slip/search.js";
import type { HistoryItem, SlipClient, SlipStatus } from "../slip/types.js";
import { computeFigures } from "./figures.js";
import type { SummaryFigures } from "./figures.js";

/** The most the service serves per call. */
const SERVICE_PAGE_LIMIT = 100;
/** Service calls in flight at once for one summary. */
const FETCH_CONCURRENCY = 4;

export interface SummaryScope {
  /** The first and last instant, and the calendar days they are in (business zone). */
  from: Date;
  to: Date;
  fromDate: CalendarDate;
  toDate: CalendarDate;
  status?: SlipStatus | undefined;
  /** A channel or words the service does not filter: the figures then count only the checks that match. */
  search?: ChecksSearch | undefined;
}

export interface LoadedSummary {
  figures: SummaryFigures;
  /** The days the figures cover: the asked range, or its last `maxDays` days. */
  coveredFrom: CalendarDate;
  coveredTo: CalendarDate;
  /** Checks the service has in the covered days (more than `read` when capped). */
  total: number;
  /** Checks read: at most `maxItems`; `figures` count those of them that match the search. */
  read: number;
  /** The channels of the checks read, whatever the search: the most checks first. */
  sources: string[];
  /** When the figures were computed. */
  at: Date;
}

export interface SummaryLoader {
  load(scope: SummaryScope, timeZone: string): Promise<LoadedSummary>;
}

export interface SummaryLoaderOptions {
  slip: SlipClient;
  now?: () => Date;
  /** How long figures are reused for the same range. Default 60 s. */
  reuseMs?: number;
  /** Checks read at most; the figures then cover the newest ones and say so. Default 20,000. */
  maxItems?: number;
  /** Days covered at most; a longer range is cut to its last days and says so. Default 31. */
  maxDays?: number;
}

export function createSummaryLoader(options: SummaryLoaderOptions): SummaryLoader {
  const now = options.now ?? (() => new Date());
  const reuseMs = options.reuseMs ?? 60_000;
  const maxItems = options.maxItems ?? 20_000;
  const maxDays = options.maxDays ?? 31;
  const { slip } = options;
  // A handful of ranges are asked for at a time (today, 7 days...): a small map, pruned as it goes.
  const recent = new Map<string, { until: number; value: Promise<LoadedSummary> }>();

  async function fetchItems(scope: SummaryScope, from: Date): Promise<{ items: HistoryItem[]; total: number }> {
    const query = { from, to: scope.to, status: scope.status };
    const first = await slip.slipHistory({ ...query, limit: SERVICE_PAGE_LIMIT, page: 1 });
    const size = Math.max(1, first.pagination.limit);
    const total = first.pagination.total;
    const pages = Math.min(Math.ceil(total / size), Math.ceil(maxItems / size));
    const rest = await new PQueue({ concurrency: FETCH_CONCURRENCY }).addAll(
      Array.from({ length: Math.max(0, pages - 1) }, (_, i) => () => slip.slipHistory({ ...query, limit: size, page: i + 2 }).then((p) => p.items)),
    );
    return { items: [...first.items, ...rest.flat()].slice(0, maxItems), total };
  }

  async function compute(scope: SummaryScope, timeZone: string): Promise<LoadedSummary> {
    const days = calendarDaysBetween(scope.fromDate, scope.toDate) + 1;
    const coveredFrom = days > maxDays ? addCalendarDays(scope.toDate, -(maxDays - 1)) : scope.fromDate;
    // The covered days' first instant: the range's own when nothing was cut.
    const from = days > maxDays ? resolveRange({ kind: "dates", from: coveredFrom, to: coveredFrom }, now(), timeZone).from : scope.from;
    const { items, total } = await fetchItems(scope, from);
    const search = scope.search ?? {};
    const kept = search.source === undefined && search.q === undefined ? items : items.filter((item) => matchesSearch(item, search));
    const figures = computeFigures(kept, { fromDate: coveredFrom, toDate: scope.toDate, timeZone });
    return { figures, coveredFrom, coveredTo: scope.toDate, total, read: items.length, sources: sourcesOf(items), at: now() };
  }

  return {
    load(scope, timeZone) {
      const key = JSON.stringify([scope.from.toISOString(), scope.to.toISOString(), scope.status ?? "", scope.search?.source ?? "", scope.search?.q ?? "", timeZone]);
      const at = now().getTime();
      for (const [k, entry] of recent) if (entry.until <= at) recent.delete(k);
      const kept = recent.get(key);
      if (kept !== undefined) return kept.value;
      const value = compute(scope, timeZone);
      recent.set(key, { until: at + reuseMs, value });
      // A failure is not reused: the next ask tries again.
      value.catch(() => recent.delete(key));
      return value;
    },
  };
}

/** The channels among `items`, the most checks first (then by name, so the order is stable). */
function sourcesOf(items: readonly HistoryItem[]): string[] {
  const counts = new Map<string, number>();
  for (const item of items) if (item.source !== null && item.source !== "") counts.set(item.source, (counts.get(item.source) ?? 0) + 1);
  return [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([source]) => source);
}
