// What the shared queue stores for a webhook event: its id, the chat whose order it keeps, and the event.
import { randomUUID } from "node:crypto";
import type { QueueItem } from "../shared-state/event-queue.js";

/**
 * One event as a queue item: ordered by its chat (the group, room or 1:1 chat), named by LINE's
 * webhookEventId. An event that names no chat is ordered by its own id: nothing need wait for it.
 */
export function storedItemOf(event: unknown): QueueItem {
  const fields = typeof event === "object" && event !== null ? (event as { webhookEventId?: unknown; source?: Record<string, unknown> }) : {};
  const id = typeof fields.webhookEventId === "string" && fields.webhookEventId !== "" ? fields.webhookEventId : randomUUID();
  const source = fields.source;
  const chat = source?.groupId ?? source?.roomId ?? source?.userId;
  return { id, orderingKey: typeof chat === "string" && chat !== "" ? chat : id, payload: event };
}
