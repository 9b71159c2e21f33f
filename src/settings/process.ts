// The settings of the process, whichever shops it serves: where it listens, LINE's hosts, Redis and the
// instance's role, logs, /metrics, shutdown and queue bounds, and the embedded sandbox. Each says what it
// means and gives an example (`.meta`): docs/configuration.md is written from them (npm run docs:config).
import { z } from "zod";
import * as field from "./fields.js";

export const processSettingsSchema = z.object({
  port: field.port.default(3000).meta({
    description: "The bot's HTTP port: the webhooks, `/healthz`, `/readyz`, `/metrics`, the staff app and, in local mode, the chat console. 0 takes a free port.",
    examples: [8080],
  }),
  lineApiBaseUrl: field.baseUrl
    .default("https://api.line.me")
    .meta({ description: "Where the LINE Messaging API is (tests point it at a stand-in).", examples: ["https://api.line.me"] }),
  lineDataApiBaseUrl: field.baseUrl
    .default("https://api-data.line.me")
    .meta({ description: "Where LINE's data API is (rich menu images).", examples: ["https://api-data.line.me"] }),
  redisUrl: field.redisUrl.optional().meta({
    description:
      "Shared, durable state for several instances (Redis 5.0 or later; set `maxmemory-policy noeviction` and `appendonly yes`, which the bot checks at start). Unset: one process, state in memory. Secret: never logged.",
    examples: ["redis://:password@10.0.0.5:6379/0"],
  }),
  role: field.instanceRole.default("both").meta({
    description: "With `REDIS_URL`: `both` (take webhooks and work the event queue), `web` (webhooks only) or `worker` (the queue only).",
    examples: ["worker"],
  }),
  logLevel: field.logLevel.default("info").meta({ description: "The log's level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.", examples: ["debug"] }),
  metricsToken: field.metricsToken.optional().meta({
    description:
      "`GET /metrics` on the bot's port wants `Authorization: Bearer <token>` (16 visible characters or more). Unset: in LINE mode `/metrics` answers 403 there (local mode keeps it open); use `METRICS_PORT` instead. Secret: never logged.",
    examples: ["3f9c2b7e5a1d4c8f9e0b"],
  }),
  metricsPort: field.port.optional().meta({
    description:
      "A listener of its own for `/metrics` alone, on 127.0.0.1 only, without a token (for a Prometheus on the same host). Must differ from `PORT`; 0 takes a free port.",
    examples: [9464],
  }),
  shutdownGraceSeconds: field.shutdownGraceSeconds.default(20).meta({
    description:
      "On SIGTERM, after the drain: how long the accepted events may take to finish (1 to 3600). Drain + grace + 3 s must fit the platform's kill timeout (Heroku allows 30 s).",
    examples: [20],
  }),
  shutdownDrainSeconds: field.shutdownDrainSeconds.default(5).meta({
    description: "On SIGTERM: how long `/readyz` answers 503 while the port stays open and webhooks are still handled, before the listener closes (0 to 600; 0 closes at once).",
    examples: [10],
  }),
  httpKeepAliveSeconds: field.httpKeepAliveSeconds.default(5).meta({
    description: "How long an idle kept-alive connection stays open (1 to 600). Behind a load balancer, set it above the balancer's idle timeout (65 behind a 60 s one).",
    examples: [65],
  }),
  maxQueuedEvents: field.maxQueuedEvents
    .default(1_000)
    .meta({ description: "Events that may wait for a turn (1 to 1,000,000); past it the webhook answers 503 and LINE redelivers.", examples: [5000] }),
  maxRunningEvents: field.maxRunningEvents.default(field.DEFAULT_MAX_RUNNING_EVENTS).meta({
    description: "Events one instance handles at once (1 to 256), from its webhooks or the shared queue; also each shop's connections to its slip service.",
    examples: [32],
  }),
  sandboxWithLine: field.onOff.default(false).meta({
    description:
      "`1`: use the embedded demo sandbox even with a LINE channel, to try the bot on a test channel (a warning at every start; never for a real shop; not with `SLIP_API_BASE_URL`).",
    examples: ["1"],
  }),
  sandboxDbPath: z
    .string()
    .default("data/sandbox.db")
    .meta({ description: "The embedded sandbox's SQLite file (`:memory:` allowed). Local mode only.", examples: [":memory:"] }),
  sandboxPublicUrl: field.publicUrl.optional().meta({
    description: "The base of the embedded sandbox's QR image links (`https`, or `http` on this machine). Unset: its listening address.",
    examples: ["https://sandbox.example.com"],
  }),
  publicUrl: field.publicUrl.optional().meta({
    description:
      "This deployment's public `https` address. At start-up the bot checks that LINE's webhook URL is `PUBLIC_URL/webhook`, and the chat's `export` links are made on it. Unset: not checked, and `export` says to set it (local mode uses the console's own address).",
    examples: ["https://bot.example.com"],
  }),
  shopsFile: z
    .string()
    .min(1)
    .optional()
    .meta({
      description: "A JSON file listing many shops, each on `/webhook/<id>` (the shops file's fields below). Then no shop's own variable may be set.",
      examples: ["/etc/slipline/shops.json"],
    }),
  redisTlsCa: z
    .string()
    .min(1)
    .optional()
    .meta({
      description:
        "A PEM file of the CA a `rediss://` provider's certificate chains to. Unreadable, or beside a plain `redis://` URL, it stops the start. Unset: Node.js's trusted authorities.",
      examples: ["/etc/ssl/redis-ca.pem"],
    }),
  redisKeyPrefix: field.redisKeyPrefix.optional().meta({
    description:
      "What every Redis key of this deployment starts with, so several deployments share one Redis (1 to 64 of letters, digits and `-_.:`). Required with `SHOPS_FILE` and `REDIS_URL`; with one shop, derived from its channel secret when unset.",
    examples: ["agency-a"],
  }),
});

export type ProcessSettings = z.output<typeof processSettingsSchema>;
