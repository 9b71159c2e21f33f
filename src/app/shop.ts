// One shop's bot, built from its settings and the parts the deployment shares (logger, metrics, Redis, the
// LINE host): its slip service client, its send boundary over its own LINE channel, its handlers' parts and
// stores (in memory, or in Redis under the shop's own key namespace), its opt-in pushes, its rich-menu link
// keeper and the start-up look at its channel. Nothing here is shared with another shop.
import { messagingApi } from "@line/bot-sdk";
import type { Logger } from "pino";
import type { HandlerDeps } from "../handlers/context.js";
import { createLineHttpApi, lineChannelReads } from "../line/api.js";
import type { LineHttpApi } from "../line/api.js";
import { createOutbox } from "../line/outbox.js";
import type { Outbox, OutboxOptions } from "../line/outbox.js";
import { checkLine } from "../line/self-check.js";
import type { LineCheck } from "../line/self-check.js";
import type { Metrics } from "../metrics/metrics.js";
import type { SharedConnections } from "./connections.js";
import type { EventHandlers, ShopPipeline } from "../pipeline/dispatcher.js";
import { createMenuLinkKeeper } from "../rich-menu/links.js";
import type { MenuLinkKeeper } from "../rich-menu/links.js";
import { hasStaff } from "../roles/audience.js";
import { createNotifier } from "../schedules/notifier.js";
import type { Notifier } from "../schedules/notifier.js";
import { readQuota } from "../schedules/quota.js";
import type { ShopSharedState } from "../shared-state/open.js";
import type { ShopConfig } from "../shops/shop.js";
import { createSlipClient } from "../slip/client.js";
import type { SlipClientOptions } from "../slip/client.js";
import type { SlipClient } from "../slip/types.js";
import { memoryLedger } from "../stores/ledger.js";
import type { EventLedger } from "../stores/ledger.js";
import type { OnceMarks } from "../stores/once-marks.js";
import { createQuietNotes } from "../stores/quiet-notes.js";
import { memoryScheduleStore } from "../stores/schedules.js";
import { memoryVersions } from "../stores/versions.js";
import { createSummaryLoader } from "../summary/load.js";
import { signExportLink } from "../staff-app/export-link.js";
import { appPathOf, EXPORT_MAX_DAYS } from "../staff-app/router.js";

/** What every shop of a deployment shares. */
export interface SharedParts {
  readonly log: Logger;
  readonly metrics: Metrics;
  /** LINE's API host (or the local stand-in's). */
  readonly lineApiBaseUrl: string;
  /** With REDIS_URL: one shop's stores under a namespace of the deployment's prefix. */
  readonly redis?: { forShop(namespace: string): ShopSharedState; readonly prefix: string } | undefined;
  /** Whether this instance runs the opt-in pushes (it works the event queue: INSTANCE_ROLE both or worker). */
  readonly runsPushes: boolean;
  /**
   * LINE mode: look at each shop's channel at start-up; the expected webhook URLs start with PUBLIC_URL.
   * `limit` runs the looks a few at a time (a thousand shops must not ask LINE 2,000 things at once).
   */
  readonly lineCheck?: { readonly publicUrl: string | undefined; readonly limit: <T>(task: () => Promise<T>) => Promise<T> } | undefined;
  /** The clock of handlers, stores and pushes; default the real one. */
  readonly now?: (() => Date) | undefined;
  /** The connections to LINE and the slip services, shared by the shops (closed by the deployment). */
  readonly connections?: SharedConnections | undefined;
  /** Tests' knobs: the slip client's and the send boundary's timings. */
  readonly slipOptions?: Partial<Omit<SlipClientOptions, "baseUrl" | "apiSecret">> | undefined;
  readonly outboxOptions?: Partial<Omit<OutboxOptions, "api" | "log" | "staff">> | undefined;
  readonly menuRecheckMs?: number | undefined;
  /** Keep each user's rich menu in line with the staff list. Default true. */
  readonly keepMenuLinks?: boolean | undefined;
  /** PUBLIC_URL: where the chat's `export` links point; without it the command says what to set. */
  readonly publicUrl?: string | undefined;
}

