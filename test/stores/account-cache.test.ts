// The account info in Redis, against a redis-server of the test's own: asked of Redis once per value.
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisAccountCache } from "../../src/stores/account-cache.js";
import { commandStats } from "../kit/redis-server.js";
import { startStoreRedis } from "../kit/store-redis.js";
import type { StoreRedis } from "../kit/store-redis.js";
import { ACCOUNT } from "../slip/fixtures.js";

let store: StoreRedis;
let connection: Redis;
let admin: Redis;

beforeAll(async () => {
  store = await startStoreRedis();
  ({ connection, admin } = store);
}, 30_000);
afterAll(() => store.stop());

/** Calls of these commands Redis ran since the last reset. */
async function calls(...names: string[]): Promise<number> {
  const stats = commandStats(await admin.info("commandstats"));
  return names.reduce((sum, name) => sum + (stats[name] ?? 0), 0);
}

describe("the account info in Redis", { timeout: 30_000 }, () => {
  it("is asked of Redis once per value by each instance, and never kept longer than Redis keeps it", async () => {
    let clockB = 1_000_000;
    const instanceA = redisAccountCache(connection, "d:shop:cafe:");
    const instanceB = redisAccountCache(connection, "d:shop:cafe:", () => clockB);
    await admin.config("RESETSTAT");
    await instanceA.set(ACCOUNT, 30_000);
    // Another instance's balances: the first reads Redis, the next ones what it read.
    for (let i = 0; i < 5; i++) expect(await instanceB.get()).toEqual(ACCOUNT);
    expect(await calls("get")).toBe(1);
    // Once Redis's copy would have run out, it is asked again ...
    clockB += 30_001;
    expect(await instanceB.get()).toEqual(ACCOUNT);
    expect(await calls("get")).toBe(2);
    // ... and gone there, gone here.
    await admin.del("d:shop:cafe:account-info");
    clockB += 30_001;
    expect(await instanceB.get()).toBeUndefined();
  });
});
