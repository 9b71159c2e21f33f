// The answers to a slip photo, all for staff places: the slip's check as the service has it (the first
// check, and how many came after), "not checked yet", or why no slip could be read; and the push of a
// customer's slip to the staff groups. Pure: the handler passes "now".
import type { messagingApi } from "@line/bot-sdk";
import type { Lang } from "../commands/types.js";
import type { HistoryItem } from "../slip/types.js";
import { formatBaht, formatDayMonth, formatTime, parseInstant } from "../render/format.js";
import { safeText } from "../render/limits.js";
import { cardBubble, flexMessage, textMessage } from "../render/messages.js";
import { sourceWord, statusColor, statusWord } from "../render/slip-words.js";
import { withSharedTexts } from "../render/text.js";
import type { Texts } from "../render/text.js";
import { renderCustomerThanks } from "../render/errors.js";
import { staffAnswer } from "../privacy/answer.js";
import type { StaffAnswer } from "../privacy/answer.js";
import { dayOf } from "../time/calendar.js";
import { SLIP_PHOTO_TEXTS } from "./texts.js";
import type { SlipPhotoTexts } from "./texts.js";

const TEXTS = withSharedTexts(SLIP_PHOTO_TEXTS);
const NAME_UNITS = 60;
const REF_UNITS = 60;
const DASH = "–";

export interface SlipLookupView {
  lang: Lang;
  timeZone: string;
  now: Date;
  transRef: string;
  /** The checks of this slip, newest first (the service's order). */
  checks: readonly HistoryItem[];
  /** How many checks the service has of it (more than `checks` when it has over a page of them). */
  total: number;
}

/** A moment as the card shows it: the time, with the day when it is not today. */
function when(instant: Date | undefined, view: { lang: Lang; timeZone: string; now: Date }, t: SlipPhotoTexts): string {
  if (instant === undefined) return DASH;
  const day = dayOf(instant, view.timeZone);
  const today = dayOf(view.now, view.timeZone);
  const sameDay = day.year === today.year && day.month === today.month && day.day === today.day;
  return t.at(formatTime(instant, view.timeZone), sameDay ? undefined : formatDayMonth(day, view.lang));
}

function amountOf(item: HistoryItem, lang: Lang): string {
  return item.amount === null ? DASH : formatBaht(item.amount, lang);
}

function viaOf(item: HistoryItem, t: Texts): string {
  return item.source === null ? DASH : sourceWord(item.source, t);
}

function row(label: string, value: string, color?: string): messagingApi.FlexBox {
  return {
    type: "box",
    layout: "horizontal",
    contents: [
      { type: "text", text: label, size: "sm", color: "#888888", flex: 2 },
      { type: "text", text: value, size: "sm", flex: 5, wrap: true, ...(color === undefined ? {} : { color, weight: "bold" }) },
    ],
  };
}

/** What a customer place gets instead of a slip photo's answer: the customers' thanks. */
const fallback = (lang: Lang) => renderCustomerThanks(lang);

/** The slip was checked: the first check in full, then how many came after it and the latest's result. */
export function renderSlipChecked(view: SlipLookupView): StaffAnswer {
  const t = TEXTS[view.lang];
  const first = view.checks[view.checks.length - 1];
  const latest = view.checks[0];
  if (first === undefined || latest === undefined) throw new RangeError("a checked slip has at least one check");
  const status = statusWord(first.status, t);
  const amount = amountOf(first, view.lang);
  const contents: messagingApi.FlexComponent[] = [
    { type: "text", text: t.checkedTitle, weight: "bold", size: "md", wrap: true },
    row(t.resultLabel, status, statusColor(first.status)),
    row(t.amountLabel, amount),
    row(t.fromLabel, safeText(first.senderName ?? DASH, NAME_UNITS)),
    row(t.toLabel, safeText(first.receiverName ?? DASH, NAME_UNITS)),
    row(t.checkedAtLabel, when(parseInstant(first.createdAt), view, t)),
    row(t.viaLabel, viaOf(first, t)),
    row(t.refLabel, safeText(view.transRef, REF_UNITS)),
  ];
  if (view.total > 1) {
    contents.push({ type: "separator", margin: "md" });
    contents.push({ type: "text", text: t.checkedTimes(view.total), size: "sm", weight: "bold", color: statusColor("duplicate"), wrap: true, margin: "md" });
    contents.push({ type: "text", text: t.sinceFirst(view.total - 1, statusWord(latest.status, t), when(parseInstant(latest.createdAt), view, t)), size: "sm", wrap: true });
  }
  return staffAnswer("slip_checked", [flexMessage(t.checkedAlt(status, amount), cardBubble(contents, "sm"))], fallback(view.lang));
}

/** The service has no check of this slip: said plainly, with where the shop checks slips, and no result. */
export function renderSlipNotChecked(view: { lang: Lang; transRef: string }): StaffAnswer {
  const t = TEXTS[view.lang];
  const bubble = cardBubble(
    [
      { type: "text", text: t.notCheckedTitle, weight: "bold", size: "md", wrap: true },
      { type: "text", text: t.notCheckedBody, size: "sm", wrap: true },
      row(t.refLabel, safeText(view.transRef, REF_UNITS)),
    ],
    "sm",
  );
  return staffAnswer("slip_not_checked", [flexMessage(t.notCheckedAlt, bubble)], fallback(view.lang));
}

/** Why there is nothing to look up: no slip QR in the photo, a payment QR, the photo gone, too many waiting. */
export type NoSlipReason = "unreadable" | "payment_qr" | "photo_missing" | "busy";

export function renderNoSlip(reason: NoSlipReason, lang: Lang): StaffAnswer {
  const t = TEXTS[lang];
  const text = { unreadable: t.unreadable, payment_qr: t.paymentQr, photo_missing: t.photoMissing, busy: t.tooManyPhotos }[reason];
  return staffAnswer("slip_unreadable", [textMessage(text)], fallback(lang));
}

/** A customer's slip, pushed to a staff group: one line, the lookup's gist. */
export function renderSlipPush(view: SlipLookupView): StaffAnswer {
  const t = TEXTS[view.lang];
  const first = view.checks[view.checks.length - 1];
  const text =
    first === undefined
      ? t.pushNotChecked(safeText(view.transRef, REF_UNITS))
      : t.pushChecked(
          first.senderName === null ? undefined : safeText(first.senderName, NAME_UNITS),
          amountOf(first, view.lang),
          statusWord(first.status, t),
          when(parseInstant(first.createdAt), view, t),
          viaOf(first, t),
        ) + (view.total > 1 ? `\n${t.checkedTimes(view.total)}` : "");
  return staffAnswer("slip_photo_push", [textMessage(text)], undefined);
}
