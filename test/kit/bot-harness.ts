// The whole bot on loopback for end-to-end tests: real HTTP server, real signatures, the sandbox, the LINE stand-in.
import { randomBytes } from "node:crypto";
import { botConfigOf, compose } from "../../src/compose.js";
import type { App } from "../../src/compose.js";
import { loadConfig } from "../../src/config.js";
import type { BotSettings, StaffLogin } from "../../src/config.js";
import type { EventHandlers } from "../../src/event/handle-event.js";
import type { OutboxOptions } from "../../src/line/outbox.js";
import type { StaffLists } from "../../src/roles/audience.js";
import { startLinePlatform } from "@slipline/line-stand-in";
import type { LinePlatform, RecordedSend } from "@slipline/line-stand-in";
import { createLogger } from "../../src/log.js";
import { startSandbox } from "@slipline/slip-sandbox";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import type { Metrics } from "../../src/metrics/metrics.js";
import type { AlertSettings, Notifier } from "../../src/schedules/notifier.js";
import type { MenuLinkKeeper } from "../../src/rich-menu/links.js";
import { DEFAULT_SHOP_ID, DEFAULT_WEBHOOK_PATH, shopConfigOf, webhookPathOf } from "../../src/shops/shop.js";
import type { ShopConfig } from "../../src/shops/shop.js";
import type { ShopChanges } from "../../src/shops/registry.js";
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
  /** The staff web app's LINE Login channel (the stand-in plays LINE Login). Default off. */
  login?: StaffLogin;
  /** The LINE stand-in's clock (its ID tokens' times, reply tokens' expiry); default the real one. */
  lineNow?: () => number;
  /** PUBLIC_URL (the chat's `export` links are made on it). Default unset. */
  publicUrl?: string;
  /** Who is in which group, as the stand-in tells the group member endpoint. */
  groupMembers?: Readonly<Record<string, readonly string[]>>;
  /**
   * More shops in the same deployment, as a shops file has them: each at `/webhook/<id>` with its own channel
   * secret and access token (its own channel on the stand-in, named by its id) and the sandbox's `other` secret.
   * The first shop stays `default` at `/webhook`. Default none.
   */
  moreShops?: readonly MoreShopOptions[];
  /** REDIS_URL: the durable layout on this server (a test's own, test/kit/redis-server.ts), keys under a fresh prefix. Default none. */
  redisUrl?: string;
}

export interface MoreShopOptions {
  /** A shops file's id: 1 to 32 of a-z 0-9 -. */
  id: string;
  settings?: Partial<BotSettings>;
  /** The shop's own LINE Login channel for its staff app at `/app/<id>`. Default off. */
  login?: StaffLogin;
}

/** One of `moreShops`, as a test drives it. */
export interface HarnessShop {
  readonly id: string;
  readonly webhookUrl: string;
  /** Its staff app: `/app/<id>`. */
  readonly appUrl: string;
  readonly channelSecret: string;
  readonly accessToken: string;
  /** A reply token the stand-in accepts once, for `chatId` in this shop's channel. */
  token(chatId: string): string;
  /** Signs with this shop's secret (or the given one) and posts to this shop's webhook. */
  post(events: readonly unknown[], signWith?: string): Promise<{ status: number; body: unknown }>;
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
  /** The bot the harness composed (the one composition root). */
  readonly deployment: App;
  /** Waits until every accepted event is handled. */
  drain(): Promise<void>;
  readonly metrics: Metrics;
  /** Set with `alerts`: the test calls `tick()` when it has moved the clock. */
  readonly notifier: Notifier | undefined;
  /** Set with `keepMenuLinks`. */
  readonly menuLinks: MenuLinkKeeper | undefined;
  /** The `moreShops`, by id. */
  readonly moreShops: ReadonlyMap<string, HarnessShop>;
  /** Changes the staff lists from now on, as a reload would (the send boundary and the pushes read them when they go out). */
  setStaff(lists: StaffLists): void;
  /**
   * A reload that changes the staff lists and, with `rebuild`, also a part that makes the shop be built anew
   * (its `accountCacheSeconds`), as one edit of a shops file can: resolves once the reload is applied.
   */
  reloadStaff(lists: StaffLists, options: { rebuild: boolean }): Promise<ShopChanges>;
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

