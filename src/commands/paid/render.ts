// "Has it arrived?": the valid checks of exactly the amount asked for (today, another day, or since a QR was
// made), newest first, or "no checked slip yet" with a quick reply to ask again.
import type { messagingApi } from "@line/bot-sdk";
import type { CalendarDate, Lang, RangeSpec } from "../types.js";
import { formatPaidCommand } from "../format.js";
import type { HistoryItem } from "../../slip/types.js";
import { formatBaht, formatTime, parseInstant } from "../../render/format.js";
import { safeText } from "../../render/limits.js";
import { cardBubble, flexMessage, quickReply } from "../../render/messages.js";
import { sourceWord, STATUS_COLORS } from "../../render/slip-words.js";
import { rangeLine, withSharedTexts } from "../../render/text.js";
import { PAID_TEXTS } from "./texts.js";
import { staffAnswer } from "../../privacy/answer.js";
import type { StaffAnswer } from "../../privacy/answer.js";
import { renderAskInPrivate } from "../../render/errors.js";

/** The shared texts and `paid`'s own, by language. */
const TEXTS = withSharedTexts(PAID_TEXTS);

/** Rows shown at most: a payment of one amount rarely arrives more than a few times a day. */
const MOST_ROWS = 5;

export interface PaidView {
  lang: Lang;
  timeZone: string;
  amountSatang: number;
  /** When set, only checks made after it count (the QR's time). */
  after?: Date | undefined;
  /** The days looked in, when not today. */
  range?: { spec: RangeSpec; fromDate: CalendarDate; toDate: CalendarDate } | undefined;
  /** The matching valid checks, newest first. */
  found: readonly HistoryItem[];
  /** The command that asks again, for the quick reply's data (it may hold the QR's instant, which nobody types). */
  askAgain: string;
}

export function renderPaid(view: PaidView): StaffAnswer {
  const t = TEXTS[view.lang];
  const amount = formatBaht(view.amountSatang / 100, view.lang);
  const scope =
    view.after !== undefined
      ? t.paidSince(formatTime(view.after, view.timeZone))
      : view.range === undefined || view.range.spec.kind === "today"
        ? t.paidToday
        : rangeLine(view.range.spec, view.range.fromDate, view.range.toDate, view.lang);
  const rows: messagingApi.FlexComponent[] = view.found.slice(0, MOST_ROWS).map((item) => {
    const at = parseInstant(item.createdAt);
    return {
      type: "box",
      layout: "vertical",
      margin: "md",
      contents: [
        {
          type: "box",
          layout: "horizontal",
          contents: [
            { type: "text", text: safeText(item.senderName ?? t.paidNoSender, 60), size: "sm", weight: "bold", flex: 3, wrap: true },
            { type: "text", text: at === undefined ? "–" : formatTime(at, view.timeZone), size: "sm", align: "end", flex: 1 },
          ],
        },
        {
          type: "text",
          text:
            [item.transRef === null ? undefined : `${t.refShort} ${safeText(item.transRef, 80)}`, item.source === null ? undefined : sourceWord(item.source, t)]
              .filter((part): part is string => part !== undefined)
              .join(" · ") || "–",
          size: "xxs",
          color: "#888888",
          wrap: true,
        },
      ],
    };
  });
  const found = view.found.length > 0;
  const bubble = cardBubble(
    [
      { type: "text", text: t.paidTitle(amount), weight: "bold", size: "md", wrap: true },
      { type: "text", text: scope, size: "xs", color: "#888888" },
      found
        ? { type: "text", text: t.paidFound(view.found.length), size: "md", weight: "bold", color: STATUS_COLORS.valid, margin: "md" }
        : { type: "text", text: t.paidNotYet, size: "sm", color: "#E67E22", margin: "md", wrap: true },
      ...rows,
    ],
    "xs",
  );
  // The chat shows what a person would type (`เช็คยอด 150`); the data keeps the QR's instant.
  const shown = view.range === undefined ? { amount: view.amountSatang } : { amount: view.amountSatang, range: view.range.spec };
  const askAgain = { label: t.paidAskAgain, text: formatPaidCommand(shown, view.lang), data: view.askAgain };
  return staffAnswer("paid", [flexMessage(t.paidAlt(amount, view.found.length), bubble, found ? undefined : quickReply([askAgain]))], renderAskInPrivate(view.lang));
}
