// The bot's entry point: load the config, wire the parts, listen, shut down cleanly. Entry points (this one,
// sandbox/main.ts, rich-menu/main.ts) are the only readers of process.env.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, resolve } from "node:path";
import { messagingApi } from "@line/bot-sdk";
import type { Logger } from "pino";
import { parsePromptPayId } from "./commands/promptpay-id.js";
import { ConfigError, loadConfig, redisPassword } from "./config.js";
import type { BotSettings, Config } from "./config.js";
import { installHttpTimeouts } from "./line/http-timeouts.js";
import { createLineHttpApi } from "./line/api.js";
import { createOutbox } from "./line/outbox.js";
import { checkLine } from "./line/self-check.js";
import type { LineCheck } from "./line/self-check.js";
import { memoryVersions } from "./pipeline/versions.js";
import express from "express";
import { hasStaff } from "./roles/audience.js";
import { createQuietNotes } from "./roles/quiet-notes.js";
import type { DurableEventQueue } from "./shared-state/event-queue.js";
import { createLogger } from "./log.js";
import { createMenuLinkKeeper } from "./rich-menu/links.js";
import type { SlipClient } from "./slip/types.js";
import { createBotApp, createBotServer } from "./server.js";
import type { BotApp } from "./server.js";
import { createMetrics } from "./metrics/metrics.js";
import { createSlipClient } from "./slip/client.js";
import { createSummaryLoader } from "./summary/load.js";
import { createNotifier } from "./schedules/notifier.js";
import { readQuota } from "./schedules/quota.js";
import { memoryScheduleStore } from "./schedules/store.js";

type Closer = { name: string; close: () => Promise<void> };

