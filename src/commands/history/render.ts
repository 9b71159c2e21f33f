// The history reply: one bubble per page with the range, a summary, up to 10 rows, paging and filter quick replies.
import { compareCalendarDates, zonedParts } from "../../time/calendar.js";
import type { messagingApi } from "@line/bot-sdk";
import type { CalendarDate, HistoryRequest, Lang, RangeSpec } from "../types.js";
import { formatHistoryCommand } from "../format.js";
import { MAX_PAGE, isTransRef } from "../parse-history.js";
import { isSlipStatus, SLIP_STATUSES, type HistoryItem, type SlipStatus } from "../../slip/types.js";
import { formatBaht, formatCount, formatDateRange, formatDayMonth, formatMoney, formatTime, parseInstant } from "../../render/format.js";
import { safeText } from "../../render/limits.js";
import { flexMessage, postbackButton, quickReply, type QuickReplyChoice } from "../../render/messages.js";
import { jsonBytes, LINE_LIMITS } from "../../line-limits.js";
import { rangeLine, withSharedTexts } from "../../render/text.js";
import { HISTORY_TEXTS } from "./texts.js";
import { staffAnswer } from "../../privacy/answer.js";
import type { StaffAnswer } from "../../privacy/answer.js";
import { renderAskInPrivate } from "../../render/errors.js";
import { sourceWord, STATUS_COLORS, statusColor, statusWord } from "../../render/slip-words.js";

/** The shared texts and `history`'s own, by language. */
const TEXTS = withSharedTexts(HISTORY_TEXTS);
type Texts = (typeof TEXTS)[Lang];

/** Rows on one page of our history view. */
export const HISTORY_PAGE_SIZE = 10;

export type HistoryScope = { by: "range"; range: RangeSpec; fromDate: CalendarDate; toDate: CalendarDate; status?: SlipStatus } | { by: "ref"; transRef: string };

export interface StatusCount {
  status: string;
  count: number;
}

export interface HistorySummary {
  /** Checks matching the range and filter. */
  count: number;
  /** Sum of the amounts of valid checks, in baht. */
  validTotal: number;
  /** Known statuses in the service's order (docs/slip-service.md), then any others as the service wrote them; zero counts left out. */
  byStatus: readonly StatusCount[];
  /** Set when the valid total was counted over only this many newest checks (the rest were too many to fetch). */
  validTotalOver?: number;
}

export interface HistoryView {
  lang: Lang;
  timeZone: string;
  scope: HistoryScope;
  /** Our page number (10 rows a page), from 1. */
  page: number;
  summary: HistorySummary;
  /** The rows of this page, newest first. */
  rows: readonly HistoryItem[];
}

const NAME_UNITS = 40;
/** LINE draws at most 5,000 characters per text; a reference is a bank code far shorter, but a bad service must not break the bubble. */
const REF_UNITS = 80;
const DASH = "–";

function isOneDay(from: CalendarDate, to: CalendarDate): boolean {
  return compareCalendarDates(from, to) === 0;
}

function scopeLines(scope: HistoryScope, t: Texts, lang: Lang): { range: string; filter: string } {
  if (scope.by === "ref") return { range: t.filterRef(safeText(scope.transRef, REF_UNITS)), filter: t.filterAll };
  return {
    range: rangeLine(scope.range, scope.fromDate, scope.toDate, lang),
    filter: scope.status === undefined ? t.filterAll : t.filterStatus(t.statusWord[scope.status]),
  };
}

/** The time of a check; with its day too when the view spans more than one day. */
function rowTime(item: HistoryItem, view: HistoryView, withDay: boolean): string {
  const at = parseInstant(item.createdAt) ?? parseInstant(item.transDate);
  if (at === undefined) return DASH;
  const time = formatTime(at, view.timeZone);
  return withDay ? `${formatDayMonth(zonedParts(at, view.timeZone), view.lang)} ${time}` : time;
}

