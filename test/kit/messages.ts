// Reads what the bot sent the way a person sees it: every text shown, every button and quick reply.
import type { messagingApi } from "@line/bot-sdk";

/** Every `text` a chat would show for these messages (text messages, Flex texts and spans, altText). */
export function shownText(messages: readonly messagingApi.Message[]): string {
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const record = node as Record<string, unknown>;
    if (record.type === "text" && typeof record.text === "string") out.push(record.text);
    if (record.type === "span" && typeof record.text === "string") out.push(record.text);
    if (typeof record.altText === "string") out.push(record.altText);
    for (const [key, value] of Object.entries(record)) {
      if (key !== "action" && key !== "quickReply") walk(value);
    }
  };
  walk(messages);
  return out.join("\n");
}

/** Every action (buttons, tappable boxes, quick replies) in these messages. */
export function actionsIn(messages: readonly messagingApi.Message[]): messagingApi.Action[] {
  const out: messagingApi.Action[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (key === "action" && typeof value === "object" && value !== null && "type" in value) out.push(value as messagingApi.Action);
      else walk(value);
    }
  };
  walk(messages);
  return out;
}

export function postbackData(messages: readonly messagingApi.Message[]): string[] {
  return actionsIn(messages).flatMap((a) => (a.type === "postback" && typeof a.data === "string" ? [a.data] : []));
}

export function quickReplyTexts(messages: readonly messagingApi.Message[]): string[] {
  const last = messages[messages.length - 1];
  return (last?.quickReply?.items ?? []).flatMap((item) => (item.action?.type === "message" && typeof item.action.text === "string" ? [item.action.text] : []));
}

/** Each quick reply of the last message as a tap: what the chat shows as the person's message, and the command the bot gets. */
export function quickReplyTaps(messages: readonly messagingApi.Message[]): { shows: string; sends: string }[] {
  const last = messages[messages.length - 1];
  return (last?.quickReply?.items ?? []).map((item) => {
    const action = item.action;
    if (action?.type === "message") return { shows: action.text ?? "", sends: action.text ?? "" };
    if (action?.type === "postback") return { shows: action.displayText ?? "", sends: action.data ?? "" };
    return { shows: "", sends: "" };
  });
}
