// The bot's HTTP face: each shop's webhook (admitted, signed with that shop's channel secret, answered at
// once, events handled after), GET /healthz (alive), GET /readyz (ready for traffic) and GET /metrics.
import { timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, RequestListener, Server } from "node:http";
import type { Socket } from "node:net";
import express from "express";
import type { ErrorRequestHandler, Express, NextFunction, Request, Response } from "express";
import { validateSignature } from "@line/bot-sdk";
import type { Logger } from "pino";
import type { Metrics } from "./metrics/metrics.js";
import type { EventDispatcher, ShopPipeline } from "./pipeline/dispatcher.js";
import { storedItemOf } from "./pipeline/stored-items.js";
import type { DurableEventQueue } from "./queue/index.js";
import type { LineCheck } from "./line/self-check.js";

/** A shop as the webhook needs it: where its webhook is, its channel secret, and its pipeline. */
export interface WebhookShop extends ShopPipeline {
  readonly config: { readonly webhookPath: string; readonly line: { readonly channelSecret: string; readonly previousChannelSecret?: string | undefined } };
  /** Runs `work` counted as this shop's (a retired shop closes once none are left). */
  busy<T>(work: () => Promise<T>): Promise<T>;
  lineCheck(): LineCheck | undefined;
}

export interface BotAppDeps {
  /** The shop whose webhook is at a path, among those served now. */
  shopAt(path: string): WebhookShop | undefined;
  /** Every shop served now (for /readyz's look at their LINE channels). */
  shops(): readonly WebhookShop[];
  dispatcher: EventDispatcher;
  log: Logger;
  metrics?: Metrics;
  /** When set, GET /metrics wants `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
  /**
   * With shared state: where verified events are stored before the webhook answers 200. Events it cannot
   * take in time are handled in this process instead, and logged as not stored.
   */
  store?: Pick<DurableEventQueue, "store">;
  /** False for an instance that only works the shared queue: its webhook answers 503. Default true. */
  takesWebhooks?: boolean;
  /**
   * Whether what the bot depends on (Redis) is reachable. While it is not, an instance that takes webhooks
   * still serves (their events are handled in-process): /readyz stays 200 and says `degraded`; a worker-only
   * instance can serve nothing, and its /readyz is 503 `redis_unreachable`.
   */
  dependenciesUp?: () => boolean;
}

export interface BotApp {
  readonly app: Express;
  /** From now on /readyz says ready (call once every part has started). */
  markReady(): void;
  /**
   * Shutdown, step one (the drain): /readyz answers 503 so load balancers stop sending here, while webhooks
   * that still arrive are handled as usual (LINE does not redeliver unless redelivery is on, so handling
   * them loses nothing); answers ask the client to close its connection.
   */
  stopReady(): void;
  /**
   * Shutdown, step two: the webhook also refuses new events with 503 (for requests on connections still
   * open after the listener closed), so that what is accepted can finish.
   */
  stopAccepting(): void;
}

/**
 * The largest webhook body accepted. A text message holds at most 5,000 characters (in Thai, 15 KB of
 * UTF-8); measured, a whole event with such a text, 20 mentions and a quoted message is 17.5 KB. 128 KB
 * holds seven of them in one webhook, while 512 held connections cost at most 64 MB of bodies.
 */
export const WEBHOOK_BODY_LIMIT_BYTES = 128 * 1024;

/** `draining`: /readyz 503, webhooks still handled; `closing`: webhooks refused too. */
type State = "starting" | "ready" | "draining" | "closing";

/** The webhook's shop, found by admission before the body is read. */
type WithShop = Request & { slipline?: { shop: WebhookShop } };

