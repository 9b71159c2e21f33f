// The slip client's options: their defaults and limits, checked once, and the Settings the other modules read.
import { setTimeout as delay } from "node:timers/promises";
import type { AccountCache } from "../stores/account-cache.js";
import type { RetryPolicy } from "../retry.js";
import { qrImageOrigins } from "./qr-check.js";
import type { QrImageOrigins } from "./qr-check.js";
import type { SlipObserver } from "./types.js";
import type { Dispatcher } from "undici";

export interface SlipClientOptions {
  /** `https://host` or `https://host/prefix`; operations go to `{baseUrl}/api/...`. */
  baseUrl: string;
  /** Sent only as `Authorization: Bearer <apiSecret>`. */
  apiSecret: string;
  /** Deadline of one attempt, from sending to the last byte of the body. Default 4000. */
  timeoutMs?: number;
  /** TCP (and TLS) connect timeout. Default 2000, at most `timeoutMs`. */
  connectTimeoutMs?: number;
  /** Time allowed until the response headers arrive. Default `timeoutMs`. */
  headersTimeoutMs?: number;
  /** Longest silence allowed between body chunks. Default `timeoutMs`. */
  bodyTimeoutMs?: number;
  /** Extra attempts on network errors, timeouts, 5xx and 429. Default 2 (3 attempts), at most 5. */
  retries?: number;
  /** Base of the full-jitter exponential backoff. Default 200. Tests pass 0 to retry at once. */
  backoffBaseMs?: number;
  /** Cap on any wait between attempts, Retry-After included. Default 2000. */
  maxRetryDelayMs?: number;
  /** How long a successful account info answer is reused. Default 30; 0 turns the cache off. */
  accountCacheSeconds?: number;
  /**
   * Most calls in flight (and sockets open) at once. A call waits for a free one before its deadline
   * starts. Default 32.
   */
  maxConnections?: number;
  /**
   * Connections to the service's origin shared with other clients (a deployment's shops: compose/connections.ts),
   * closed by their owner. `maxConnections` still bounds this client's calls in flight. Default: a pool of
   * the client's own.
   */
  connections?: Dispatcher | undefined;
  /** Longest wait for a free connection; past it the call fails as "service unavailable (busy)". Default 10000. */
  maxWaitMs?: number;
  /** Operations failing in a row (service unavailable) that open the circuit. Default 5. */
  breakAfterFailures?: number;
  /** How long an open circuit answers "service unavailable" at once before one trial call. Default 10000. */
  breakForMs?: number;
  /** Told about each operation's end and each change of the circuit (metrics). */
  observer?: SlipObserver;
  /** Where account info is cached; default this process's memory. Shared when several instances run. */
  accountCache?: AccountCache;
  /** Largest body accepted. Default 1 MiB (a page of 100 history items is about 40 KB). */
  maxBodyBytes?: number;
  /**
   * Other origins the service's QR image links may use (each https, or http on loopback), beside the
   * service's own origin (when that is https or loopback): a service documented to serve its images
   * elsewhere, or a sandbox with a public URL of its own. A link elsewhere is refused. Default none.
   */
  qrImageOrigins?: readonly string[];
  /** Clock for the account cache and Retry-After dates. Default `Date.now`. */
  now?: () => number;
  /** Waits between attempts. Default a real timer; tests record the waits instead. */
  sleep?: (ms: number) => Promise<void>;
  /** Source of jitter in [0, 1). Default `Math.random`. */
  random?: () => number;
}

/** The options, checked and with every default filled in. */
export interface Settings {
  readonly origin: string;
  readonly pathPrefix: string;
  readonly authorization: string;
  readonly secret: string;
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly maxConnections: number;
  readonly maxWaitMs: number;
  readonly breakAfterFailures: number;
  readonly breakForMs: number;
  readonly policy: RetryPolicy;
  readonly accountCacheMs: number;
  readonly maxBodyBytes: number;
  /** Origins a QR image link may use. */
  readonly qrImageOrigins: QrImageOrigins;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  readonly observer: SlipObserver | undefined;
  readonly connections: Dispatcher | undefined;
}

const DEFAULTS = {
  timeoutMs: 4000,
  connectTimeoutMs: 2000,
  retries: 2,
  backoffBaseMs: 200,
  maxRetryDelayMs: 2000,
  accountCacheSeconds: 30,
  maxConnections: 32,
  maxWaitMs: 10_000,
  breakAfterFailures: 5,
  breakForMs: 10_000,
  maxBodyBytes: 1024 * 1024,
} as const;

