// The delivery journal: how far each event's answer got, batch by batch, so a rerun after a crash sends nothing twice (in Redis for a day; one process alone keeps none).
import type { Redis } from "ioredis";
import { scriptCommand } from "./redis-script.js";

/**
 * What an earlier run of an event did, batch by batch: written before a reply is tried. ("done", written by
 * earlier versions when a batch went out, is still read: such a batch is not sent again.)
 */
export interface DeliveryJournal {
  read(eventId: string): Promise<ReadonlyMap<number, BatchState>>;
  write(eventId: string, batch: number, state: BatchState): Promise<void>;
}

export type BatchState = "reply_attempted" | "done";

/** An event's delivery journal outlives any rerun after a crash. */
const JOURNAL_TTL_S = 24 * 60 * 60;

export function redisJournal(redis: Redis, namespace: string): DeliveryJournal {
  const key = (eventId: string): string => `${namespace}delivery:${eventId}`;
  // One step per write (the field and the expiry), one command on the wire.
  const write = scriptCommand(redis, "journalWrite", 1, "redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) redis.call('EXPIRE', KEYS[1], ARGV[3]) return 1");
  return {
    async read(eventId) {
      const fields = await redis.hgetall(key(eventId));
      const batches = new Map<number, BatchState>();
      for (const [batch, state] of Object.entries(fields)) {
        if (state === "reply_attempted" || state === "done") batches.set(Number(batch), state);
      }
      return batches;
    },
    async write(eventId, batch, state) {
      await write(key(eventId), String(batch), state, String(JOURNAL_TTL_S));
    },
  };
}
