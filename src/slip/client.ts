// The slip service client: one keep-alive pool per base URL, no more calls than connections, per-attempt
// deadlines, bounded retries, a circuit breaker, typed errors and data.
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { CircuitState as BreakerState, ConsecutiveBreaker, circuitBreaker, handleWhen, isBrokenCircuitError } from "cockatiel";
import PQueue from "p-queue";
import { Pool } from "undici";
import type { Dispatcher } from "undici";
import {
  InvalidRequestError,
  isSlipClientError,
  PackageExpiredError,
  ResponseShapeError,
  ServiceError,
  ServiceUnavailableError,
  UnauthorizedError,
} from "./errors.js";
import {
  readAccountInfo,
  readEnvelope,
  readHistoryPage,
  readPromptPayQr,
  readPromptPayQrUrl,
  SUCCESS_CODE,
} from "./guards.js";
import type { Guarded } from "./guards.js";
import { isRetryableStatus, parseRetryAfterMs, retryDelayMs } from "../retry.js";
import type { RetryPolicy } from "../retry.js";
import type {
  AccountInfo,
  CircuitState,
  HistoryPage,
  HistoryQuery,
  PromptPayQr,
  PromptPayQrRequest,
  PromptPayQrUrl,
  PromptPayQrUrlRequest,
  SlipClient,
  SlipObserver,
} from "./types.js";

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
  /** Clock for the account cache and Retry-After dates. Default `Date.now`. */
  now?: () => number;
  /** Waits between attempts. Default a real timer; tests record the waits instead. */
  sleep?: (ms: number) => Promise<void>;
  /** Source of jitter in [0, 1). Default `Math.random`. */
  random?: () => number;
}

interface Settings {
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
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  readonly observer: SlipObserver | undefined;
}

/** A place to keep the account info for a while; a cache that fails only costs a service call. */
export interface AccountCache {
  get(): Promise<AccountInfo | undefined>;
  set(value: AccountInfo, ttlMs: number): Promise<void>;
}

function memoryAccountCache(now: () => number): AccountCache {
  let kept: { value: AccountInfo; freshUntilMs: number } | undefined;
  return {
    get: () => Promise.resolve(kept !== undefined && now() < kept.freshUntilMs ? kept.value : undefined),
    set: (value, ttlMs) => {
      kept = { value, freshUntilMs: now() + ttlMs };
      return Promise.resolve();
    },
  };
}

/** One call as the retry loop sees it. */
interface Call<T> {
  readonly method: "GET" | "POST";
  /** Contract path, e.g. `/api/slip-history`; the base URL's prefix is added when sending. */
  readonly path: string;
  readonly query: string;
  readonly body: string | undefined;
  readonly read: (data: unknown) => Guarded<T>;
}

/** What one attempt produced: an answer with its status, or no answer at all. */
type Attempt =
  | { readonly kind: "answer"; readonly status: number; readonly headers: Dispatcher.ResponseData["headers"]; readonly text: string }
  | { readonly kind: "too_large"; readonly status: number }
  /** No free connection within maxWaitMs: the service is already as busy as we let it be. */
  | { readonly kind: "busy" }
  | { readonly kind: "no_answer"; readonly problem: string; readonly cause: unknown };

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

const HISTORY_PATH = "/api/slip-history";
const QR_PATH = "/api/promptpay-qr";
const QR_URL_PATH = "/api/promptpay-qr-url";
const ACCOUNT_PATH = "/api/account/info";

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

function readSettings(options: SlipClientOptions): Settings {
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
    now: options.now ?? Date.now,
    sleep: options.sleep ?? ((ms) => delay(ms)),
    random: options.random ?? Math.random,
    observer: options.observer,
  };
}

/** Builds the query string of GET /api/slip-history: only the given filters, Dates as ISO 8601 UTC. */
function buildHistoryQuery(query: HistoryQuery): string {
  const params = new URLSearchParams();
  const put = (name: string, value: string | number | Date | undefined): void => {
    if (value === undefined) return;
    params.set(name, value instanceof Date ? value.toISOString() : String(value));
  };
  put("page", query.page);
  put("limit", query.limit);
  put("status", query.status);
  put("transRef", query.transRef);
  put("from", query.from);
  put("to", query.to);
  return params.toString();
}

/** Shares one in-flight promise among identical concurrent calls; each caller gets its own copy of the data. */
class InFlight<T> {
  private readonly pending = new Map<string, Promise<T>>();

  run(key: string, start: () => Promise<T>): Promise<T> {
    let shared = this.pending.get(key);
    if (shared === undefined) {
      shared = start().finally(() => this.pending.delete(key));
      this.pending.set(key, shared);
    }
    // Copies, so one handler changing its result cannot change another's.
    return shared.then((value) => structuredClone(value));
  }
}