    const more = (options.moreShops ?? []).map((extra) => ({
      ...extra,
      channelSecret: randomBytes(16).toString("hex"),
      accessToken: `test-token-${extra.id}-${randomBytes(24).toString("base64url")}`,
    }));
    const platform = await startLinePlatform({
      // With more shops, one stand-in channel each; the first shop's is `default`, as it is with one.
      ...(more.length === 0
        ? { channelAccessToken: accessToken }
        : { channels: [{ name: "default", accessToken }, ...more.map((extra) => ({ name: extra.id, accessToken: extra.accessToken }))] }),
      ...(options.groupMembers === undefined ? {} : { groupMembers: options.groupMembers }),
      ...(options.lineNow === undefined ? {} : { now: options.lineNow }),
      ...(options.replyTokenTtlMs === undefined ? {} : { replyTokenTtlMs: options.replyTokenTtlMs }),
    });
    closers.push(() => platform.close());

    logs = captureLogs();
    const log = createLogger({
      level: "debug",
      destination: logs,
      secrets: [channelSecret, accessToken, apiSecret, ...more.flatMap((extra) => [extra.channelSecret, extra.accessToken])],
    });

    const settings: BotSettings = {
      promptPayId: { type: "phone", digits: "0812345678" },
      staffUserIds: new Set<string>(),
      staffGroupIds: new Set<string>(),
      defaultLang: "th",
      timeZone: "Asia/Bangkok",
      ...options.settings,
    };
    // Each shop and the bot's configuration are made by the same functions as production's.
    const shopOf = (
      id: string,
      webhookPath: string,
      line: { channelSecret: string; accessToken: string },
      slipSecret: string,
      shopSettings: BotSettings,
      login: StaffLogin | undefined,
    ): ShopConfig =>
      shopConfigOf(
        { id, name: undefined, webhookPath },
        {
          line: { channelSecret: line.channelSecret, channelAccessToken: line.accessToken },
          slip: { baseUrl: slipBaseUrl, apiSecret: slipSecret },
          promptPayId: shopSettings.promptPayId,
          staff: { users: [...shopSettings.staffUserIds], groups: [...shopSettings.staffGroupIds] },
          lang: shopSettings.defaultLang,
          timeZone: shopSettings.timeZone,
          dailySummaryAt: options.alerts?.dailySummaryAt,
          lowTokenAlertSlips: options.alerts?.lowTokenSlips,
          expiryAlertDays: options.alerts?.expiryDays,
          watchPaymentsMinutes: options.alerts?.watchMinutes,
          accountCacheSeconds: 0,
          markAsRead: options.markAsRead ?? false,
          login,
        },
      );
    let shop = shopOf(DEFAULT_SHOP_ID, DEFAULT_WEBHOOK_PATH, { channelSecret, accessToken }, apiSecret, settings, options.login);
    // Further shops: each its own channel and /webhook/<id>, the sandbox's other account, no staff unless given.
    const moreConfigs = more.map((extra) =>
      shopOf(
        extra.id,
        webhookPathOf(extra.id),
        extra,
        DEMO_SECRETS.other,
        { ...settings, staffUserIds: new Set<string>(), staffGroupIds: new Set<string>(), ...extra.settings },
        extra.login,
      ),
    );
    const config = loadConfig({
      PORT: "0",
      ...(options.maxQueuedEvents === undefined ? {} : { MAX_QUEUED_EVENTS: String(options.maxQueuedEvents) }),
      ...(options.maxConcurrentEvents === undefined ? {} : { MAX_RUNNING_EVENTS: String(options.maxConcurrentEvents) }),
      ...(options.metricsToken === undefined ? {} : { METRICS_TOKEN: options.metricsToken }),
      ...(options.publicUrl === undefined ? {} : { PUBLIC_URL: options.publicUrl }),
      ...(options.redisUrl === undefined ? {} : { REDIS_URL: options.redisUrl, REDIS_KEY_PREFIX: `harness-${randomBytes(4).toString("hex")}` }),
    });
    // The one composition root, as production and local mode call it: on loopback, with no start-up look
    // at the stand-in's channel (/readyz stays as the tests read it), and the tests' one value of timings.
    const deployment = await compose(
      { ...botConfigOf(config, [shop, ...moreConfigs], { many: more.length > 0 }), host: "127.0.0.1", lineCheck: undefined },
      {
        log,
        baseUrls: { line: options.lineBaseUrl ?? platform.url },
        clock: options.now,
        handlers: options.handlers,
        timings: {
          slip: { timeoutMs: options.slipTimeoutMs ?? 5_000, ...(options.slipRetries === undefined ? {} : { retries: options.slipRetries }), ...options.slipOptions },
          outbox: { backoffBaseMs: 5, backoffMaxMs: 20, loadingDelayMs: 0, ...options.outbox },
          menuLinks: options.keepMenuLinks === true ? { recheckMs: 0 } : "off",
          // Pushes are ticked by the test (`notifier.tick()`), never by a timer.
          notifierTickMs: 24 * 60 * 60 * 1000,
        },
      },
    );
    closers.push(async () => {
      await deployment.shutdown();
    });
    const running = deployment.shops.byId(DEFAULT_SHOP_ID);
    if (running === undefined) throw new Error("the harness's shop did not start");
    const url = deployment.url;
    const webhookUrl = `${url}${DEFAULT_WEBHOOK_PATH}`;

