// The balance reply: store, package, tokens, credits, estimates, rates and expiry, a forecast at the recent
// pace, and a warning when it runs low.
import { addCalendarDays, calendarDaysBetween, zonedParts } from "../../time/calendar.js";
import type { messagingApi } from "@line/bot-sdk";
import type { Lang } from "../types.js";
import type { AccountInfo } from "../../slip/types.js";
import { formatCalendarDate, formatCount, formatTokens, parseInstant } from "../../render/format.js";
import { safeText } from "../../render/limits.js";
import { flexMessage } from "../../render/messages.js";
import { withSharedTexts } from "../../render/text.js";
import { BALANCE_TEXTS } from "./texts.js";
import { staffAnswer } from "../../privacy/answer.js";
import type { StaffAnswer } from "../../privacy/answer.js";
import { renderAskInPrivate } from "../../render/errors.js";

/** The shared texts and `balance`'s own, by language. */
const TEXTS = withSharedTexts(BALANCE_TEXTS);
type Texts = (typeof TEXTS)[Lang];

/** Warn when the package ends within this many days. */
const EXPIRY_WARNING_DAYS = 7;
/** Warn when the tokens left pay for fewer API checks than this. */
const LOW_SLIPS_WARNING = 50;
const UNKNOWN = "–";

export interface BalanceView {
  lang: Lang;
  timeZone: string;
  now: Date;
  account: AccountInfo;
  /** Tokens charged over the last `days` days (from history): the forecast's pace. Absent: no forecast shown. */
  usage?: { tokensCharged: number; days: number };
}

/** How long the tokens last at the recent pace, and whether they or the package end first. */
function forecastLines(view: BalanceView, expiry: Expiry | undefined, t: Texts): string[] {
  const { usage } = view;
  if (usage === undefined) return [];
  if (usage.tokensCharged <= 0) return [t.forecastNoHistory];
  const perDay = usage.tokensCharged / usage.days;
  const days = Math.floor(view.account.tokens / perDay);
  const until = addCalendarDays(zonedParts(view.now, view.timeZone), days);
  const lines = [t.forecastPerDay(formatTokens(perDay)), t.forecastLasts(formatCount(days), formatCalendarDate(until, view.lang))];
  if (expiry !== undefined && !expiry.expired) lines.push(days < expiry.daysLeft ? t.forecastTokensFirst : t.forecastPackageFirst);
  return lines;
}

function formatAmount(value: number): string {
  return Number.isInteger(value) ? formatCount(value) : formatTokens(value);
}

function row(label: string, value: string, color?: string): messagingApi.FlexBox {
  const valueText: messagingApi.FlexText = {
    type: "text",
    text: safeText(value, 100),
    size: "sm",
    align: "end",
    wrap: true,
    flex: 3,
  };
  if (color !== undefined) valueText.color = color;
  return {
    type: "box",
    layout: "horizontal",
    spacing: "sm",
    contents: [{ type: "text", text: label, size: "sm", color: "#888888", flex: 2, wrap: true }, valueText],
  };
}

interface Expiry {
  /** The expiry's calendar date in the business zone, written out. */
  date: string;
  /** Calendar days from today to the expiry date; negative once past. */
  daysLeft: number;
  expired: boolean;
  /** Expired, or ending within EXPIRY_WARNING_DAYS. */
  soon: boolean;
}

/** The package's expiry as the reply shows it, or undefined when the service's date cannot be read. */
function expiryOf(view: BalanceView): Expiry | undefined {
  const expires = parseInstant(view.account.expiresAt);
  if (expires === undefined) return undefined;
  const expiresOn = zonedParts(expires, view.timeZone);
  const daysLeft = calendarDaysBetween(zonedParts(view.now, view.timeZone), expiresOn);
  const expired = expires.getTime() <= view.now.getTime();
  return {
    date: formatCalendarDate(expiresOn, view.lang),
    daysLeft,
    expired,
    soon: expired || daysLeft <= EXPIRY_WARNING_DAYS,
  };
}

export function renderBalance(view: BalanceView): StaffAnswer {
  const t = TEXTS[view.lang];
  const a = view.account;
  const expiry = expiryOf(view);
  // A date the service wrote in a form that cannot be read is not shown raw: a dash says it is unknown.
  const expiryText =
    expiry === undefined
      ? UNKNOWN
      : // Days left on a line of their own: in the narrow value column they would break inside the brackets.
        `${expiry.date}\n(${expiry.expired ? t.expiredDaysAgo(Math.max(0, -expiry.daysLeft)) : t.daysLeft(expiry.daysLeft)})`;

  const warnings: string[] = [];
  if (expiry?.expired === true) warnings.push(t.warnExpired);
  else if (expiry?.soon === true) warnings.push(t.warnExpiring(expiry.daysLeft));
  if (a.estimatedSlips.api < LOW_SLIPS_WARNING) warnings.push(t.warnLowSlips(formatCount(a.estimatedSlips.api)));

  const tokens = formatTokens(a.tokens);
  const body: messagingApi.FlexComponent[] = [
    { type: "text", text: t.balanceTitle, size: "xs", color: "#1B4F91", weight: "bold" },
    { type: "text", text: safeText(a.storeName, 100), size: "lg", weight: "bold", wrap: true },
    row(t.balancePackage, a.packageName),
    { type: "separator", margin: "md" },
    {
      type: "box",
      layout: "vertical",
      margin: "md",
      contents: [
        { type: "text", text: t.balanceTokens, size: "xs", color: "#888888" },
        { type: "text", text: tokens, size: "xxl", weight: "bold", adjustMode: "shrink-to-fit" },
      ],
    },
    row(t.balanceCredits, formatAmount(a.credits)),
    // API and chat each on their own line: joined on one line they wrap mid-pair in the narrow value column.
    row(t.balanceEstimate, `${t.balanceApi} ${t.balanceSlips(formatCount(a.estimatedSlips.api))}\n${t.balanceChat} ${t.balanceSlips(formatCount(a.estimatedSlips.chat))}`),
    row(t.balanceRate, `${t.balanceApi} ${t.balancePerCheck(formatTokens(a.rate.api))}\n${t.balanceChat} ${t.balancePerCheck(formatTokens(a.rate.chat))}`),
    row(t.balanceExpires, expiryText, expiry?.soon === true ? "#D32F2F" : undefined),
  ];
  const forecast = forecastLines(view, expiry, t);
  if (forecast.length > 0) {
    body.push({ type: "separator", margin: "md" });
    body.push({ type: "text", text: t.forecastTitle, size: "xs", color: "#1B4F91", weight: "bold", margin: "md" });
    for (const line of forecast) {
      body.push({ type: "text", text: line, size: "xs", wrap: true, color: line.startsWith("⚠️") ? "#D32F2F" : "#555555" });
    }
  }
  for (const warning of warnings) {
    body.push({ type: "text", text: warning, size: "sm", color: "#D32F2F", wrap: true, margin: "md" });
  }

  const bubble: messagingApi.FlexBubble = {
    type: "bubble",
    size: "kilo",
    body: { type: "box", layout: "vertical", spacing: "sm", contents: body },
  };
  const alt = [t.balanceAlt(a.storeName, tokens, formatCount(a.estimatedSlips.api), expiry?.date ?? UNKNOWN), ...warnings].join(" ");
  return staffAnswer("balance", [flexMessage(alt, bubble)], renderAskInPrivate(view.lang));
}
