// One shop's bot, built from its settings and the parts the deployment shares (logger, metrics, Redis, the
// LINE host): its slip service client, its send boundary over its own LINE channel, its handlers' parts and
// stores (in memory, or in Redis under the shop's own key namespace), its opt-in pushes, its rich-menu link
// keeper and the start-up look at its channel. Nothing here is shared with another shop.
import type { Logger } from "pino";
import type { HandlerDeps } from "../handlers/context.js";
import { createLineHttpApi } from "../line/api.js";
import { rareLineCalls } from "../line/rare-calls.js";
import { createOutbox } from "../line/outbox.js";
import { createMessageContent } from "../line/content.js";
import type { MessageContentOptions } from "../line/content.js";
import type { OutboxOptions } from "../line/outbox.js";
import { checkLine } from "../line/self-check.js";
import type { LineCheck } from "../line/self-check.js";
import type { Metrics } from "../metrics/metrics.js";
import type { EventHandlers } from "../event/handle-event.js";
import type { WebhookShop } from "../webhook/routes.js";
import type { SharedConnections } from "./connections.js";
import { createMenuLinkKeeper } from "../rich-menu/links.js";
import type { MenuLinkKeeper } from "../rich-menu/links.js";
import { chatOfId, hasStaff } from "../roles/audience.js";
import type { StaffLists } from "../roles/audience.js";
import { createNotifier } from "../schedules/notifier.js";
import type { Notifier } from "../schedules/notifier.js";
import { readQuota } from "../schedules/quota.js";
import type { ShopSharedState } from "../shared-state/open.js";
import type { ShopConfig } from "../shops/shop.js";
import { createSlipClient } from "../slip/client.js";
import type { SlipClientOptions } from "../slip/client.js";
import type { SlipClient } from "../slip/types.js";
import { memoryLedger } from "../stores/ledger.js";
import type { OnceMarks } from "../stores/once-marks.js";
import { createQuietNotes } from "../stores/quiet-notes.js";
import { memoryScheduleStore } from "../stores/schedules.js";
import { memoryVersions } from "../stores/versions.js";
import { createSummaryLoader } from "../summary/load.js";
import { signExportLink } from "../staff-app/export-link.js";
import { appPathOf, EXPORT_MAX_DAYS } from "../staff-app/router.js";
import type { QrDecoder } from "../slip-photo/decoder.js";
import type { SlipPhotoParts } from "../slip-photo/parts.js";

/**
 * Every timing a test may change, in one value; production leaves each at its default.
 */
export interface Timings {
  /** The slip client's timeouts, retries, circuit breaker and connect timeout. */
  readonly slip?: Partial<Omit<SlipClientOptions, "baseUrl" | "apiSecret">> | undefined;
  /** The send boundary's backoff and loading-animation delay. */
  readonly outbox?: Partial<Omit<OutboxOptions, "api" | "log" | "staff">> | undefined;
  /** Each user's rich menu kept in line with the staff list, rechecked this often; `off`: not kept. */
  readonly menuLinks?: { readonly recheckMs?: number | undefined } | "off" | undefined;
  /** How often the opt-in pushes look at the clock (and poll for watched payments). Default 15 s. */
  readonly notifierTickMs?: number | undefined;
  /** A photo's download from LINE's data host: its deadline and the wait before its second attempt. */
  readonly photoContent?: Partial<Pick<MessageContentOptions, "timeoutMs" | "retryDelayMs">> | undefined;
}

/** What every shop of a deployment shares. */
export interface SharedParts {
  readonly log: Logger;
  readonly metrics: Metrics;
  /** LINE's API host (or the local stand-in's). */
  readonly lineApiBaseUrl: string;
  /** LINE's data host, where photos' content is (or the local stand-in's). */
  readonly lineDataApiBaseUrl: string;
  /** The deployment's one reader of slip photos' QR codes. */
  readonly slipPhotoReader: QrDecoder;
  /** With REDIS_URL: one shop's stores under a namespace of the deployment's prefix. */
  readonly redis?: { forShop(namespace: string): ShopSharedState; readonly prefix: string } | undefined;
  /** Whether this instance runs the opt-in pushes (it works the event queue: INSTANCE_ROLE both or worker). */
  readonly runsPushes: boolean;
  /**
   * LINE mode: look at each shop's channel at start-up; the expected webhook URLs start with PUBLIC_URL.
   * `limit` runs the looks a few at a time (a thousand shops must not ask LINE 2,000 things at once).
   */
  readonly lineCheck?: { readonly publicUrl: string | undefined; readonly limit: <T>(task: () => Promise<T>) => Promise<T> } | undefined;
  /** The clock of handlers, stores and pushes. */
  readonly clock: () => Date;
  /** The connections to LINE and the slip services, shared by the shops (closed by the deployment). */
  readonly connections?: SharedConnections | undefined;
  /** The slip client's, send boundary's and menu keeper's timings (tests shorten them). */
  readonly timings: Timings;
  /** The handlers events are routed to. */
  readonly handlers: EventHandlers;
  /** PUBLIC_URL: where the chat's `export` links point; without it the command says what to set. */
  readonly publicUrl?: string | undefined;
  /**
   * The settings of the shop served now under an id (the registry's), undefined once no shop is: a shop
   * rebuilt or removed by a reload judges its last events and pushes by the lists of the moment, not its own.
   */
  readonly servedNow?: ((id: string) => { readonly config: ShopConfig } | undefined) | undefined;
}

