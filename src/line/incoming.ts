// Reads one webhook event (outside input, open-ended: LINE adds types without notice) into what the bot acts on.
import { isGroupId, isRoomId, isUserId } from "../line-ids.js";
import type { ChatType } from "../roles/audience.js";

export interface Mentionee {
  index: number;
  length: number;
  isSelf?: boolean;
}

/** What the event asks of the bot. */
export type EventAction =
  | {
      kind: "text";
      text: string;
      mentionees: Mentionee[];
      /** LINE's message id: an edit of this message names it too. */
      messageId: string | undefined;
      /** Marks the chat read up to this message (1:1 chats, when the OA's Chat is on). */
      markAsReadToken: string | undefined;
    }
  /** A text edited in a group (`messageEdited`): the same message id, the new text. */
  | { kind: "edited_text"; text: string; mentionees: Mentionee[]; messageId: string }
  | { kind: "postback"; data: string }
  | { kind: "greeting"; trigger: "follow" | "join" }
  /** Members joined a group or room the bot is in (`memberJoined`): how many. */
  | { kind: "member_joined"; members: number }
  /**
   * A photo. `messageId` is its content's key on LINE's data host; undefined when LINE does not keep it (a
   * photo sent as a link by another app) or the id has another shape.
   */
  | { kind: "image"; messageId: string | undefined }
  /** A message that is neither text nor a photo: sticker, video, audio, file, location, or a type LINE adds later. */
  | { kind: "non_text"; messageType: string }
  /** Anything the bot has no business answering: unfollow, leave, unsend, beacons, unknown types... */
  | { kind: "ignore"; why: string };

export interface IncomingEvent {
  type: string;
  eventId: string | undefined;
  /** When it happened (LINE's `timestamp`, ms): the latest of several edits of one message has the largest. */
  timestamp: number | undefined;
  mode: string | undefined;
  isRedelivery: boolean;
  replyToken: string | undefined;
  /** Absent when the event names no chat (some account-level events have no source). */
  chat: { type: ChatType; id: string } | undefined;
  userId: string | undefined;
  action: EventAction;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Never throws: whatever the shape, the answer is an event the dispatcher can handle or ignore. */
export function readEvent(raw: unknown): IncomingEvent {
  const event: Json = isObject(raw) ? raw : {};
  const type = str(event.type) ?? "(none)";
  const source = isObject(event.source) ? event.source : {};
  // Ids go into LINE's URL paths and Redis keys: one of another shape makes the event name no one.
  const userId = lineIdOf(source.userId, isUserId);
  const sourceType = str(source.type);
  const chatType: ChatType | undefined = sourceType === "group" || sourceType === "room" || sourceType === "user" ? sourceType : undefined;
  const chatId = chatType === "group" ? lineIdOf(source.groupId, isGroupId) : chatType === "room" ? lineIdOf(source.roomId, isRoomId) : userId;
  const delivery = isObject(event.deliveryContext) ? event.deliveryContext : {};

  return {
    type,
    eventId: str(event.webhookEventId),
    timestamp: typeof event.timestamp === "number" && Number.isFinite(event.timestamp) ? event.timestamp : undefined,
    mode: str(event.mode),
    isRedelivery: delivery.isRedelivery === true,
    replyToken: str(event.replyToken),
    chat: chatType !== undefined && chatId !== undefined ? { type: chatType, id: chatId } : undefined,
    userId,
    action: readAction(type, event),
  };
}

function readAction(type: string, event: Json): EventAction {
  switch (type) {
    case "message": {
      const message = isObject(event.message) ? event.message : {};
      const messageType = str(message.type) ?? "(none)";
      if (messageType === "image") {
        const provider = isObject(message.contentProvider) ? str(message.contentProvider.type) : undefined;
        return { kind: "image", messageId: provider === "external" ? undefined : messageIdOf(message.id) };
      }
      if (messageType !== "text") return { kind: "non_text", messageType };
      if (typeof message.text !== "string") return { kind: "ignore", why: "text message without text" };
      return {
        kind: "text",
        text: message.text,
        mentionees: readMentionees(message.mention),
        messageId: messageIdOf(message.id),
        markAsReadToken: str(message.markAsReadToken),
      };
    }
    case "messageEdited": {
      const message = isObject(event.message) ? event.message : {};
      const messageId = messageIdOf(message.id);
      if (str(message.type) !== "text" || typeof message.text !== "string" || messageId === undefined) {
        return { kind: "ignore", why: "edit of something other than a text" };
      }
      return { kind: "edited_text", text: message.text, mentionees: readMentionees(message.mention), messageId };
    }
    case "postback": {
      const postback = isObject(event.postback) ? event.postback : {};
      return typeof postback.data === "string" ? { kind: "postback", data: postback.data } : { kind: "ignore", why: "postback without data" };
    }
    case "follow":
    case "join":
      return { kind: "greeting", trigger: type };
    case "memberJoined": {
      const joined = isObject(event.joined) && Array.isArray(event.joined.members) ? event.joined.members.length : 0;
      return { kind: "member_joined", members: joined };
    }
    default:
      return { kind: "ignore", why: `event type ${type}` };
  }
}

/** LINE's message ids are decimal numbers; one of another shape is not used (it would go into a Redis key). */
function messageIdOf(value: unknown): string | undefined {
  const id = str(value);
  return id !== undefined && /^[0-9]{1,32}$/.test(id) ? id : undefined;
}

function lineIdOf(value: unknown, shape: (id: string) => boolean): string | undefined {
  const id = str(value);
  return id !== undefined && shape(id) ? id : undefined;
}

function readMentionees(mention: unknown): Mentionee[] {
  if (!isObject(mention) || !Array.isArray(mention.mentionees)) return [];
  const out: Mentionee[] = [];
  for (const m of mention.mentionees) {
    if (!isObject(m)) continue;
    const { index, length } = m;
    if (typeof index !== "number" || typeof length !== "number" || !Number.isInteger(index) || !Number.isInteger(length)) continue;
    if (index < 0 || length < 0) continue;
    out.push(m.isSelf === true ? { index, length, isSelf: true } : { index, length });
  }
  return out;
}
