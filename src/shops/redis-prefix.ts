// What a deployment's Redis keys start with: REDIS_KEY_PREFIX when set; otherwise one derived from its one
// LINE channel, so two single-shop deployments sharing a Redis never mix without anyone configuring it. (A
// shops file's deployment must name its own: its set of channels changes with every reload.)
import { createHash } from "node:crypto";
import type { ShopConfig } from "./shop.js";

/** Local mode's made-up channels change at every start: its keys take a fixed name instead. */
export const LOCAL_REDIS_PREFIX = "slipline-local";

export function redisPrefixOf(config: { redisKeyPrefix: string | undefined; line: unknown }, shops: readonly ShopConfig[]): string {
  if (config.redisKeyPrefix !== undefined) return config.redisKeyPrefix;
  const [first] = shops;
  if (config.line === undefined || first === undefined) return LOCAL_REDIS_PREFIX;
  // A digest of the channel secret: the same on every instance of the deployment, nothing of the secret shown.
  return `slipline:${createHash("sha256").update(`slipline-redis-prefix:${first.line.channelSecret}`).digest("hex").slice(0, 12)}`;
}
