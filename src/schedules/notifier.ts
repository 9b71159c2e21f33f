// The opt-in pushes (each costs LINE message quota): the daily summary, the low-token and expiry alerts, and
// "฿150.00 received" for a watched staff QR. A tick looks at the clock and does what is due; the store
// makes each push happen once, across instances with Redis, and the push's retry key (from the push's own
// identity) makes LINE refuse a copy even if two instances ever raced.
import { calendarDaysBetween, formatIsoDate, zonedParts } from "../time/calendar.js";
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { resolveRange } from "../commands/range.js";
import type { BotSettings } from "../config.js";
import type { PaymentToWatch, PaymentWatches } from "../handlers/context.js";
import type { NotDeliveredReason, Outbox } from "../line/outbox.js";
import { parseInstant } from "../render/format.js";
import { renderExpiryAlert, renderLowTokensAlert, renderPaymentReceived } from "../render/alerts.js";
import type { StaffAnswer } from "../privacy/answer.js";
import { chatOfId, isStaffPlace } from "../roles/audience.js";
import type { StaffLists } from "../roles/audience.js";
import { renderSummary } from "../commands/summary/render.js";
import { texts } from "../render/text.js";
import type { HistoryItem, SlipClient } from "../slip/types.js";
import type { SummaryLoader } from "../summary/load.js";
import type { ScheduleStore } from "../stores/schedules.js";

export interface AlertSettings {
  /** DAILY_SUMMARY_AT, in the business zone. */
  dailySummaryAt?: { hour: number; minute: number } | undefined;
  /** LOW_TOKEN_ALERT_SLIPS: alert when the API estimate falls below it. */
  lowTokenSlips?: number | undefined;
  /** EXPIRY_ALERT_DAYS: alert once a day while the package expires within this many days. */
  expiryDays?: number | undefined;
  /** WATCH_PAYMENTS_MINUTES: watch for a staff QR's payment this long. */
  watchMinutes?: number | undefined;
}

export type PushKind = "daily_summary" | "low_tokens" | "expiry" | "payment_received";

/** `used_up`: LINE's monthly quota is spent, so pushes are skipped. */
export type QuotaState = "available" | "used_up";

export interface NotifierObserver {
  pushed?(kind: PushKind): void;
  skipped?(kind: PushKind, reason: "quota" | "no_recipients" | "not_staff_place"): void;
}

export interface NotifierOptions {
  alerts: AlertSettings;
  settings: Pick<BotSettings, "timeZone" | "defaultLang">;
  /** The staff lists of this moment: pushes go to staff places only, judged when they go out. */
  staff: () => StaffLists;
  slip: SlipClient;
  summaries: SummaryLoader;
  /** The send boundary, which every push passes. */
  outbox: Outbox;
  /** Reads LINE's quota before pushing. */
  quota: () => Promise<QuotaState>;
  store: ScheduleStore;
  log: Logger;
  now?: () => Date;
  observer?: NotifierObserver;
  /** How often the account is read for its alerts. Default 5 minutes. */
  accountEveryMs?: number;
  /** How often the open payment watches are checked (one history poll for them all). Default 15 s. */
  watchEveryMs?: number;
  /** Whether the store outlives a restart (Redis). Default true. */
  storeOutlivesRestart?: boolean;
}

export interface Notifier {
  /** Does what is due now. Never rejects. */
  tick(): Promise<void>;
  /** Set when WATCH_PAYMENTS_MINUTES is: where staff QR codes register their payment. */
  readonly watches: PaymentWatches | undefined;
  /**
   * Ticks every `intervalMs` until stopped. With a store that forgets on restart (memory), what was due
   * earlier today counts as done, so a restart neither repeats nor sends late the day's summary or alert.
   */
  start(intervalMs: number): Promise<void>;
  stop(): void;
  /** Stops for good: no tick does anything after it, a timer's or a caller's (the shop was retired or closed). */
  retire(): void;
}

/** The daily summary goes out within an hour of its time, or not that day (a bot down then does not send it late). */
const DAILY_WINDOW_MIN = 60;
/** When the expiry alert goes out each day, unless a daily summary time is set. */
const EXPIRY_ALERT_AT_MIN = 9 * 60;
const DAY_MS = 86_400_000;
/** Why a push was not delivered that makes it worth trying again (LINE was down, slow or busy). */
const RETRIED: ReadonlySet<NotDeliveredReason> = new Set(["line_down", "line_unknown", "rate_limited"]);
/** Pages of valid checks read at most per watch poll. */
const WATCH_POLL_PAGES = 10;

