// Which events were already answered, so an event LINE sends twice (a redelivery, a network hiccup, the
// same event reaching two instances) gets one answer. In memory on one instance; in Redis when shared.
import { createEventDeduper } from "./dedupe.js";
import type { EventDeduper } from "./dedupe.js";

export interface EventLedger {
  /** Whether the event may be handled now: false when it was already answered or is being answered. */
  claim(eventId: string): Promise<boolean>;
  /** The event's answer went out, or definitely failed: it is never handled again. */
  settle(eventId: string): Promise<void>;
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
