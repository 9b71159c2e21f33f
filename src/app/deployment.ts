// The one composition root: a deployment serving one shop or many, built from their settings and the parts
// they share (the HTTP server, Redis, the metrics, the logger). Production, local mode (which adds the
// sandbox, the LINE stand-in and the console around it) and the tests' harness all start the bot here.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { Express } from "express";
import PQueue from "p-queue";
import type { Logger } from "pino";
import type { InstanceRole } from "../config.js";
import type { OutboxOptions } from "../line/outbox.js";
import { createMetrics } from "../metrics/metrics.js";
import type { Metrics } from "../metrics/metrics.js";
import { createEventDispatcher, DEFAULT_RUNNING_EVENTS } from "../pipeline/dispatcher.js";
import type { AbandonedEvent, EventDispatcher, EventHandlers } from "../pipeline/dispatcher.js";
import { createBotApp, createBotServer, SERVER_LIMITS, serverLimitsWith } from "../server.js";
import { createStaffApp } from "../staff-app/router.js";
import type { BotApp } from "../server.js";
import type { SharedState } from "../shared-state/open.js";
import { createShopRegistry } from "../shops/registry.js";
import type { ShopChanges, ShopRegistry } from "../shops/registry.js";
import type { ShopConfig } from "../shops/shop.js";
import type { SlipClientOptions } from "../slip/client.js";
import { DEFAULT_SLIP_CONNECT_TIMEOUT_MS } from "../slip/settings.js";
import { storedEventOf } from "../pipeline/stored-items.js";
import { answeredKey } from "../stores/ledger.js";
import { createSharedConnections } from "./connections.js";
import { buildShop, sameParts, shopNamespace } from "./shop.js";
import type { ShopBot } from "./shop.js";

export interface DeploymentOptions {
  log: Logger;
  /** The shops to serve; `many` when they come from a shops file (then each has its own Redis namespace). */
  shops: readonly ShopConfig[];
  many: boolean;
  port: number;
  /** Where to listen; every interface when absent (local mode listens on 127.0.0.1 only). */
  host?: string | undefined;
  /** For the log: with a LINE channel, or local mode's stand-in. */
  mode?: "line" | "local";
  /** LINE's API host, or the local stand-in's. */
  lineApiBaseUrl: string;
  /** LINE mode: look at each shop's channel at start-up (PUBLIC_URL: the webhook URLs expected). */
  lineCheck?: { publicUrl: string | undefined } | undefined;
  /** With REDIS_URL: its address, the deployment's key prefix, and REDIS_TLS_CA's certificates. */
  redis?: { url: string; prefix: string; tlsCa?: string | undefined } | undefined;
  role?: InstanceRole;
  metricsToken?: string | undefined;
  maxQueuedEvents?: number | undefined;
  /**
   * MAX_RUNNING_EVENTS: events this instance handles at once (from its webhooks or the shared queue), and
   * each shop's connections to its slip service.
   */
  maxConcurrentEvents?: number | undefined;
  /** HTTP_KEEP_ALIVE_SECONDS: how long an idle kept-alive connection stays open. Default 5 s. */
  keepAliveSeconds?: number | undefined;
  /** How often the opt-in pushes look at the clock. Default 15 s. */
  tickMs?: number;
  /** PUBLIC_URL: the chat's `export` links are made on it. */
  publicUrl?: string | undefined;
  /** Parts to put in front of the bot's routes (local mode's console). */
  mount?: ((root: Express) => void) | undefined;
  // Tests' knobs.
  metrics?: Metrics;
  now?: (() => Date) | undefined;
  handlers?: EventHandlers | undefined;
  slipOptions?: Partial<Omit<SlipClientOptions, "baseUrl" | "apiSecret">> | undefined;
  outboxOptions?: Partial<Omit<OutboxOptions, "api" | "log" | "staff">> | undefined;
  menuRecheckMs?: number | undefined;
  keepMenuLinks?: boolean | undefined;
}

