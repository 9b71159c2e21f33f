// Everything REDIS_URL turns on, in one place: the connections, the durable event queue of the deployment,
// and, for each shop, the stores every instance must agree on, under that shop's key namespace. The
// composition root loads this module only when REDIS_URL is set, so an instance without Redis never loads
// ioredis (less memory, quicker start).
import type { Logger } from "pino";
import { redisAccountCache } from "../stores/account-cache.js";
import { redisJournal } from "../stores/delivery-journal.js";
import { redisLedger } from "../stores/ledger.js";
import { redisOnceMarks } from "../stores/once-marks.js";
import { redisQuietNotes } from "../stores/quiet-notes.js";
import { redisScheduleStore } from "../stores/schedules.js";
import { redisVersions } from "../stores/versions.js";
import { createDurableEventQueue, namedInstanceId, queueConnectionName } from "../queue/index.js";
import type { EventQueueObserver, QueueItem } from "../queue/index.js";
import { connectRedis, whenUp } from "./redis.js";
import { checkRedisServer } from "./server-checks.js";
import type { RedisFinding } from "./server-checks.js";

/** What the metrics hear from shared state. */
export interface SharedStateObserver {
  redisError(): void;
  /** The event queue's hooks: events taken up again after a crash, stored again after Redis lost them, stored before. */
  queue?: EventQueueObserver;
}

export interface SharedStateOptions {
  /**
   * What every key of this deployment starts with (REDIS_KEY_PREFIX, or one derived from its LINE channel),
   * so two deployments on one Redis never mix.
   */
  prefix: string;
  /** Events one instance handles at once from the shared queue. Default 64. */
  runningEvents?: number | undefined;
  /** Of those, events of one shop at once (the queue's groups are the shops). Default all of them. */
  runningEventsPerShop?: number | undefined;
  /** The shop of a stored event's ordering key: the queue shares its slots fairly between them. */
  shopOfKey?: ((orderingKey: string) => string) | undefined;
  /**
   * The mark of an item stored or answered: the ledger's key of the item's shop, so one mark serves both
   * (an event answered in-process while Redis was slow is not stored after).
   */
  onceKey: (item: QueueItem) => string;
  /** REDIS_TLS_CA's certificates (PEM). */
  tlsCa?: string | undefined;
}

export function openSharedState(url: string, log: Logger, metrics: SharedStateObserver, options: SharedStateOptions) {
  // The queue's connection carries the instance's id: when the process dies, Redis drops the connection at
  // once, and the other instances take its partitions without waiting for its lease to run out.
  const instanceId = namedInstanceId();
  const redis = connectRedis({ url, log, onError: () => metrics.redisError(), tlsCa: options.tlsCa, workersName: queueConnectionName(instanceId) });
  const { prefix } = options;
  const versions = redisVersions(redis.commands);
  return {
    redis,
    prefix,
    queue: createDurableEventQueue({
      commands: redis.commands,
      workers: redis.workers,
      log,
      keyPrefix: prefix,
      instanceId,
      onceKey: options.onceKey,
      ...(options.runningEvents === undefined ? {} : { inHand: options.runningEvents }),
      ...(options.runningEventsPerShop === undefined ? {} : { inHandPerGroup: options.runningEventsPerShop }),
      ...(options.shopOfKey === undefined ? {} : { groupOf: options.shopOfKey }),
      ...(metrics.queue === undefined ? {} : { observer: metrics.queue }),
    }),
    /** Once Redis answers: its version, eviction policy and persistence, each finding logged once. */
    async checkServer(refuseTooOld: boolean): Promise<RedisFinding[]> {
      await whenUp(redis.commands);
      return checkRedisServer(redis.commands, log, refuseTooOld);
    },
    /**
     * One shop's stores: `namespace` ends with `:` and starts with the deployment's prefix (`<prefix>:` for the
     * environment's one shop, `<prefix>:shop:<id>:` with a shops file), and begins every key of theirs, so
     * deployments and shops sharing one Redis never mix.
     */
    forShop(namespace: string) {
      return {
        ledger: redisLedger(redis.commands, namespace),
        journal: redisJournal(redis.commands, namespace),
        quietNotes: redisQuietNotes(redis.commands, namespace),
        accountCache: redisAccountCache(redis.commands, namespace),
        versions: versions.forShop(namespace),
        scheduleStore: redisScheduleStore(redis.commands, namespace),
        onceMarks: redisOnceMarks(redis.commands, namespace),
      };
    },
  };
}

export type SharedState = ReturnType<typeof openSharedState>;
export type ShopSharedState = ReturnType<SharedState["forShop"]>;
