// Everything REDIS_URL turns on, in one place: the connections, the durable event queue of the deployment,
// and, for each shop, the stores every instance must agree on, under that shop's key namespace. main.ts loads
// this module only when REDIS_URL is set, so an instance without Redis never loads ioredis or BullMQ.
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

/**
 * `prefix`: what every key of this deployment starts with (REDIS_KEY_PREFIX, or one derived from its LINE
 * channel), so two deployments on one Redis never mix.
 */
export function openSharedState(url: string, prefix: string, log: Logger, metrics: SharedStateObserver) {
  const redis = connectRedis({ url, log, onError: () => metrics.redisError() });
  return {
    redis,
    prefix,
    queue: createDurableEventQueue({ commands: redis.commands, workers: redis.workers, prefix, log, observer: { recovered: () => metrics.jobRecovered() } }),
    /** One shop's stores: `namespace` ends with `:` and starts with the deployment's prefix. */
    forShop(namespace: string) {
      return {
        ledger: redisLedger(redis.commands, namespace),
        journal: redisJournal(redis.commands, namespace),
        quietNotes: redisQuietNotes(redis.commands, namespace),
        accountCache: redisAccountCache(redis.commands, namespace),
        versions: redisVersions(redis.commands, namespace),
        scheduleStore: redisScheduleStore(redis.commands, namespace),
      };
    },
  };
}

export type SharedState = ReturnType<typeof openSharedState>;
export type ShopSharedState = ReturnType<SharedState["forShop"]>;