function header(headers: Dispatcher.ResponseData["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A short, safe description of why an attempt got no answer; undici codes are stable, messages are not. */
function describeNetworkError(error: unknown, settings: Settings): string {
  const code = typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
  switch (code) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return `connect timeout after ${settings.connectTimeoutMs} ms`;
    case "UND_ERR_HEADERS_TIMEOUT":
      return `no response headers within ${settings.headersTimeoutMs} ms`;
    case "UND_ERR_BODY_TIMEOUT":
      return `response body stalled for ${settings.bodyTimeoutMs} ms`;
    case "UND_ERR_SOCKET":
      return "connection closed by the server";
    case undefined:
      return `network error (${error instanceof Error ? error.name : typeof error})`;
    default:
      return `network error ${code}`;
  }
}

function circuitStateName(state: BreakerState): CircuitState {
  switch (state) {
    case BreakerState.Closed:
      return "closed";
    case BreakerState.HalfOpen:
      return "half_open";
    default:
      return "open";
  }
}

async function readLimited(body: Dispatcher.ResponseData["body"], maxBytes: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      return undefined;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function createSlipClient(options: SlipClientOptions): SlipClient {
  const settings = readSettings(options);
  const pool = new Pool(settings.origin, {
    connections: settings.maxConnections,
    connect: { timeout: settings.connectTimeoutMs },
    headersTimeout: settings.headersTimeoutMs,
    bodyTimeout: settings.bodyTimeoutMs,
  });
  // Calls in flight never outnumber the pool's connections (see attemptOnce).
  const slots = new PQueue({ concurrency: settings.maxConnections });
  // Only outages open the circuit: a refused request or an expired package is an answer, not a failure.
  const breaker = circuitBreaker(
    handleWhen((error) => error instanceof ServiceUnavailableError),
    { halfOpenAfter: settings.breakForMs, breaker: new ConsecutiveBreaker(settings.breakAfterFailures) },
  );
  breaker.onStateChange((state) => settings.observer?.circuit(circuitStateName(state)));
  const historyFlights = new InFlight<HistoryPage>();
  const accountFlights = new InFlight<AccountInfo>();
  const accountCache = options.accountCache ?? memoryAccountCache(settings.now);
  let closed = false;

  // A service message is outside input: if it ever echoed the secret, the secret would reach staff and logs.
  const redact = (text: string): string => text.split(settings.secret).join("[redacted]");

  /**
   * One attempt, once a connection is free: the deadline covers the attempt itself, not the wait for a
   * connection, which is bounded on its own. Calls never outnumber connections, so undici never queues.
   */
  async function attemptOnce(call: Call<unknown>): Promise<Attempt> {
    const waitOver = new AbortController();
    const waitTimer = setTimeout(() => waitOver.abort(), settings.maxWaitMs);
    try {
      return await slots.add(
        () => {
          clearTimeout(waitTimer);
          return attemptWithConnection(call);
        },
        { signal: waitOver.signal },
      );
    } catch (error) {
      if (waitOver.signal.aborted) return { kind: "busy" };
      throw error;
    } finally {
      clearTimeout(waitTimer);
    }
  }

  async function attemptWithConnection(call: Call<unknown>): Promise<Attempt> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), settings.timeoutMs);
    try {
      const response = await pool.request({
        method: call.method,
        path: `${settings.pathPrefix}${call.path}${call.query === "" ? "" : `?${call.query}`}`,
        headers: {
          authorization: settings.authorization,
          accept: "application/json",
          ...(call.body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: call.body,
        signal: deadline.signal,
      });
      const text = await readLimited(response.body, settings.maxBodyBytes);
      if (text === undefined) return { kind: "too_large", status: response.statusCode };
      return { kind: "answer", status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      const problem = deadline.signal.aborted ? `no complete answer within ${settings.timeoutMs} ms` : describeNetworkError(error, settings);
      return { kind: "no_answer", problem, cause: error };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Turns a final answer into data or the matching error. */
  function interpret<T>(operation: string, call: Call<T>, status: number, text: string): T {
    let json: unknown;
    let parsed = true;
    try {
      json = JSON.parse(text);
    } catch {
      parsed = false;
    }
    const envelope = parsed ? readEnvelope(json) : undefined;
    const message = envelope?.ok === true ? redact(envelope.value.message) : undefined;

    if (status >= 200 && status <= 299) {
      if (!parsed) throw new ResponseShapeError(operation, status, "body is not JSON");
      if (envelope === undefined || !envelope.ok) throw new ResponseShapeError(operation, status, envelope?.problem ?? "no envelope");
      if (envelope.value.code !== SUCCESS_CODE) {
        throw new ServiceError(operation, status, redact(envelope.value.code), message ?? "");
      }
      const data = call.read(envelope.value.data);
      if (!data.ok) throw new ResponseShapeError(operation, status, data.problem);
      return data.value;
    }
    switch (status) {
      case 400:
        throw new InvalidRequestError(operation, message ?? "Bad Request");
      case 401:
      case 403:
        throw new UnauthorizedError(operation, status, message ?? (status === 401 ? "Unauthorized" : "Forbidden"));
      case 402:
        throw new PackageExpiredError(operation, message ?? "Package expired");
    }
    if (status >= 400 && status <= 499) {
      const code = envelope?.ok === true ? redact(envelope.value.code) : String(status);
      throw new ServiceError(operation, status, code, message ?? `HTTP ${status}`);
    }
    throw new ResponseShapeError(operation, status, `unexpected HTTP status ${status}`);
  }

  /** The retries and the circuit around them, timed and reported once per operation. */
  async function execute<T>(call: Call<T>): Promise<T> {
    if (closed) throw new Error("The slip client is closed");
    const operation = `${call.method} ${call.path}`;
    const started = performance.now();
    const report = (outcome: string): void => settings.observer?.call(operation, outcome, (performance.now() - started) / 1000);
    try {
      const value = await breaker.execute(() => withRetries(operation, call));
      report("ok");
      return value;
    } catch (error) {
      if (isBrokenCircuitError(error)) {
        report("circuit_open");
        throw new ServiceUnavailableError(operation, 0, undefined, `circuit open after ${settings.breakAfterFailures} failures in a row`, error);
      }
      report(isSlipClientError(error) ? error.kind : "bug");
      throw error;
    }
  }

  async function withRetries<T>(operation: string, call: Call<T>): Promise<T> {
    const attempts = settings.policy.retries + 1;
    let last: { status: number | undefined; problem: string; cause: unknown } = { status: undefined, problem: "not attempted", cause: undefined };
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      const result = await attemptOnce(call);
      let retryAfterMs: number | undefined;
      if (result.kind === "too_large") {
        throw new ResponseShapeError(operation, result.status, `body larger than ${settings.maxBodyBytes} bytes`);
      }
      // Waiting again would only add to the queue that made this one wait.
      if (result.kind === "busy") {
        throw new ServiceUnavailableError(operation, attempt - 1, undefined, `busy: no free connection within ${settings.maxWaitMs} ms`);
      }
      if (result.kind === "no_answer") {
        last = { status: undefined, problem: result.problem, cause: result.cause };
      } else if (isRetryableStatus(result.status)) {
        last = { status: result.status, problem: `HTTP ${result.status}`, cause: undefined };
        retryAfterMs = parseRetryAfterMs(header(result.headers, "retry-after"), settings.now());
      } else {
        return interpret(operation, call, result.status, result.text);
      }
      if (attempt < attempts) await settings.sleep(retryDelayMs(attempt, settings.policy, retryAfterMs, settings.random));
    }
    throw new ServiceUnavailableError(operation, attempts, last.status, last.problem, last.cause);
  }

  function refuse(operation: string, problem: string): Promise<never> {
    return Promise.reject(new InvalidRequestError(operation, problem, undefined));
  }

  return {
    slipHistory(query: HistoryQuery = {}): Promise<HistoryPage> {
      for (const name of ["from", "to"] as const) {
        const value = query[name];
        // toISOString throws on an invalid Date; say so as a request error instead of a RangeError.
        if (value instanceof Date && Number.isNaN(value.getTime())) return refuse(`GET ${HISTORY_PATH}`, `${name} is an invalid Date`);
      }
      const queryString = buildHistoryQuery(query);
      return historyFlights.run(queryString, () =>
        execute({ method: "GET", path: HISTORY_PATH, query: queryString, body: undefined, read: readHistoryPage }),
      );
    },

    promptPayQr(request: PromptPayQrRequest): Promise<PromptPayQr> {
      const payload = { accountNumber: request.accountNumber, ...(request.amount === undefined ? {} : { amount: request.amount }) };
      return execute({ method: "POST", path: QR_PATH, query: "", body: JSON.stringify({ payload }), read: readPromptPayQr });
    },

    promptPayQrUrl(request: PromptPayQrUrlRequest): Promise<PromptPayQrUrl> {
      const payload = {
        accountNumber: request.accountNumber,
        ...(request.amount === undefined ? {} : { amount: request.amount }),
        ...(request.size === undefined ? {} : { size: request.size }),
      };
      return execute({ method: "POST", path: QR_URL_PATH, query: "", body: JSON.stringify({ payload }), read: readPromptPayQrUrl });
    },

    async accountInfo(): Promise<AccountInfo> {
      if (settings.accountCacheMs > 0) {
        const cached = await accountCache.get().catch(() => undefined);
        if (cached !== undefined) return structuredClone(cached);
      }
      return accountFlights.run("", async () => {
        const value = await execute({ method: "GET", path: ACCOUNT_PATH, query: "", body: undefined, read: readAccountInfo });
        // Only successes are cached: an expired package or an outage must be seen again on the next call.
        if (settings.accountCacheMs > 0) await accountCache.set(value, settings.accountCacheMs).catch(() => undefined);
        return value;
      });
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await pool.close();
    },
  };
}