    const post = (events: readonly unknown[]) => postWebhook(webhookUrl, webhookBody(events), { secret: channelSecret });
    const moreShops = new Map(
      more.map((extra): [string, HarnessShop] => {
        const extraWebhookUrl = `${url}${webhookPathOf(extra.id)}`;
        return [
          extra.id,
          {
            id: extra.id,
            webhookUrl: extraWebhookUrl,
            appUrl: `${url}/app/${extra.id}`,
            channelSecret: extra.channelSecret,
            accessToken: extra.accessToken,
            token: (chatId) => platform.issueReplyToken(chatId, extra.id),
            post: (events, signWith) => postWebhook(extraWebhookUrl, webhookBody(events), { secret: signWith ?? extra.channelSecret }),
          },
        ];
      }),
    );
    const drain = async (): Promise<void> => {
      await deployment.intake.drain();
    };

    return {
      url,
      webhookUrl,
      platform,
      logs,
      channelSecret,
      accessToken,
      apiSecret,
      slip: running.slip,
      slipUrl: slipBaseUrl,
      deployment,
      drain,
      metrics: deployment.metrics,
      notifier: running.notifier,
      menuLinks: options.keepMenuLinks === true ? running.menuLinks : undefined,
      moreShops,
      setStaff(lists) {
        shop = Object.freeze({ ...shop, settings: Object.freeze({ ...shop.settings, staffUserIds: lists.staffUserIds, staffGroupIds: lists.staffGroupIds }) });
        void deployment.reload([shop, ...moreConfigs]);
      },
      reloadStaff(lists, { rebuild }) {
        shop = Object.freeze({
          ...shop,
          ...(rebuild ? { accountCacheSeconds: shop.accountCacheSeconds === 0 ? 60 : 0 } : {}),
          settings: Object.freeze({ ...shop.settings, staffUserIds: lists.staffUserIds, staffGroupIds: lists.staffGroupIds }),
        });
        return deployment.reload([shop, ...moreConfigs]);
      },
      token: (chatId) => platform.issueReplyToken(chatId),
      post,
      async exchange(events) {
        const before = platform.sent.length;
        const answer = await post(events);
        if (answer.status !== 200) throw new Error(`webhook answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        await drain();
        return platform.sent.slice(before);
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
