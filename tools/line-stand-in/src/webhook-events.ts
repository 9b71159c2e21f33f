// Builds and signs the webhook requests LINE would send for what a person does in the chat console.
// Pure apart from ids and the clock, which the caller may inject.
import { createHmac, randomBytes } from "node:crypto";
import type { webhook } from "@line/bot-sdk";

/** Someone the console lets you be. Ids are fixed so they can go into STAFF_USER_IDS. */
export interface DemoPerson {
  readonly userId: string;
  /** How the console names them, with their role in the first demo shop. */
  readonly name: string;
  /** Their name alone, for labels that give their role in another shop. */
  readonly firstName: string;
  readonly role: "staff" | "customer";
}

/** A group the bot is in: a staff group (listed in STAFF_GROUP_IDS in local mode) or one with customers too. */
export interface DemoGroup {
  readonly groupId: string;
  readonly name: string;
  readonly staff: boolean;
}

export const DEMO_PEOPLE: readonly DemoPerson[] = [
  { userId: "U5a1e0c7f3b2d4e6f8a9b0c1d2e3f4a5b", name: "Somchai (staff)", firstName: "Somchai", role: "staff" },
  { userId: "U6b2f1d8e4c3a5b7c9d0e1f2a3b4c5d6e", name: "Malee (staff)", firstName: "Malee", role: "staff" },
  { userId: "U7c3a2e9f5d4b6c8d0e1f2a3b4c5d6e7f", name: "Customer Nok", firstName: "Nok", role: "customer" },
];

export const DEMO_GROUPS: readonly DemoGroup[] = [
  { groupId: "C1d4b3f0a6e5c7d9e1f2a3b4c5d6e7f80", name: "Staff group", staff: true },
  { groupId: "C2e5c4a1b7f6d8e0f2a3b4c5d6e7f8091", name: "Shop and customers group", staff: false },
];

/** The bot's own user id (the webhook's `destination`) and the name a group mention uses. */
export const DEMO_BOT = { userId: "U0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c", name: "slipline" } as const;

export type ConsoleSource = { type: "user"; userId: string } | { type: "group"; groupId: string; userId: string };

export interface EventIds {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Random bytes for ids; injectable so tests can pin them. */
  random(size: number): Buffer;
}

const defaultIds: EventIds = { now: Date.now, random: (size) => randomBytes(size) };

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A ULID (26 Crockford base-32 characters: 48-bit time, 80 random bits), like LINE's webhookEventId. */
export function newEventId(ids: EventIds = defaultIds): string {
  let time = ids.now();
  let head = "";
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32] + head;
    time = Math.floor(time / 32);
  }
  const bytes = ids.random(10);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let tail = "";
  for (let i = 0; i < 16; i++) {
    tail = CROCKFORD[Number(bits & 31n)] + tail;
    bits >>= 5n;
  }
  return head + tail;
}

/** A LINE-like numeric message id: 18 digits. */
export function newMessageId(ids: EventIds = defaultIds): string {
  return (ids.random(8).readBigUInt64BE() % 10n ** 18n).toString().padStart(18, "0");
}

function toWebhookSource(source: ConsoleSource): webhook.Source {
  return source.type === "user" ? { type: "user", userId: source.userId } : { type: "group", groupId: source.groupId, userId: source.userId };
}

function common(source: ConsoleSource, ids: EventIds) {
  return {
    mode: "active" as const,
    timestamp: ids.now(),
    source: toWebhookSource(source),
    webhookEventId: newEventId(ids),
    deliveryContext: { isRedelivery: false },
  };
}

/**
 * Every `@<bot name>` in a group message becomes a mention of the bot (isSelf), as LINE does when a person
 * picks the bot from the mention list. In a 1:1 chat LINE sends no mentions.
 */
export function findBotMentions(text: string, botName: string): webhook.UserMentionee[] {
  const mentions: webhook.UserMentionee[] = [];
  const needle = `@${botName}`.toLowerCase();
  const lower = text.toLowerCase();
  let from = 0;
  for (;;) {
    const index = lower.indexOf(needle, from);
    if (index < 0) break;
    const after = text[index + needle.length];
    // "@sliplinebot" is someone else; the mention must end at a space, punctuation or the end.
    if (after === undefined || !/[\p{L}\p{N}_]/u.test(after)) {
      mentions.push({ index, length: needle.length, type: "user", userId: DEMO_BOT.userId, isSelf: true });
    }
    from = index + needle.length;
  }
  return mentions;
}

/** A text message. LINE adds a mark-as-read token in 1:1 chats (pass the stand-in's). */
export function textMessageEvent(
  input: { source: ConsoleSource; text: string; replyToken: string; botName?: string; markAsReadToken?: string },
  ids: EventIds = defaultIds,
): webhook.MessageEvent {
  const mentionees = input.source.type === "group" ? findBotMentions(input.text, input.botName ?? DEMO_BOT.name) : [];
  const message: webhook.TextMessageContent & { markAsReadToken?: string } = {
    type: "text",
    id: newMessageId(ids),
    quoteToken: ids.random(24).toString("base64url"),
    text: input.text,
    ...(mentionees.length > 0 ? { mention: { mentionees } } : {}),
    ...(input.markAsReadToken === undefined ? {} : { markAsReadToken: input.markAsReadToken }),
  };
  return { type: "message", ...common(input.source, ids), replyToken: input.replyToken, message };
}

