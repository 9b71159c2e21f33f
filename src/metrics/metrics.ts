// The bot's Prometheus metrics (prom-client): the process's own under their standard names (`process_*`,
// `nodejs_*`, as stock Node.js dashboards and alerts expect), plus ours under `slipline_`: events, LINE
// calls, service calls, the event queue and the service circuit. Parts report through small observer
// hooks, so none of them imports prom-client, and a test can leave them out.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { LineObserver, PrivacyObserver } from "../line/outbox.js";
import type { LineCheck } from "../line/self-check.js";
import type { PipelineObserver } from "../event/handle-event.js";
import type { CircuitState, SlipObserver } from "../slip/types.js";
import type { NotifierObserver } from "../schedules/notifier.js";
import type { EventQueueObserver, QueueStats } from "../queue/index.js";

/** One shop's observers: what it reports carries its `shop` label (bounded by the shops file, never by user input). */
export interface ShopMetrics {
  readonly pipeline: PipelineObserver;
  readonly slip: SlipObserver;
  readonly line: LineObserver;
  /** The send boundary: a staff answer stopped on its way to a place that is not a staff place. */
  readonly privacy: PrivacyObserver;
  readonly notifier: NotifierObserver;
  /** Reports the start-up look at the shop's LINE channel at every scrape. */
  watchLineCheck(check: () => LineCheck): void;
  /** The shop is no longer served (a reload removed it): its series go. */
  forget(): void;
}

