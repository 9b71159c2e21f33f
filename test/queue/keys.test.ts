// The queue's own keys in Redis, the queue alone on a redis-server of the test's own: every key is under
// `<prefix>:queue:`, each either expires or is a partition's stream, and once the items are handled
// nothing of their payloads is left anywhere (an entry is deleted when its item is handled).
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurableEventQueue, queueKeys } from "../../src/queue/index.js";
import { startTestRedis } from "../kit/redis-server.js";
import type { TestRedis } from "../kit/redis-server.js";

const PREFIX = "deployment-q";
const DAY_MS = 86_400_000;
const SECRET = "payload-text-that-must-not-stay";

let redis: TestRedis;
let client: Redis;
beforeAll(async () => {
  redis = await startTestRedis({ persistence: false });
  client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
}, 30_000);
afterAll(async () => {
  client.disconnect();
  await redis.stop();
});

/** Every key with its remaining life in ms (-1: none). */
async function allKeys(): Promise<Map<string, number>> {
  const keys = new Map<string, number>();
  let cursor = "0";
  do {
    const [next, batch] = await client.scan(cursor, "COUNT", 1000);
    cursor = next;
    for (const key of batch) keys.set(key, await client.pttl(key));
  } while (cursor !== "0");
  return keys;
}

describe("the queue's keys", { timeout: 60_000 }, () => {
  it("are all under the prefix, expire save the partitions' streams, and keep no payload once handled", async () => {
    const commands = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    const workers = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = createDurableEventQueue({ commands, workers, log: pino({ level: "silent" }), keyPrefix: PREFIX, claimEveryMs: 100, keepCheckMs: 200 });
    try {
      const handled: string[] = [];
      await queue.startWorkers(async (_payload, taken) => {
        handled.push(taken.id);
        return Promise.resolve();
      });
      const items = ["a", "b", "c"].map((id) => ({ id, orderingKey: `key-${id}`, payload: { text: SECRET } }));
      expect(await queue.store(items, 5_000)).toBe(true);
      const deadline = Date.now() + 20_000;
      while (handled.length < items.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(handled.sort()).toEqual(["a", "b", "c"]);
      await queue.stopWorkers(5_000);

      const keys = await allKeys();
      expect([...keys.keys()].filter((key) => !key.startsWith(`${PREFIX}:queue:`))).toEqual([]);
      const streams = /^deployment-q:queue:p:\d+$/;
      const withoutExpiry = [...keys].filter(([, ttl]) => ttl < 0).map(([key]) => key);
      expect(withoutExpiry.length).toBeGreaterThan(0);
      expect(withoutExpiry.filter((key) => !streams.test(key))).toEqual([]);
      // Each id's mark against storing it twice, a day.
      for (const { id } of items) expect(keys.get(`${PREFIX}:queue:seen:${id}`)).toBeLessThanOrEqual(DAY_MS);
      expect(Math.max(...[...keys].filter(([key]) => !streams.test(key)).map(([, ttl]) => ttl))).toBeLessThanOrEqual(DAY_MS);
      for (const key of keys.keys()) {
        if (streams.test(key)) expect(await client.xlen(key)).toBe(0);
        else if ((await client.type(key)) === "string") expect(await client.get(key)).not.toContain(SECRET);
      }
      // The leases went back with the stop.
      expect([...keys.keys()].filter((key) => key.startsWith(queueKeys(PREFIX).leasePrefix))).toEqual([]);
    } finally {
      await queue.close();
      commands.disconnect();
      workers.disconnect();
    }
  });
});