export interface Deployment {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  readonly metrics: Metrics;
  readonly bot: BotApp;
  readonly dispatcher: EventDispatcher;
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

export async function startDeployment(options: DeploymentOptions): Promise<Deployment> {
  const { log } = options;
  const role = options.role ?? "both";
  const metrics = options.metrics ?? createMetrics();
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
    let shops: ShopRegistry<ShopBot> | undefined = undefined;
    const redis = options.redis;
    const shared =
      redis === undefined
        ? undefined
        : (await import("../shared-state/open.js")).openSharedState(
            redis.url,
            log,
            {
              redisError: () => metrics.redisError(),
              queue: {
                ...metrics.queue,
                // Counted as the shop's duplicates, while the deployment serves that shop.
                duplicate: (items) => {
                  for (const item of items) {
                    const shop = storedEventOf(item.payload)?.shop;
                    if (shop !== undefined && shops?.byId(shop) !== undefined) metrics.forShop(shop).pipeline.duplicate?.();
                  }
                },
              },
            },
            {
              prefix: redis.prefix,
              tlsCa: redis.tlsCa,
              runningEvents: options.maxConcurrentEvents,
              // The event's mark is its shop's ledger key: one mark for "stored" and "answered".
              onceKey: (item) => answeredKey(shopNamespace(redis.prefix, storedEventOf(item.payload)?.shop ?? "", options.many), item.id),
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
    const serverChecked =
      shared === undefined ? undefined : shared.checkServer(role !== "web");
    serverChecked?.catch((err: unknown) => {
      if (role === "web") log.error({ err }, "redis server check failed");
    });

    const dispatcher = createEventDispatcher({
      log,
      ...(options.handlers === undefined ? {} : { handlers: options.handlers }),
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.maxQueuedEvents === undefined ? {} : { maxQueuedEvents: options.maxQueuedEvents }),
      ...(options.maxConcurrentEvents === undefined ? {} : { maxConcurrentEvents: options.maxConcurrentEvents }),
    });

    const checks = new PQueue({ concurrency: LINE_CHECKS_AT_ONCE });
    const connections = createSharedConnections({
      lineConnections: 2 * (options.maxConcurrentEvents ?? DEFAULT_RUNNING_EVENTS),
      slipConnectTimeoutMs: options.slipOptions?.connectTimeoutMs ?? DEFAULT_SLIP_CONNECT_TIMEOUT_MS,
    });
    // Closed after the shops (closers run in reverse).
    closers.push(() => connections.close());
    const tickMs = options.tickMs ?? NOTIFIER_TICK_MS;
    const registry = createShopRegistry<ShopBot>({
      log,
      tickMs,
      sameParts,
      build: (config) =>
        buildShop(config, {
          log,
          metrics,
          lineApiBaseUrl: options.lineApiBaseUrl,
          connections,
          many: options.many,
          redis: shared,
          runsPushes: role !== "web",
          lineCheck: options.lineCheck === undefined ? undefined : { publicUrl: options.lineCheck.publicUrl, limit: <T>(task: () => Promise<T>) => checks.add<T>(task) },
          now: options.now,
          slipOptions: { ...(options.maxConcurrentEvents === undefined ? {} : { maxConnections: options.maxConcurrentEvents }), ...options.slipOptions },
          outboxOptions: options.outboxOptions,
          menuRecheckMs: options.menuRecheckMs,
          keepMenuLinks: options.keepMenuLinks,
          publicUrl: options.publicUrl,
        }),
    });
    shops = registry;
    closers.push(() => registry.close());

    const bot = createBotApp({
      shopAt: (path) => registry.atPath(path),
      shops: () => registry.current(),
      dispatcher,
      log,
      metrics,
      ...(options.metricsToken === undefined ? {} : { metricsToken: options.metricsToken }),
      ...(shared === undefined
        ? {}
        : {
            ...(role === "worker" ? {} : { store: shared.queue }),
            takesWebhooks: role !== "worker",
            dependenciesUp: () => shared.redis.isUp(),
          }),
    });
    const root = express();
    root.disable("x-powered-by");
    options.mount?.(root);
    // The staff web app (/app/), beside the webhooks; each shop's is on only with its LINE Login channel set.
    root.use(
      createStaffApp({
        shopAt: (path) => {
          const shop = registry.atPath(path);
          return shop === undefined ? undefined : { id: shop.id, config: shop.config, slip: shop.slip, summaries: shop.handlerDeps.summaries, onceMarks: shop.onceMarks };
        },
        lineApiBaseUrl: options.lineApiBaseUrl,
        log,
        mode: options.mode ?? "line",
        now: options.now,
      }),
    );
    root.use(bot.app);
    const limits = options.keepAliveSeconds === undefined ? SERVER_LIMITS : serverLimitsWith(options.keepAliveSeconds);
    const server = await listen(createBotServer(root, limits), options.port, options.host);
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    const port = (server.address() as AddressInfo).port;

    const changes = await registry.apply(options.shops);
    log.info({ port, mode: options.mode ?? "line", shops: changes.added.length }, "slipline bot listening");

    if (shared !== undefined && role !== "web") {
      await serverChecked;
      // Claims its share of the queue's partitions; ready once Redis is reachable.
      await shared.queue.startWorkers(async (payload, taken) => {
        const stored = storedEventOf(payload);
        if (stored === undefined) {
          log.error({ itemId: taken.id }, "a stored item is not a webhook event of a shop; dropped");
          return;
        }
        const shop = registry.byId(stored.shop);
        if (shop === undefined) {
          log.warn({ shop: stored.shop, eventId: taken.id }, "a stored event of a shop this deployment no longer serves; not handled");
          return;
        }
        await shop.busy(() => dispatcher.handleNow(shop, stored.event, taken));
      });
      log.info("event queue workers started");
    }
    bot.markReady();
    if (shared !== undefined) watchDegraded(shared, metrics, log);

    return {
      url: `http://${options.host ?? "127.0.0.1"}:${port}`,
      port,
      server,
      metrics,
      bot,
      dispatcher,
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
        // Stored events still in hand at the deadline are not lost: their locks expire and another instance
        // (or this one, restarted) takes them up. Events handled in-process have only this process.
        const [leftForOthers, { abandoned }] = await Promise.all([
          shared === undefined || role === "web" ? Promise.resolve(0) : shared.queue.stopWorkers(graceMs ?? 30_000),
          dispatcher.drain(graceMs),
        ]);
        server.closeAllConnections();
        await closed;
        await closeAll();
        return { abandoned, leftForOthers };
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

/** Listens, or fails with a message that says what to do (a taken port is the usual case). */
function listen(server: Server, port: number, host: string | undefined): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      reject(err.code === "EADDRINUSE" ? new Error(`port ${port} is already in use: set PORT to a free port`) : err);
    });
    server.listen(port, host, () => resolve(server));
  });
}
