// The account cache: the slip service's account info between calls (in memory; in Redis, one service call per expiry for every instance).
import type { Redis } from "ioredis";
import type { AccountInfo } from "../slip/types.js";

/** A place to keep the account info for a while; a cache that fails only costs a service call. */
export interface AccountCache {
  get(): Promise<AccountInfo | undefined>;
  set(value: AccountInfo, ttlMs: number): Promise<void>;
}

/** The default: this process's memory. */
export function memoryAccountCache(now: () => number): AccountCache {
  let kept: { value: AccountInfo; freshUntilMs: number } | undefined;
  return {
    get: () => Promise.resolve(kept !== undefined && now() < kept.freshUntilMs ? kept.value : undefined),
    set: (value, ttlMs) => {
      kept = { value, freshUntilMs: now() + ttlMs };
      return Promise.resolve();
    },
  };
}

/**
 * The account info, shared: one service call per expiry for every instance. What Redis gives is mirrored in
 * this process until Redis lets it go (its remaining life read with it), so a balance asks Redis once per
 * value, not once per command, and is never older than Redis's copy would be.
 */
export function redisAccountCache(redis: Redis, namespace: string, now: () => number = Date.now): AccountCache {
  const key = `${namespace}account-info`;
  let mirrored: { value: AccountInfo; untilMs: number } | undefined;
  return {
    async get() {
      if (mirrored !== undefined && now() < mirrored.untilMs) return mirrored.value;
      mirrored = undefined;
      const [[textErr, text] = [null, null], [, ttlMs] = [null, 0]] = (await redis.pipeline().get(key).pttl(key).exec()) ?? [];
      if (textErr !== null) throw textErr;
      if (typeof text !== "string") return undefined;
      const value = JSON.parse(text) as AccountInfo;
      if (typeof ttlMs === "number" && ttlMs > 0) mirrored = { value, untilMs: now() + ttlMs };
      return value;
    },
    async set(value, ttlMs) {
      await redis.set(key, JSON.stringify(value), "PX", ttlMs);
      mirrored = { value, untilMs: now() + ttlMs };
    },
  };
}