export function createBotApp(deps: BotAppDeps): BotApp {
  const { log, metrics, dispatcher, store } = deps;
  const takesWebhooks = deps.takesWebhooks ?? true;
  metrics?.watchQueue(dispatcher);
  let state: State = "starting";
  // Webhooks admitted whose bodies are still arriving: a burst is admitted faster than bodies are read, so
  // the bound counts them too, or a thousand could pass the check before the first one is queued.
  let arriving = 0;

  const refuse = (res: Response, status: number, reason: string, message: string): void => {
    metrics?.webhookRefused(reason);
    // The body is not read: closing the connection discards it instead of leaving it in the socket.
    res.status(status).set("Connection", "close").json({ message });
  };

  /** Checks that cost nothing come before reading a byte of the body. */
  const admit = (req: WithShop, res: Response, next: NextFunction): void => {
    const shop = deps.shopAt(req.path);
    // No such shop (or a shops file's deployment asked on /webhook): no body is read for it.
    if (shop === undefined) return refuse(res, 404, "unknown_shop", "No shop has its webhook here");
    if (!takesWebhooks) return refuse(res, 503, "worker_only", "This instance only works the event queue (INSTANCE_ROLE=worker)");
    if (state === "closing") return refuse(res, 503, "draining", "Shutting down; send again shortly");
    if (!dispatcher.hasRoom(arriving)) {
      log.warn({ waiting: dispatcher.waiting }, "webhook refused: too many events waiting");
      res.set("Retry-After", "1");
      return refuse(res, 503, "busy", "Busy; send again shortly");
    }
    const signature = req.headers["x-line-signature"];
    if (typeof signature !== "string" || signature === "") {
      shop.log.warn("webhook refused: no x-line-signature header");
      return refuse(res, 401, "unsigned", "Invalid signature");
    }
    req.slipline = { shop };
    arriving += 1;
    res.once("close", () => (arriving -= 1));
    next();
  };

  // Shops (by their config) already told that LINE signs with the new secret: said once, not per webhook.
  const toldCurrent = new WeakSet<object>();
  const receive = (req: WithShop, res: Response): void => {
    const shop = req.slipline?.shop;
    const raw: unknown = req.body;
    if (shop === undefined || !Buffer.isBuffer(raw)) {
      res.status(400).json({ message: "Bad request" });
      return;
    }
    // Checked over exactly the bytes LINE signed, with this shop's secret: another shop's signature is 401.
    // During a rotation the previous secret is accepted too, and the log says so (never the secret).
    const signature = String(req.headers["x-line-signature"]);
    const { channelSecret, previousChannelSecret } = shop.config.line;
    const signedWith = validateSignature(raw, channelSecret, signature)
      ? "current"
      : previousChannelSecret !== undefined && validateSignature(raw, previousChannelSecret, signature)
        ? "previous"
        : undefined;
    if (signedWith === "previous") shop.log.info({ signedWith }, "webhook signed with the previous channel secret: LINE still uses it, so keep it until this line stops");
    if (signedWith === "current" && previousChannelSecret !== undefined && !toldCurrent.has(shop.config)) {
      toldCurrent.add(shop.config);
      shop.log.info({ signedWith }, "webhook signed with the current channel secret while the previous one is still accepted: once no webhook is signed with the previous one, remove it");
    }
    if (signedWith === undefined) {
      metrics?.webhookRefused("bad_signature");
      shop.log.warn("webhook refused: bad signature");
      res.status(401).json({ message: "Invalid signature" });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      metrics?.webhookRefused("bad_json");
      shop.log.warn("webhook refused: body is not JSON");
      res.status(400).json({ message: "Body is not valid JSON" });
      return;
    }
    if (!isCallbackRequest(body)) {
      metrics?.webhookRefused("bad_body");
      res.status(400).json({ message: "Body must be a JSON object with an events array" });
      return;
    }
    const { events } = body;
    const handleHere = (): void => void shop.busy(() => dispatcher.dispatchAll(shop, events));
    if (events.length === 0 || store === undefined) {
      res.status(200).json({});
      if (events.length > 0) handleHere(); // none: the "Verify" button, or LINE checking in
      return;
    }
    // Stored before the 200, so an instance that dies now loses nothing; handled here if Redis is slow or away.
    void store.store(events.map((event) => storedItemOf(shop.id, event)), STORE_TIMEOUT_MS).then((stored) => {
      if (!stored) {
        metrics?.notStored(events.length);
        shop.log.warn({ events: events.length, eventIds: events.map(eventIdOf) }, "events not stored in redis; handling them in this process");
        handleHere();
      }
      res.status(200).json({});
    });
  };

  const app = express();
  app.disable("x-powered-by");
  // While shutting down, kept-alive connections are not reused: the next request opens one to another instance.
  app.use((_req: Request, res: Response, next: NextFunction) => {
    if (state === "draining" || state === "closing") res.set("Connection", "close");
    next();
  });

  const webhookPaths = ["/webhook", "/webhook/:shop"];
  // Raw bytes, bounded, so the signature is checked over exactly what LINE signed.
  app.post(webhookPaths, admit, express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT_BYTES }), receive);
  app.all(webhookPaths, (req: Request, res: Response) => {
    if (deps.shopAt(req.path) === undefined) res.status(404).json({ message: "No shop has its webhook here" });
    else res.status(405).set("Allow", "POST").json({ message: "Use POST" });
  });

  app.get("/healthz", (_req: Request, res: Response) => {
    res.status(200).json({ status: "ok" });
  });

  app.get("/readyz", (_req: Request, res: Response) => {
    // The LINE channels' check is reported, not waited for: LINE being down must not take the bot out.
    const line = lineReport(deps.shops());
    if (state === "ready" && deps.dependenciesUp?.() === false) {
      if (takesWebhooks) res.status(200).json({ status: "degraded", redis: "unreachable", ...line });
      else res.status(503).json({ status: "redis_unreachable", ...line });
      return;
    }
    res.status(state === "ready" ? 200 : 503).json({ status: state === "closing" ? "draining" : state, ...line });
  });

  if (metrics !== undefined) {
    app.get("/metrics", (req: Request, res: Response, next: NextFunction) => {
      if (deps.metricsToken !== undefined && !bearerMatches(req.headers.authorization, deps.metricsToken)) {
        res.status(401).set("WWW-Authenticate", "Bearer").json({ message: "Metrics need Authorization: Bearer <METRICS_TOKEN>" });
        return;
      }
      metrics.scrape().then(({ contentType, body }) => {
        res.status(200).type(contentType).send(body);
      }, next);
    });
  }

  app.use((_req: Request, res: Response) => {
    res.status(404).json({ message: "Not found" });
  });

  const onError: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
    const status = httpStatusOf(err);
    if (status !== undefined && status >= 400 && status < 500) {
      metrics?.webhookRefused(status === 413 ? "too_large" : "bad_request");
      res.status(status).set("Connection", "close").json({ message: status === 413 ? "Body too large" : "Bad request" });
      return;
    }
    log.error({ err }, "request failed");
    if (res.headersSent) return;
    res.status(500).json({ message: "Internal error" });
  };
  app.use(onError);

  return {
    app,
    markReady() {
      if (state === "starting") state = "ready";
    },
    stopReady() {
      if (state !== "closing") state = "draining";
    },
    stopAccepting() {
      state = "closing";
    },
  };
}

