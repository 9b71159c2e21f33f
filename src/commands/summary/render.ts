// The summary reply: one bubble with the range, the headline figures, counts and amounts per status and per
// channel, the tokens used, and a bar chart drawn with Flex boxes (per hour for a day, per day for longer).
import { compareCalendarDates } from "../../time/calendar.js";
import type { messagingApi } from "@line/bot-sdk";
import type { CalendarDate, Lang, RangeSpec } from "../types.js";
import type { SlipStatus } from "../../slip/types.js";
import type { SummaryFigures } from "../../summary/figures.js";
import { formatBaht, formatCount, formatDateRange, formatDayMonth, formatMoney, formatTime, formatTokens } from "../../render/format.js";
import { safeText } from "../../render/limits.js";
import { flexMessage } from "../../render/messages.js";
import { sourceWord, STATUS_COLORS, statusColor, statusWord } from "../../render/slip-words.js";
import { rangeLine, withSharedTexts } from "../../render/text.js";
import { SUMMARY_TEXTS } from "./texts.js";
import { staffAnswer } from "../../privacy/answer.js";
import type { StaffAnswer } from "../../privacy/answer.js";
import { renderAskInPrivate } from "../../render/errors.js";

/** The shared texts and `summary`'s own, by language. */
const TEXTS = withSharedTexts(SUMMARY_TEXTS);
type Texts = (typeof TEXTS)[Lang];

export interface SummaryView {
  lang: Lang;
  timeZone: string;
  /** The range as asked (its name: today, 7 days...). */
  range: RangeSpec;
  status?: SlipStatus | undefined;
  figures: SummaryFigures;
  /** The days the figures cover, and the days asked for (different when a long range was cut). */
  coveredFrom: CalendarDate;
  coveredTo: CalendarDate;
  askedFrom: CalendarDate;
  /** Checks in the covered days at the service; more than the figures' count when capped. */
  total: number;
  at: Date;
  /** A line above the title (the daily summary's "Today's summary"). */
  lead?: string;
}

const CHART_HEIGHT_PX = 48;
/** Rows per section at most: statuses and channels the service's API does not list could be many; the rest share a row. */
const MOST_ROWS = 8;
const CHART_COLOR = "#1DB446";
const EMPTY_BAR_COLOR = "#EEEEEE";

function money(satang: number): string {
  return formatMoney(satang / 100);
}

function row(label: messagingApi.FlexText, count: string, amount: string): messagingApi.FlexBox {
  return {
    type: "box",
    layout: "horizontal",
    contents: [
      { ...label, flex: 5 },
      { type: "text", text: count, size: "xs", color: "#555555", align: "end", flex: 2 },
      { type: "text", text: amount, size: "xs", align: "end", flex: 4 },
    ],
  };
}

const sum = <T>(list: readonly T[], of: (item: T) => number): number => list.reduce((total, item) => total + of(item), 0);

/** The first rows, and the rest folded into one. */
function capped<T>(rows: readonly T[], fold: (rest: readonly T[]) => T): { shown: readonly T[]; others?: T; othersOf: number } {
  if (rows.length <= MOST_ROWS) return { shown: rows, othersOf: 0 };
  const rest = rows.slice(MOST_ROWS - 1);
  return { shown: rows.slice(0, MOST_ROWS - 1), others: fold(rest), othersOf: rest.length };
}

function othersRow(count: number, satang: number, kinds: number, t: Texts): messagingApi.FlexBox {
  return row({ type: "text", text: t.summaryOthers(formatCount(kinds)), size: "xs", color: "#888888" }, formatCount(count), satang === 0 ? "–" : money(satang));
}

function section(title: string): messagingApi.FlexText {
  return { type: "text", text: title, size: "xs", weight: "bold", color: "#1B4F91", margin: "lg" };
}

/** Bars as boxes of a height proportional to the count; empty hours and days show a thin grey line. */
function chart(figures: SummaryFigures, view: SummaryView, t: Texts): messagingApi.FlexComponent[] {
  const { bars, per } = figures.chart;
  const most = Math.max(1, ...bars.map((b) => b.count));
  const columns: messagingApi.FlexBox[] = bars.map((bar) => ({
    type: "box",
    layout: "vertical",
    justifyContent: "flex-end",
    height: `${CHART_HEIGHT_PX}px`,
    flex: 1,
    contents: [
      {
        type: "box",
        layout: "vertical",
        contents: [],
        height: `${bar.count === 0 ? 1 : Math.max(2, Math.round((bar.count / most) * CHART_HEIGHT_PX))}px`,
        backgroundColor: bar.count === 0 ? EMPTY_BAR_COLOR : CHART_COLOR,
      },
    ],
  }));
  const first = bars[0];
  const last = bars[bars.length - 1];
  const label = (at: number | CalendarDate | undefined): string =>
    at === undefined ? "" : typeof at === "number" ? `${String(at).padStart(2, "0")}:00` : formatDayMonth(at, view.lang);
  return [
    section(per === "hour" ? t.summaryPerHour : t.summaryPerDay),
    { type: "box", layout: "horizontal", spacing: "xs", margin: "sm", contents: columns },
    {
      type: "box",
      layout: "horizontal",
      contents: [
        { type: "text", text: label(first?.at), size: "xxs", color: "#AAAAAA" },
        { type: "text", text: per === "hour" ? "23:00" : label(last?.at), size: "xxs", color: "#AAAAAA", align: "end" },
      ],
    },
  ];
}