/** No staff place at all: the lists of a shop no longer served. */
const NO_STAFF: StaffLists = { staffUserIds: new Set<string>(), staffGroupIds: new Set<string>() };

export interface ShopBot extends WebhookShop {
  /** The shop's settings now (a reload may change its staff, language, time zone, PromptPay id in place). */
  readonly config: ShopConfig;
  /** Takes settings that need nothing rebuilt (see `shopChangeOf`): from the next event on. */
  update(config: ShopConfig): void;
  readonly slip: SlipClient;
  /** Marks shared by the shop's instances (with REDIS_URL): the staff app's used export links. */
  readonly onceMarks: OnceMarks | undefined;
  readonly notifier: Notifier | undefined;
  readonly menuLinks: MenuLinkKeeper;
  /** Events of this shop being handled now (a retired shop closes once none are left). */
  readonly inHand: number;
  /** Starts the pushes and the look at the channel. */
  start(tickMs: number): Promise<void>;
  /** Out of service (a reload removed or rebuilt it): its pushes stop now, its events in hand finish. */
  retire(): void;
  close(): Promise<void>;
}

/**
 * The Redis key namespace of a shop: the deployment's prefix, and the shop's id when the deployment
 * serves a shops file (the environment's one shop keeps the prefix alone).
 */
export function shopNamespace(prefix: string, shopId: string, many: boolean): string {
  return many ? `${prefix}:shop:${shopId}:` : `${prefix}:`;
}