/** The connect timeout when `connectTimeoutMs` is not given. */
export const DEFAULT_SLIP_CONNECT_TIMEOUT_MS = DEFAULTS.connectTimeoutMs;

// Errors name the option and never echo its value: the secret must not reach a log through a TypeError.
function checkNumber(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < min || chosen > max) {
    throw new RangeError(`The \`${name}\` option must be an integer from ${min} to ${max}`);
  }
  return chosen;
}

function readBaseUrl(baseUrl: string): { origin: string; pathPrefix: string } {
  if (typeof baseUrl !== "string" || !URL.canParse(baseUrl)) throw new TypeError("The `baseUrl` option must be an absolute URL");
  const url = new URL(baseUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError("The `baseUrl` option must use http or https");
  if (url.username !== "" || url.password !== "") throw new TypeError("The `baseUrl` option must not carry credentials");
  if (url.search !== "" || url.hash !== "") throw new TypeError("The `baseUrl` option must not have a query or fragment");
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, "") };
}

function readImageOrigins(serviceOrigin: string, listed: readonly string[] | undefined): QrImageOrigins {
  const origins = Array.isArray(listed) || listed === undefined ? qrImageOrigins(serviceOrigin, listed ?? []) : undefined;
  if (origins === undefined) throw new TypeError("The `qrImageOrigins` option must list https URLs (http only on loopback) without credentials");
  return origins;
}

export function readSettings(options: SlipClientOptions): Settings {
  const { origin, pathPrefix } = readBaseUrl(options.baseUrl);
  // Bearer tokens are visible ASCII (RFC 6750 b64token is a subset); anything else could break the header.
  if (typeof options.apiSecret !== "string" || !/^[\x21-\x7e]+$/.test(options.apiSecret)) {
    throw new TypeError("The `apiSecret` option must be a non-empty string of visible ASCII characters");
  }
  const timeoutMs = checkNumber("timeoutMs", options.timeoutMs, DEFAULTS.timeoutMs, 1, 60_000);
  return {
    origin,
    pathPrefix,
    secret: options.apiSecret,
    authorization: `Bearer ${options.apiSecret}`,
    timeoutMs,
    connectTimeoutMs: Math.min(checkNumber("connectTimeoutMs", options.connectTimeoutMs, DEFAULTS.connectTimeoutMs, 1, 60_000), timeoutMs),
    headersTimeoutMs: checkNumber("headersTimeoutMs", options.headersTimeoutMs, timeoutMs, 1, 60_000),
    bodyTimeoutMs: checkNumber("bodyTimeoutMs", options.bodyTimeoutMs, timeoutMs, 1, 60_000),
    policy: {
      retries: checkNumber("retries", options.retries, DEFAULTS.retries, 0, 5),
      backoffBaseMs: checkNumber("backoffBaseMs", options.backoffBaseMs, DEFAULTS.backoffBaseMs, 0, 10_000),
      maxDelayMs: checkNumber("maxRetryDelayMs", options.maxRetryDelayMs, DEFAULTS.maxRetryDelayMs, 0, 10_000),
    },
    accountCacheMs: checkNumber("accountCacheSeconds", options.accountCacheSeconds, DEFAULTS.accountCacheSeconds, 0, 86_400) * 1000,
    maxConnections: checkNumber("maxConnections", options.maxConnections, DEFAULTS.maxConnections, 1, 256),
    maxWaitMs: checkNumber("maxWaitMs", options.maxWaitMs, DEFAULTS.maxWaitMs, 1, 120_000),
    breakAfterFailures: checkNumber("breakAfterFailures", options.breakAfterFailures, DEFAULTS.breakAfterFailures, 1, 1_000),
    breakForMs: checkNumber("breakForMs", options.breakForMs, DEFAULTS.breakForMs, 1, 600_000),
    maxBodyBytes: checkNumber("maxBodyBytes", options.maxBodyBytes, DEFAULTS.maxBodyBytes, 1024, 64 * 1024 * 1024),
    qrImageOrigins: readImageOrigins(origin, options.qrImageOrigins),
    now: options.now ?? Date.now,
    sleep: options.sleep ?? ((ms) => delay(ms)),
    random: options.random ?? Math.random,
    observer: options.observer,
    connections: options.connections,
  };
}
