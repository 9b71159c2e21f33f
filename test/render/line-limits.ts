// Test helper: what LINE would refuse in rendered messages, as the local LINE stand-in checks a reply
// (the same rules, so the renderers' tests and the stand-in cannot disagree), and what they show.
import type { messagingApi } from "@line/bot-sdk";
import { validateMessages } from "@slipline/line-stand-in";

/** Every LINE limit the messages break, as `property: message`; empty when LINE would take them. */
export function lineLimitProblems(messages: readonly messagingApi.Message[]): string[] {
  // http images are the local console's (loopback only); LINE itself wants https, which the stand-in checks otherwise.
  return validateMessages(messages, { allowHttpLoopback: true }).map((d) => `${d.property}: ${d.message}`);
}

/** All the text a person sees in the messages, joined, for "does it say X" assertions. */
export function visibleText(messages: readonly messagingApi.Message[]): string {
  const parts: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      if (record.type === "text" && Array.isArray(record.contents)) {
        // Spans show on one line, as one text.
        parts.push((record.contents as { text?: string }[]).map((span) => span.text ?? "").join(""));
        return;
      }
      if (record.type === "text" && typeof record.text === "string") parts.push(record.text);
      for (const [key, value] of Object.entries(record)) if (key !== "action" && typeof value === "object") walk(value);
    }
  };
  for (const message of messages) {
    if (message.type === "text") parts.push(message.text);
    if (message.type === "flex") walk(message.contents);
  }
  return parts.join("\n");
}

export function quickReplyLabels(message: messagingApi.Message | undefined): string[] {
  return (message?.quickReply?.items ?? []).map((item) => item.action?.label ?? "");
}

export function quickReplyTexts(message: messagingApi.Message | undefined): string[] {
  return (message?.quickReply?.items ?? []).map((item) => (item.action?.type === "message" ? (item.action.text ?? "") : ""));
}
