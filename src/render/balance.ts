// The balance reply: store, package, tokens, credits, estimates, rates and expiry, with a warning when it runs low.
import type { messagingApi } from "@line/bot-sdk";
import type { Lang } from "../commands/types.js";
import type { AccountInfo } from "../slip/types.js";
import { calendarDaysBetween, formatCount, formatDate, formatTokens, parseInstant, zonedParts } from "./format.js";
import { flexMessage, safeText } from "./limits.js";
import { texts } from "./text.js";

/** Warn when the package ends within this many days. */
export const EXPIRY_WARNING_DAYS = 7;
/** Warn when the tokens left pay for fewer API checks than this. */
export const LOW_SLIPS_WARNING = 50;

export interface BalanceView {
  lang: Lang;
  timeZone: string;
  now: Date;
  account: AccountInfo;
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

export function renderBalance(view: BalanceView): messagingApi.Message[] {
  const t = texts(view.lang);
  const a = view.account;
  const expires = parseInstant(a.expiresAt);
  const daysLeft =
    expires === undefined
      ? undefined
      : calendarDaysBetween(zonedParts(view.now, view.timeZone), zonedParts(expires, view.timeZone));
  const expired = expires !== undefined && expires.getTime() <= view.now.getTime();
  const expiryText =
    expires === undefined || daysLeft === undefined
      ? a.expiresAt
      : // Days left on a line of their own: in the narrow value column they would break inside the brackets.
        `${formatDate(expires, view.lang, view.timeZone)}\n(${expired ? t.expiredDaysAgo(Math.max(0, -daysLeft)) : t.daysLeft(daysLeft)})`;

  const warnings: string[] = [];
  if (expired) warnings.push(t.warnExpired);
  else if (daysLeft !== undefined && daysLeft <= EXPIRY_WARNING_DAYS) warnings.push(t.warnExpiring(daysLeft));
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
    row(
      t.balanceEstimate,
      `${t.balanceApi} ${t.balanceSlips(formatCount(a.estimatedSlips.api))}\n${t.balanceChat} ${t.balanceSlips(formatCount(a.estimatedSlips.chat))}`,
    ),
    row(
      t.balanceRate,
      `${t.balanceApi} ${t.balancePerCheck(formatTokens(a.rate.api))}\n${t.balanceChat} ${t.balancePerCheck(formatTokens(a.rate.chat))}`,
    ),
    row(t.balanceExpires, expiryText, expired || (daysLeft !== undefined && daysLeft <= EXPIRY_WARNING_DAYS) ? "#D32F2F" : undefined),
  ];
  for (const warning of warnings) {
    body.push({ type: "text", text: warning, size: "sm", color: "#D32F2F", wrap: true, margin: "md" });
  }

  const bubble: messagingApi.FlexBubble = {
    type: "bubble",
    size: "kilo",
    body: { type: "box", layout: "vertical", spacing: "sm", contents: body },
  };
  const alt = [
    t.balanceAlt(a.storeName, tokens, formatCount(a.estimatedSlips.api), expires === undefined ? a.expiresAt : formatDate(expires, view.lang, view.timeZone)),
    ...warnings,
  ].join(" ");
  return [flexMessage(alt, bubble)];
}
