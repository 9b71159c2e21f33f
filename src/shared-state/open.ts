// Everything REDIS_URL turns on, in one place: the connections, the durable event queue and the stores
// every instance must agree on. main.ts loads this module only when REDIS_URL is set, so an instance
// without Redis never loads ioredis or BullMQ (less memory, quicker start).
import type { Logger } from "pino";
import { redisScheduleStore } from "../schedules/store.js";
import { createDurableEventQueue } from "./event-queue.js";
import { connectRedis } from "./redis.js";
import { redisAccountCache, redisJournal, redisLedger, redisQuietNotes, redisVersions } from "./stores.js";

/** What the metrics hear from shared state. */
export interface SharedStateObserver {
  redisError(): void;
  jobRecovered(): void;
}

export function openSharedState(url: string, log: Logger, metrics: SharedStateObserver) {
  const redis = connectRedis({ url, log, onError: () => metrics.redisError() });
  return {
    redis,
    queue: createDurableEventQueue({ commands: redis.commands, workers: redis.workers, log, observer: { recovered: () => metrics.jobRecovered() } }),
    ledger: redisLedger(redis.commands),
    journal: redisJournal(redis.commands),
    quietNotes: redisQuietNotes(redis.commands),
    versions: redisVersions(redis.commands),
    accountCache: redisAccountCache(redis.commands),
    scheduleStore: () => redisScheduleStore(redis.commands),
  };
}

export type SharedState = ReturnType<typeof openSharedState>;
