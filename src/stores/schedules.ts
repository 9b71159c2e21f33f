// Schedules: what the opt-in pushes remember (pushes sent once, the low-token alert's state, open payment watches), in memory or in Redis so instances and restarts agree.
import type { Redis } from "ioredis";

/** A staff QR's payment being watched for. */
export interface Watch {
  id: string;
  chatId: string;
  amountSatang: number;
  /** The QR's time: only checks made after it count. */
  afterMs: number;
  /** Watched until then. */
  untilMs: number;
  lang: "th" | "en";
}

export interface ScheduleStore {
  /** True for the first caller with this key within `ttlMs` (across instances with Redis): it does the thing. */
  once(key: string, ttlMs: number): Promise<boolean>;
  /** Forgets a key of `once` (the low-token alert re-arms when the tokens rise again). */
  forget(key: string): Promise<void>;
  addWatch(watch: Watch): Promise<void>;
  /** Watches still open at `nowMs`; expired ones are dropped. */
  openWatches(nowMs: number): Promise<Watch[]>;
  /** Closes a watch; true for the one caller that closed it (then it pushes). */
  closeWatch(id: string): Promise<boolean>;
}

export function memoryScheduleStore(now: () => number = Date.now): ScheduleStore {
  const keys = new Map<string, number>();
  const watches = new Map<string, Watch>();
  return {
    once(key, ttlMs) {
      const until = keys.get(key);
      if (until !== undefined && until > now()) return Promise.resolve(false);
      keys.set(key, now() + ttlMs);
      return Promise.resolve(true);
    },
    forget(key) {
      keys.delete(key);
      return Promise.resolve();
    },
    addWatch(watch) {
      watches.set(watch.id, watch);
      return Promise.resolve();
    },
    openWatches(nowMs) {
      for (const [id, watch] of watches) if (watch.untilMs <= nowMs) watches.delete(id);
      return Promise.resolve([...watches.values()]);
    },
    closeWatch(id) {
      return Promise.resolve(watches.delete(id));
    },
  };
}

/** The watches' hash outlives its last watch by this much, then Redis drops it. */
const WATCHES_MARGIN_MS = 3_600_000;

export function redisScheduleStore(redis: Redis, namespace: string): ScheduleStore {
  const PREFIX = `${namespace}schedule:`;
  const WATCHES = `${PREFIX}watches`;
  return {
    async once(key, ttlMs) {
      return (await redis.set(`${PREFIX}once:${key}`, "1", "PX", Math.max(1, Math.round(ttlMs)), "NX")) === "OK";
    },
    async forget(key) {
      await redis.del(`${PREFIX}once:${key}`);
    },
    async addWatch(watch) {
      // The hash lives as long as its longest watch (and a margin): never a key without an expiry. Relative,
      // so the bot's clock and Redis's need not agree.
      const lifeMs = Math.max(1, Math.round(watch.untilMs - watch.afterMs + WATCHES_MARGIN_MS));
      await redis.multi().hset(WATCHES, watch.id, JSON.stringify(watch)).pexpire(WATCHES, lifeMs, "NX").pexpire(WATCHES, lifeMs, "GT").exec();
    },
    async openWatches(nowMs) {
      const all = Object.entries(await redis.hgetall(WATCHES)).map(([id, text]) => ({ id, watch: JSON.parse(text) as Watch }));
      const expired = all.filter((w) => w.watch.untilMs <= nowMs).map((w) => w.id);
      if (expired.length > 0) await redis.hdel(WATCHES, ...expired);
      return all.filter((w) => w.watch.untilMs > nowMs).map((w) => w.watch);
    },
    async closeWatch(id) {
      return (await redis.hdel(WATCHES, id)) === 1;
    },
  };
}