export function buildShop(first: ShopConfig, parts: SharedParts & { many: boolean }): ShopBot {
  let current = first;
  const config = first;
  const log = parts.log.child({ shop: config.id });
  const observers = parts.metrics.forShop(config.id);
  const stores = parts.redis?.forShop(shopNamespace(parts.redis.prefix, config.id, parts.many));
  const now = parts.clock;
  const { timings } = parts;
  // The staff lists of this moment: the registry's shop of this id, whichever object that is now; without a
  // registry (a shop built alone), this one's own.
  const staff = (): StaffLists => {
    if (parts.servedNow === undefined) return current.settings;
    return parts.servedNow(config.id)?.config.settings ?? NO_STAFF;
  };
  /** The settings the handlers and pushes read, always the current ones. */
  const settingsNow = {
    get promptPayId() {
      return current.settings.promptPayId;
    },
    get staffUserIds() {
      return staff().staffUserIds;
    },
    get staffGroupIds() {
      return staff().staffGroupIds;
    },
    get defaultLang() {
      return current.settings.defaultLang;
    },
    get timeZone() {
      return current.settings.timeZone;
    },
    get slipPhotoPush() {
      return current.settings.slipPhotoPush;
    },
  };

  // Every part is built here, when the registry adds the shop, never in the middle of an event. The
  // sockets are the deployment's (connections.ts): a quiet shop holds only these small objects.
  const alertsOn = Object.values(config.alerts).some((value) => value !== undefined);
  // The rare calls (the look at the channel, quota, each user's rich menu), over the shared agent.
  const api = rareLineCalls({ baseUrl: parts.lineApiBaseUrl, channelAccessToken: config.line.channelAccessToken });
  const slip = createSlipClient({
    baseUrl: config.slip.baseUrl,
    apiSecret: config.slip.apiSecret,
    accountCacheSeconds: config.accountCacheSeconds,
    qrImageOrigins: [...config.slip.qrImageOrigins],
    observer: observers.slip,
    ...(stores === undefined ? {} : { accountCache: stores.accountCache }),
    connections: parts.connections?.slip(config.slip.baseUrl),
    ...timings.slip,
  });
  // Every event's calls (reply, push, loading) go over the shared pool; the SDK's client serves the rare ones.
  const lineHttp = createLineHttpApi({ baseUrl: parts.lineApiBaseUrl, channelAccessToken: config.line.channelAccessToken, shared: parts.connections?.line(parts.lineApiBaseUrl) });
  const outbox = createOutbox({
    api: lineHttp,
    log,
    staff,
    observer: observers.line,
    privacy: observers.privacy,
    ...(stores === undefined ? {} : { journal: stores.journal }),
    ...timings.outbox,
  });
  const summaries = createSummaryLoader({ slip, now });
  const photoContent = createMessageContent({
    baseUrl: parts.lineDataApiBaseUrl,
    channelAccessToken: config.line.channelAccessToken,
    dispatcher: parts.connections?.line(parts.lineDataApiBaseUrl),
    ...timings.photoContent,
  });
  const slipPhotos: SlipPhotoParts = {
    photo: (messageId) => photoContent.image(messageId),
    decode: (image) => parts.slipPhotoReader.decode(image),
    async pushToStaffGroups(answer, pushId) {
      let pushed = 0;
      // The lists of this moment; the send boundary judges each destination again as it goes.
      for (const id of staff().staffGroupIds) {
        const deliveries = await outbox.push(chatOfId(id), answer, pushId, log);
        if (deliveries.length > 0 && deliveries.every((d) => d.via === "push")) pushed++;
      }
      return pushed;
    },
  };
  const notifier = alertsOn
    ? createNotifier({
        alerts: config.alerts,
        settings: settingsNow,
        staff,
        slip,
        summaries,
        outbox,
        quota: () => readQuota(api, log),
        store: stores?.scheduleStore ?? memoryScheduleStore(() => now().getTime()),
        storeOutlivesRestart: stores !== undefined,
        log,
        observer: observers.notifier,
        now,
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
    slipPhotos,
    exportLinks:
      parts.publicUrl === undefined
        ? undefined
        : {
            maxDays: EXPORT_MAX_DAYS,
            link: (request, at) =>
              `${parts.publicUrl}${appPathOf(config.webhookPath)}/api/export.csv?link=${signExportLink({ shopId: config.id, ...request }, current.line.channelSecret, at.getTime())}`,
          },
  };
  // Each user's menu follows the staff list (once the menus are installed).
  const menuLinks = createMenuLinkKeeper({
    api,
    isStaff: (userId) => staff().staffUserIds.has(userId),
    log,
    ...(timings.menuLinks === undefined || timings.menuLinks === "off" || timings.menuLinks.recheckMs === undefined ? {} : { recheckMs: timings.menuLinks.recheckMs }),
  });

  let check: LineCheck | undefined = parts.lineCheck === undefined ? undefined : { state: "checking" };
  if (check !== undefined) observers.watchLineCheck(() => check ?? { state: "checking" });
  const eventsInHand = { count: 0 };
  let started = false;

  return {
    id: config.id,
    get config() {
      return current;
    },
    update(next) {
      // The registry calls this only when shopChangeOf(current, next) is `settings` (checked as it compared the shops).
      current = next;
    },
    log,
    outbox,
    handlerDeps,
    handlers: parts.handlers,
    now,
    ledger: stores?.ledger ?? memoryLedger(),
    observer: observers.pipeline,
    onSender: timings.menuLinks === "off" ? undefined : (userId) => menuLinks.seen(userId),
    get markAsRead() {
      return current.markAsRead;
    },
    slip,
    onceMarks: stores?.onceMarks,
    notifier,
    menuLinks,
    lineCheck: () => check,
    eventsInHand,
    get inHand() {
      return eventsInHand.count;
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
        void limit(() =>
          checkLine({
            api,
            expectedWebhook,
            markAsRead: current.markAsRead,
            log,
          }),
        ).then((found) => (check = found));
      }
      if (notifier !== undefined && parts.runsPushes) {
        await notifier.start(tickMs);
        log.info({ alerts: config.alerts }, "opt-in pushes on (each costs LINE message quota)");
      }
    },
    retire() {
      // Its pushes stop now; its events in hand finish, judged by the lists of the moment (`staff`).
      notifier?.retire();
    },
    async close() {
      notifier?.retire();
      await menuLinks.settled();
      await Promise.allSettled([slip.close(), lineHttp.close()]);
      observers.forget();
    },
  };
}
