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
  queue: Pick<DurableEventQueue, "store" | "startWorkers" | "stopWorkers">;
  /** Where events Redis did not take in time are handled. */
  inProcess: Intake;
  /** The shops served now, or retiring with events in hand, by id. */
  shops: { byId(id: string): IntakeShop | undefined };
  /** Whether this instance works the queue (INSTANCE_ROLE both or worker). */
  works: boolean;
  log: Logger;
  /** Events Redis could not take in time, handled in-process instead. */
  notStored?: ((count: number) => void) | undefined;
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
    hasRoom: (shop, arriving) => inProcess.hasRoom(shop, arriving),
    get waiting() {
      return inProcess.waiting;
    },
    waitingOf: (shop) => inProcess.waitingOf(shop),
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
