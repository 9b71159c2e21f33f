// The bot's HTTP face: POST /webhook (admitted, signed, answered at once, events handled after),
// GET /healthz (alive), GET /readyz (ready for traffic) and GET /metrics.
import { timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, RequestListener, Server } from "node:http";
import type { Socket } from "node:net";
import express from "express";
import type { ErrorRequestHandler, Express, NextFunction, Request, Response } from "express";
import { JSONParseError, SignatureValidationFailed, middleware } from "@line/bot-sdk";
import type { Logger } from "pino";
import type { HandlerDeps } from "./handlers/context.js";
import type { Metrics } from "./metrics/metrics.js";
import { createEventDispatcher } from "./pipeline/dispatcher.js";
import { storedItemOf } from "./pipeline/stored-items.js";
import type { DrainReport, EventDispatcher, EventHandlers } from "./pipeline/dispatcher.js";
import type { Outbox } from "./line/outbox.js";
import type { LineCheck } from "./line/self-check.js";
import type { EventLedger } from "./pipeline/ledger.js";
import type { DurableEventQueue } from "./shared-state/event-queue.js";

export interface BotAppDeps {
  channelSecret: string;
  /** The send boundary: every answer goes out through it. */
  outbox: Outbox;
  handlerDeps: HandlerDeps;
  log: Logger;
  /** Default: the real handlers. */
  handlers?: EventHandlers;
  now?: () => Date;
  /** Events that may wait for a turn before the webhook answers 503. Default 1,000. */
  maxQueuedEvents?: number;
  /** Events handled at once. Default 64. */
  maxConcurrentEvents?: number;
  metrics?: Metrics;
  /** When set, GET /metrics wants `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
  /**
   * With shared state: where verified events are stored before the webhook answers 200. Events it cannot
   * take in time are handled in this process instead, and logged as not stored.
   */
  store?: DurableEventQueue;
  /** False for an instance that only works the shared queue: its webhook answers 503. Default true. */
  takesWebhooks?: boolean;
  /** Whether what the bot depends on (Redis) is reachable; /readyz is 503 while it is not. */
  dependenciesUp?: () => boolean;
  /** The ledger of answered events; default this process's memory. */
  ledger?: EventLedger;
  /** Told who sent each event handled (the rich menus keep each user's menu current). */
  onSender?: (userId: string) => void;
  /** MARK_AS_READ: after a command in a 1:1 chat, mark the chat read up to it. */
  markAsRead?: boolean;
  /** What the start-up look at the LINE channel found, for /readyz (LINE mode only). */
  lineCheck?: () => LineCheck;
}

export interface BotApp {
  readonly app: Express;
  readonly dispatcher: EventDispatcher;
  /** From now on /readyz says ready (call once every part has started). */
  markReady(): void;
  /**
   * Shutdown, step one: /readyz answers 503 and the webhook refuses new events with 503 (LINE
   * redelivers them when redelivery is on), so that what is accepted can finish.
   */
  stopAccepting(): void;
  /** Waits for the accepted events, up to `graceMs` (no limit when left out); reports what was abandoned. */
  drain(graceMs?: number): Promise<DrainReport>;
}

/**
 * The largest webhook body accepted. A text message holds at most 5,000 characters (in Thai, 15 KB of
 * UTF-8); measured, a whole event with such a text, 20 mentions and a quoted message is 17.5 KB. 128 KB
 * holds seven of them in one webhook, while 512 held connections cost at most 64 MB of bodies.
 */
export const WEBHOOK_BODY_LIMIT_BYTES = 128 * 1024;

type State = "starting" | "ready" | "draining";

