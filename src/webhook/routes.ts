// The bot's HTTP face: each shop's webhook (admitted before its body is read, verified, handed to the
// intake, answered), GET /healthz (alive), GET /readyz (ready for traffic) and GET /metrics. Every refusal
// is one row of REFUSALS: its status, message, log line and metric.
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import express from "express";
import type { ErrorRequestHandler, Express, NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import type { Intake, IntakeShop } from "../intake/in-process.js";
import type { LineCheck } from "../line/self-check.js";
import type { Metrics } from "../metrics/metrics.js";
import { verifyWebhook } from "./verify.js";
import type { WebhookSecrets } from "./verify.js";

/** A shop as the webhook needs it: where its webhook is, its channel secrets, and what its events need. */
export interface WebhookShop extends IntakeShop {
  readonly config: { readonly webhookPath: string; readonly line: WebhookSecrets };
  lineCheck(): LineCheck | undefined;
}

export interface BotAppDeps {
  /** The shops served now: by webhook path, and all of them (for /readyz's look at their LINE channels). */
  shops: { atPath(path: string): WebhookShop | undefined; current(): readonly WebhookShop[] };
  /** Where verified events go: in-process, or stored in Redis first. */
  intake: Intake;
  log: Logger;
  metrics?: Metrics;
  /**
   * When set, GET /metrics wants `Authorization: Bearer <metricsToken>`, and /readyz names the shops of each
   * LINE channel state only to a request bearing it.
   */
  metricsToken?: string;
  /**
   * Without a token: whether /metrics (its `shop` labels) is open to anyone who reaches the port (local mode,
   * whose port is this machine's), or not served here at all (a LINE deployment, whose port is public: set
   * METRICS_TOKEN, or METRICS_PORT for a listener of its own on 127.0.0.1). Default `closed`.
   */
  metricsWithoutToken?: "open" | "closed";
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
  /** A POST to a webhook path, handled without express's routing (the server calls it directly). */
  readonly webhook: (req: IncomingMessage, res: ServerResponse) => void;
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

/** Whether a request's URL is a webhook's (`/webhook`, `/webhook/<shop>`, with or without a query). */
export function isWebhookPath(url: string | undefined): boolean {
  if (url === undefined || !url.startsWith("/webhook")) return false;
  const next = url.charAt("/webhook".length);
  return next === "" || next === "/" || next === "?";
}

/** Why a webhook was answered without its events being handled; also the metric's `reason` label. */
export type RefusalReason = "unknown_shop" | "worker_only" | "draining" | "busy" | "unsigned" | "bad_signature" | "bad_json" | "bad_body" | "too_large" | "bad_request";

interface RefusalRow {
  readonly status: number;
  readonly message: string;
  /** The shop's log line (warn), when the refusal is worth one. */
  readonly log?: string;
  /** Refused before its body was read: closing the connection discards the body instead of leaving it in the socket. */
  readonly unread: boolean;
  /** Every 503 relies on LINE's redelivery; `busy` says when to come back. */
  readonly retryAfter?: string;
}

/** Every refusal of the webhook, in one place. */
export const REFUSALS: Readonly<Record<RefusalReason, RefusalRow>> = {
  unknown_shop: { status: 404, message: "No shop has its webhook here", unread: true },
  worker_only: { status: 503, message: "This instance only works the event queue (INSTANCE_ROLE=worker)", unread: true },
  draining: { status: 503, message: "Shutting down; send again shortly", unread: true },
  busy: { status: 503, message: "Busy; send again shortly", log: "webhook refused: too many of this shop's events waiting", unread: true, retryAfter: "1" },
  unsigned: { status: 401, message: "Invalid signature", log: "webhook refused: no x-line-signature header", unread: true },
  bad_signature: { status: 401, message: "Invalid signature", log: "webhook refused: bad signature", unread: false },
  bad_json: { status: 400, message: "Body is not valid JSON", log: "webhook refused: body is not JSON", unread: false },
  bad_body: { status: 400, message: "Body must be a JSON object with an events array", unread: false },
  too_large: { status: 413, message: "Body too large", unread: true },
  bad_request: { status: 400, message: "Bad request", unread: true },
};

/** What /metrics answers on a LINE deployment's public port while METRICS_TOKEN is unset. */
export const METRICS_CLOSED_MESSAGE =
  "Metrics are not served on this port: set METRICS_TOKEN and scrape with Authorization: Bearer <METRICS_TOKEN>, or METRICS_PORT to serve them on 127.0.0.1";

/** `draining`: /readyz 503, webhooks still handled; `closing`: webhooks refused too. */
type State = "starting" | "ready" | "draining" | "closing";

/** A JSON answer on a plain response: the webhook's route runs without express (see `webhook` below). */
function answerJson(res: ServerResponse, status: number, body: object, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, "Content-Type": "application/json; charset=utf-8", "Content-Length": String(Buffer.byteLength(text)) });
  res.end(text);
}

