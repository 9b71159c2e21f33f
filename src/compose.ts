// The one composition root: compose(config, parts) builds the whole bot, a deployment serving one shop or
// many, from its configuration and a few injected parts (the logger, the clock, the metrics, the timings,
// the handlers). Production (main.ts), local mode (which adds the sandbox, the LINE stand-in and the console
// around it) and the tests' kit all call it. It builds every shop's parts as the registry adds the shop,
// chooses the intake (in-process, or durable with REDIS_URL) once, and hands both to the HTTP routes.
import type { RequestListener, Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { Express } from "express";
import PQueue from "p-queue";
import type { Logger } from "pino";
import type { Config, InstanceRole } from "./config.js";
import { REAL_HANDLERS } from "./event/handle-event.js";
import type { AbandonedEvent, EventHandlers } from "./event/handle-event.js";
import { createDurableIntake } from "./intake/durable.js";
import { runningPerShopOf } from "./intake/fair-turns.js";
import { createInProcessIntake, DEFAULT_QUEUED_EVENTS, DEFAULT_RUNNING_EVENTS } from "./intake/in-process.js";
import type { Intake } from "./intake/in-process.js";
import { shopOfItem } from "./intake/stored-items.js";
import { createMetrics } from "./metrics/metrics.js";
import type { Metrics } from "./metrics/metrics.js";
import type { SharedState } from "./shared-state/open.js";
import { answeredKey } from "./stores/ledger.js";
import { createShopRegistry } from "./shops/registry.js";
import type { ShopChanges, ShopRegistry } from "./shops/registry.js";
import { redisPrefixOf } from "./shops/redis-prefix.js";
import type { ShopConfig } from "./shops/shop.js";
import { DEFAULT_SLIP_CONNECT_TIMEOUT_MS } from "./slip/settings.js";
import { createStaffApp } from "./staff-app/router.js";
import { createBotServer, SERVER_LIMITS, serverLimitsWith } from "./webhook/http-server.js";
import { createBotApp, createMetricsApp, isWebhookPath } from "./webhook/routes.js";
import type { BotApp } from "./webhook/routes.js";
import { createSharedConnections } from "./compose/connections.js";
import { buildShop, shopNamespace } from "./compose/shop.js";
import { createQrDecoder } from "./slip-photo/decoder.js";
import type { QrDecoderOptions } from "./slip-photo/decoder.js";
import type { ShopBot, Timings } from "./compose/shop.js";

export type { Timings } from "./compose/shop.js";

/** What the bot serves and how, as main.ts (or local mode, or the tests' kit) read it. */
export interface BotConfig {
  /** The shops to serve; `many` when they come from a shops file (then each has its own Redis namespace). */
  readonly shops: readonly ShopConfig[];
  readonly many: boolean;
  readonly port: number;
  /** Where to listen; every interface when absent (local mode listens on 127.0.0.1 only). */
  readonly host?: string | undefined;
  /** For the log and the staff app: with a LINE channel, or local mode's stand-in. */
  readonly mode: "line" | "local";
  /** LINE mode: look at each shop's channel at start-up (PUBLIC_URL: the webhook URLs expected). */
  readonly lineCheck?: { readonly publicUrl: string | undefined } | undefined;
  /** With REDIS_URL: its address, the deployment's key prefix, and REDIS_TLS_CA's certificates. */
  readonly redis?: { readonly url: string; readonly prefix: string; readonly tlsCa?: string | undefined } | undefined;
  readonly role: InstanceRole;
  readonly metricsToken?: string | undefined;
  /** METRICS_PORT: /metrics also on a listener of its own, on 127.0.0.1, without a token (0: any free port). */
  readonly metricsPort?: number | undefined;
  readonly maxQueuedEvents?: number | undefined;
  /**
   * MAX_RUNNING_EVENTS: events this instance handles at once (from its webhooks or the shared queue), and
   * each shop's connections to its slip service.
   */
  readonly maxRunningEvents?: number | undefined;
  /** HTTP_KEEP_ALIVE_SECONDS: how long an idle kept-alive connection stays open. Default 5 s. */
  readonly keepAliveSeconds?: number | undefined;
  /** PUBLIC_URL: the chat's `export` links are made on it (in local mode, when unset, on the bot's own address). */
  readonly publicUrl?: string | undefined;
  /** Parts to put in front of the bot's routes (local mode's console). */
  readonly mount?: ((root: Express) => void) | undefined;
}

/**
 * The bot's configuration from the variables read (loadConfig) and the shops found: the one maker of a
 * BotConfig, for production, local mode and the tests' kit alike. `local`: local mode's world (the bot
 * listens on 127.0.0.1 only, with the console in front of its routes, and looks at no LINE channel).
 */
export function botConfigOf(
  config: Config,
  shops: readonly ShopConfig[],
  how: { readonly many: boolean; readonly redisTlsCa?: string | undefined; readonly local?: { mount(root: Express): void } | undefined },
): BotConfig {
  const { local } = how;
  return {
    shops,
    many: how.many,
    port: config.port,
    // In local mode only this machine calls the webhooks, and the chat console shares the bot's port.
    host: local === undefined ? undefined : "127.0.0.1",
    mode: local === undefined ? "line" : "local",
    lineCheck: local === undefined ? { publicUrl: config.publicUrl } : undefined,
    publicUrl: config.publicUrl,
    redis: config.redisUrl === undefined ? undefined : { url: config.redisUrl, prefix: redisPrefixOf(config, shops), tlsCa: how.redisTlsCa },
    role: config.role,
    metricsToken: config.metricsToken,
    metricsPort: config.metricsPort,
    maxQueuedEvents: config.maxQueuedEvents,
    maxRunningEvents: config.maxRunningEvents,
    keepAliveSeconds: config.httpKeepAliveSeconds,
    mount: local === undefined ? undefined : (root) => local.mount(root),
  };
}

/** The parts injected into the root; only `log` and `baseUrls` are needed, the rest have production's defaults. */
export interface BotParts {
  readonly log: Logger;
  /** LINE's API host and data host (photos' content; default the API host's, as the local stand-in serves both), or the local stand-in's. */
  readonly baseUrls: { readonly line: string; readonly lineData?: string | undefined };
  /** The slip photos' QR reader (worker threads, the line of photos waiting). Default one worker, 20 waiting. */
  readonly slipPhotoReader?: QrDecoderOptions | undefined;
  /** The clock of handlers, stores and pushes. Default the real one. */
  readonly clock?: (() => Date) | undefined;
  readonly metrics?: Metrics | undefined;
  /** Every timing a test may shorten (slip client, send boundary, menu keeper, pushes' tick). */
  readonly timings?: Timings | undefined;
  /** The handlers events are routed to. Default the real ones. */
  readonly handlers?: EventHandlers | undefined;
}

export interface App {
  readonly url: string;
  readonly port: number;
  /** METRICS_PORT's listener (on 127.0.0.1), when there is one. */
  readonly metricsPort: number | undefined;
  readonly server: Server;
  readonly metrics: Metrics;
  readonly bot: BotApp;
  /** Where webhooks' events go (in-process, or durable on Redis). */
  readonly intake: Intake;
  readonly shops: ShopRegistry<ShopBot>;
  readonly shared: SharedState | undefined;
  /** Serves exactly these shops from now on (a reload). */
  reload(shops: readonly ShopConfig[]): Promise<ShopChanges>;
  /**
   * In two steps. The drain (`drainMs`, default none): /readyz answers 503 while the listener stays open and
   * webhooks are still handled, so load balancers stop sending before the port closes. Then new events are
   * refused, the listener closes, and every accepted event is handled to the end, up to the grace period;
   * only then do the parts it needs close. `abandoned`: events still unfinished then; `leftForOthers`:
   * stored events left locked for another instance.
   */
  shutdown(graceMs?: number, drainMs?: number): Promise<{ abandoned: AbandonedEvent[]; leftForOthers: number }>;
}

/** How often the opt-in pushes look at the clock (and poll for watched payments). */
export const NOTIFIER_TICK_MS = 15_000;
/** The start-up looks at the LINE channels go a few at a time. */
const LINE_CHECKS_AT_ONCE = 8;

export async function compose(config: BotConfig, parts: BotParts): Promise<App> {
  const { log } = parts;
  const { role } = config;
  const metrics = parts.metrics ?? createMetrics();
  const timings = parts.timings ?? {};
  const lineApiBaseUrl = parts.baseUrls.line;
  const lineDataApiBaseUrl = parts.baseUrls.lineData ?? lineApiBaseUrl;
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse()) {
      await close().catch((err: unknown) => log.warn({ err }, "a part did not close cleanly"));
    }
  };

  try {
    // Shared state when REDIS_URL is set: events kept until answered, and what every instance must agree on.
    // Loaded only then: an instance without Redis never loads ioredis.
    // Known once built (below): the queue's hooks count duplicates only for shops still served.
    let served: ShopRegistry<ShopBot> | undefined = undefined;
    const redis = config.redis;
    // Each shop's share of the events running, and so of its calls in flight to its slip service: with a
    // shops file, half of them, so a slow service holds at most half of the turns and the rest stay free for
    // the other shops; the environment's one shop has them all. The same in both layouts.
    const runningEvents = config.maxRunningEvents ?? DEFAULT_RUNNING_EVENTS;
    const runningPerShop = runningPerShopOf(runningEvents, config.many ? undefined : runningEvents);
    const shared =
      redis === undefined
        ? undefined
        : (await import("./shared-state/open.js")).openSharedState(
            redis.url,
            log,
            {
              redisError: () => metrics.redisError(),
              queue: {
                ...metrics.queue,
                // Counted as the shop's duplicates, while the deployment serves that shop.
                duplicate: (items) => {
                  for (const item of items) {
                    const shop = shopOfItem(item);
                    if (served?.byId(shop) !== undefined) metrics.forShop(shop).pipeline.duplicate?.();
                  }
                },
              },
            },
            {
              prefix: redis.prefix,
              tlsCa: redis.tlsCa,
              runningEvents: config.maxRunningEvents,
              ...(config.many ? { runningEventsPerShop: runningPerShop, shopOfKey: (orderingKey: string) => shopOfItem({ orderingKey }) } : {}),
              // The event's mark is its shop's ledger key: one mark for "stored" and "answered".
              onceKey: (item) => answeredKey(shopNamespace(redis.prefix, shopOfItem(item), config.many), item.id),
            },
          );
    if (shared !== undefined) {
      closers.push(() => shared.redis.close());
      closers.push(() => shared.queue.close());
      metrics.watchStoredQueue(() => shared.queue.waiting());
      metrics.watchSharedQueue(() => shared.queue.stats);
      log.info({ role, prefix: shared.prefix }, "REDIS_URL set: events are stored in redis and shared by every instance");
    }
    // The server's version, eviction policy and persistence, once it answers. Instances that work the queue
    // refuse a Redis too old for it; a web-only one (which starts without Redis) logs it.
    const serverChecked = shared === undefined ? undefined : shared.checkServer(role !== "web");
    serverChecked?.catch((err: unknown) => {
      if (role === "web") log.error({ err }, "redis server check failed");
    });

    const checks = new PQueue({ concurrency: LINE_CHECKS_AT_ONCE });
    const connections = createSharedConnections({
      lineConnections: 2 * (config.maxRunningEvents ?? DEFAULT_RUNNING_EVENTS),
      slipConnectTimeoutMs: timings.slip?.connectTimeoutMs ?? DEFAULT_SLIP_CONNECT_TIMEOUT_MS,
    });
    // Closed after the shops (closers run in reverse).
    closers.push(() => connections.close());
    /** This instance's own address once it listens (shops are built after that). */
    let listeningUrl: string | undefined = undefined;
    // One reader of slip photos for every shop: its workers start with the first photo.
    const slipPhotoReader = createQrDecoder(parts.slipPhotoReader);
    closers.push(() => slipPhotoReader.close());
    const registry = createShopRegistry<ShopBot>({
      log,
      tickMs: timings.notifierTickMs ?? NOTIFIER_TICK_MS,
      build: (shop) =>
        buildShop(shop, {
          log,
          metrics,
          lineApiBaseUrl,
          lineDataApiBaseUrl,
          slipPhotoReader,
          connections,
          many: config.many,
          redis: shared,
          runsPushes: role !== "web",
          lineCheck: config.lineCheck === undefined ? undefined : { publicUrl: config.lineCheck.publicUrl, limit: <T>(task: () => Promise<T>) => checks.add<T>(task) },
          clock: parts.clock ?? (() => new Date()),
          handlers: parts.handlers ?? REAL_HANDLERS,
          timings: { ...timings, slip: { maxConnections: runningPerShop, ...timings.slip } },
          // Local mode without PUBLIC_URL: the console's own address (the bot's port), so `export` works there.
          publicUrl: config.publicUrl ?? (config.mode === "local" ? listeningUrl : undefined),
          servedNow: (id) => served?.servedNow(id),
        }),
    });
    served = registry;
    closers.push(() => registry.close());

    // The one place the two layouts differ: where a webhook's verified events go.
    const inProcess = createInProcessIntake({
      log,
      maxQueuedEvents: config.maxQueuedEvents,
      maxConcurrentEvents: config.maxRunningEvents,
      maxConcurrentEventsPerShop: runningPerShop,
    });
    const durable =
      shared === undefined
        ? undefined
        : createDurableIntake({
            queue: shared.queue,
            inProcess,
            shops: registry,
            works: role !== "web",
            log,
            notStored: (count) => metrics.notStored(count),
            // With a shops file, a flooding shop's stored backlog is bounded by its fair share: it alone gets 503.
            maxStoredWaiting: config.many ? (config.maxQueuedEvents ?? DEFAULT_QUEUED_EVENTS) : undefined,
          });
    const intake: Intake = durable ?? inProcess;

    const bot = createBotApp({
      shops: registry,
      intake,
      log,
      metrics,
      ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
      // Local mode's port is this machine's; a LINE deployment's is public, so without a token it serves no metrics.
      metricsWithoutToken: config.mode === "local" ? "open" : "closed",
      ...(shared === undefined ? {} : { takesWebhooks: role !== "worker", dependenciesUp: () => shared.redis.isUp() }),
    });
    const root = express();
    root.disable("x-powered-by");
    config.mount?.(root);
    // The staff web app (/app/), beside the webhooks; each shop's is on only with its LINE Login channel set.
    root.use(
      createStaffApp({
        shopAt: (path) => {
          const shop = registry.atPath(path);
          return shop === undefined ? undefined : { id: shop.id, config: shop.config, slip: shop.slip, summaries: shop.handlerDeps.summaries, onceMarks: shop.onceMarks };
        },
        lineApiBaseUrl,
        log,
        mode: config.mode,
        now: parts.clock,
      }),
    );
    root.use(bot.app);
    const limits = config.keepAliveSeconds === undefined ? SERVER_LIMITS : serverLimitsWith(config.keepAliveSeconds);
    // In LINE mode a webhook goes straight to its handler, past express's routing: the staff app's routes
    // never answer one, and routing each event through its and the bot's layers cost it CPU and bytes
    // (bench/RESULTS.md). Anything else to a webhook path (a GET: 405) goes through express as before, and
    // so does everything in local mode, where the console's guard (loopback Host only) comes first.
    const direct = config.mode === "line";
    const listener: RequestListener = (req, res) => {
      if (direct && req.method === "POST" && isWebhookPath(req.url)) bot.webhook(req, res);
      else root(req, res);
    };
    const server = await listen(createBotServer(listener, limits), config.port, config.host, "PORT");
    closers.push(() => closeServer(server));
    const port = (server.address() as AddressInfo).port;
    listeningUrl = `http://127.0.0.1:${port}`;

    // METRICS_PORT: /metrics alone on loopback, with the same limits; closed with the bot's listener.
    let metricsServer: Server | undefined;
    if (config.metricsPort !== undefined) {
      const listening = await listen(createBotServer(createMetricsApp(metrics), limits), config.metricsPort, "127.0.0.1", "METRICS_PORT");
      metricsServer = listening;
      closers.push(() => closeServer(listening));
      log.info({ metricsPort: (listening.address() as AddressInfo).port }, "/metrics served on 127.0.0.1 only (METRICS_PORT), without a token");
    }
    if (config.mode === "line" && config.metricsToken === undefined) {
      log.warn(
        metricsServer === undefined
          ? "METRICS_TOKEN is not set: /metrics is not served on the public port; set METRICS_TOKEN to scrape it with Authorization: Bearer <METRICS_TOKEN>, or METRICS_PORT to serve it on a port of its own on 127.0.0.1"
          : "METRICS_TOKEN is not set: /metrics is not served on the public port, only on METRICS_PORT (127.0.0.1)",
      );
    }
    const changes = await registry.apply(config.shops);
    log.info({ port, mode: config.mode, shops: changes.added.length }, "slipline bot listening");

    if (durable !== undefined && role !== "web") {
      await serverChecked;
      // Claims its share of the queue's partitions; ready once Redis is reachable.
      await durable.startWorking();
      log.info("event queue workers started");
    }
    bot.markReady();
    if (shared !== undefined) watchDegraded(shared, metrics, log);

    return {
      url: `http://${config.host ?? "127.0.0.1"}:${port}`,
      port,
      metricsPort: metricsServer === undefined ? undefined : (metricsServer.address() as AddressInfo).port,
      server,
      metrics,
      bot,
      intake,
      shops: registry,
      shared,
      async reload(configs) {
        const applied = await registry.apply(configs);
        log.info(applied, "shops reloaded");
        return applied;
      },
      async shutdown(graceMs, drainMs = 0) {
        bot.stopReady();
        if (drainMs > 0) {
          log.info({ drainSeconds: drainMs / 1000 }, "draining: /readyz answers 503, webhooks are still handled until the listener closes");
          await new Promise((resolve) => setTimeout(resolve, drainMs));
        }
        bot.stopAccepting();
        log.info({ graceSeconds: graceMs === undefined ? undefined : graceMs / 1000 }, "listener closed: finishing the accepted events");
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const drained = await intake.drain(graceMs);
        server.closeAllConnections();
        await closed;
        await closeAll();
        return drained;
      },
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
/**
 * Degraded: Redis is away, so events are handled in-process without its protection (an instance that dies
 * loses them). One log line on entering and one on leaving; the gauge says it at every scrape.
 */
function watchDegraded(shared: SharedState, metrics: Metrics, log: Logger): void {
  let degraded = false;
  let started = false;
  const judge = (up: boolean): void => {
    // Not before the first connection attempts end: a web instance starts before Redis has answered.
    if (!started || degraded === !up) return;
    degraded = !up;
    if (degraded) log.warn("degraded: redis unreachable; webhooks' events are handled in this process, not stored");
    else log.info("no longer degraded: redis reachable again");
  };
  metrics.watchDegraded(() => degraded);
  shared.redis.onChange(judge);
  void shared.redis.firstAttempt.then(() => {
    started = true;
    judge(shared.redis.isUp());
  });
}

/** Closes a listener and every connection still open on it. */
function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Listens, or fails with a message that says what to do (a taken port is the usual case). */
function listen(server: Server, port: number, host: string | undefined, variable: "PORT" | "METRICS_PORT"): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      reject(err.code === "EADDRINUSE" ? new Error(`port ${port} is already in use: set ${variable} to a free port`) : err);
    });
    server.listen(port, host, () => resolve(server));
  });
}