export function createBotApp(deps: BotAppDeps): BotApp {
  const { log, metrics } = deps;
  const dispatcher = createEventDispatcher({
    outbox: deps.outbox,
    handlerDeps: deps.handlerDeps,
    log,
    ...(deps.handlers === undefined ? {} : { handlers: deps.handlers }),
    ...(deps.now === undefined ? {} : { now: deps.now }),
    ...(deps.maxQueuedEvents === undefined ? {} : { maxQueuedEvents: deps.maxQueuedEvents }),
    ...(deps.maxConcurrentEvents === undefined ? {} : { maxConcurrentEvents: deps.maxConcurrentEvents }),
    ...(metrics === undefined ? {} : { observer: metrics.pipeline }),
    ...(deps.ledger === undefined ? {} : { ledger: deps.ledger }),
    ...(deps.onSender === undefined ? {} : { onSender: deps.onSender }),
    ...(deps.markAsRead === undefined ? {} : { markAsRead: deps.markAsRead }),
  });
  const { store } = deps;
  const takesWebhooks = deps.takesWebhooks ?? true;
  metrics?.watchQueue(dispatcher);
  let state: State = "starting";

  const refuse = (res: Response, status: number, reason: string, message: string): void => {
    metrics?.webhookRefused(reason);
    // The body is not read: closing the connection discards it instead of leaving it in the socket.
    res.status(status).set("Connection", "close").json({ message });
  };

  /** Checks that cost nothing come before reading a byte of the body. */
  const admit = (req: Request, res: Response, next: NextFunction): void => {
    if (!takesWebhooks) return refuse(res, 503, "worker_only", "This instance only works the event queue (INSTANCE_ROLE=worker)");
    if (state === "draining") return refuse(res, 503, "draining", "Shutting down; send again shortly");
    if (!dispatcher.hasRoom()) {
      log.warn({ waiting: dispatcher.waiting }, "webhook refused: too many events waiting");
      res.set("Retry-After", "1");
      return refuse(res, 503, "busy", "Busy; send again shortly");
    }
    if (req.headers["x-line-signature"] === undefined) {
      log.warn("webhook refused: no x-line-signature header");
      return refuse(res, 401, "unsigned", "Invalid signature");
    }
    next();
  };

  const app = express();
  app.disable("x-powered-by");

  app.post(
    "/webhook",
    admit,
    // Raw bytes, bounded, so the signature is checked over exactly what LINE signed.
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT_BYTES }),
    middleware({ channelSecret: deps.channelSecret }),
    (req: Request, res: Response) => {
      const body: unknown = req.body;
      if (!isCallbackRequest(body)) {
        metrics?.webhookRefused("bad_body");
        res.status(400).json({ message: "Body must be a JSON object with an events array" });
        return;
      }
      const { events } = body;
      if (events.length === 0 || store === undefined) {
        res.status(200).json({});
        if (events.length > 0) void dispatcher.dispatchAll(events); // none: the "Verify" button, or LINE checking in
        return;
      }
      // Stored before the 200, so an instance that dies now loses nothing; handled here if Redis is slow or away.
      void store.store(events.map(storedItemOf), STORE_TIMEOUT_MS).then((stored) => {
        if (!stored) {
          metrics?.notStored(events.length);
          log.warn({ events: events.length, eventIds: events.map(eventIdOf) }, "events not stored in redis; handling them in this process");
          void dispatcher.dispatchAll(events);
        }
        res.status(200).json({});
      });
    },
  );
  app.all("/webhook", (_req: Request, res: Response) => {
    res.status(405).set("Allow", "POST").json({ message: "Use POST" });
  });

  app.get("/healthz", (_req: Request, res: Response) => {
    res.status(200).json({ status: "ok" });
  });

  app.get("/readyz", (_req: Request, res: Response) => {
    // The LINE channel's check is reported, not waited for: LINE being down must not take the bot out.
    const check = deps.lineCheck?.();
    const line = check === undefined ? {} : { line: check.state, ...(check.state === "ok" && check.warnings.length > 0 ? { lineWarnings: check.warnings } : {}) };
    if (state === "ready" && deps.dependenciesUp?.() === false) {
      res.status(503).json({ status: "redis_unreachable", ...line });
      return;
    }
    res.status(state === "ready" ? 200 : 503).json({ status: state, ...line });
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
    if (err instanceof SignatureValidationFailed) {
      metrics?.webhookRefused("bad_signature");
      log.warn({ reason: err.message }, "webhook refused: bad signature");
      res.status(401).json({ message: "Invalid signature" });
      return;
    }
    if (err instanceof JSONParseError) {
      metrics?.webhookRefused("bad_json");
      log.warn("webhook refused: body is not JSON");
      res.status(400).json({ message: "Body is not valid JSON" });
      return;
    }
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
    dispatcher,
    markReady() {
      if (state === "starting") state = "ready";
    },
    stopAccepting() {
      state = "draining";
    },
    drain(graceMs) {
      return dispatcher.drain(graceMs);
    },
  };
}

/** How long the webhook waits for Redis to take its events before handling them in-process (LINE waits 2 s). */
const STORE_TIMEOUT_MS = 500;

function eventIdOf(event: unknown): unknown {
  return typeof event === "object" && event !== null ? (event as { webhookEventId?: unknown }).webhookEventId : undefined;
}

/** How long clients may take, and how many may hold a connection, so slow or idle ones cannot hold memory. */
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
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** Connections at once; past it new ones are closed at once. 512 bodies of 128 KB stay under 100 MB. */
  maxConnections: 512,
} as const;

export type ServerLimits = typeof SERVER_LIMITS;

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
