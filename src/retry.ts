// When a call is tried again and how long it waits (the slip client and the LINE sender): pure functions over statuses, Retry-After and a random source.

export interface RetryPolicy {
  /** Extra attempts after the first one. */
  readonly retries: number;
  /** Full-jitter backoff: the n-th retry waits a random time in [0, base * 2^(n-1)). */
  readonly backoffBaseMs: number;
  /** Upper bound of any wait, also of a server's Retry-After. */
  readonly maxDelayMs: number;
}

/** 5xx and 429 are worth another try; every other status is a final answer. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Reads Retry-After as delta-seconds (`120`) or an HTTP date, relative to `nowMs`. Returns undefined
 * when it is absent or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // HTTP dates always name a weekday or month; a bare number like "1.5" is not one.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * How long to wait before retry number `retry` (1-based). A Retry-After from the server wins over the
 * jittered backoff, but never beyond the cap: the bot must still answer inside LINE's reply window.
 */
export function retryDelayMs(retry: number, policy: RetryPolicy, retryAfterMs: number | undefined, random: () => number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.backoffBaseMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}
