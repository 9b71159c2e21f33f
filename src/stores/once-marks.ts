// Once-marks: that something happened once (a chat's export link used), each remembered for its time (in memory; in Redis, the first instance to set it has it).
import type { Redis } from "ioredis";

/** Marks that something happened once, remembered for `ttlMs`. */
export interface OnceMarks {
  /** True for the first caller with this key within its time; rejects when the marks cannot be reached. */
  take(key: string, ttlMs: number): Promise<boolean>;
}

/** Once-marks in this process (without Redis), each forgotten after its time. */
export function memoryOnceMarks(now: () => number): OnceMarks {
  const marks = new Map<string, number>();
  return {
    take(key, ttlMs) {
      const at = now();
      for (const [k, until] of marks) if (until <= at) marks.delete(k);
      if (marks.has(key)) return Promise.resolve(false);
      marks.set(key, at + ttlMs);
      return Promise.resolve(true);
    },
  };
}

/** Once-marks shared by every instance: whoever sets the key first has it. Redis away: the promise rejects (fail closed). */
export function redisOnceMarks(redis: Redis, namespace: string): OnceMarks {
  return {
    async take(key, ttlMs) {
      return (await redis.set(`${namespace}once:${key}`, "1", "PX", Math.max(1, Math.ceil(ttlMs)), "NX")) === "OK";
    },
  };
}
