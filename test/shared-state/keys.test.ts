// Every Redis key the bot writes expires, and an event's data is kept no longer than its handling: a
// redis-server of the test's own gets one of everything (events stored and answered, the ledger, the
// delivery journal, a customer note, the account cache, the pushes' marks and a payment watch), then
// every key is read back with its expiry.
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSharedState } from "../../src/shared-state/open.js";
import type { SharedState } from "../../src/shared-state/open.js";
import { storedEventOf, storedItemOf } from "../../src/intake/stored-items.js";
import { startTestRedis } from "../kit/redis-server.js";
import type { TestRedis } from "../kit/redis-server.js";
import { lineId, newEventId, textEvent } from "../kit/webhook.js";

let redis: TestRedis;
let shared: SharedState;
let client: Redis;
const DAY_MS = 86_400_000;
const CUSTOMER = lineId("U", 0x7e1);
const TEXT = "qr 150 โอนแล้วนะคะ คุณสมศรี";
/** A deployment's prefix, and one shop's namespace under it (as a shops file's deployment has). */
const PREFIX = "agency-a";
const SHOP = `${PREFIX}:shop:cafe:`;

beforeAll(async () => {
  redis = await startTestRedis();
  shared = openSharedState(redis.url, pino({ level: "silent" }), { redisError: () => undefined }, { prefix: PREFIX, onceKey: (item) => `${SHOP}answered:${item.id}` });
  client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
}, 30_000);
afterAll(async () => {
  client.disconnect();
  await shared.queue.close();
  await shared.redis.close();
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

/** Whatever a key holds, as text, to look for an event's data in it. */
async function contentOf(key: string): Promise<string> {
  switch (await client.type(key)) {
    case "string":
      return (await client.get(key)) ?? "";
    case "hash":
      return JSON.stringify(await client.hgetall(key));
    case "list":
      return JSON.stringify(await client.lrange(key, 0, -1));
    case "set":
      return JSON.stringify(await client.smembers(key));
    case "zset":
      return JSON.stringify(await client.zrange(key, 0, -1));
    case "stream":
      return JSON.stringify(await client.xrange(key, "-", "+"));
    default:
      return "";
  }
}

describe("keys in Redis", { timeout: 60_000 }, () => {
  it("all expire, except the queue's own bookkeeping, which holds no event's data once it is answered", async () => {
    const handled: string[] = [];
    await shared.queue.startWorkers(async (payload) => {
      const stored = storedEventOf(payload);
      handled.push(`${stored?.shop ?? "?"}/${(stored?.event as { webhookEventId: string }).webhookEventId}`);
      return Promise.resolve();
    });
    const events = [0, 1, 2].map(() => textEvent({ source: { type: "user", userId: CUSTOMER }, replyToken: "r", text: TEXT, eventId: newEventId() }));
    expect(
      await shared.queue.store(
        events.map((event) => storedItemOf("cafe", event)),
        5_000,
      ),
    ).toBe(true);
    const deadline = Date.now() + 20_000;
    while (handled.length < events.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handled.sort()).toEqual(events.map((e) => `cafe/${e.webhookEventId}`).sort());
    await shared.queue.stopWorkers(5_000);

    const eventId = events[0]?.webhookEventId ?? "";
    const shop = shared.forShop(SHOP);
    await shop.ledger.settle(eventId);
    await shop.journal.write(eventId, 0, "done");
    expect(await shop.quietNotes.claim(CUSTOMER, Date.now())).toBe(true);
    await shop.accountCache.set(
      { storeName: "ร้านกาแฟดีใจ", packageName: "Pro", tokens: 1, credits: 0, rate: { chat: 1, api: 1 }, estimatedSlips: { chat: 1, api: 1 }, expiresAt: "2027-01-01T00:00:00.000Z" },
      30_000,
    );
    // An edited message's versions: the same rule as in memory, in one step.
    expect(await shop.versions.record("325708", 1_000, 'run:{"kind":"qr","amount":15000}')).toBe("first");
    expect(await shop.versions.record("325708", 3_000, "none")).toBe("changed");
    expect(await shop.versions.record("325708", 2_000, 'run:{"kind":"qr","amount":99900}')).toBe("older");
    expect(await shop.versions.record("325708", 4_000, 'run:{"kind":"qr","amount":15000}')).toBe("same");
    // The staff app's export link, used once across instances, remembered no longer than it was good.
    expect(await shop.onceMarks.take("export-link:n0nce", 10 * 60_000)).toBe(true);
    expect(await shop.onceMarks.take("export-link:n0nce", 10 * 60_000)).toBe(false);
    const schedules = shop.scheduleStore;
    expect(await schedules.once("daily-summary:2026-11-24", 2 * DAY_MS)).toBe(true);
    const now = Date.now();
    await schedules.addWatch({ id: "w1", chatId: CUSTOMER, amountSatang: 15_000, afterMs: now, untilMs: now + 30 * 60_000, lang: "th" });

    const keys = await allKeys();
    const withoutExpiry = [...keys].filter(([, ttl]) => ttl < 0).map(([key]) => key);
    // The queue's partitions (one Redis stream each, with its consumer group): named, and holding no event
    // once it is answered (an entry is deleted when its event is handled).
    const bookkeeping = /^agency-a:queue:p:\d+$/;
    expect(withoutExpiry.length).toBeGreaterThan(0);
    // Every key is the deployment's; the shop's own are under its namespace, the queue's under the prefix.
    expect([...keys.keys()].filter((key) => !key.startsWith(`${PREFIX}:`))).toEqual([]);
    expect([...keys.keys()].filter((key) => !key.startsWith(`${PREFIX}:queue:`) && !key.startsWith(SHOP))).toEqual([]);
    expect(withoutExpiry.filter((key) => !bookkeeping.test(key))).toEqual([]);
    for (const key of withoutExpiry) expect(await contentOf(key)).not.toMatch(/คุณสมศรี|qr 150/);
    for (const key of keys.keys()) {
      if (bookkeeping.test(key)) continue;
      // Nothing of an answered event's text stays anywhere.
      expect(await contentOf(key)).not.toContain("คุณสมศรี");
    }
    // What lives longest: the ledger and the journal, a day (LINE redelivers for about 20 minutes).
    const longest = Math.max(...[...keys].filter(([key]) => !bookkeeping.test(key)).map(([, ttl]) => ttl));
    expect(longest).toBeLessThanOrEqual(2 * DAY_MS);
    expect(keys.get(`${SHOP}once:export-link:n0nce`)).toBeLessThanOrEqual(10 * 60_000);
    expect(keys.get(`${SHOP}schedule:watches`)).toBeGreaterThan(30 * 60_000);
    expect(keys.get(`${SHOP}schedule:watches`)).toBeLessThanOrEqual(30 * 60_000 + 3_600_000);
  });
});
