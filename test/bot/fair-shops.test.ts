// Many shops, fairly: a shop whose events are slow (its service answers, late) and that bursts holds only
// its own share of the turns and of the waiting, so another shop's webhook is never refused and its `id`
// is answered while the busy shop's events are still held. In both layouts: in this process, and with Redis
// (the queue's workers share their slots between shops, and a shop's stored backlog is bounded by its share,
// and by half of what the queue's reader holds in hand, so the reader always reads past it to the other shop's).
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REAL_HANDLERS } from "../../src/event/handle-event.js";
import { publicAnswer } from "../../src/privacy/answer.js";
import { startBotHarness } from "../kit/bot-harness.js";
import { startTestRedis } from "../kit/redis-server.js";
import type { TestRedis } from "../kit/redis-server.js";
import { lineId, textEvent } from "../kit/webhook.js";

let redis: TestRedis | undefined;
beforeAll(async () => {
  redis = await startTestRedis({ persistence: false });
});
afterAll(async () => {
  await redis?.stop();
});

/**
 * Two shops in one deployment (4 events running, 2 a shop): the first shop's `slow` events are held until
 * `release()`, as a slow service would hold them; `started()` counts those that got a turn.
 */
async function busyAndQuietShops(options: { maxQueuedEvents: number; withRedis: boolean }) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let busyStarted = 0;
  const bot = await startBotHarness({
    maxConcurrentEvents: 4,
    maxQueuedEvents: options.maxQueuedEvents,
    moreShops: [{ id: "shop-b" }],
    ...(options.withRedis ? { redisUrl: redis?.url } : {}),
    handlers: {
      ...REAL_HANDLERS,
      handleText: async (input, ctx, deps) => {
        if (input.text !== "slow") return REAL_HANDLERS.handleText(input, ctx, deps);
        busyStarted += 1;
        await held;
        await ctx.send(publicAnswer("help", [{ type: "text", text: "done" }]));
        return { command: "help", outcome: "answered" };
      },
    },
  });
  const shopB = bot.moreShops.get("shop-b");
  if (shopB === undefined) throw new Error("shop-b did not start");
  return { bot, shopB, release: () => release(), started: () => busyStarted };
}

describe.each([
  { layout: "in-process", withRedis: false },
  { layout: "Redis", withRedis: true },
])("a busy shop and a quiet one in one deployment ($layout)", { timeout: 60_000 }, ({ withRedis }) => {
  it("the quiet shop gets no 503 and its answers do not wait behind the busy shop's held events", async () => {
    const { bot, shopB, release, started } = await busyAndQuietShops({ maxQueuedEvents: 8, withRedis });
    const idOfB = async (n: number): Promise<{ status: number; ms: number }> => {
      const user = lineId("U", 0xb00 + n);
      const expected = bot.platform.sent.length + 1;
      const started = performance.now();
      const { status } = await shopB.post([textEvent({ source: { type: "user", userId: user }, replyToken: shopB.token(user), text: "id" })]);
      await bot.platform.waitForSent(expected);
      return { status, ms: performance.now() - started };
    };
    try {
      const alone = [];
      for (let n = 0; n < 5; n++) alone.push(await idOfB(n));
      // The busy shop: 20 chats at once, each with one slow event.
      const busy = await Promise.all(
        Array.from({ length: 20 }, (_, n) => {
          const user = lineId("U", 0xa00 + n);
          return bot.post([textEvent({ source: { type: "user", userId: user }, replyToken: bot.token(user), text: "slow" })]);
        }),
      );
      const busyStatuses = busy.map((answer) => answer.status);
      const loaded = [];
      for (let n = 5; n < 10; n++) loaded.push(await idOfB(n));
      // Measured while the busy shop's events are all still held (none has been let go).
      expect(started()).toBe(2);
      expect(loaded.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      // Its share: 2 running, 8 waiting at most (in process); 8 stored and not yet handled (with Redis, where
      // a webhook still storing counts too); the rest refused, only to it.
      const accepted = busyStatuses.filter((s) => s === 200).length;
      if (withRedis) expect(accepted).toBeGreaterThanOrEqual(2);
      expect(accepted).toBeLessThanOrEqual(10);
      if (!withRedis) expect(accepted).toBe(10);
      expect(busyStatuses.filter((s) => s === 503)).toHaveLength(20 - accepted);
      const median = (rows: { ms: number }[]): number => [...rows.map((r) => r.ms)].sort((a, b) => a - b)[2] ?? 0;
      process.stdout.write(
        `shop-b id median alone ${median(alone).toFixed(1)} ms, with shop A loaded ${median(loaded).toFixed(1)} ms, ratio ${(median(loaded) / median(alone)).toFixed(2)}\n`,
      );
      release();
      await bot.drain();
      // Every accepted event of the busy shop is answered once.
      const answeredBusy = bot.platform.sent.filter((sent) => sent.messages.some((m) => m.type === "text" && m.text === "done"));
      expect(answeredBusy).toHaveLength(accepted);
      expect(new Set(answeredBusy.map((sent) => sent.chatId)).size).toBe(accepted);
    } finally {
      release();
      await bot.close();
    }
  });
});

describe("with Redis, a busy shop that would store more events than the queue's reader holds in hand", { timeout: 60_000 }, () => {
  it("is refused past half the read-ahead, and the quiet shop's event stored after its backlog is answered while the backlog is held", async () => {
    // 4 running (2 a shop), so the reader holds 16 x 4 = 64 in hand at most; the waiting bound (1,000) is far
    // above that, so without the read-ahead's bound all 100 of the busy shop's events would be stored.
    const { bot, shopB, release, started } = await busyAndQuietShops({ maxQueuedEvents: 1_000, withRedis: true });
    try {
      // One webhook at a time, so each sees what the ones before it stored.
      const busyStatuses: number[] = [];
      for (let n = 0; n < 100; n++) {
        const user = lineId("U", 0xa00 + n);
        busyStatuses.push((await bot.post([textEvent({ source: { type: "user", userId: user }, replyToken: bot.token(user), text: "slow" })])).status);
      }
      // Stored: half the read-ahead (32), the rest refused.
      expect(busyStatuses.filter((s) => s === 200)).toHaveLength(32);
      expect(busyStatuses.filter((s) => s === 503)).toHaveLength(68);
      const user = lineId("U", 0xb00);
      const expected = bot.platform.sent.length + 1;
      expect((await shopB.post([textEvent({ source: { type: "user", userId: user }, replyToken: shopB.token(user), text: "id" })])).status).toBe(200);
      const [answer] = (await bot.platform.waitForSent(expected, 10_000)).slice(-1);
      expect(answer?.chatId).toBe(user);
      // Answered while the busy shop's events are all still held: 2 running, none let go.
      expect(started()).toBe(2);
      release();
      await bot.drain();
      const answeredBusy = bot.platform.sent.filter((sent) => sent.messages.some((m) => m.type === "text" && m.text === "done"));
      expect(answeredBusy).toHaveLength(32);
    } finally {
      release();
      await bot.close();
    }
  });
});