/** The close-out card: asked for (`summary`), or pushed at closing time (`daily_summary`, with a lead line). */
export function renderSummary(view: SummaryView, kind: "summary" | "daily_summary" = "summary"): StaffAnswer {
  const t = TEXTS[view.lang];
  const { figures } = view;
  const range = rangeLine(view.range, view.coveredFrom, view.coveredTo, view.lang);
  const headerLines: messagingApi.FlexComponent[] = [
    ...(view.lead === undefined ? [] : [{ type: "text", text: view.lead, size: "xs", color: "#1DB446", weight: "bold" } as messagingApi.FlexText]),
    { type: "text", text: t.summaryTitle, weight: "bold", size: "md", color: "#1B4F91" },
    { type: "text", text: safeText(range, 100), size: "xs", color: "#555555", wrap: true },
    { type: "text", text: view.status === undefined ? t.filterAll : t.filterStatus(t.statusWord[view.status]), size: "xs", color: "#555555" },
  ];

  const body: messagingApi.FlexComponent[] = [
    {
      type: "box",
      layout: "horizontal",
      contents: [
        { type: "text", text: t.summaryChecks(formatCount(figures.count)), size: "md", weight: "bold", flex: 0 },
        { type: "text", text: money(figures.validSatang), size: "lg", weight: "bold", align: "end", color: STATUS_COLORS.valid },
      ],
    },
    { type: "text", text: t.summaryValidLabel, size: "xxs", color: "#AAAAAA", align: "end" },
  ];

  if (figures.count === 0) {
    const status = view.status === undefined ? undefined : t.statusWord[view.status];
    const empty = t.noChecks(view.range, formatDateRange(view.coveredFrom, view.coveredTo, view.lang), status);
    body.push({ type: "text", text: empty, size: "sm", color: "#888888", margin: "lg", wrap: true });
  } else {
    body.push(section(t.summaryByStatus));
    const statuses = capped(figures.byStatus, (rest) => ({
      status: "",
      count: sum(rest, (s) => s.count),
      amountSatang: sum(rest, (s) => s.amountSatang),
    }));
    for (const s of statuses.shown) {
      body.push(
        row(
          { type: "text", text: statusWord(s.status, t), size: "xs", weight: "bold", color: statusColor(s.status) },
          formatCount(s.count),
          s.amountSatang === 0 ? "–" : money(s.amountSatang),
        ),
      );
    }
    if (statuses.others !== undefined) body.push(othersRow(statuses.others.count, statuses.others.amountSatang, statuses.othersOf, t));
    body.push(section(t.summaryByChannel));
    const sources = capped(figures.bySource, (rest) => ({
      source: "",
      count: sum(rest, (s) => s.count),
      validSatang: sum(rest, (s) => s.validSatang),
    }));
    for (const s of sources.shown) {
      body.push(row({ type: "text", text: s.source === "" ? t.summaryNoSource : sourceWord(s.source, t), size: "xs", wrap: true }, formatCount(s.count), money(s.validSatang)));
    }
    if (sources.others !== undefined) body.push(othersRow(sources.others.count, sources.others.validSatang, sources.othersOf, t));
    body.push({ type: "text", text: t.summaryTokensUsed(formatTokens(figures.tokensCharged)), size: "xs", color: "#555555", margin: "lg" });
    body.push(...chart(figures, view, t));
  }

  const notes: string[] = [];
  if (compareCalendarDates(view.coveredFrom, view.askedFrom) !== 0) {
    notes.push(t.summaryDaysCut(formatDateRange(view.coveredFrom, view.coveredTo, view.lang)));
  }
  if (view.total > figures.count) notes.push(t.summaryCapped(formatCount(figures.count), formatCount(view.total)));
  notes.push(t.summaryAsOf(formatTime(view.at, view.timeZone)));
  for (const note of notes) body.push({ type: "text", text: note, size: "xxs", color: "#AAAAAA", wrap: true, margin: "md" });

  const bubble: messagingApi.FlexBubble = {
    type: "bubble",
    size: "mega",
    header: { type: "box", layout: "vertical", backgroundColor: "#F4F6F8", spacing: "xs", contents: headerLines },
    body: { type: "box", layout: "vertical", spacing: "xs", contents: body },
  };
  const spokenValid = formatBaht(figures.validSatang / 100, view.lang);
  return staffAnswer(kind, [flexMessage(t.summaryAlt(safeText(range, 100), formatCount(figures.count), spokenValid), bubble)], renderAskInPrivate(view.lang));
}
