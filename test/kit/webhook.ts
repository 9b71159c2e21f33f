// Builds LINE webhook bodies the way LINE does: typed events, ULID event ids, and a real HMAC-SHA256 signature.
import { createHmac, randomBytes } from "node:crypto";
import type { webhook } from "@line/bot-sdk";
import { newEventId } from "@slipline/line-stand-in";

/** A ULID like LINE's webhookEventId, from the LINE stand-in. */
export { newEventId };

/** base64(HMAC-SHA256(channel secret, raw body)): the x-line-signature header. */
export function signBody(body: string | Buffer, channelSecret: string): string {
  return createHmac("sha256", channelSecret).update(body).digest("base64");
}

/** Deterministic LINE-shaped ids for readable tests: U/C/R followed by 32 hex digits. */
export function lineId(prefix: "U" | "C" | "R", seed: number): string {
  return `${prefix}${seed.toString(16).padStart(32, "0")}`;
}

export type TestSource = { type: "user"; userId: string } | { type: "group"; groupId: string; userId?: string } | { type: "room"; roomId: string; userId?: string };

/** The push target LINE would use for this source. */
export function chatIdOf(source: TestSource): string {
  return source.type === "user" ? source.userId : source.type === "group" ? source.groupId : source.roomId;
}

interface Common {
  source: TestSource;
  replyToken?: string;
  eventId?: string;
  mode?: "active" | "standby";
  isRedelivery?: boolean;
  timestamp?: number;
}

function base(c: Common): Omit<webhook.EventBase, "type"> & { replyToken?: string } {
  return {
    source: c.source,
    timestamp: c.timestamp ?? Date.now(),
    mode: c.mode ?? "active",
    webhookEventId: c.eventId ?? newEventId(),
    deliveryContext: { isRedelivery: c.isRedelivery ?? false },
    ...(c.replyToken === undefined ? {} : { replyToken: c.replyToken }),
  };
}

export function textEvent(c: Common & { text: string; mentionees?: { index: number; length: number; isSelf?: boolean; userId?: string }[] }): webhook.MessageEvent {
  const mentionees = c.mentionees?.map((m) => ({
    index: m.index,
    length: m.length,
    type: "user" as const,
    ...(m.userId === undefined ? {} : { userId: m.userId }),
    ...(m.isSelf === undefined ? {} : { isSelf: m.isSelf }),
  }));
  return {
    ...base(c),
    type: "message",
    replyToken: c.replyToken,
    message: {
      id: String(Date.now()),
      type: "text",
      text: c.text,
      quoteToken: randomBytes(8).toString("hex"),
      ...(mentionees === undefined ? {} : { mention: { mentionees } }),
    },
  };
}

/** `@name rest`: the text and the mentionee pointing at `@name`, as LINE sends a mention of the bot. */
export function mentionText(name: string, rest: string): { text: string; mentionees: { index: number; length: number; isSelf: boolean }[] } {
  const mention = `@${name}`;
  return { text: `${mention} ${rest}`, mentionees: [{ index: 0, length: mention.length, isSelf: true }] };
}

export function postbackEvent(c: Common & { data: string }): webhook.PostbackEvent {
  return { ...base(c), type: "postback", replyToken: c.replyToken, postback: { data: c.data } };
}

export function followEvent(c: Common): webhook.FollowEvent {
  return { ...base(c), type: "follow", replyToken: c.replyToken, follow: { isUnblocked: false } } as webhook.FollowEvent;
}

export function joinEvent(c: Common): webhook.JoinEvent {
  return { ...base(c), type: "join", replyToken: c.replyToken } as webhook.JoinEvent;
}

export function stickerEvent(c: Common): webhook.MessageEvent {
  return {
    ...base(c),
    type: "message",
    replyToken: c.replyToken,
    message: { id: String(Date.now()), type: "sticker", packageId: "446", stickerId: "1988", stickerResourceType: "STATIC", quoteToken: "q" },
  };
}

/** A photo: `messageId` names its content (the stand-in's `addMessageContent` gives one); `external`: a photo LINE does not keep. */
export function imageEvent(c: Common & { messageId?: string; external?: boolean }): webhook.MessageEvent {
  const contentProvider: webhook.ContentProvider =
    c.external === true ? { type: "external", originalContentUrl: "https://example.com/slip.jpg", previewImageUrl: "https://example.com/slip-s.jpg" } : { type: "line" };
  return {
    ...base(c),
    type: "message",
    replyToken: c.replyToken,
    message: { id: c.messageId ?? String(Date.now()), type: "image", contentProvider, quoteToken: "q" },
  };
}

/** Any other event, including types this SDK version does not know (LINE adds them without notice). */
export function otherEvent(c: Common & { type: string; extra?: Record<string, unknown> }): Record<string, unknown> {
  return { ...base(c), type: c.type, ...(c.extra ?? {}) };
}

export function webhookBody(events: readonly unknown[], destination = lineId("U", 0xb07)): string {
  return JSON.stringify({ destination, events });
}

/** POSTs a body to the bot's webhook, signed with `secret` (or with the given signature, or none). */
export async function postWebhook(url: string, body: string, signing: { secret: string } | { signature: string } | { none: true }): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if ("secret" in signing) headers["x-line-signature"] = signBody(body, signing.secret);
  else if ("signature" in signing) headers["x-line-signature"] = signing.signature;
  const res = await fetch(url, { method: "POST", headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed };
}
