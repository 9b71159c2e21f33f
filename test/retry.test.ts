// The retry policy as pure functions: which statuses retry, how Retry-After is read, and how long each wait is.
import { describe, expect, it } from "vitest";
import { isRetryableStatus, parseRetryAfterMs, retryDelayMs } from "../src/retry.js";

const policy = { retries: 2, backoffBaseMs: 200, maxDelayMs: 2000 };
const now = Date.UTC(2026, 10, 20, 7, 0, 0);

describe("isRetryableStatus", () => {
  it.each([429, 500, 502, 503, 504, 599])("retries %i", (status) => expect(isRetryableStatus(status)).toBe(true));
  it.each([200, 301, 400, 401, 402, 403, 404, 409, 413])("does not retry %i", (status) => expect(isRetryableStatus(status)).toBe(false));
});

describe("parseRetryAfterMs", () => {
  it("reads delta-seconds", () => {
    expect(parseRetryAfterMs("3", now)).toBe(3000);
    expect(parseRetryAfterMs(" 0 ", now)).toBe(0);
  });

  it("reads an HTTP date relative to now, never negative", () => {
    expect(parseRetryAfterMs(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfterMs(new Date(now - 5000).toUTCString(), now)).toBe(0);
  });

  it.each([undefined, "", "soon", "1.5", "-1"])("ignores %j", (value) => {
    expect(parseRetryAfterMs(value, now)).toBeUndefined();
  });
});

describe("retryDelayMs", () => {
  it("uses full jitter under an exponentially growing ceiling", () => {
    expect(retryDelayMs(1, policy, undefined, () => 0.999)).toBe(199);
    expect(retryDelayMs(2, policy, undefined, () => 0.999)).toBe(399);
    expect(retryDelayMs(2, policy, undefined, () => 0)).toBe(0);
  });

  it("never waits longer than the cap", () => {
    expect(retryDelayMs(10, policy, undefined, () => 0.999)).toBe(1998);
  });

  it("prefers Retry-After, capped", () => {
    expect(retryDelayMs(1, policy, 1500, () => 0)).toBe(1500);
    expect(retryDelayMs(1, policy, 60_000, () => 0)).toBe(2000);
  });
});
