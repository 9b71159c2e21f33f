// LINE's message limits and the helpers every renderer uses to stay inside them.
import type { messagingApi } from "@line/bot-sdk";

export const LIMITS = {
  messagesPerReply: 5,
  textUnits: 5_000,
  altTextChars: 1_500,
  bubbleBytes: 30_000,
  quickReplyItems: 13,
  quickReplyLabel: 20,
  buttonLabel: 40,
  postbackData: 300,
  displayText: 300,
  messageActionText: 300,
  imageUrlChars: 2_000,
} as const;

const ELLIPSIS = "…";
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Cuts text to at most `maxUnits` UTF-16 code units (how LINE counts text), ending with an ellipsis
 * when cut. It never splits a grapheme cluster, so a Thai vowel mark or an emoji stays whole.
 */
export function truncateText(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  const budget = maxUnits - ELLIPSIS.length;
  let out = "";
  for (const { segment } of graphemes.segment(text)) {
    if (out.length + segment.length > budget) break;
    out += segment;
  }
  return out + ELLIPSIS;
}

export function graphemeCount(text: string): number {
  let count = 0;
  for (const _ of graphemes.segment(text)) count += 1;
  return count;
}

/** Cuts a label to at most `maxGraphemes` grapheme clusters (how LINE counts labels), ending with an ellipsis. */
export function truncateLabel(label: string, maxGraphemes: number): string {
  // A grapheme is at least one UTF-16 unit: a short enough string needs no segmenting (the usual case).
  if (label.length <= maxGraphemes) return label;
  const parts = Array.from(graphemes.segment(label), (s) => s.segment);
  if (parts.length <= maxGraphemes) return label;
  return parts.slice(0, maxGraphemes - 1).join("") + ELLIPSIS;
}

/** Text for a Flex text component or a text message: never empty, at most `maxUnits` UTF-16 units. */
export function safeText(text: string, maxUnits: number = LIMITS.textUnits): string {
  const cut = truncateText(text, maxUnits);
  return cut.length > 0 ? cut : " ";
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Whether LINE (or the local console) can load this image URL: https, or http on a loopback host
 * for the console, and at most 2,000 characters.
 */
export function isUsableImageUrl(url: string): boolean {
  if (url.length > LIMITS.imageUrlChars) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === "https:") return true;
  return parsed.protocol === "http:" && LOOPBACK_HOSTS.has(parsed.hostname);
}

/** The bytes LINE measures for a Flex container: its JSON in UTF-8. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}

export function textMessage(text: string, quickReply?: messagingApi.QuickReply): messagingApi.TextMessage {
  const message: messagingApi.TextMessage = { type: "text", text: safeText(text) };
  if (quickReply !== undefined) message.quickReply = quickReply;
  return message;
}

export function flexMessage(
  altText: string,
  bubble: messagingApi.FlexBubble,
  quickReply?: messagingApi.QuickReply,
): messagingApi.FlexMessage {
  const message: messagingApi.FlexMessage = {
    type: "flex",
    altText: safeText(altText, LIMITS.altTextChars),
    contents: bubble,
  };
  if (quickReply !== undefined) message.quickReply = quickReply;
  return message;
}

export interface QuickReplyChoice {
  label: string;
  text: string;
}

/**
 * Quick reply of message actions: at most 13 items, labels cut to 20 graphemes; a choice whose text
 * is over LINE's 300 characters is left out rather than cut, because a cut command would mean something else.
 */
export function quickReply(choices: readonly QuickReplyChoice[]): messagingApi.QuickReply {
  const items: messagingApi.QuickReplyItem[] = choices
    .filter((c) => c.text.length > 0 && c.text.length <= LIMITS.messageActionText)
    .slice(0, LIMITS.quickReplyItems)
    .map((c) => ({
      type: "action",
      action: { type: "message", label: truncateLabel(c.label, LIMITS.quickReplyLabel), text: c.text },
    }));
  return { items };
}

/**
 * A postback button, or undefined when the data does not fit in 300 characters (cut data would
 * ask for something else, so the button is better left out).
 */
export function postbackButton(
  label: string,
  data: string,
  displayText: string,
  style: messagingApi.FlexButton.StyleEnum = "link",
): messagingApi.FlexButton | undefined {
  if (data.length === 0 || data.length > LIMITS.postbackData) return undefined;
  return {
    type: "button",
    style,
    height: "sm",
    action: {
      type: "postback",
      label: truncateLabel(label, LIMITS.buttonLabel),
      data,
      displayText: truncateText(displayText, LIMITS.displayText),
    },
  };
}
