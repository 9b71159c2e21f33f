// The durable intake (REDIS_URL): a webhook's verified events are stored in the shared queue before the
// 200, so an instance that dies after answering loses nothing; what Redis does not take within 0.5 s is
// handled in this process instead. The queue's workers give each stored event its turn, and it goes to
// handleEvent. The only place the two layouts differ.
import type { Logger } from "pino";
import { handleEvent } from "../event/handle-event.js";
import type { DurableEventQueue } from "../queue/index.js";
import { counted } from "./in-process.js";
import type { Intake, IntakeShop } from "./in-process.js";
import { storedEventOf, storedItemOf } from "./stored-items.js";

/** How long the webhook waits for Redis to take its events before handling them in-process (LINE waits 2 s). */
export const STORE_TIMEOUT_MS = 500;

export interface DurableIntakeOptions {
  queue: Pick<DurableEventQueue, "store" | "startWorkers" | "stopWorkers" | "keptByGroup" | "readAhead">;
  /** Where events Redis did not take in time are handled. */
  inProcess: Intake;
  /** The shops served now, or retiring with events in hand, by id. */
  shops: { byId(id: string): IntakeShop | undefined };
  /** Whether this instance works the queue (INSTANCE_ROLE both or worker). */
  works: boolean;
  log: Logger;
  /** Events Redis could not take in time, handled in-process instead. */
  notStored?: ((count: number) => void) | undefined;
  /**
   * With several shops: stored events not yet seen handled (this instance's, all shops together) past which
   * a shop with at least its fair share of them is refused (503), as the in-process intake does with its
   * waiting. The queue's workers share their slots between shops (the queue's groups); this keeps a
   * flooding shop's backlog in Redis bounded, so it is refused and no other shop is. Taken as at most half
   * the queue's `readAhead`: the reader reaches another shop's events only by reading past the busy shop's,
   * and holds no more than that. Unset: no such bound.
   */
  maxStoredWaiting?: number | undefined;
}

export interface DurableIntake extends Intake {
  /** Claims this instance's share of the queue's partitions; resolves once Redis is reachable. */
  startWorking(): Promise<void>;
}

export function createDurableIntake(options: DurableIntakeOptions): DurableIntake {
  const { queue, inProcess, log, shops } = options;
  /** Stored events given their turn by a worker, being handled now. */
  let runningNow = 0;
  return {
    hasRoom(shop, arriving = { total: 0, ofShop: 0 }) {
      if (!inProcess.hasRoom(shop, arriving)) return false;
      if (options.maxStoredWaiting === undefined) return true;
      // At most half the read-ahead, so a flooding shop's stored events never fill what the reader holds:
      // the other half is there to read past them to the other shops' (each instance stores about as much
      // as the reader of its share of the partitions has to read past).
      const max = Math.min(options.maxStoredWaiting, Math.floor(queue.readAhead / 2));
      const kept = queue.keptByGroup();
      const own = (kept.get(shop) ?? 0) + arriving.ofShop;
      if (own >= max) return false;
      let total = arriving.total;
      for (const count of kept.values()) total += count;
      if (total < max) return true;
      // Full: only a shop below its fair share may still come in.
      return own < max / Math.max(1, kept.size + (kept.has(shop) ? 0 : 1));
    },
    get waiting() {
      return inProcess.waiting;
    },
    waitingOf: (shop) => inProcess.waitingOf(shop) + (options.maxStoredWaiting === undefined ? 0 : (queue.keptByGroup().get(shop) ?? 0)),
    get running() {
      return inProcess.running + runningNow;
    },
    async take(shop, events) {
      if (events.length === 0) return;
      // Stored before the 200; handled here if Redis is slow or away.
      const stored = await queue.store(
        events.map((event) => storedItemOf(shop.id, event)),
        STORE_TIMEOUT_MS,
      );
      if (stored) return;
      options.notStored?.(events.length);
      shop.log.warn({ events: events.length, eventIds: events.map(eventIdOf) }, "events not stored in redis; handling them in this process");
      await inProcess.take(shop, events);
    },
    async startWorking() {
      await queue.startWorkers(async (payload, taken) => {
        const stored = storedEventOf(payload);
        if (stored === undefined) {
          log.error({ itemId: taken.id }, "a stored item is not a webhook event of a shop; dropped");
          return;
        }
        const shop = shops.byId(stored.shop);
        if (shop === undefined) {
          log.warn({ shop: stored.shop, eventId: taken.id }, "a stored event of a shop this deployment no longer serves; not handled");
          return;
        }
        runningNow += 1;
        try {
          await counted(shop, () => handleEvent(shop, stored.event, { via: "queue", mayHaveRunBefore: taken.mayHaveRunBefore }));
        } finally {
          runningNow -= 1;
        }
      });
    },
    async drain(graceMs) {
      // Stored events still in hand at the deadline are not lost: their locks expire and another instance
      // (or this one, restarted) takes them up. Events handled in-process have only this process.
      const [leftForOthers, { abandoned }] = await Promise.all([options.works ? queue.stopWorkers(graceMs ?? 30_000) : Promise.resolve(0), inProcess.drain(graceMs)]);
      return { abandoned, leftForOthers };
    },
  };
}

function eventIdOf(event: unknown): unknown {
  return typeof event === "object" && event !== null ? (event as { webhookEventId?: unknown }).webhookEventId : undefined;
}