async function run(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`slipline: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }

  // Local mode: nobody outside this machine signs webhooks or reads the token, so fresh random ones do.
  const line = config.line ?? {
    channelSecret: randomBytes(16).toString("hex"),
    channelAccessToken: randomBytes(32).toString("base64url"),
  };
  const log = createLogger({
    level: config.logLevel,
    secrets: [line.channelSecret, line.channelAccessToken, config.slip?.apiSecret, config.metricsToken, redisPassword(config.redisUrl), config.redisUrl],
  });
  installHttpTimeouts();

  const closers: Closer[] = [];
  try {
    await start(config, line, log, closers);
  } catch (err) {
    log.fatal({ err }, "start-up failed");
    await closeAll(closers, log);
    process.exit(1);
  }
}

async function start(
  config: Config,
  line: { channelSecret: string; channelAccessToken: string },
  log: Logger,
  closers: Closer[],
): Promise<void> {
  const metrics = createMetrics();
  // Shared state when REDIS_URL is set: events kept until answered, and what every instance must agree on.
  // Loaded only then: an instance without Redis never loads ioredis or BullMQ.
  const shared =
    config.redisUrl === undefined
      ? undefined
      : (await import("./shared-state/open.js")).openSharedState(config.redisUrl, log, metrics, { runningEvents: config.maxRunningEvents });
  if (shared !== undefined) {
    closers.push({ name: "redis", close: () => shared.redis.close() });
    closers.push({ name: "event queue", close: () => shared.queue.close() });
    metrics.watchStoredQueue(() => shared.queue.waiting());
    metrics.watchSharedQueue(() => shared.queue.stats);
    log.info({ role: config.role }, "REDIS_URL set: events are stored in redis and shared by every instance");
  }

  // The slip service, or the embedded sandbox with its demo shop.
  let sandboxUrl: string | undefined;
  let slipTarget = config.slip;
  let promptPayId = config.settings.promptPayId;
  // The sandbox's image links use SANDBOX_PUBLIC_URL when set: the one other origin a QR image may come from.
  let qrImageOrigins: string[] = [];
  if (slipTarget === undefined) {
    const { dbPath, publicUrl } = config.sandbox;
    if (dbPath !== ":memory:") mkdirSync(dirname(resolve(dbPath)), { recursive: true });
    // Loaded only here: a deployment with a real service never loads SQLite or the demo data.
    const [{ startSandbox }, { DEMO_SECRETS, DEMO_PROMPTPAY_ID }] = await localTools("the embedded sandbox", () =>
      Promise.all([import("./sandbox/server.js"), import("./sandbox/demo.js")]),
    );
    // In local mode the console may simulate a customer paying the demo shop; never beside a real channel.
    const sandbox = await startSandbox({ dbPath, devRoutes: config.line === undefined, ...(publicUrl === undefined ? {} : { publicUrl }) });
    sandboxUrl = sandbox.url;
    if (publicUrl !== undefined) qrImageOrigins = [publicUrl];
    closers.push({ name: "sandbox", close: () => sandbox.close() });
    slipTarget = { baseUrl: sandbox.url, apiSecret: DEMO_SECRETS.shop };
    promptPayId ??= parsePromptPayId(DEMO_PROMPTPAY_ID);
    log.info(
      { url: sandbox.url, dbPath, demoSeeded: sandbox.demo.seeded, demoChecksAdded: sandbox.demo.added },
      "no SLIP_API_BASE_URL: using the embedded sandbox and its demo shop",
    );
    if (config.sandbox.withLine) {
      log.warn(
        "SLIP_SANDBOX=1 with a real LINE channel: everyone on it sees the demo shop's made-up checks, and QR codes pay the demo id; never use this for a real shop",
      );
    }
  }
  const slip = createSlipClient({
    baseUrl: slipTarget.baseUrl,
    apiSecret: slipTarget.apiSecret,
    accountCacheSeconds: config.accountCacheSeconds,
    maxConnections: config.maxRunningEvents,
    qrImageOrigins,
    observer: metrics.slip,
    ...(shared === undefined ? {} : { accountCache: shared.accountCache }),
  });
  closers.push({ name: "slip client", close: () => slip.close() });

  // LINE, or the loopback stand-in.
  let lineApiBaseUrl = config.lineApiBaseUrl;
  // The stand-in and the console are loaded only in local mode.
  const platform =
    config.line === undefined
      ? await (await import("./local-line/platform.js")).startLinePlatform({ channelAccessToken: line.channelAccessToken })
      : undefined;
  if (platform !== undefined) {
    closers.push({ name: "LINE stand-in", close: () => platform.close() });
    lineApiBaseUrl = platform.url;
    log.info({ url: platform.url }, "no LINE channel configured: local mode with the LINE stand-in");
  }
  // The SDK's client for the rare calls (quota, rich menu links); every event's calls go over a pool of their own.
  const api = new messagingApi.MessagingApiClient({ channelAccessToken: line.channelAccessToken, baseURL: lineApiBaseUrl });
  const lineHttp = createLineHttpApi({ baseUrl: lineApiBaseUrl, channelAccessToken: line.channelAccessToken });
  closers.push({ name: "LINE connections", close: () => lineHttp.close() });

  const settings: BotSettings = {
    ...config.settings,
    promptPayId,
    // Local mode: unless the lists are set, the console's staff personas and its staff group are the staff.
    ...(platform === undefined || hasStaff(config.settings) ? {} : (await import("./local-line/webhook-events.js")).consoleStaffLists()),
  };
  // The send boundary judges every answer's destination against the staff lists of the moment it goes out.
  const outbox = createOutbox({
    api: lineHttp,
    log,
    staff: () => settings,
    observer: metrics.line,
    privacy: metrics.privacy,
    ...(shared === undefined ? {} : { journal: shared.journal }),
  });
  if (!hasStaff(settings)) {
    log.warn(
      "STAFF_USER_IDS and STAFF_GROUP_IDS are empty: history, summaries and balance are refused to everyone until staff are listed (send `id` to the bot to learn an id)",
    );
  }
  if (settings.promptPayId === undefined) {
    log.warn("PROMPTPAY_ID is not set: `qr <amount>` will ask for the PromptPay id");
  }

  const summaries = createSummaryLoader({ slip });
  // The opt-in pushes, when any is set; they run where the event queue is worked.
  const alertsOn = Object.values(config.alerts).some((value) => value !== undefined);
  const notifier = alertsOn
    ? createNotifier({
        alerts: config.alerts,
        settings,
        staff: () => settings,
        slip,
        summaries,
        outbox,
        quota: () => readQuota(api, log),
        store: shared === undefined ? memoryScheduleStore() : shared.scheduleStore(),
        storeOutlivesRestart: shared !== undefined,
        log,
        observer: metrics.notifier,
      })
    : undefined;

  // LINE mode: a look at the channel (the token, the webhook), reported on /readyz; never holds the start up.
  const lineCheck =
    config.line === undefined
      ? undefined
      : ((): { current: LineCheck } => {
          const holder: { current: LineCheck } = { current: { state: "checking" } };
          void checkLine({
            api,
            expectedWebhook: config.publicUrl === undefined ? undefined : `${config.publicUrl}/webhook`,
            markAsRead: config.markAsRead,
            log,
          }).then((found) => (holder.current = found));
          return holder;
        })();
  if (lineCheck !== undefined) metrics.watchLineCheck(() => lineCheck.current);

  // Each user's menu follows the staff list (once the menus are installed).
  const menuLinks = createMenuLinkKeeper({ api, isStaff: (userId) => settings.staffUserIds.has(userId), log });
  closers.push({ name: "rich menu links", close: () => menuLinks.settled() });

  const bot = createBotApp({
    onSender: (userId) => menuLinks.seen(userId),
    channelSecret: line.channelSecret,
    outbox,
    handlerDeps: {
      slip,
      settings,
      log,
      quietNotes: shared?.quietNotes ?? createQuietNotes(),
      summaries,
      watches: notifier?.watches,
      versions: shared?.versions ?? memoryVersions(),
    },
    markAsRead: config.markAsRead,
    ...(lineCheck === undefined ? {} : { lineCheck: () => lineCheck.current }),
    log,
    maxQueuedEvents: config.maxQueuedEvents,
    maxConcurrentEvents: config.maxRunningEvents,
    metrics,
    ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
    ...(shared === undefined
      ? {}
      : {
          ...(config.role === "worker" ? {} : { store: shared.queue }),
          takesWebhooks: config.role !== "worker",
          dependenciesUp: () => shared.redis.isUp(),
          ledger: shared.ledger,
        }),
  });
  // In local mode only this machine calls the webhook, and the chat console shares the bot's port;
  // a real channel needs every interface and serves the bot alone.
  const host = platform === undefined ? undefined : "127.0.0.1";
  const root = platform === undefined ? bot.app : express();
  const server = await listen(createBotServer(root), config.port, host);
  const port = (server.address() as AddressInfo).port;
  log.info({ port, mode: platform === undefined ? "line" : "local" }, "slipline bot listening");

  if (platform !== undefined) {
    await installLocalMenus(api, platform.url, line.channelAccessToken, slip, settings, log);
    const [{ createConsoleApp }, { simulatePaymentAt }] = await Promise.all([import("./local-line/console.js"), import("./sandbox/dev-payments.js")]);
    const chat = createConsoleApp({
      platform,
      botWebhookUrl: `http://127.0.0.1:${port}/webhook`,
      channelSecret: line.channelSecret,
      timeZone: settings.timeZone,
      ...(sandboxUrl === undefined ? {} : { simulatePayment: simulatePaymentAt(sandboxUrl) }),
    });
    // The console's page and API first; the webhook, /healthz and the 404s are the bot's.
    root.use(chat.app);
    root.use(bot.app);
    closers.push({ name: "chat console", close: () => Promise.resolve(chat.close()) });
    process.stdout.write(`\nslipline is running. Open http://127.0.0.1:${port}/ to chat with the bot.\n\n`);
  } else {
    process.stdout.write(
      `\nslipline is running. LINE webhook: http://localhost:${port}/webhook (set this path on your public https URL).\n\n`,
    );
  }
  if (shared !== undefined && config.role !== "web") {
    // Claims its share of the queue's partitions; ready once Redis is reachable.
    await shared.queue.startWorkers((event, taken) => bot.dispatcher.handleNow(event, taken));
    log.info("event queue workers started");
  }
  if (notifier !== undefined && config.role !== "web") {
    await notifier.start(NOTIFIER_TICK_MS);
    closers.push({ name: "scheduled pushes", close: () => Promise.resolve(notifier.stop()) });
    log.info({ alerts: config.alerts }, "opt-in pushes on (each costs LINE message quota)");
  }
  bot.markReady();

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A second Ctrl-C means "now".
      log.warn({ signal }, "second signal: stopping at once");
      process.exit(1);
    }
    stopping = true;
    const graceMs = config.shutdownGraceSeconds * 1000;
    log.info({ signal, graceSeconds: config.shutdownGraceSeconds, waiting: bot.dispatcher.waiting, running: bot.dispatcher.running }, "shutting down");
    void shutdown(bot, server, shared?.queue, graceMs, closers, log).then((abandoned) => process.exit(abandoned === 0 ? 0 : 1));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

