// The words and colours of statuses and channels, as every view of slip checks shows them.
import { isListedSource, isSlipStatus, type SlipStatus } from "../slip/types.js";
import { safeText } from "./limits.js";
import type { Texts } from "./text.js";

const STATUS_WORD_UNITS = 20;
const DASH = "–";

export const STATUS_COLORS: Record<SlipStatus, string> = {
  valid: "#1DB446",
  invalid: "#E67E22",
  fraud: "#D32F2F",
  duplicate: "#8E44AD",
  not_found: "#607D8B",
  error: "#7F7F7F",
};
/** Statuses the service's API does not list get this colour and their raw word. */
export const NEUTRAL_COLOR = "#999999";

export function statusWord(status: string | null, t: Texts): string {
  if (status === null) return DASH;
  return isSlipStatus(status) ? t.statusWord[status] : safeText(status, STATUS_WORD_UNITS);
}

export function statusColor(status: string | null): string {
  return status !== null && isSlipStatus(status) ? STATUS_COLORS[status] : NEUTRAL_COLOR;
}

export function sourceWord(source: string, t: Texts): string {
  return isListedSource(source) ? t.sourceWord[source] : safeText(source, STATUS_WORD_UNITS);
}
