// The figures of a summary, computed from history items: pure, exact (satang, not floats), in the
// business time zone for the chart's hours and days.
import { addCalendarDays, calendarDaysBetween, compareCalendarDates, zonedParts } from "../time/calendar.js";
import type { CalendarDate } from "../commands/types.js";
import { isSlipStatus, SLIP_STATUSES } from "../slip/types.js";
import type { HistoryItem } from "../slip/types.js";

export interface StatusFigure {
  status: string;
  count: number;
  /** Sum of the amounts the items of this status carry (unreadable slips carry none). */
  amountSatang: number;
}

export interface SourceFigure {
  source: string;
  count: number;
  /** Sum of the valid amounts that came through this channel. */
  validSatang: number;
}

/** One bar of the chart: an hour of the day, or a day of the range. */
export interface Bar {
  /** The hour (0..23) or the day. */
  at: number | CalendarDate;
  count: number;
  validSatang: number;
}

export interface SummaryFigures {
  /** Checks the figures are computed over. */
  count: number;
  validCount: number;
  validSatang: number;
  /** Known statuses in their usual order, then any others as the service wrote them; zero counts left out. */
  byStatus: StatusFigure[];
  /** Most checks first; a check without a source is counted under "". */
  bySource: SourceFigure[];
  tokensCharged: number;
  chart: { per: "hour" | "day"; bars: Bar[] };
}

export interface SummaryShape {
  /** The days the summary covers, in the business zone. */
  fromDate: CalendarDate;
  toDate: CalendarDate;
  timeZone: string;
}

function toSatang(amount: number): number {
  return Math.round(amount * 100);
}

/** The figures of `items` over the days of `shape`: per hour for one day, per day for longer. */
export function computeFigures(items: readonly HistoryItem[], shape: SummaryShape): SummaryFigures {
  const oneDay = compareCalendarDates(shape.fromDate, shape.toDate) === 0;
  const days = calendarDaysBetween(shape.fromDate, shape.toDate) + 1;
  const bars: Bar[] = oneDay
    ? Array.from({ length: 24 }, (_, hour) => ({ at: hour, count: 0, validSatang: 0 }))
    : Array.from({ length: days }, (_, i) => ({ at: addCalendarDays(shape.fromDate, i), count: 0, validSatang: 0 }));

  const statuses = new Map<string, StatusFigure>();
  const sources = new Map<string, SourceFigure>();
  let validCount = 0;
  let validSatang = 0;
  let tokens = 0;

  for (const item of items) {
    const amount = item.amount === null ? 0 : toSatang(item.amount);
    const valid = item.status === "valid";
    const status = item.status ?? "";
    const statusFigure = statuses.get(status) ?? { status, count: 0, amountSatang: 0 };
    statusFigure.count += 1;
    statusFigure.amountSatang += amount;
    statuses.set(status, statusFigure);

    const source = item.source ?? "";
    const sourceFigure = sources.get(source) ?? { source, count: 0, validSatang: 0 };
    sourceFigure.count += 1;
    if (valid) sourceFigure.validSatang += amount;
    sources.set(source, sourceFigure);

    if (valid) {
      validCount += 1;
      validSatang += amount;
    }
    // Tokens are counted in hundredths so that 0.75 + 0.75 + ... stays exact.
    tokens += Math.round((item.tokensCharged ?? 0) * 100);

    const at = item.createdAt === null ? undefined : new Date(item.createdAt);
    if (at === undefined || Number.isNaN(at.getTime())) continue;
    const parts = zonedParts(at, shape.timeZone);
    // A check outside the days (the service's clock a little off) counts in the totals, not in a bar.
    const day = calendarDaysBetween(shape.fromDate, parts);
    const bar = oneDay ? (day === 0 ? bars[parts.hour] : undefined) : bars[day];
    if (bar === undefined) continue;
    bar.count += 1;
    if (valid) bar.validSatang += amount;
  }

  const known = SLIP_STATUSES.flatMap((s) => statuses.get(s) ?? []);
  const others = [...statuses.values()].filter((f) => !isSlipStatus(f.status)).sort((a, b) => (a.status < b.status ? -1 : 1));
  return {
    count: items.length,
    validCount,
    validSatang,
    byStatus: [...known, ...others],
    bySource: [...sources.values()].sort((a, b) => b.count - a.count || (a.source < b.source ? -1 : 1)),
    tokensCharged: tokens / 100,
    chart: { per: oneDay ? "hour" : "day", bars },
  };
}
