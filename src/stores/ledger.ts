// The event ledger: which events were answered, so one sent twice gets one answer (in memory, bounded, on one instance; in Redis for a day, shared).
import type { Redis } from "ioredis";

export interface EventLedger {
  /** Whether the event may be handled now: false when it was already answered or is being answered. */
  claim(eventId: string): Promise<boolean>;
  /** The event's answer went out, or definitely failed: it is never handled again. */
  settle(eventId: string): Promise<void>;
}

export interface EventDeduperOptions {
  /** How long an id is remembered. LINE redelivers for up to about 20 minutes; we keep an hour or more. */
  ttlMs?: number;
  /** Most ids kept; past it the oldest is forgotten first, so memory stays bounded under any load. */
  maxEntries?: number;
  now?: () => number;
}

/** Webhook event ids remembered so a redelivered or duplicated event is handled once, in bounded memory. */
export interface EventDeduper {
  /** True the first time an id is seen (and records it); false for a repeat within the window. */
  firstSeen(eventId: string): boolean;
  readonly size: number;
}

const DEFAULT_DEDUPE_TTL_MS = 2 * 60 * 60 * 1000;
const DEFAULT_DEDUPE_MAX_ENTRIES = 100_000;

export function createEventDeduper(options: EventDeduperOptions = {}): EventDeduper {
  const ttlMs = options.ttlMs ?? DEFAULT_DEDUPE_TTL_MS;
  const maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_DEDUPE_MAX_ENTRIES);
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order, and ids are inserted with a rising time, so the oldest is first.
  const seenAt = new Map<string, number>();

  const evict = (at: number): void => {
    for (const [id, time] of seenAt) {
      if (at - time < ttlMs && seenAt.size <= maxEntries) break;
      seenAt.delete(id);
    }
  };

  return {
    firstSeen(eventId) {
      const at = now();
      evict(at);
      const previous = seenAt.get(eventId);
      if (previous !== undefined && at - previous < ttlMs) return false;
      seenAt.set(eventId, at);
      if (seenAt.size > maxEntries) evict(at);
      return true;
    },
    get size() {
      return seenAt.size;
    },
  };
}

/**
 * One process's memory. An id is claimed when first seen: on one instance nothing can run the event a
 * second time except a duplicate, which must wait out the claim.
 */
export function memoryLedger(deduper: EventDeduper = createEventDeduper()): EventLedger {
  return {
    claim: (eventId) => Promise.resolve(deduper.firstSeen(eventId)),
    settle: () => Promise.resolve(),
  };
}

/** LINE redelivers for up to about 20 minutes; an answered event is remembered for a day. */
const ANSWERED_TTL_S = 24 * 60 * 60;

/** The mark of an event answered, or stored in the shared queue (which sets it in the same step). */
export const answeredKey = (namespace: string, eventId: string): string => `${namespace}answered:${eventId}`;

/**
 * Answered events, shared. `claim` only looks: the shared queue already gives each stored event to one
 * worker at a time, so the ledger has only to stop an event answered before (redelivered, or sent to
 * another instance after its job was cleared) from being answered again.
 */
export function redisLedger(redis: Redis, namespace: string): EventLedger {
  const key = (eventId: string): string => answeredKey(namespace, eventId);
  return {
    async claim(eventId) {
      return (await redis.exists(key(eventId))) === 0;
    },
    async settle(eventId) {
      await redis.set(key(eventId), "1", "EX", ANSWERED_TTL_S);
    },
  };
}