export interface ShopBot extends ShopPipeline {
  /** The shop's settings now (a reload may change its staff, language, time zone, PromptPay id in place). */
  readonly config: ShopConfig;
  /** Takes settings that need nothing rebuilt (see `sameParts`): from the next event on. */
  update(config: ShopConfig): void;
  readonly slip: SlipClient;
  /** Marks shared by the shop's instances (with REDIS_URL): the staff app's used export links. */
  readonly onceMarks: OnceMarks | undefined;
  readonly notifier: Notifier | undefined;
  readonly menuLinks: MenuLinkKeeper;
  /** The SDK's client for the shop's rare calls (quota, rich menus, bot info). */
  readonly api: messagingApi.MessagingApiClient;
  /** The start-up look at the channel (LINE mode only). */
  lineCheck(): LineCheck | undefined;
  /** Events of this shop being handled now (a retired shop closes once none are left). */
  readonly inHand: number;
  /** Runs `work` counted as this shop's. */
  busy<T>(work: () => Promise<T>): Promise<T>;
  /** Starts the pushes and the look at the channel. */
  start(tickMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The Redis key namespace of a shop: the deployment's prefix, and the shop's id when the deployment
 * serves a shops file (the environment's one shop keeps the prefix alone).
 */
export function shopNamespace(prefix: string, shopId: string, many: boolean): string {
  return many ? `${prefix}:shop:${shopId}:` : `${prefix}:`;
}

/**
 * Whether two settings of one shop use the same parts: the same channel, service account, pushes and
 * webhook. Then a reload changes the running shop in place (its stores and watches stay); otherwise the
 * shop is built anew and the old one retired.
 */
export function sameParts(a: ShopConfig, b: ShopConfig): boolean {
  return a.id === b.id && a.webhookPath === b.webhookPath && partsOf(a) === partsOf(b);
}

// A config is frozen: its parts are written out once (a reload of a thousand shops compares each).
const partsWritten = new WeakMap<ShopConfig, string>();
function partsOf(config: ShopConfig): string {
  let written = partsWritten.get(config);
  if (written === undefined) {
    written = JSON.stringify([config.line, config.slip, config.alerts, config.accountCacheSeconds]);
    partsWritten.set(config, written);
  }
  return written;
}

/** The parts that handle a shop's events (see `buildShop`). */
interface WorkingParts {
  readonly slip: SlipClient;
  readonly lineHttp: LineHttpApi;
  readonly outbox: Outbox;
  readonly notifier: Notifier | undefined;
  readonly handlerDeps: HandlerDeps;
  readonly ledger: EventLedger;
}

export function buildShop(first: ShopConfig, parts: SharedParts & { many: boolean; handlers?: EventHandlers }): ShopBot {
  let current = first;
  const config = first;
  const log = parts.log.child({ shop: config.id });
  const observers = parts.metrics.forShop(config.id);
  const stores = parts.redis?.forShop(shopNamespace(parts.redis.prefix, config.id, parts.many));
  const now = parts.now ?? (() => new Date());
  const staff = () => current.settings;
  /** The settings the handlers and pushes read, always the current ones. */
  const settingsNow = {
    get promptPayId() {
      return current.settings.promptPayId;
    },
    get staffUserIds() {
      return current.settings.staffUserIds;
    },
    get staffGroupIds() {
      return current.settings.staffGroupIds;
    },
    get defaultLang() {
      return current.settings.defaultLang;
    },
    get timeZone() {
      return current.settings.timeZone;
    },
  };

  const alertsOn = Object.values(config.alerts).some((value) => value !== undefined);
  // The SDK's client for the rare calls (the start-up look, quota, rich menus): made at its first use.
  let sdk: messagingApi.MessagingApiClient | undefined;
  const api = (): messagingApi.MessagingApiClient =>
    (sdk ??= new messagingApi.MessagingApiClient({ channelAccessToken: config.line.channelAccessToken, baseURL: parts.lineApiBaseUrl }));

  /**
   * What handling an event needs (the slip client, the send boundary, the handlers' parts), built at the
   * shop's first event, or at start for a shop with pushes: most of a thousand shops are quiet most of the
   * day, and each set holds a connection pool, a circuit breaker, a queue and some forty closures.
   */
  let working: WorkingParts | undefined;
  const work = (): WorkingParts => (working ??= buildWorkingParts());
  function buildWorkingParts(): WorkingParts {
    const slip = createSlipClient({
      baseUrl: config.slip.baseUrl,
      apiSecret: config.slip.apiSecret,
      accountCacheSeconds: config.accountCacheSeconds,
      qrImageOrigins: [...config.slip.qrImageOrigins],
      observer: observers.slip,
      ...(stores === undefined ? {} : { accountCache: stores.accountCache }),
      connections: parts.connections?.slip(config.slip.baseUrl),
      ...parts.slipOptions,
    });
    // Every event's calls (reply, push, loading) go over the shared pool; the SDK's client serves the rare ones.
    const lineHttp = createLineHttpApi({ baseUrl: parts.lineApiBaseUrl, channelAccessToken: config.line.channelAccessToken, shared: parts.connections?.line(parts.lineApiBaseUrl) });
    const outbox: Outbox = createOutbox({
      api: lineHttp,
      log,
      staff,
      observer: observers.line,
      privacy: observers.privacy,
      ...(stores === undefined ? {} : { journal: stores.journal }),
      ...parts.outboxOptions,
    });
    const summaries = createSummaryLoader({ slip, ...(parts.now === undefined ? {} : { now: parts.now }) });
    const notifier = alertsOn
      ? createNotifier({
          alerts: config.alerts,
          settings: settingsNow,
          staff,
          slip,
          summaries,
          outbox,
          quota: () => readQuota(api(), log),
          store: stores?.scheduleStore ?? memoryScheduleStore(() => now().getTime()),
          storeOutlivesRestart: stores !== undefined,
          log,
          observer: observers.notifier,
          ...(parts.now === undefined ? {} : { now: parts.now }),
        })
      : undefined;
    const handlerDeps: HandlerDeps = {
      slip,
      settings: settingsNow,
      log,
      quietNotes: stores?.quietNotes ?? createQuietNotes(),
      summaries,
      watches: parts.runsPushes ? notifier?.watches : undefined,
      versions: stores?.versions ?? memoryVersions(),
      exportLinks:
        parts.publicUrl === undefined
          ? undefined
          : {
              maxDays: EXPORT_MAX_DAYS,
              link: (request, at) =>
                `${parts.publicUrl}${appPathOf(config.webhookPath)}/api/export.csv?link=${signExportLink({ shopId: config.id, ...request }, current.line.channelSecret, at.getTime())}`,
            },
    };
    return { slip, lineHttp, outbox, notifier, handlerDeps, ledger: stores?.ledger ?? memoryLedger() };
  }
  // Each user's menu follows the staff list (once the menus are installed): made at the first sender.
  let menus: MenuLinkKeeper | undefined;
  const menuLinks = (): MenuLinkKeeper =>
    (menus ??= createMenuLinkKeeper({
      api: api(),
      isStaff: (userId) => current.settings.staffUserIds.has(userId),
      log,
      ...(parts.menuRecheckMs === undefined ? {} : { recheckMs: parts.menuRecheckMs }),
    }));

  let check: LineCheck | undefined = parts.lineCheck === undefined ? undefined : { state: "checking" };
  if (check !== undefined) observers.watchLineCheck(() => check ?? { state: "checking" });
  let inHand = 0;
  let started = false;

  return {
    id: config.id,
    get config() {
      return current;
    },
    update(next) {
      // The registry calls this only when sameParts(current, next) (checked as it compared the shops).
      current = next;
    },
    log,
    get outbox() {
      return work().outbox;
    },
    get handlerDeps() {
      return work().handlerDeps;
    },
    get ledger() {
      return work().ledger;
    },
    observer: observers.pipeline,
    onSender: parts.keepMenuLinks === false ? undefined : (userId) => menuLinks().seen(userId),
    get markAsRead() {
      return current.markAsRead;
    },
    get slip() {
      return work().slip;
    },
    onceMarks: stores?.onceMarks,
    get notifier() {
      return alertsOn ? work().notifier : undefined;
    },
    get menuLinks() {
      return menuLinks();
    },
    get api() {
      return api();
    },
    lineCheck: () => check,
    get inHand() {
      return inHand;
    },
    async busy(work) {
      inHand += 1;
      try {
        return await work();
      } finally {
        inHand -= 1;
      }
    },
    async start(tickMs) {
      if (started) return;
      started = true;
      if (!hasStaff(current.settings)) {
        log.warn("no staff listed: history, summaries and balance are refused to everyone until staff are listed (send `id` to the bot to learn an id)");
      }
      if (current.settings.promptPayId === undefined) log.warn("no PromptPay id set for the shop: `qr <amount>` will ask for one");
      if (parts.lineCheck !== undefined) {
        const { publicUrl, limit } = parts.lineCheck;
        const expectedWebhook = publicUrl === undefined ? undefined : `${publicUrl}${config.webhookPath}`;
        void limit(() => checkLine({ api: lineChannelReads({ baseUrl: parts.lineApiBaseUrl, channelAccessToken: config.line.channelAccessToken }), expectedWebhook, markAsRead: current.markAsRead, log })).then((found) => (check = found));
      }
      const notifier = alertsOn && parts.runsPushes ? work().notifier : undefined;
      if (notifier !== undefined) {
        await notifier.start(tickMs);
        log.info({ alerts: config.alerts }, "opt-in pushes on (each costs LINE message quota)");
      }
    },
    async close() {
      working?.notifier?.stop();
      await menus?.settled();
      if (working !== undefined) await Promise.allSettled([working.slip.close(), working.lineHttp.close()]);
      observers.forget();
    },
  };
}