/**
 * /readyz goes 503 and new events are refused; no new connections; every accepted event is handled to the
 * end, up to the grace period; only then do the parts it needs (LINE, the slip service) close. Returns
 * how many events were abandoned at the deadline.
 */
async function shutdown(
  bot: BotApp,
  server: Server,
  queue: DurableEventQueue | undefined,
  graceMs: number,
  closers: Closer[],
  log: Logger,
): Promise<number> {
  bot.stopAccepting();
  const closed = new Promise<void>((done) => server.close(() => done()));
  server.closeIdleConnections();
  // Stored events still in hand at the deadline are not lost: their locks expire and another instance
  // (or this one, restarted) takes them up. Events handled in-process have only this process.
  const [leftForOthers, { abandoned }] = await Promise.all([queue?.stopWorkers(graceMs) ?? Promise.resolve(0), bot.drain(graceMs)]);
  server.closeAllConnections();
  await closed;
  await closeAll(closers, log);
  log.info({ abandoned: abandoned.length, apologised: abandoned.filter((a) => a.apologised).length, leftForOthers }, "stopped");
  return abandoned.length;
}

/**
 * Local mode: the rich menus on the stand-in, so the console shows them with no set-up. Drawing loads the
 * canvas and the font, which a real deployment does only in `npm run rich-menu`.
 */
