// Where the slip client keeps the account info between calls: the interface a shared store implements, and
// the default, this process's memory.
import type { AccountInfo } from "./types.js";

/** A place to keep the account info for a while; a cache that fails only costs a service call. */
export interface AccountCache {
  get(): Promise<AccountInfo | undefined>;
  set(value: AccountInfo, ttlMs: number): Promise<void>;
}

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