export interface Metrics {
  readonly registry: Registry;
  /** The observers of one shop. */
  forShop(shop: string): ShopMetrics;
  /** A webhook answered without being handled: `busy` (503), `draining` (503), `unsigned` (401), `too_large` (413)... */
  webhookRefused(reason: string): void;
  /** Reports the event queue's depth and running count at every scrape. */
  watchQueue(queue: { readonly waiting: number; readonly running: number }): void;
  /** Reports the shared queue's length (events waiting in Redis) at every scrape. */
  watchStoredQueue(waiting: () => Promise<number>): void;
  /** Events Redis could not take in time, handled in-process instead. */
  notStored(count: number): void;
  /** Reports at every scrape whether the instance is degraded (Redis away: events handled in-process). */
  watchDegraded(degraded: () => boolean): void;
  /** A Redis connection error. */
  redisError(): void;
  /**
   * The shared queue's hooks: events taken up again after a crash, events stored again after Redis lost
   * them. (An event stored before counts as its shop's duplicate: `forShop(shop).pipeline.duplicate`.)
   */
  readonly queue: Required<Pick<EventQueueObserver, "recovered" | "restored">>;
  /** Reports the shared queue's figures for this instance at every scrape. */
  watchSharedQueue(stats: () => QueueStats): void;
  /** The Prometheus text of every metric. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

const CIRCUIT_VALUES: Record<CircuitState, number> = { closed: 0, half_open: 0.5, open: 1 };

export function createMetrics(): Metrics {
  const registry = new Registry();
  // No prefix: the Prometheus client-library guidelines name these metrics the same in every process.
  collectDefaultMetrics({ register: registry });

  const events = new Counter({
    name: "slipline_events_total",
    help: "Webhook events handled, by event type and outcome (answered, answered_by_push, not_delivered, refused, ignored...)",
    labelNames: ["shop", "type", "outcome"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "slipline_event_duration_seconds",
    help: "Time from an event's turn to its log line, in seconds",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const privacyBlocked = new Counter({
    name: "slipline_privacy_blocked_total",
    help: "Staff answers the send boundary stopped because their chat was not a staff place, by answer kind and chat type (a bug: should stay 0)",
    labelNames: ["shop", "kind", "chat_type"] as const,
    registers: [registry],
  });
  const duplicates = new Counter({
    name: "slipline_duplicate_events_total",
    help: "Events not handled because their webhookEventId was already handled (or, with Redis, already stored)",
    labelNames: ["shop"] as const,
    registers: [registry],
  });
  const redeliveries = new Counter({
    name: "slipline_redelivered_events_total",
    help: "Events LINE marked as redelivered",
    labelNames: ["shop"] as const,
    registers: [registry],
  });
  const abandoned = new Counter({
    name: "slipline_abandoned_events_total",
    help: "Events still unfinished at the end of the shutdown grace period",
    labelNames: ["shop"] as const,
    registers: [registry],
  });
  const refused = new Counter({
    name: "slipline_webhook_refused_total",
    help: "Webhook requests answered without handling, by reason",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  const lineCalls = new Counter({
    name: "slipline_line_api_requests_total",
    help: "Calls to the LINE Messaging API, by endpoint and LINE's status (or network)",
    labelNames: ["shop", "endpoint", "status"] as const,
    registers: [registry],
  });
  const slipCalls = new Counter({
    name: "slipline_slip_service_requests_total",
    help: "Slip service operations, by operation and outcome (retries inside one operation count once)",
    labelNames: ["shop", "operation", "outcome"] as const,
    registers: [registry],
  });
  const slipSeconds = new Histogram({
    name: "slipline_slip_service_request_duration_seconds",
    help: "Time of one slip service operation, waiting for a connection and retries included",
    labelNames: ["operation"] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16],
    registers: [registry],
  });
  const circuit = new Gauge({
    name: "slipline_slip_service_circuit_state",
    help: "Each shop's slip service circuit: 0 closed (calls go through), 0.5 half-open (one trial call), 1 open (calls fail at once)",
    labelNames: ["shop"] as const,
    registers: [registry],
  });
  let queue: { readonly waiting: number; readonly running: number } | undefined;
  new Gauge({
    name: "slipline_event_queue_depth",
    help: "Events waiting for a turn",
    registers: [registry],
    collect() {
      this.set(queue?.waiting ?? 0);
    },
  });
  new Gauge({
    name: "slipline_events_in_flight",
    help: "Events being handled now",
    registers: [registry],
    collect() {
      this.set(queue?.running ?? 0);
    },
  });

  let storedWaiting: (() => Promise<number>) | undefined;
  new Gauge({
    name: "slipline_stored_queue_length",
    help: "Events waiting in Redis for a worker of any instance (0 without REDIS_URL)",
    registers: [registry],
    async collect() {
      this.set(storedWaiting === undefined ? 0 : await storedWaiting().catch(() => Number.NaN));
    },
  });
  let degraded: (() => boolean) | undefined;
  new Gauge({
    name: "slipline_degraded",
    help: "1 while Redis is unreachable and this instance serves without it (events handled in-process, not stored); 0 otherwise, and without REDIS_URL",
    registers: [registry],
    collect() {
      this.set(degraded?.() === true ? 1 : 0);
    },
  });
  const lineChecks = new Map<string, () => LineCheck>();
  const LINE_CHECK_STATES = ["checking", "ok", "token_rejected", "unreachable"] as const;
  new Gauge({
    name: "slipline_line_check",
    help: "The start-up look at each shop's LINE channel: 1 for its state (checking, ok, token_rejected, unreachable); nothing without a LINE channel",
    labelNames: ["shop", "state"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [shop, check] of lineChecks) {
        const current = check().state;
        for (const state of LINE_CHECK_STATES) this.set({ shop, state }, state === current ? 1 : 0);
      }
    },
  });
  const notStored = new Counter({
    name: "slipline_events_not_stored_total",
    help: "Events Redis could not take in time, handled in this process instead",
    registers: [registry],
  });
  const redisErrors = new Counter({
    name: "slipline_redis_errors_total",
    help: "Redis connection errors",
    registers: [registry],
  });
  const recovered = new Counter({
    name: "slipline_events_recovered_total",
    help: "Stored events taken up again: found in the hands of an instance that stopped (a crash), or handed to this one as its Redis connection dropped",
    registers: [registry],
  });
  const restored = new Counter({
    name: "slipline_events_restored_total",
    help: "Events this instance stored again because Redis lost them (restarted empty, or a failover to a replica that lagged)",
    registers: [registry],
  });
  let sharedQueue: (() => QueueStats) | undefined;
  const sharedQueueGauge = (name: string, help: string, read: (stats: QueueStats) => number): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(sharedQueue === undefined ? 0 : read(sharedQueue()));
      },
    });
  };
  sharedQueueGauge("slipline_queue_partitions_owned", "Partitions of the shared queue this instance owns now (0 without REDIS_URL)", (s) => s.partitionsOwned);
  sharedQueueGauge(
    "slipline_queue_events_in_hand",
    "Stored events this instance has taken and not finished, running or waiting behind their chat's earlier event",
    (s) => s.inHand,
  );
  sharedQueueGauge("slipline_queue_events_kept", "Events this instance stored and has not yet seen handled, kept in memory against a loss of Redis's data", (s) => s.kept);

  const pushes = new Counter({
    name: "slipline_scheduled_pushes_total",
    help: "Opt-in pushes sent, by kind (daily_summary, low_tokens, expiry, payment_received)",
    labelNames: ["shop", "kind"] as const,
    registers: [registry],
  });
  const pushesSkipped = new Counter({
    name: "slipline_scheduled_pushes_skipped_total",
    help: "Opt-in pushes not sent, by kind and reason (quota: LINE's monthly quota used up; no_recipients)",
    labelNames: ["shop", "kind", "reason"] as const,
    registers: [registry],
  });

  // Labelled by shop: counters and gauges a shop's operator looks at. The histograms are not: 1,000 shops
  // times a dozen buckets would be more series than the figures are worth; they serve the whole deployment.
  const labelled = [events, privacyBlocked, duplicates, redeliveries, abandoned, lineCalls, slipCalls, circuit, pushes, pushesSkipped];

  return {
    registry,
    forShop(shop) {
      circuit.set({ shop }, 0);
      return {
        pipeline: {
          eventHandled(type, outcome, seconds) {
            events.inc({ shop, type, outcome });
            duration.observe(seconds);
          },
          duplicate: () => duplicates.inc({ shop }),
          redelivery: () => redeliveries.inc({ shop }),
          abandoned: () => abandoned.inc({ shop }),
        },
        slip: {
          call(operation, outcome, seconds) {
            slipCalls.inc({ shop, operation, outcome });
            slipSeconds.observe({ operation }, seconds);
          },
          circuit: (state) => circuit.set({ shop }, CIRCUIT_VALUES[state]),
        },
        line: {
          call: (endpoint, status) => lineCalls.inc({ shop, endpoint, status }),
        },
        privacy: {
          blocked: (kind, chatType) => privacyBlocked.inc({ shop, kind, chat_type: chatType }),
        },
        notifier: {
          pushed: (kind) => pushes.inc({ shop, kind }),
          skipped: (kind, reason) => pushesSkipped.inc({ shop, kind, reason }),
        },
        watchLineCheck(check) {
          lineChecks.set(shop, check);
        },
        forget() {
          lineChecks.delete(shop);
          for (const metric of labelled) void removeSeriesOf(metric, shop);
        },
      };
    },
    webhookRefused: (reason) => refused.inc({ reason }),
    watchQueue(source) {
      queue = source;
    },
    watchStoredQueue(waiting) {
      storedWaiting = waiting;
    },
    notStored: (count) => notStored.inc(count),
    watchDegraded(source) {
      degraded = source;
    },
    redisError: () => redisErrors.inc(),
    queue: {
      recovered: (count) => recovered.inc(count),
      restored: (count) => restored.inc(count),
    },
    watchSharedQueue(stats) {
      sharedQueue = stats;
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** The metric's series that carry this shop's label, whatever their other labels. */
async function removeSeriesOf(
  metric: { get(): Promise<{ values: { labels: Partial<Record<string, string | number>> }[] }>; remove(labels: Partial<Record<string, string | number>>): void },
  shop: string,
): Promise<void> {
  const { values } = await metric.get();
  for (const value of values) if (value.labels.shop === shop) metric.remove(value.labels);
}