async function installLocalMenus(
  api: messagingApi.MessagingApiClient,
  platformUrl: string,
  channelAccessToken: string,
  slip: SlipClient,
  settings: BotSettings,
  log: Logger,
): Promise<void> {
  try {
    const [{ buildMenus }, { installMenus }] = await localTools("drawing the rich menus", () =>
      Promise.all([import("./rich-menu/build.js"), import("./rich-menu/install.js")]),
    );
    const shopName = await slip.accountInfo().then(
      (account) => account.storeName,
      async () => (await import("./sandbox/demo.js")).DEMO_STORE_NAMES.shop,
    );
    const { designs, images } = await buildMenus(shopName);
    const blob = new messagingApi.MessagingApiBlobClient({ channelAccessToken, baseURL: platformUrl });
    await installMenus({ api, blob }, designs, images, [...settings.staffUserIds]);
    log.info({ shopName }, "rich menus installed on the LINE stand-in");
  } catch (err) {
    log.warn({ err }, "rich menus not installed on the LINE stand-in; the console shows none");
  }
}

/**
 * Loads what only local mode uses. Its native parts (SQLite, the canvas) are development dependencies, so
 * a production install (`npm ci --omit=dev`, as Heroku prunes) leaves them out: say so rather than crash.
 */
async function localTools<T>(what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw err;
    throw new Error(`${what} needs the development dependencies, which this install left out (run npm ci without --omit=dev): ${(err as Error).message}`);
  }
}

/** How often the opt-in pushes look at the clock (and poll for watched payments). */
const NOTIFIER_TICK_MS = 15_000;

async function closeAll(closers: Closer[], log: Logger): Promise<void> {
  for (const { name, close } of closers.reverse()) {
    try {
      await close();
    } catch (err) {
      log.error({ err, part: name }, "close failed");
    }
  }
  closers.length = 0;
}

function listen(server: Server, port: number, host: string | undefined): Promise<Server> {
  return new Promise((done, fail) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      fail(err.code === "EADDRINUSE" ? new Error(`port ${port} is already in use: set PORT to a free port`) : err);
    });
    if (host === undefined) server.listen(port, () => done(server));
    else server.listen(port, host, () => done(server));
  });
}

await run();