/**
 * The path of a request's URL, without its query or fragment (`/webhook/cafe?x=1` -> `/webhook/cafe`), as
 * express reads it: an absolute-form target (`http://host/webhook/cafe`, from some proxies) gives its path.
 */
function pathOf(url: string | undefined): string {
  const target = url ?? "/";
  if (!target.startsWith("/")) {
    try {
      return new URL(target).pathname;
    } catch {
      return target;
    }
  }
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}

export function createBotApp(deps: BotAppDeps): BotApp {
  const { log, metrics, intake, shops } = deps;
  const takesWebhooks = deps.takesWebhooks ?? true;
  metrics?.watchQueue(intake);
  let state: State = "starting";
  // Webhooks admitted whose bodies are still arriving (in all, and by shop): a burst is admitted faster than
  // bodies are read, so the bounds count them too, or a thousand could pass the check before the first one is queued.
  let arrivingTotal = 0;
  const arrivingByShop = new Map<string, number>();
  /** While shutting down, kept-alive connections are not reused: the next request opens one to another instance. */
  const closing = (): boolean => state === "draining" || state === "closing";
  /** The webhook's answers: JSON, and `Connection: close` while shutting down or when `close` says so. */
  const answer = (res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}, close = false): void =>
    answerJson(res, status, body, close || closing() ? { ...headers, Connection: "close" } : headers);

  /** Answers a refusal as its row says; `status` overrides it for the body parser's other 4xx. */
  const refuse = (res: ServerResponse, reason: RefusalReason, logTo?: { log: Logger; fields?: object }, status?: number): void => {
    const row = REFUSALS[reason];
    metrics?.webhookRefused(reason);
    if (row.log !== undefined && logTo !== undefined) logTo.log.warn(logTo.fields ?? {}, row.log);
    answer(res, status ?? row.status, { message: row.message }, row.retryAfter === undefined ? {} : { "Retry-After": row.retryAfter }, row.unread);
  };

  /** Checks that cost nothing come before reading a byte of the body; the shop, or undefined when refused. */
  const admit = (req: IncomingMessage, res: ServerResponse): WebhookShop | undefined => {
    const shop = shops.atPath(pathOf(req.url));
    // No such shop (or a shops file's deployment asked on /webhook): no body is read for it.
    if (shop === undefined) return void refuse(res, "unknown_shop");
    if (!takesWebhooks) return void refuse(res, "worker_only");
    if (state === "closing") return void refuse(res, "draining");
    // Only the shop over its share of the waiting is refused: another shop's load never refuses this one.
    if (!intake.hasRoom(shop.id, { total: arrivingTotal, ofShop: arrivingByShop.get(shop.id) ?? 0 })) {
      return void refuse(res, "busy", { log: shop.log, fields: { waiting: intake.waitingOf(shop.id), waitingAllShops: intake.waiting } });
    }
    const signature = req.headers["x-line-signature"];
    if (typeof signature !== "string" || signature === "") return void refuse(res, "unsigned", { log: shop.log });
    arrivingTotal += 1;
    arrivingByShop.set(shop.id, (arrivingByShop.get(shop.id) ?? 0) + 1);
    res.once("close", () => {
      arrivingTotal -= 1;
      const left = (arrivingByShop.get(shop.id) ?? 1) - 1;
      if (left === 0) arrivingByShop.delete(shop.id);
      else arrivingByShop.set(shop.id, left);
    });
    return shop;
  };

  // Shops (by their config) already told that LINE signs with the new secret: said once, not per webhook.
  const toldCurrent = new WeakSet<object>();
  const receive = (req: IncomingMessage & { body?: unknown }, res: ServerResponse, shop: WebhookShop): void => {
    const raw = req.body;
    if (!Buffer.isBuffer(raw)) return refuse(res, "bad_request");
    const verified = verifyWebhook(raw, String(req.headers["x-line-signature"]), shop.config.line);
    if (!verified.ok) return refuse(res, verified.reason, { log: shop.log });
    // During a rotation the previous secret is accepted too, and the log says so (never the secret).
    const { signedWith, events } = verified;
    if (signedWith === "previous") shop.log.info({ signedWith }, "webhook signed with the previous channel secret: LINE still uses it, so keep it until this line stops");
    if (signedWith === "current" && shop.config.line.previousChannelSecret !== undefined && !toldCurrent.has(shop.config)) {
      toldCurrent.add(shop.config);
      shop.log.info(
        { signedWith },
        "webhook signed with the current channel secret while the previous one is still accepted: once no webhook is signed with the previous one, remove it",
      );
    }
    // None: the "Verify" button, or LINE checking in.
    if (events.length === 0) return answer(res, 200, {});
    void intake.take(shop, events).then(() => answer(res, 200, {}));
  };

  // Raw bytes, bounded, so the signature is checked over exactly what LINE signed.
  const readRaw = express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT_BYTES });
  /**
   * A POST to a webhook path, on node's own request and response: the server hands webhooks here directly,
   * past express's routing (compose.ts), and the express app below routes its own POSTs here too.
   */
  const webhook = (req: IncomingMessage, res: ServerResponse): void => {
    // Outside express, nothing else would catch a throw: a bug here answers 500 and is logged, never a crash.
    const failed = (err: unknown): void => {
      log.error({ err }, "request failed");
      answer(res, 500, { message: "Internal error" });
    };
    try {
      const shop = admit(req, res);
      if (shop === undefined) return;
      readRaw(req, res, (err?: unknown) => {
        try {
          if (err === undefined) return receive(req, res, shop);
          const status = httpStatusOf(err);
          if (status !== undefined && status >= 400 && status < 500) return refuse(res, status === 413 ? "too_large" : "bad_request", undefined, status);
          failed(err);
        } catch (thrown) {
          failed(thrown);
        }
      });
    } catch (thrown) {
      failed(thrown);
    }
  };

  const app = express();
  app.disable("x-powered-by");
  // While shutting down, kept-alive connections are not reused: the next request opens one to another instance.
  // (The webhook's own route does the same: `closing` above.)
  app.use((_req: Request, res: Response, next: NextFunction) => {
    if (closing()) res.set("Connection", "close");
    next();
  });

  const webhookPaths = ["/webhook", "/webhook/:shop"];
  app.post(webhookPaths, (req: Request, res: Response) => webhook(req, res));
  app.all(webhookPaths, (req: Request, res: Response) => {
    if (shops.atPath(req.path) === undefined) res.status(404).json({ message: "No shop has its webhook here" });
    else res.status(405).set("Allow", "POST").json({ message: "Use POST" });
  });

  app.get("/healthz", (_req: Request, res: Response) => {
    res.status(200).json({ status: "ok" });
  });

  app.get("/readyz", (req: Request, res: Response) => {
    // The LINE channels' check is reported, not waited for: LINE being down must not take the bot out.
    // Which shops are in which state only with the metrics token: a stranger learns counts, no shop id.
    const named = deps.metricsToken !== undefined && bearerMatches(req.headers.authorization, deps.metricsToken);
    const line = lineReport(shops.current(), named);
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
      // Whoever asks, from wherever: a request from loopback may still be a proxy's, or a neighbour's.
      if (deps.metricsToken === undefined && (deps.metricsWithoutToken ?? "closed") === "closed") {
        res.status(403).json({ message: METRICS_CLOSED_MESSAGE });
        return;
      }
      scrape(metrics, res, next);
    });
  }

  app.use((_req: Request, res: Response) => {
    res.status(404).json({ message: "Not found" });
  });

  const onError: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
    const status = httpStatusOf(err);
    if (status !== undefined && status >= 400 && status < 500) return refuse(res, status === 413 ? "too_large" : "bad_request", undefined, status);
    log.error({ err }, "request failed");
    if (res.headersSent) return;
    res.status(500).json({ message: "Internal error" });
  };
  app.use(onError);

  return {
    app,
    webhook,
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
 * files; with several, how many shops are in each state (`lines`), and, to a request with the metrics
 * token (`named`), which ones (`linesByShop`), so an operator sees which to fix.
 */
function lineReport(shops: readonly WebhookShop[], named: boolean): Record<string, unknown> {
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
  const counts = Object.fromEntries(Object.entries(byState).map(([state, ids]) => [state, ids.length]));
  return named ? { lines: counts, linesByShop: byState } : { lines: counts };
}

/**
 * METRICS_PORT's app: GET /metrics alone, without a token, for a listener bound to 127.0.0.1 (a scraper on
 * the same machine or in the same pod); anything else is 404.
 */
export function createMetricsApp(metrics: Metrics): Express {
  const app = express();
  app.disable("x-powered-by");
  app.get("/metrics", (_req: Request, res: Response, next: NextFunction) => scrape(metrics, res, next));
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ message: "Not found" });
  });
  return app;
}

function scrape(metrics: Metrics, res: Response, next: NextFunction): void {
  metrics.scrape().then(({ contentType, body }) => {
    res.status(200).type(contentType).send(body);
  }, next);
}

/** Compares in constant time, so the token cannot be guessed from how fast a wrong one is refused. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "");
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** body-parser's errors (413, 400 on a bad encoding...) carry their status. */
function httpStatusOf(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const candidate = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  return typeof candidate === "number" ? candidate : undefined;
}
