// The Redis connections of one instance: one for the bot's own quick commands (fails fast when Redis is
// away), one shared by the queue workers (waits for Redis to come back), and whether Redis is up now.
import { Redis } from "ioredis";
import type { Logger } from "pino";

export interface RedisLink {
  /** Ledger, journal, notes, cache and queue producers: offline means an error at once, not a wait. */
  readonly commands: Redis;
  /** The queue's connection: commands wait for a reconnect (leases, acknowledgements and blocking reads). */
  readonly workers: Redis;
  /** Both connections are up. */
  isUp(): boolean;
  /** Called with isUp() each time it changes. */
  onChange(listener: (up: boolean) => void): void;
  /** Settles once the first connection attempts have either succeeded or failed (then isUp() means something). */
  readonly firstAttempt: Promise<void>;
  close(): Promise<void>;
}

export interface RedisLinkOptions {
  url: string;
  log: Logger;
  /** Told about every connection error (metrics). */
  onError?: () => void;
  /** REDIS_TLS_CA's certificates (PEM): for a rediss:// provider whose certificate chains to its own CA. */
  tlsCa?: string | undefined;
  /** The queue connection's name (the queue's `queueConnectionName`: the other instances look for it). */
  workersName?: string | undefined;
}

/** A command that waits longer than this counts as failed: the callers have fallbacks. */
const COMMAND_TIMEOUT_MS = 1_000;

export function connectRedis(options: RedisLinkOptions): RedisLink {
  const { log } = options;
  const reconnect = (times: number): number => Math.min(100 * 2 ** Math.min(times, 5), 2_000);
  const tls = options.tlsCa === undefined ? {} : { tls: { ca: options.tlsCa } };
  const commands = new Redis(options.url, {
    ...tls,
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: reconnect,
    connectionName: "slipline",
    enableAutoPipelining: true,
  });
  const workers = new Redis(options.url, {
    ...tls,
    maxRetriesPerRequest: null,
    // Commands issued in one turn of the event loop go out in one write: on a busy host each write (a system
    // call that wakes redis-server) costs more than the command itself.
    enableAutoPipelining: true,
    retryStrategy: reconnect,
    // Set again on every reconnect.
    connectionName: options.workersName ?? "slipline-workers",
  });
  const isUp = (): boolean => commands.status === "ready" && workers.status === "ready";
  const listeners: ((up: boolean) => void)[] = [];
  let wasBothUp = false;
  const changed = (): void => {
    const up = isUp();
    if (up === wasBothUp) return;
    wasBothUp = up;
    for (const listener of listeners) listener(up);
  };
  for (const [name, connection] of [
    ["commands", commands],
    ["workers", workers],
  ] as const) {
    for (const event of ["ready", "close", "end", "reconnecting"]) connection.on(event, changed);
    let wasUp = false;
    connection.on("ready", () => {
      if (!wasUp) log.info({ connection: name }, "redis connected");
      wasUp = true;
    });
    connection.on("error", (err: Error) => {
      options.onError?.();
      // ioredis repeats the same error on every reconnect attempt; the message never holds the password.
      log.warn({ connection: name, error: err.message }, "redis error");
    });
    connection.on("end", () => {
      if (wasUp) log.warn({ connection: name }, "redis connection lost");
      wasUp = false;
    });
  }
  const firstAttempt = new Promise<void>((resolve) => {
    for (const connection of [commands, workers]) {
      connection.once("error", () => resolve());
      connection.once("ready", () => {
        if (isUp()) resolve();
      });
    }
  });
  return {
    commands,
    workers,
    isUp,
    firstAttempt,
    onChange: (listener) => void listeners.push(listener),
    async close() {
      await Promise.allSettled([commands.quit(), workers.quit()]);
      commands.disconnect();
      workers.disconnect();
    },
  };
}

/** Resolves once the connection is up (at once when it already is). */
export function whenUp(connection: Redis): Promise<void> {
  if (connection.status === "ready") return Promise.resolve();
  return new Promise((resolve) => connection.once("ready", () => resolve()));
}
