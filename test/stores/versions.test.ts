// The group messages' versions in Redis, against a redis-server of the test's own: first versions (nobody
// waits for their comparison) are written together, an edit's comparison sees those still waiting, and a
// Redis that is away is an error, not a wait.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisVersions } from "../../src/stores/versions.js";
import { commandStats, startTestRedis } from "../kit/redis-server.js";
import { startStoreRedis } from "../kit/store-redis.js";
import type { StoreRedis } from "../kit/store-redis.js";

let store: StoreRedis;
let connection: Redis;
let admin: Redis;

beforeAll(async () => {
  store = await startStoreRedis();
  ({ connection, admin } = store);
}, 30_000);
afterAll(() => store.stop());

const QR_150 = 'run:{"amount":15000,"id":"0812345678","kind":"qr"}';
const QR_200 = 'run:{"amount":20000,"id":"0812345678","kind":"qr"}';

/** Calls of these commands Redis ran since the last reset. */
async function calls(...names: string[]): Promise<number> {
  const stats = commandStats(await admin.info("commandstats"));
  return names.reduce((sum, name) => sum + (stats[name] ?? 0), 0);
}

/** Script calls: each is one round trip from the bot. */
const scriptCalls = (): Promise<number> => calls("eval", "evalsha");

describe("message versions in Redis", { timeout: 30_000 }, () => {
  it("writes the first versions of many shops' messages in one step, each remembered once written", async () => {
    const versions = redisVersions(connection);
    const cafe = versions.forShop("d:shop:cafe:");
    const noodles = versions.forShop("d:shop:noodles:");
    await admin.config("RESETSTAT");
    await Promise.all([...[1, 2, 3, 4, 5].map((n) => cafe.remember(`m${n}`, 1_000, QR_150)), ...[1, 2, 3].map((n) => noodles.remember(`m${n}`, 1_000, QR_200))]);
    expect(await scriptCalls()).toBe(1);
    // Each shop's under its own namespace, as a digest (not the amount asked), with a day to live.
    expect(await admin.hget("d:shop:cafe:message:m5", "ts")).toBe("1000");
    expect(await admin.hget("d:shop:noodles:message:m3", "ts")).toBe("1000");
    expect(await admin.hget("d:shop:cafe:message:m1", "fp")).not.toContain("15000");
    expect(await admin.pttl("d:shop:cafe:message:m1")).toBeGreaterThan(23 * 3_600_000);
    // Their edits compare with them.
    expect(await cafe.record("m1", 2_000, QR_150)).toBe("same");
    expect(await noodles.record("m1", 2_000, QR_150)).toBe("changed");
    expect(await cafe.record("m1", 1_500, QR_200)).toBe("older");
  });

  it("compares an edit with a first version still waiting to be written, in the same step", async () => {
    const shop = redisVersions(connection).forShop("d:shop:waiting:");
    await admin.config("RESETSTAT");
    const remembered = shop.remember("m1", 1_000, QR_150);
    // The edit comes before the first version's window has ended: it takes it along.
    expect(await shop.record("m1", 2_000, QR_150)).toBe("same");
    await remembered;
    expect(await scriptCalls()).toBe(1);
    expect(await shop.record("m1", 3_000, QR_200)).toBe("changed");
  });

  it("rejects what it could not write when Redis is away (the handler logs it and goes on), without waiting for it", async () => {
    const away = await startTestRedis({ persistence: false });
    const link = new Redis(away.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    link.on("error", () => undefined); // the refused reconnects: what the test asks is what the calls say
    try {
      const shop = redisVersions(link).forShop("d:shop:away:");
      await shop.remember("m1", 1_000, QR_150);
      const closed = new Promise<void>((resolve) => link.once("close", () => resolve()));
      await away.stop();
      await closed;
      await expect(shop.remember("m2", 1_000, QR_150)).rejects.toThrow();
      await expect(shop.record("m1", 2_000, QR_200)).rejects.toThrow();
    } finally {
      link.disconnect();
      await away.stop();
    }
  });
});
