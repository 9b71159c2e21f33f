// The whole bot on loopback for end-to-end tests: real HTTP server, real signatures, the sandbox, the LINE stand-in.
import { randomBytes } from "node:crypto";
import type { RequestListener, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { messagingApi } from "@line/bot-sdk";
import type { BotSettings } from "../../src/config.js";
import type { EventHandlers } from "../../src/pipeline/dispatcher.js";
import { createLineHttpApi } from "../../src/line/api.js";
import { createOutbox } from "../../src/line/outbox.js";
import type { OutboxOptions } from "../../src/line/outbox.js";
import type { StaffLists } from "../../src/roles/audience.js";
import { startLinePlatform } from "../../src/local-line/platform.js";
import type { LinePlatform, RecordedSend } from "../../src/local-line/platform.js";
import { createLogger } from "../../src/log.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { DEMO_SECRETS } from "../../src/sandbox/demo.js";
import { createBotApp, createBotServer } from "../../src/server.js";
import { createMetrics } from "../../src/metrics/metrics.js";
import type { Metrics } from "../../src/metrics/metrics.js";
import type { BotApp } from "../../src/server.js";
import { createSlipClient } from "../../src/slip/client.js";
import { createQuietNotes } from "../../src/roles/quiet-notes.js";
import { memoryVersions } from "../../src/pipeline/versions.js";
import { createSummaryLoader } from "../../src/summary/load.js";
import { createNotifier } from "../../src/schedules/notifier.js";
import type { AlertSettings, Notifier } from "../../src/schedules/notifier.js";
import { readQuota } from "../../src/schedules/quota.js";
import { memoryScheduleStore } from "../../src/schedules/store.js";
import { createMenuLinkKeeper } from "../../src/rich-menu/links.js";
import type { MenuLinkKeeper } from "../../src/rich-menu/links.js";
import type { SlipClient } from "../../src/slip/types.js";
import type { SlipClientOptions } from "../../src/slip/settings.js";
import { captureLogs } from "./log-capture.js";
import type { CapturedLogs } from "./log-capture.js";
import { postWebhook, webhookBody } from "./webhook.js";

export interface BotHarnessOptions {
  /** Default: a fresh random 32-hex secret. */
  channelSecret?: string;
  settings?: Partial<BotSettings>;
  /** The slip service: the sandbox (default) with this shop's secret, or another base URL (a closed port, a slow server). */
  slip?: { shop?: keyof typeof DEMO_SECRETS } | { baseUrl: string; apiSecret: string };
  slipTimeoutMs?: number;
  /** More of the slip client's options (its circuit breaker, say). */
  slipOptions?: Partial<Omit<SlipClientOptions, "baseUrl" | "apiSecret">>;
  slipRetries?: number;
  /** The sandbox answers each operation this much later (a slow service). Default 0. */
  slipLatencyMs?: number;
  replyTokenTtlMs?: number;
  handlers?: EventHandlers;
  /** The LINE API the bot calls; default the stand-in. */
  lineBaseUrl?: string;
  outbox?: Partial<Omit<OutboxOptions, "api" | "log" | "staff">>;
  maxQueuedEvents?: number;
  maxConcurrentEvents?: number;
  /** The clock of the bot and of its sandbox (demo data, payments); default the real one. */
  now?: () => Date;
  /** The sandbox's local-mode route that simulates a customer paying. Default off. */
  sandboxDevRoutes?: boolean;
  /** Default: metrics on, /metrics open. */
  metricsToken?: string;
  /** The opt-in pushes, with a store in memory; ticked by the test through `notifier`. */
  alerts?: AlertSettings;
  /**
   * A staff answer stopped by the send boundary is a bug, so `close()` fails when one was logged; a test of
   * the boundary itself says it expects them. Default false.
   */
  expectPrivacyBlocks?: boolean;
  /** MARK_AS_READ. Default off. */
  markAsRead?: boolean;
  /** Keep each sender's rich menu in line with the staff list, as the bot does. Default off. */
  keepMenuLinks?: boolean;
}

export interface BotHarness {
  readonly url: string;
  readonly webhookUrl: string;
  readonly platform: LinePlatform;
  readonly logs: CapturedLogs;
  readonly channelSecret: string;
  readonly accessToken: string;
  readonly apiSecret: string;
  readonly slip: SlipClient;
  /** The slip service's address (the sandbox's, unless another was given). */
  readonly slipUrl: string;
  readonly bot: BotApp;
  readonly metrics: Metrics;
  /** Set with `alerts`: the test calls `tick()` when it has moved the clock. */
  readonly notifier: Notifier | undefined;
  /** Set with `keepMenuLinks`. */
  readonly menuLinks: MenuLinkKeeper | undefined;
  /** Changes the staff lists from now on, as a reload would (the send boundary and the pushes read them when they go out). */
  setStaff(lists: StaffLists): void;
  /** A reply token the stand-in will accept once, for `chatId`. */
  token(chatId: string): string;
  /** Signs and posts the events; resolves with the webhook's answer, before the events are handled. */
  post(events: readonly unknown[]): Promise<{ status: number; body: unknown }>;
  /** Posts, expects 200, waits until every event is handled, and returns what the bot sent meanwhile. */
  exchange(events: readonly unknown[]): Promise<RecordedSend[]>;
  close(): Promise<void>;
}

export async function startBotHarness(options: BotHarnessOptions = {}): Promise<BotHarness> {
  const channelSecret = options.channelSecret ?? randomBytes(16).toString("hex");
  const accessToken = `test-token-${randomBytes(24).toString("base64url")}`;
  const closers: (() => Promise<void>)[] = [];
  let logs: CapturedLogs | undefined;
  const close = async (): Promise<void> => {
    for (const closer of closers.reverse()) await closer();
    const blocked = logs?.entries().filter((entry) => entry.msg === "privacy_blocked") ?? [];
    if (blocked.length > 0 && options.expectPrivacyBlocks !== true) {
      throw new Error(`the send boundary stopped ${blocked.length} staff answer(s) on their way to a customer place: ${JSON.stringify(blocked)}`);
    }
  };

  try {
    let slipBaseUrl: string;
    let apiSecret: string;
    const slipOption = options.slip ?? {};
    if ("baseUrl" in slipOption) {
      slipBaseUrl = slipOption.baseUrl;
      apiSecret = slipOption.apiSecret;
    } else {
      const sandbox = await startSandbox({
        ...(options.slipLatencyMs === undefined ? {} : { latencyMs: options.slipLatencyMs }),
        ...(options.now === undefined ? {} : { now: options.now }),
        ...(options.sandboxDevRoutes === undefined ? {} : { devRoutes: options.sandboxDevRoutes }),
      });
      closers.push(() => sandbox.close());
      slipBaseUrl = sandbox.url;
      apiSecret = DEMO_SECRETS[slipOption.shop ?? "shop"];
    }

    const platform = await startLinePlatform({
      channelAccessToken: accessToken,
      ...(options.replyTokenTtlMs === undefined ? {} : { replyTokenTtlMs: options.replyTokenTtlMs }),
    });
    closers.push(() => platform.close());

    logs = captureLogs();
    const log = createLogger({ level: "debug", destination: logs, secrets: [channelSecret, accessToken, apiSecret] });

    const metrics = createMetrics();
    const slip = createSlipClient({
      baseUrl: slipBaseUrl,
      apiSecret,
      timeoutMs: options.slipTimeoutMs ?? 5_000,
      ...(options.slipRetries === undefined ? {} : { retries: options.slipRetries }),
      accountCacheSeconds: 0,
      observer: metrics.slip,
      ...options.slipOptions,
    });
    closers.push(() => slip.close());

    // The bot's own way to LINE: the undici pool of src/line/api.ts.
    const lineHttp = createLineHttpApi({ channelAccessToken: accessToken, baseUrl: options.lineBaseUrl ?? platform.url });
    closers.push(() => lineHttp.close());
    // The SDK's client for the rare calls, as in main.ts.
    const api = new messagingApi.MessagingApiClient({ channelAccessToken: accessToken, baseURL: options.lineBaseUrl ?? platform.url });
    let settings: BotSettings = {
      promptPayId: { type: "phone", digits: "0812345678" },
      staffUserIds: new Set(),
      staffGroupIds: new Set(),
      defaultLang: "th",
      timeZone: "Asia/Bangkok",
      ...options.settings,
    };
    const staff = (): StaffLists => settings;
    const outbox = createOutbox({
      api: lineHttp,
      log,
      staff,
      backoffBaseMs: 5,
      backoffMaxMs: 20,
      loadingDelayMs: 0,
      observer: metrics.line,
      privacy: metrics.privacy,
      ...options.outbox,
    });
    const clock = options.now === undefined ? {} : { now: options.now };
    const summaries = createSummaryLoader({ slip, ...clock });
    const notifier =
      options.alerts === undefined
        ? undefined
        : createNotifier({
            alerts: options.alerts,
            settings,
            staff,
            slip,
            summaries,
            outbox,
            quota: () => readQuota(api, log),
            store: memoryScheduleStore(() => (options.now?.() ?? new Date()).getTime()),
            log,
            ...clock,
          });
    const menuLinks =
      options.keepMenuLinks === true
        ? createMenuLinkKeeper({ api, isStaff: (userId) => settings.staffUserIds.has(userId), log, recheckMs: 0 })
        : undefined;
    const bot = createBotApp({
      ...(menuLinks === undefined ? {} : { onSender: (userId: string) => menuLinks.seen(userId) }),
      channelSecret,
      outbox,
      // A getter, so a change of the staff lists (setStaff) reaches the next event, as a reload would.
      handlerDeps: {
        get settings() {
          return settings;
        },
        slip,
        log,
        quietNotes: createQuietNotes(),
        summaries,
        watches: notifier?.watches,
        versions: memoryVersions(),
      },
      ...(options.markAsRead === undefined ? {} : { markAsRead: options.markAsRead }),
      log,
      ...(options.handlers === undefined ? {} : { handlers: options.handlers }),
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.maxQueuedEvents === undefined ? {} : { maxQueuedEvents: options.maxQueuedEvents }),
      ...(options.maxConcurrentEvents === undefined ? {} : { maxConcurrentEvents: options.maxConcurrentEvents }),
      metrics,
      ...(options.metricsToken === undefined ? {} : { metricsToken: options.metricsToken }),
    });
    const server = await listen(bot.app);
    bot.markReady();
    closers.push(async () => {
      await bot.drain();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const webhookUrl = `${url}/webhook`;

    const post = (events: readonly unknown[]) => postWebhook(webhookUrl, webhookBody(events), { secret: channelSecret });

    return {
      url,
      webhookUrl,
      platform,
      logs,
      channelSecret,
      accessToken,
      apiSecret,
      slip,
      slipUrl: slipBaseUrl,
      bot,
      metrics,
      notifier,
      menuLinks,
      setStaff(lists) {
        settings = { ...settings, staffUserIds: lists.staffUserIds, staffGroupIds: lists.staffGroupIds };
      },
      token: (chatId) => platform.issueReplyToken(chatId),
      post,
      async exchange(events) {
        const before = platform.sent.length;
        const answer = await post(events);
        if (answer.status !== 200) throw new Error(`webhook answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        await bot.drain();
        return platform.sent.slice(before);
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

function listen(app: RequestListener): Promise<Server> {
  return new Promise((resolve, reject) => {
    // The production server, with its timeouts and connection cap.
    const server = createBotServer(app);
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}
