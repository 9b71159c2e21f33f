// The connections a deployment's shops share: one keep-alive pool per origin for LINE's API and one per slip
// service origin. A connection carries no shop's state (each call sends its own shop's token or secret), so
// sharing it leaks nothing; what it saves is a pool, its sockets and their set-up for each shop: a thousand
// shops on one LINE and one service keep a few dozen sockets, not a few each, and a quiet shop's next event
// finds a warm connection.
import { Pool } from "undici";
import type { Dispatcher } from "undici";
import { DEFAULT_HTTP_TIMEOUTS } from "../line/http-timeouts.js";

export interface SharedConnections {
  /** The pool to LINE's API at `baseUrl`'s origin. */
  line(baseUrl: string): Dispatcher;
  /** The pool to a slip service at `baseUrl`'s origin. */
  slip(baseUrl: string): Dispatcher;
  close(): Promise<void>;
}

export interface SharedConnectionsOptions {
  /**
   * Connections to LINE at most; calls beyond them wait for one. The events in hand (MAX_RUNNING_EVENTS)
   * make one call at a time each, so twice their number leaves room for the pushes.
   */
  lineConnections: number;
  /** The slip service's connect timeout, ms (each call's own deadline covers the rest). */
  slipConnectTimeoutMs: number;
}

export function createSharedConnections(options: SharedConnectionsOptions): SharedConnections {
  const pools = new Map<string, Pool>();
  const poolAt = (key: string, make: () => Pool): Pool => {
    let pool = pools.get(key);
    if (pool === undefined) {
      pool = make();
      pools.set(key, pool);
    }
    return pool;
  };
  return {
    line(baseUrl) {
      const origin = new URL(baseUrl).origin;
      return poolAt(
        `line ${origin}`,
        () =>
          new Pool(origin, {
            connections: options.lineConnections,
            connectTimeout: DEFAULT_HTTP_TIMEOUTS.connectTimeoutMs,
            headersTimeout: DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs,
            bodyTimeout: DEFAULT_HTTP_TIMEOUTS.bodyTimeoutMs,
          }),
      );
    },
    slip(baseUrl) {
      const origin = new URL(baseUrl).origin;
      // No bound of its own: each shop's client bounds its calls in flight (maxConnections), and the events in
      // hand bound them all.
      return poolAt(`slip ${origin}`, () => new Pool(origin, { connections: null, connect: { timeout: options.slipConnectTimeoutMs } }));
    },
    async close() {
      const all = [...pools.values()];
      pools.clear();
      await Promise.allSettled(all.map((pool) => pool.close()));
    },
  };
}
