// Remembers webhook event ids so a redelivered or duplicated event is handled once, in bounded memory.

export interface EventDeduperOptions {
  /** How long an id is remembered. LINE redelivers for up to about 20 minutes; we keep an hour or more. */
  ttlMs?: number;
  /** Most ids kept; past it the oldest is forgotten first, so memory stays bounded under any load. */
  maxEntries?: number;
  now?: () => number;
}

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