export function createNotifier(options: NotifierOptions): Notifier {
  const { alerts, settings, store, log, outbox } = options;
  const now = options.now ?? (() => new Date());
  const observer = options.observer ?? {};
  const accountEveryMs = options.accountEveryMs ?? 5 * 60_000;
  const watchEveryMs = options.watchEveryMs ?? 15_000;
  const lang = settings.defaultLang;
  let lastAccountCheck = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let retired = false;

  /** Staff groups, or staff users when there is no staff group. */
  const staffChats = (): string[] => {
    const staff = options.staff();
    return staff.staffGroupIds.size > 0 ? [...staff.staffGroupIds] : [...staff.staffUserIds];
  };

  /**
   * Pushes to each chat, unless LINE's quota is spent; `id` makes each push's retry key. "retry" when LINE
   * failed or never answered for a chat: sent again at the next tick with the same retry key, LINE takes it
   * at most once. A push LINE refused, or skipped, is not tried again.
   */
  async function push(kind: PushKind, id: string, chats: readonly string[], answer: StaffAnswer): Promise<"done" | "retry"> {
    if (chats.length === 0) {
      observer.skipped?.(kind, "no_recipients");
      log.warn({ push: kind }, "no staff to push to (STAFF_GROUP_IDS and STAFF_USER_IDS are empty)");
      return "done";
    }
    if ((await options.quota()) === "used_up") {
      observer.skipped?.(kind, "quota");
      log.warn({ push: kind, id }, "LINE's monthly message quota is used up: push skipped");
      return "done";
    }
    let result: "done" | "retry" = "done";
    for (const chatId of chats) {
      const chat = chatOfId(chatId);
      // The chat may have left the staff lists since the push was planned (a payment watch's chat): then
      // it is no place for the shop's data any more, and the push is dropped.
      if (!isStaffPlace(chat, options.staff())) {
        observer.skipped?.(kind, "not_staff_place");
        log.warn({ push: kind, chatType: chat.type }, "scheduled push dropped: its chat is no longer a staff place");
        continue;
      }
      const deliveries = await outbox.push(chat, answer, id, log.child({ push: kind }));
      const failed = deliveries.find((d) => d.via === "none");
      if (failed === undefined) {
        observer.pushed?.(kind);
        log.info({ push: kind, chatId, delivery: deliveries.map((d) => d.via) }, "scheduled push sent");
      } else if (failed.via === "none" && RETRIED.has(failed.reason)) {
        result = "retry";
        log.warn({ push: kind, chatId, reason: failed.reason }, "scheduled push not delivered; trying again at the next tick");
      }
    }
    return result;
  }

  /** Does a once-only push: when it fails (or cannot be made) the mark is taken back, so a later tick tries again. */
  async function onceOnly(key: string, ttlMs: number, send: () => Promise<"done" | "retry">): Promise<void> {
    if (!(await store.once(key, ttlMs))) return;
    let result: "done" | "retry" = "retry";
    try {
      result = await send();
    } finally {
      if (result === "retry") await store.forget(key);
    }
  }

  /** Minutes since the start of the business day. */
  const minuteOfDay = (at: Date): number => {
    const parts = zonedParts(at, settings.timeZone);
    return parts.hour * 60 + parts.minute;
  };

  /** The expiry alert goes out with the daily summary, or at 09:00 without one. */
  const expiryAlertMinute = (): number => (alerts.dailySummaryAt === undefined ? EXPIRY_ALERT_AT_MIN : alerts.dailySummaryAt.hour * 60 + alerts.dailySummaryAt.minute);

  async function dailySummary(at: Date): Promise<void> {
    const due = alerts.dailySummaryAt;
    if (due === undefined) return;
    const dueMinute = due.hour * 60 + due.minute;
    const minute = minuteOfDay(at);
    if (minute < dueMinute || minute >= dueMinute + DAILY_WINDOW_MIN) return;
    const date = formatIsoDate(zonedParts(at, settings.timeZone));
    await onceOnly(`daily-summary:${date}`, 2 * DAY_MS, async () => {
      const today = resolveRange({ kind: "today" }, at, settings.timeZone);
      const loaded = await options.summaries.load(today, settings.timeZone);
      const answer = renderSummary(
        {
          lang,
          timeZone: settings.timeZone,
          range: { kind: "today" },
          figures: loaded.figures,
          coveredFrom: loaded.coveredFrom,
          coveredTo: loaded.coveredTo,
          askedFrom: today.fromDate,
          total: loaded.total,
          at: loaded.at,
          lead: texts(lang).dailySummaryLead,
        },
        "daily_summary",
      );
      return push("daily_summary", `daily-summary-${date}`, staffChats(), answer);
    });
  }

  async function accountAlerts(at: Date): Promise<void> {
    if (alerts.lowTokenSlips === undefined && alerts.expiryDays === undefined) return;
    if (at.getTime() - lastAccountCheck < accountEveryMs) return;
    lastAccountCheck = at.getTime();
    const account = await options.slip.accountInfo();

    const threshold = alerts.lowTokenSlips;
    if (threshold !== undefined) {
      if (account.estimatedSlips.api < threshold) {
        // Once until the estimate rises to the threshold again (then the key is forgotten, and it re-arms).
        await onceOnly("low-tokens", 365 * DAY_MS, () =>
          push("low_tokens", `low-tokens-${at.getTime()}`, staffChats(), renderLowTokensAlert(lang, account.estimatedSlips.api, threshold)),
        );
      } else {
        await store.forget("low-tokens");
      }
    }

    const days = alerts.expiryDays;
    const expires = parseInstant(account.expiresAt);
    if (days !== undefined && expires !== undefined) {
      const today = zonedParts(at, settings.timeZone);
      const expiresOn = zonedParts(expires, settings.timeZone);
      const daysLeft = calendarDaysBetween(today, expiresOn);
      if (daysLeft >= 0 && daysLeft <= days && minuteOfDay(at) >= expiryAlertMinute()) {
        const date = formatIsoDate(today);
        await onceOnly(`expiry:${date}`, 2 * DAY_MS, () => push("expiry", `expiry-${date}`, staffChats(), renderExpiryAlert(lang, daysLeft, expiresOn)));
      }
    }
  }

  /** One history poll for every open watch; each check answers at most one watch, the oldest QR first. */
  async function pollWatches(at: Date): Promise<void> {
    if (alerts.watchMinutes === undefined) return;
    const open = await store.openWatches(at.getTime());
    if (open.length === 0) return;
    if (!(await store.once(`watch-poll:${Math.floor(at.getTime() / watchEveryMs)}`, watchEveryMs))) return;
    const since = new Date(Math.min(...open.map((w) => w.afterMs)));
    const items: HistoryItem[] = [];
    for (let page = 1; page <= WATCH_POLL_PAGES; page++) {
      const result = await options.slip.slipHistory({ from: since, to: at, status: "valid", limit: 100, page });
      items.push(...result.items);
      if (page >= result.pagination.pages) break;
    }
    // Oldest check first, so the oldest QR of an amount gets the first payment of it.
    const checks = items
      .map((item) => ({ item, atMs: parseInstant(item.createdAt)?.getTime() ?? Number.NaN }))
      .filter((c) => Number.isFinite(c.atMs) && c.item.amount !== null)
      .sort((a, b) => a.atMs - b.atMs);
    const used = new Set<string>();
    for (const watch of [...open].sort((a, b) => a.afterMs - b.afterMs)) {
      const match = checks.find((c) => !used.has(c.item.transRef ?? "") && c.atMs > watch.afterMs && Math.round((c.item.amount ?? 0) * 100) === watch.amountSatang);
      if (match === undefined) continue;
      used.add(match.item.transRef ?? "");
      if (!(await store.closeWatch(watch.id))) continue;
      const answer = renderPaymentReceived({
        lang: watch.lang,
        amountSatang: watch.amountSatang,
        payer: match.item.senderName,
        at: new Date(match.atMs),
        timeZone: settings.timeZone,
      });
      // Not delivered: the watch opens again, and the next poll finds the same check (same retry key).
      if ((await push("payment_received", `payment-${watch.id}`, [watch.chatId], answer)) === "retry") await store.addWatch(watch);
    }
  }

  async function tick(): Promise<void> {
    // A retired shop's pushes stop with it: its staff lists are no longer the shop's.
    if (retired) return;
    const at = now();
    for (const [name, step] of [
      ["daily summary", dailySummary],
      ["account alerts", accountAlerts],
      ["payment watches", pollWatches],
    ] as const) {
      try {
        await step(at);
      } catch (err) {
        log.warn({ err, step: name }, "scheduled push step failed; it is tried again at the next tick");
      }
    }
  }

  const minutes = alerts.watchMinutes;
  const watches: PaymentWatches | undefined =
    minutes === undefined
      ? undefined
      : {
          async watch(payment: PaymentToWatch) {
            const afterMs = payment.after.getTime();
            await store.addWatch({
              id: randomUUID(),
              chatId: payment.chatId,
              amountSatang: payment.amountSatang,
              afterMs,
              untilMs: afterMs + minutes * 60_000,
              lang: payment.lang,
            });
          },
        };

  return {
    tick,
    watches,
    async start(intervalMs) {
      if (timer !== undefined) return;
      if (options.storeOutlivesRestart === false) {
        const at = now();
        const date = formatIsoDate(zonedParts(at, settings.timeZone));
        const due = alerts.dailySummaryAt;
        if (due !== undefined && minuteOfDay(at) >= due.hour * 60 + due.minute) await store.once(`daily-summary:${date}`, 2 * DAY_MS);
        if (minuteOfDay(at) >= expiryAlertMinute()) await store.once(`expiry:${date}`, 2 * DAY_MS);
      }
      let running = false;
      timer = setInterval(() => {
        // A slow tick (the service slow) is not overlapped by the next.
        if (running) return;
        running = true;
        void tick().finally(() => (running = false));
      }, intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    retire() {
      retired = true;
      clearInterval(timer);
      timer = undefined;
    },
  };
}
