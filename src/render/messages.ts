// The message builders every renderer uses: text and Flex messages, quick replies and postback buttons,
// each kept inside LINE's limits.
import type { messagingApi } from "@line/bot-sdk";
import { LINE_LIMITS } from "../line-limits.js";
import { safeText, truncateLabel, truncateText } from "./limits.js";

export function textMessage(text: string, quickReply?: messagingApi.QuickReply): messagingApi.TextMessage {
  const message: messagingApi.TextMessage = { type: "text", text: safeText(text) };
  if (quickReply !== undefined) message.quickReply = quickReply;
  return message;
}

export function flexMessage(altText: string, bubble: messagingApi.FlexBubble, quickReply?: messagingApi.QuickReply): messagingApi.FlexMessage {
  const message: messagingApi.FlexMessage = {
    type: "flex",
    altText: safeText(altText, LINE_LIMITS.altTextChars),
    contents: bubble,
  };
  if (quickReply !== undefined) message.quickReply = quickReply;
  return message;
}

export interface QuickReplyChoice {
  label: string;
  /** What the chat shows as the person's message; without `data`, also the command it sends. */
  text: string;
  /**
   * The command itself, when it holds what a person would not type (a QR's instant): the tap is then a
   * postback, and the chat shows only `text`.
   */
  data?: string;
  /**
   * With `data`: the tap also opens the keyboard with this typed (LINE's postback `inputOption`), so the
   * person adds only what is missing, such as the amount after `คิวอาร์ `.
   */
  fillIn?: string;
}

function quickReplyAction(choice: QuickReplyChoice): messagingApi.Action {
  const label = truncateLabel(choice.label, LINE_LIMITS.quickReplyLabelGraphemes);
  if (choice.data === undefined) return { type: "message", label, text: choice.text };
  const action: messagingApi.PostbackAction = { type: "postback", label, data: choice.data, displayText: choice.text };
  if (choice.fillIn !== undefined) Object.assign(action, { inputOption: "openKeyboard", fillInText: choice.fillIn });
  return action;
}

/**
 * Quick reply of message (or postback) actions: at most 13 items, labels cut to 20 graphemes; a choice
 * whose text or data is over LINE's 300 characters is left out rather than cut, because a cut command
 * would mean something else.
 */
export function quickReply(choices: readonly QuickReplyChoice[]): messagingApi.QuickReply {
  const items: messagingApi.QuickReplyItem[] = choices
    .filter((c) => c.text.length > 0 && c.text.length <= LINE_LIMITS.messageActionTextChars)
    .filter((c) => c.data === undefined || (c.data.length > 0 && c.data.length <= LINE_LIMITS.postbackDataChars))
    .slice(0, LINE_LIMITS.quickReplyItems)
    .map((c) => ({ type: "action", action: quickReplyAction(c) }));
  return { items };
}

/**
 * A postback button, or undefined when the data does not fit in 300 characters (cut data would
 * ask for something else, so the button is better left out).
 */
export function postbackButton(label: string, data: string, displayText: string, style: messagingApi.FlexButton.StyleEnum = "link"): messagingApi.FlexButton | undefined {
  if (data.length === 0 || data.length > LINE_LIMITS.postbackDataChars) return undefined;
  return {
    type: "button",
    style,
    height: "sm",
    action: {
      type: "postback",
      label: truncateLabel(label, LINE_LIMITS.actionLabelGraphemes),
      data,
      displayText: truncateText(displayText, LINE_LIMITS.postbackDisplayTextChars),
    },
  };
}

/** A small card: one vertical body of `contents`, the size most short replies use. */
export function cardBubble(contents: messagingApi.FlexComponent[], spacing: messagingApi.FlexBox["spacing"] = "md"): messagingApi.FlexBubble {
  return { type: "bubble", size: "kilo", body: { type: "box", layout: "vertical", spacing, contents } };
}