/**
 * What /readyz says of the LINE channels: one shop's state as `line` (and `lineWarnings`), as before shops
 * files; with several, the shops grouped by state (`lines`), so an operator sees which to fix.
 */
function lineReport(shops: readonly WebhookShop[]): Record<string, unknown> {
  const checks = shops.map((shop) => ({ id: shop.id, check: shop.lineCheck() })).filter((c): c is { id: string; check: LineCheck } => c.check !== undefined);
  if (checks.length === 0) return {};
  const [only] = checks;
  if (checks.length === 1 && only !== undefined) {
    const { check } = only;
    return { line: check.state, ...(check.state === "ok" && check.warnings.length > 0 ? { lineWarnings: check.warnings } : {}) };
  }
  const byState: Record<string, string[]> = {};
  for (const { id, check } of checks) {
    const key = check.state === "ok" && check.warnings.length > 0 ? `ok_with_warnings` : check.state;
    (byState[key] ??= []).push(id);
  }
  return { lines: byState };
}

/** How long the webhook waits for Redis to take its events before handling them in-process (LINE waits 2 s). */
const STORE_TIMEOUT_MS = 500;

function eventIdOf(event: unknown): unknown {
  return typeof event === "object" && event !== null ? (event as { webhookEventId?: unknown }).webhookEventId : undefined;
}

