// Timeouts for LINE calls: the hot path's own pool (api.ts) takes them as options; global fetch, which the
// LINE SDK's client uses for the rare calls and which has no timeout option of its own, gets them process-wide.
import { Agent, setGlobalDispatcher } from "undici";

export interface HttpTimeouts {
  /** Time to open the TCP/TLS connection. */
  connectTimeoutMs: number;
  /** Time from sending the request to the response headers. */
  headersTimeoutMs: number;
  /** Longest pause while the body streams in. */
  bodyTimeoutMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
};

/**
 * Replaces the global dispatcher so that no fetch (and so no LINE SDK call) waits longer than these
 * limits; undici's own default is 300 s. It affects every fetch in the process, so main calls it once.
 */
export function installHttpTimeouts(timeouts: HttpTimeouts = DEFAULT_HTTP_TIMEOUTS): void {
  setGlobalDispatcher(
    new Agent({
      connectTimeout: timeouts.connectTimeoutMs,
      headersTimeout: timeouts.headersTimeoutMs,
      bodyTimeout: timeouts.bodyTimeoutMs,
    }),
  );
}
