// The small pieces of state every instance must see the same: which events were answered, how far each
// event's delivery got, which customer chats got the friendly note lately, and the account-info cache.
import type { Redis } from "ioredis";
import type { BatchState, DeliveryJournal } from "../line/outbox.js";
import type { EventLedger } from "../pipeline/ledger.js";
import type { QuietNotes } from "../roles/quiet-notes.js";
import { NOTE_PERIOD_MS } from "../roles/quiet-notes.js";
import type { AccountCache } from "../slip/account-cache.js";
import type { AccountInfo } from "../slip/types.js";

/** Every key the bot writes starts with this, so one Redis can serve other things too. */
export const KEY_PREFIX = "slipline:";

/** LINE redelivers for up to about 20 minutes; an answered event is remembered for a day. */
const ANSWERED_TTL_S = 24 * 60 * 60;
/** An event's delivery journal outlives any rerun after a crash. */
const JOURNAL_TTL_S = 24 * 60 * 60;

/**
 * Answered events, shared. `claim` only looks: the shared queue already gives each stored event to one
 * worker at a time, so the ledger has only to stop an event answered before (redelivered, or sent to
 * another instance after its job was cleared) from being answered again.
 */
export function redisLedger(redis: Redis): EventLedger {
  const key = (eventId: string): string => `${KEY_PREFIX}answered:${eventId}`;
  return {
    async claim(eventId) {
      return (await redis.exists(key(eventId))) === 0;
    },
    async settle(eventId) {
      await redis.set(key(eventId), "1", "EX", ANSWERED_TTL_S);
    },
  };
}

export function redisJournal(redis: Redis): DeliveryJournal {
  const key = (eventId: string): string => `${KEY_PREFIX}delivery:${eventId}`;
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
      await redis.multi().hset(key(eventId), String(batch), state).expire(key(eventId), JOURNAL_TTL_S).exec();
    },
  };
}

/** The customer note's once-in-12-hours rule, across instances: whoever sets the key sends the note. */
export function redisQuietNotes(redis: Redis, periodMs: number = NOTE_PERIOD_MS): QuietNotes {
  return {
    async claim(chatId) {
      try {
        return (await redis.set(`${KEY_PREFIX}note:${chatId}`, "1", "PX", periodMs, "NX")) === "OK";
      } catch {
        // Redis away: a note repeated once is better than a customer left without one.
        return true;
      }
    },
  };
}

export function redisAccountCache(redis: Redis): AccountCache {
  const key = `${KEY_PREFIX}account-info`;
  return {
    async get() {
      const text = await redis.get(key);
      return text === null ? undefined : (JSON.parse(text) as AccountInfo);
    },
    async set(value, ttlMs) {
      await redis.set(key, JSON.stringify(value), "PX", ttlMs);
    },
  };
}
