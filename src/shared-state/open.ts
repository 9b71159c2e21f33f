// Everything REDIS_URL turns on, in one place: the connections, the durable event queue and the stores
// every instance must agree on. main.ts loads this module only when REDIS_URL is set, so an instance
// without Redis never loads ioredis (less memory, quicker start).
import type { Logger } from "pino";
import { redisScheduleStore } from "../schedules/store.js";
import { createDurableEventQueue } from "./event-queue.js";
import type { EventQueueObserver } from "./event-queue.js";
import { connectRedis } from "./redis.js";
import { answeredKey, redisAccountCache, redisJournal, redisLedger, redisQuietNotes, redisVersions } from "./stores.js";

/** What the metrics hear from shared state. */
export interface SharedStateObserver {
  redisError(): void;
  /** The event queue's hooks: events taken up again after a crash, events stored again after Redis lost them. */
  queue?: EventQueueObserver;
}

export interface SharedStateOptions {
  /** The start of the queue's keys. Default "slipline". */
  keyPrefix?: string;
  /** Events one instance handles at once from the shared queue. Default 64. */
  runningEvents?: number;
}

export function openSharedState(url: string, log: Logger, metrics: SharedStateObserver, options: SharedStateOptions = {}) {
  const redis = connectRedis({ url, log, onError: () => metrics.redisError() });
  return {
    redis,
    queue: createDurableEventQueue({
      commands: redis.commands,
      workers: redis.workers,
      log,
      keyPrefix: options.keyPrefix ?? "slipline",
      // One mark per event id: stored in the queue, or answered in-process while Redis was slow.
      onceKey: answeredKey,
      ...(options.runningEvents === undefined ? {} : { inHand: options.runningEvents }),
      ...(metrics.queue === undefined ? {} : { observer: metrics.queue }),
    }),
    ledger: redisLedger(redis.commands),
    journal: redisJournal(redis.commands),
    quietNotes: redisQuietNotes(redis.commands),
    versions: redisVersions(redis.commands),
    accountCache: redisAccountCache(redis.commands),
    scheduleStore: () => redisScheduleStore(redis.commands),
  };
}

export type SharedState = ReturnType<typeof openSharedState>;
