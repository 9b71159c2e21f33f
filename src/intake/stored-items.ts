// What the shared queue keeps of a webhook event: its id, the chat whose order it keeps, and the event with
// the shop whose webhook it came to. What comes back out of Redis is read here, once.
import { randomUUID } from "node:crypto";
import type { QueueItem } from "../queue/index.js";

/** A webhook event as stored: the shop whose webhook it came to, and the event as LINE sent it (verified). */
export interface StoredEvent {
  shop: string;
  event: unknown;
}

/**
 * One event as a queue item: ordered by its shop's chat (the group, room or 1:1 chat; one user id seen
 * by two shops is two chats), named by LINE's webhookEventId. An event that names no chat is ordered by
 * its own id: nothing need wait for it.
 */
export function storedItemOf(shop: string, event: unknown): QueueItem {
  const fields = typeof event === "object" && event !== null ? (event as { webhookEventId?: unknown }) : {};
  const id = typeof fields.webhookEventId === "string" && fields.webhookEventId !== "" ? fields.webhookEventId : randomUUID();
  const payload: StoredEvent = { shop, event };
  return { id, orderingKey: `${shop}/${chatOf(event) ?? id}`, payload };
}

/** The key that keeps a webhook's events of one chat in order in this process (one key for those naming none). */
export function chatKeyOf(event: unknown): string {
  return chatOf(event) ?? "(no chat)";
}

/** The chat an event came from, as LINE sent it: its group, room or 1:1 chat. */
function chatOf(event: unknown): string | undefined {
  const source = typeof event === "object" && event !== null ? (event as { source?: Record<string, unknown> }).source : undefined;
  const chat = source?.groupId ?? source?.roomId ?? source?.userId;
  return typeof chat === "string" && chat !== "" ? chat : undefined;
}

/** A stored payload read back, or undefined when it is not one of ours (then it is logged and dropped). */
export function storedEventOf(payload: unknown): StoredEvent | undefined {
  if (typeof payload !== "object" || payload === null) return undefined;
  const { shop, event } = payload as { shop?: unknown; event?: unknown };
  return typeof shop === "string" && shop !== "" && event !== undefined ? { shop, event } : undefined;
}

/** The shop a stored item belongs to, read from its ordering key (`<shop>/<chat>`; shop ids have no `/`). */
export function shopOfItem(item: Pick<QueueItem, "orderingKey">): string {
  return item.orderingKey.slice(0, item.orderingKey.indexOf("/"));
}
