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
  const fields = typeof event === "object" && event !== null ? (event as { webhookEventId?: unknown; source?: Record<string, unknown> }) : {};
  const id = typeof fields.webhookEventId === "string" && fields.webhookEventId !== "" ? fields.webhookEventId : randomUUID();
  const source = fields.source;
  const chat = source?.groupId ?? source?.roomId ?? source?.userId;
  const payload: StoredEvent = { shop, event };
  return { id, orderingKey: `${shop}/${typeof chat === "string" && chat !== "" ? chat : id}`, payload };
}

/** A stored payload read back, or undefined when it is not one of ours (then it is logged and dropped). */
export function storedEventOf(payload: unknown): StoredEvent | undefined {
  if (typeof payload !== "object" || payload === null) return undefined;
  const { shop, event } = payload as { shop?: unknown; event?: unknown };
  return typeof shop === "string" && shop !== "" && event !== undefined ? { shop, event } : undefined;
}