/**
 * A photo a person sent: LINE keeps its bytes under the message id (`contentProvider: line`), which the bot
 * downloads from the data host; pass the id the stand-in's `addMessageContent` gave.
 */
export function imageMessageEvent(input: { source: ConsoleSource; messageId: string; replyToken: string }, ids: EventIds = defaultIds): webhook.MessageEvent {
  const message: webhook.ImageMessageContent = {
    type: "image",
    id: input.messageId,
    quoteToken: ids.random(24).toString("base64url"),
    contentProvider: { type: "line" },
  };
  return { type: "message", ...common(input.source, ids), replyToken: input.replyToken, message };
}

/**
 * `messageEdited`: a person edited a text they sent in a group (LINE offers editing in groups only). Like
 * LINE's, it carries the original message's id, the new text, a new reply token and no mark-as-read token.
 * The SDK this bot pins predates the event, so it is typed here.
 */
export interface MessageEditedEvent {
  type: "messageEdited";
  mode: "active";
  timestamp: number;
  source: webhook.Source;
  webhookEventId: string;
  deliveryContext: { isRedelivery: boolean };
  replyToken: string;
  message: webhook.TextMessageContent;
}

export function messageEditedEvent(
  input: { source: ConsoleSource & { type: "group" }; messageId: string; text: string; replyToken: string; botName?: string },
  ids: EventIds = defaultIds,
): MessageEditedEvent {
  const mentionees = findBotMentions(input.text, input.botName ?? DEMO_BOT.name);
  return {
    type: "messageEdited",
    ...common(input.source, ids),
    replyToken: input.replyToken,
    message: {
      type: "text",
      id: input.messageId,
      quoteToken: ids.random(24).toString("base64url"),
      text: input.text,
      ...(mentionees.length > 0 ? { mention: { mentionees } } : {}),
    },
  };
}

/** `params` carries what LINE adds for some actions, e.g. a rich menu switch's `{ newRichMenuAliasId, status }`. */
export function postbackEvent(
  input: { source: ConsoleSource; data: string; replyToken: string; params?: Record<string, string> },
  ids: EventIds = defaultIds,
): webhook.PostbackEvent {
  const postback: webhook.PostbackContent = { data: input.data, ...(input.params !== undefined ? { params: input.params } : {}) };
  return { type: "postback", ...common(input.source, ids), replyToken: input.replyToken, postback };
}

/** `follow` in a 1:1 chat (adding the bot as a friend), `join` in a group (inviting the bot). */
export function greetingEvent(input: { source: ConsoleSource; replyToken: string }, ids: EventIds = defaultIds): webhook.FollowEvent | webhook.JoinEvent {
  if (input.source.type === "user") {
    return { type: "follow", ...common(input.source, ids), replyToken: input.replyToken, follow: { isUnblocked: false } };
  }
  const { source: _ignored, ...rest } = common(input.source, ids);
  // LINE's join event names the group only; no user.
  return { type: "join", ...rest, source: { type: "group", groupId: input.source.groupId }, replyToken: input.replyToken };
}

/** `memberJoined`: someone joined a group the bot is in. Like LINE's, it names the group only, and the newcomers in `joined`. */
export function memberJoinedEvent(input: { groupId: string; memberId: string; replyToken: string }, ids: EventIds = defaultIds): webhook.MemberJoinedEvent {
  const { source: _ignored, ...rest } = common({ type: "group", groupId: input.groupId, userId: input.memberId }, ids);
  return {
    type: "memberJoined",
    ...rest,
    source: { type: "group", groupId: input.groupId },
    replyToken: input.replyToken,
    joined: { members: [{ type: "user", userId: input.memberId }] },
  };
}

/** The exact bytes and headers of a webhook POST: x-line-signature = base64 HMAC-SHA256 of the body. */
export function signedWebhook(
  events: (webhook.Event | MessageEditedEvent)[],
  channelSecret: string,
  destination: string = DEMO_BOT.userId,
): { body: string; headers: Record<string, string> } {
  const request = { destination, events };
  const body = JSON.stringify(request);
  const signature = createHmac("sha256", channelSecret).update(body, "utf8").digest("base64");
  return { body, headers: { "content-type": "application/json; charset=utf-8", "x-line-signature": signature } };
}

/** The push target / reply chat of a source: the group, else the user. */
export function chatIdOf(source: ConsoleSource): string {
  return source.type === "group" ? source.groupId : source.userId;
}

/** The console's staff personas and staff group: local mode's staff lists when none are set. */
export function consoleStaffLists(): { staffUserIds: ReadonlySet<string>; staffGroupIds: ReadonlySet<string> } {
  return {
    staffUserIds: new Set(DEMO_PEOPLE.filter((p) => p.role === "staff").map((p) => p.userId)),
    staffGroupIds: new Set(DEMO_GROUPS.filter((g) => g.staff).map((g) => g.groupId)),
  };
}