function renderRow(item: HistoryItem, view: HistoryView, t: Texts, withDay: boolean): messagingApi.FlexBox {
  const contents: messagingApi.FlexComponent[] = [
    {
      type: "box",
      layout: "horizontal",
      contents: [
        { type: "text", text: rowTime(item, view, withDay), size: "xs", color: "#888888", flex: 0, gravity: "center" },
        {
          type: "text",
          text: item.amount === null ? DASH : formatMoney(item.amount),
          size: "sm",
          weight: "bold",
          align: "end",
          flex: 1,
        },
      ],
    },
  ];
  const names = [item.senderName, item.receiverName].every((n) => n === null)
    ? undefined
    : `${safeText(item.senderName ?? t.noName, NAME_UNITS)} → ${safeText(item.receiverName ?? t.noName, NAME_UNITS)}`;
  contents.push({
    type: "box",
    layout: "horizontal",
    spacing: "sm",
    contents: [
      {
        type: "text",
        text: statusWord(item.status, t),
        size: "xs",
        weight: "bold",
        color: statusColor(item.status),
        flex: 0,
      },
      { type: "text", text: names ?? " ", size: "xs", color: "#555555", flex: 1 },
    ],
  });
  const details = [
    item.transRef === null ? undefined : `${t.refShort} ${safeText(item.transRef, REF_UNITS)}`,
    item.source === null ? undefined : sourceWord(item.source, t),
  ].filter((d): d is string => d !== undefined);
  if (details.length > 0) {
    contents.push({ type: "text", text: details.join(" · "), size: "xxs", color: "#AAAAAA", wrap: true });
  }
  const row: messagingApi.FlexBox = { type: "box", layout: "vertical", margin: "md", spacing: "xs", contents };
  // Tapping a row shows that check alone (its reference's view), unless this already is that view.
  if (view.scope.by === "range" && item.transRef !== null && isTransRef(item.transRef)) {
    const command = formatHistoryCommand({ by: "ref", transRef: item.transRef, page: 1 }, view.lang);
    row.action = { type: "postback", label: t.refShort, data: command, displayText: command };
  }
  return row;
}

function pageRequest(scope: HistoryScope, page: number): HistoryRequest {
  if (scope.by === "ref") return { by: "ref", transRef: scope.transRef, page };
  // Absolute dates, so "next page" tapped tomorrow still pages through the same days.
  const range: RangeSpec = { kind: "dates", from: scope.fromDate, to: scope.toDate };
  return { by: "range", range, status: scope.status, page };
}

function historyQuickReplies(scope: HistoryScope, lang: Lang, t: Texts): messagingApi.QuickReply {
  const range = (kind: "today" | "yesterday"): HistoryRequest => ({ by: "range", range: { kind }, page: 1 });
  // Status filters keep the range being looked at; after a ref lookup they apply to today.
  const base: RangeSpec = scope.by === "range" ? scope.range : { kind: "today" };
  const status = (s: SlipStatus): QuickReplyChoice => ({
    label: t.statusWord[s],
    text: formatHistoryCommand({ by: "range", range: base, status: s, page: 1 }, lang),
  });
  return quickReply([
    { label: t.quickToday, text: formatHistoryCommand(range("today"), lang) },
    { label: t.quickYesterday, text: formatHistoryCommand(range("yesterday"), lang) },
    {
      label: t.quick7Days,
      text: formatHistoryCommand({ by: "range", range: { kind: "days", days: 7 }, page: 1 }, lang),
    },
    status("valid"),
    status("fraud"),
    status("duplicate"),
  ]);
}

export function orderStatusCounts(counts: ReadonlyMap<string, number>): StatusCount[] {
  const known = SLIP_STATUSES.filter((s) => (counts.get(s) ?? 0) > 0).map((s) => ({
    status: s,
    count: counts.get(s) ?? 0,
  }));
  const other = [...counts.entries()]
    .filter(([s, n]) => !isSlipStatus(s) && n > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([status, count]) => ({ status, count }));
  return [...known, ...other];
}

/** There are no checks: said of the range looked at (`วันนี้ยังไม่มีสลิปที่ตรวจค่ะ`), or of the reference. */
function emptyLine(scope: HistoryScope, t: Texts, lang: Lang): string {
  if (scope.by === "ref") return t.historyEmptyRef(safeText(scope.transRef, 40));
  return t.noChecks(scope.range, formatDateRange(scope.fromDate, scope.toDate, lang), scope.status === undefined ? undefined : t.statusWord[scope.status]);
}

/** The line under the rows: which page this is, or why there are no rows. */
function pageLine(view: HistoryView, rowCount: number, pages: number, t: Texts): string {
  if (view.summary.count === 0) return emptyLine(view.scope, t, view.lang);
  const page = formatCount(view.page);
  return rowCount === 0 ? t.pastEnd(page, formatCount(pages)) : t.pageOf(page, formatCount(pages));
}

