// The settings of the process, whichever shops it serves: where it listens, LINE's hosts, Redis and the
// instance's role, logs, /metrics, shutdown and queue bounds, and the embedded sandbox.
import { z } from "zod";
import * as field from "./fields.js";

export const processSettingsSchema = z.object({
  port: field.port.default(3000),
  lineApiBaseUrl: field.baseUrl.default("https://api.line.me"),
  /** LINE's data host (rich menu images). */
  lineDataApiBaseUrl: field.baseUrl.default("https://api-data.line.me"),
  /** Absent: one process, in memory. */
  redisUrl: field.redisUrl.optional(),
  role: field.instanceRole.default("both"),
  logLevel: field.logLevel.default("info"),
  metricsToken: field.metricsToken.optional(),
  /** A listener of its own for /metrics, on 127.0.0.1 only, without a token. */
  metricsPort: field.port.optional(),
  /** Drain (listener open, /readyz 503) then grace (events finish): 5 + 20 = 25 s, under the 30 s most platforms give. */
  shutdownGraceSeconds: field.shutdownGraceSeconds.default(20),
  shutdownDrainSeconds: field.shutdownDrainSeconds.default(5),
  /** 5 s keeps idle connections cheap; behind a load balancer, above its idle timeout. */
  httpKeepAliveSeconds: field.httpKeepAliveSeconds.default(5),
  maxQueuedEvents: field.maxQueuedEvents.default(1_000),
  maxRunningEvents: field.maxRunningEvents.default(field.DEFAULT_MAX_RUNNING_EVENTS),
  /** The demo sandbox beside a real LINE channel, for a test channel only. */
  sandboxWithLine: field.onOff.default(false),
  sandboxDbPath: z.string().default("data/sandbox.db"),
  sandboxPublicUrl: field.publicUrl.optional(),
  /** This deployment's public address: what LINE's webhook URL should start with. */
  publicUrl: field.publicUrl.optional(),
  /** Many shops in one deployment: the JSON file that lists them. */
  shopsFile: z.string().min(1).optional(),
  /** A PEM file of the CA certificates a rediss:// provider's certificate chains to (read at start-up). */
  redisTlsCa: z.string().min(1).optional(),
  /** What every Redis key of this deployment starts with, so several deployments can share one Redis. */
  redisKeyPrefix: field.redisKeyPrefix.optional(),
});

export type ProcessSettings = z.output<typeof processSettingsSchema>;