/** How long clients may take, and how many may hold a connection, so slow or idle clients cannot hold memory. */
export const SERVER_LIMITS = {
  /**
   * A new connection must send its first request within this, or it is closed. LINE sends the webhook as
   * soon as it has connected; a connection that sends nothing only holds a place under the cap, and
   * while the cap is full every new connection, LINE's too, is reset (measured in the bench).
   */
  firstRequestTimeoutMs: 2_000,
  /** All the request's headers must arrive within this. */
  headersTimeoutMs: 10_000,
  /** The whole request, body included. LINE sends a webhook in one go. */
  requestTimeoutMs: 15_000,
  /**
   * An idle keep-alive connection is closed after this (HTTP_KEEP_ALIVE_SECONDS). Behind a load balancer
   * that keeps connections longer, set it above the balancer's idle timeout (65 s behind 60 s), or the
   * balancer sometimes sends on a connection the bot has just closed: a sporadic 502.
   */
  keepAliveTimeoutMs: 5_000,
  /** Connections at once; past it new ones are closed at once. 512 bodies of 128 KB stay under 100 MB. */
  maxConnections: 512,
} as const;

export type ServerLimits = typeof SERVER_LIMITS;

/**
 * The limits with a keep-alive of `keepAliveSeconds`. The header and request deadlines stay above it, as a
 * load balancer's guides ask (Node requires the request deadline to be at least the headers'); the
 * connection cap and the first-request deadline still bound what idle or slow clients can hold.
 */
export function serverLimitsWith(keepAliveSeconds: number): { readonly [K in keyof ServerLimits]: number } {
  const keepAliveTimeoutMs = keepAliveSeconds * 1_000;
  const headersTimeoutMs = Math.max(SERVER_LIMITS.headersTimeoutMs, keepAliveTimeoutMs + 1_000);
  return { ...SERVER_LIMITS, keepAliveTimeoutMs, headersTimeoutMs, requestTimeoutMs: Math.max(SERVER_LIMITS.requestTimeoutMs, headersTimeoutMs + 5_000) };
}

/** The HTTP server for the bot's app, with the limits above (Node checks the timeouts every second). */
export function createBotServer(app: RequestListener, limits: { readonly [K in keyof ServerLimits]: number } = SERVER_LIMITS): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: 1_000,
    },
    app,
  );
  server.maxConnections = limits.maxConnections;
  if (limits.firstRequestTimeoutMs > 0) {
    // Idle from the start: no byte within the deadline closes it. The first request's arrival lifts the
    // deadline (the socket's own timeout would otherwise cut a slow answer); the timeouts above take over.
    server.on("connection", (socket: Socket) => {
      socket.setTimeout(limits.firstRequestTimeoutMs, () => socket.destroy());
    });
    server.on("request", (req: IncomingMessage) => {
      req.socket.setTimeout(0);
    });
  }
  return server;
}

/** Compares in constant time, so the token cannot be guessed from how fast a wrong one is refused. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "");
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function isCallbackRequest(body: unknown): body is { events: unknown[] } {
  return typeof body === "object" && body !== null && !Array.isArray(body) && Array.isArray((body as { events?: unknown }).events);
}

/** body-parser's errors (413, 400 on a bad encoding...) carry their status. */
function httpStatusOf(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const candidate = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  return typeof candidate === "number" ? candidate : undefined;
}