export function renderHistory(view: HistoryView): StaffAnswer {
  const t = TEXTS[view.lang];
  const lines = scopeLines(view.scope, t, view.lang);
  const pages = Math.ceil(view.summary.count / HISTORY_PAGE_SIZE);
  const rows = view.rows.slice(0, HISTORY_PAGE_SIZE);
  const withDay = !(view.scope.by === "range" && isOneDay(view.scope.fromDate, view.scope.toDate));
  const checks = t.summaryChecks(formatCount(view.summary.count));
  const validTotal = `${t.summaryValidTotal} ${formatMoney(view.summary.validTotal)}`;
  const footLine = pageLine(view, rows.length, pages, t);

  const header: messagingApi.FlexBox = {
    type: "box",
    layout: "vertical",
    backgroundColor: "#F4F6F8",
    spacing: "xs",
    contents: [
      { type: "text", text: t.historyTitle, weight: "bold", size: "md", color: "#1B4F91" },
      { type: "text", text: safeText(lines.range, 100), size: "xs", color: "#555555", wrap: true },
      { type: "text", text: lines.filter, size: "xs", color: "#555555" },
    ],
  };

  const summary: messagingApi.FlexComponent[] = [
    {
      type: "box",
      layout: "horizontal",
      contents: [
        { type: "text", text: checks, size: "sm", weight: "bold" },
        { type: "text", text: validTotal, size: "sm", weight: "bold", align: "end", color: STATUS_COLORS.valid, wrap: true },
      ],
    },
  ];
  if (view.summary.byStatus.length > 0) {
    summary.push({
      type: "text",
      wrap: true,
      size: "xs",
      contents: view.summary.byStatus.flatMap((s, i): messagingApi.FlexSpan[] => [
        ...(i > 0 ? [{ type: "span", text: "  ", size: "xs" } as messagingApi.FlexSpan] : []),
        { type: "span", text: statusWord(s.status, t), color: statusColor(s.status), weight: "bold" },
        { type: "span", text: ` ${formatCount(s.count)}`, color: "#555555" },
      ]),
    });
  }
  if (view.summary.validTotalOver !== undefined) {
    summary.push({
      type: "text",
      text: t.summaryPartial(formatCount(view.summary.validTotalOver)),
      size: "xxs",
      color: "#AAAAAA",
      wrap: true,
    });
  }

  // From a page past the end, "previous" leads back to the last page that has rows. A tap shows the command
  // it sends, which a person can also type (`ประวัติ 1/11/2569 ถึง 15/11/2569 หน้า 2`).
  const pageButton = (label: string, page: number, style?: messagingApi.FlexButton.StyleEnum) => {
    const command = formatHistoryCommand(pageRequest(view.scope, page), view.lang);
    return postbackButton(label, command, command, style);
  };
  const previous = Math.min(view.page - 1, pages);
  const footerButtons = [
    previous >= 1 ? pageButton(t.previousPage, previous) : undefined,
    // A page number the parser would refuse would make the button answer with a usage error.
    view.page < pages && view.page < MAX_PAGE ? pageButton(t.nextPage, view.page + 1, "primary") : undefined,
  ].filter((b): b is messagingApi.FlexButton => b !== undefined);

  const build = (shown: number): messagingApi.FlexBubble => {
    const body: messagingApi.FlexComponent[] = [...summary, { type: "separator", margin: "md" }];
    for (const row of rows.slice(0, shown)) body.push(renderRow(row, view, t, withDay));
    if (shown < rows.length) body.push({ type: "text", text: t.rowsCut, size: "xxs", color: "#AAAAAA", wrap: true });
    body.push({
      type: "text",
      text: footLine,
      size: view.summary.count === 0 || rows.length === 0 ? "sm" : "xxs",
      color: "#888888",
      margin: "md",
      wrap: true,
      align: view.summary.count === 0 ? "start" : "end",
    });
    const bubble: messagingApi.FlexBubble = {
      type: "bubble",
      size: "mega",
      header,
      body: { type: "box", layout: "vertical", spacing: "sm", contents: body },
    };
    if (footerButtons.length > 0) {
      bubble.footer = { type: "box", layout: "horizontal", spacing: "sm", contents: footerButtons };
    }
    return bubble;
  };

  // Rows are already cut to short texts, so this only drops rows in pathological cases; bounded by 10 tries.
  let shown = rows.length;
  let bubble = build(shown);
  while (shown > 0 && jsonBytes(bubble) > LINE_LIMITS.bubbleJsonBytes) {
    shown -= 1;
    bubble = build(shown);
  }

  const statusCounts = view.summary.byStatus.map((s) => `${statusWord(s.status, t)} ${formatCount(s.count)}`);
  // The alt text is read as a sentence (a notification, the chat list): money as a sentence writes it.
  const spokenTotal = `${t.summaryValidTotal} ${formatBaht(view.summary.validTotal, view.lang)}`;
  // Nothing found: the empty line names the days or the reference and the status already, so it is said once.
  const altText =
    view.summary.count === 0
      ? t.historyAltEmpty(view.scope.by === "ref" ? undefined : lines.range, footLine)
      : t.historyAlt(`${lines.range} (${lines.filter})`, t.historyAltFigures(checks, spokenTotal, statusCounts), footLine);
  return staffAnswer("history", [flexMessage(altText, bubble, historyQuickReplies(view.scope, view.lang, t))], renderAskInPrivate(view.lang));
}
