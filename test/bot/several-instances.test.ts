// Several bot processes sharing one Redis (a redis-server of the test's own, on a free port), black box:
// a burst split between two instances with one of them SIGKILLed, the same event sent to both, Redis
// restarted mid-burst, a redelivery after a restart, one chat's events across instances, shared notes.
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { PARTITIONS, partitionOf, queueKeys } from "../../src/queue/index.js";
import { killLeftovers } from "../kit/entry-process.js";
import { readMetrics } from "../kit/metrics.js";
import { answersByChat, burst, CHANNEL_SECRET, qrWebhook, sendSigned, startBot, startWorld, waitUntil, whenReady } from "../kit/loopback-world.js";
import type { BotProcess, World } from "../kit/loopback-world.js";
import { freePort } from "../kit/free-port.js";
import { startTestRedis } from "../kit/redis-server.js";
import type { TestRedis } from "../kit/redis-server.js";
import { lineId, newEventId, textEvent, webhookBody } from "../kit/webhook.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(latencyMs: number): Promise<{ world: World; redis: TestRedis }> {
  const redis = await startTestRedis();
  cleanups.push(() => redis.stop());
  const world = await startWorld(latencyMs);
  cleanups.push(() => world.close());
  return { world, redis };
}

async function instance(world: World, redis: TestRedis, env: Record<string, string> = {}): Promise<BotProcess> {
  const bot = await startBot(world, { REDIS_URL: redis.url, ...env });
  await whenReady(bot);
  return bot;
}

/** The deployment's queue prefix, as the bot derives it from its channel. */
const QUEUE_PREFIX = `slipline:${createHash("sha256").update(`slipline-redis-prefix:${CHANNEL_SECRET}`).digest("hex").slice(0, 12)}`;

/**
 * Nothing is left that could answer: every stored event handled and acknowledged (the queue's streams are
 * empty), nothing in the instances' hands, nothing kept to be stored again, nothing handled or waiting in
 * the process (events Redis did not take in time). A second answer would have come before this, so the
 * checks after it need no waiting room. Fails when it does not come within 30 s.
 */
async function settled(redis: TestRedis, bots: readonly BotProcess[]): Promise<void> {
  const client = new Redis(redis.url);
  const left = async (): Promise<{ entries: number; busy: string[] }> => {
    const lengths = await Promise.all(Array.from({ length: PARTITIONS }, (_, p) => client.xlen(queueKeys(QUEUE_PREFIX).stream(p))));
    const metrics = await Promise.all(bots.map((bot) => readMetrics(bot.url)));
    const busy = metrics.flatMap((text) => IDLE_WHEN_SETTLED.filter((name) => !new RegExp(`^${name} 0$`, "m").test(text)));
    return { entries: lengths.reduce((sum, length) => sum + length, 0), busy };
  };
  try {
    expect(await until(left, ({ entries, busy }) => entries === 0 && busy.length === 0, 30_000)).toEqual({ entries: 0, busy: [] });
  } finally {
    client.disconnect();
  }
}

/** The gauges that read 0 on an instance with nothing left to answer. */
const IDLE_WHEN_SETTLED = ["slipline_queue_events_in_hand", "slipline_queue_events_kept", "slipline_events_in_flight", "slipline_event_queue_depth"];

describe("several instances on one Redis", { timeout: 180_000 }, () => {
  it("SIGKILL one of two mid-burst: every acknowledged event is answered, none twice, the dead one's within 30 s", async () => {
    const { world, redis } = await setup(2_000);
    const a = await instance(world, redis);
    const b = await instance(world, redis);
    let killedAt = 0;
    const sent = await burst(world, {
      count: 300,
      perSecond: 100,
      firstChat: 0x10000,
      // Alternate; once A is dead, everything goes to B, as a load balancer would do.
      target: (n) => (n % 2 === 0 && killedAt === 0 ? a.webhookUrl : b.webhookUrl),
      onSent: (n) => {
        if (n === 150) {
          a.process.child.kill("SIGKILL");
          killedAt = Date.now();
        }
      },
    });
    const acked = sent.filter((s) => s.status === 200);
    expect(acked.length).toBeGreaterThanOrEqual(290);
    await waitUntil(() => acked.every((s) => answersByChat(world.platform).has(s.chatId)), 90_000);
    const answers = answersByChat(world.platform);
    const unanswered = acked.filter((s) => !answers.has(s.chatId));
    const doubled = [...answers].filter(([, list]) => list.length > 1);
    expect(unanswered).toEqual([]);
    expect(doubled).toEqual([]);
    for (const s of acked) expect(answers.get(s.chatId)).toEqual(["qr-card+image"]);
    // What A had in hand when it died, B found (its log names the events) and answered within 30 s of the kill.
    const recovered = [...b.process.output().matchAll(/"itemId":"([0-9A-Z]+)"[^\n]*taken up again/g)].map((m) => m[1]);
    expect(recovered.length).toBeGreaterThan(0);
    for (const eventId of recovered) {
      const chatId = sent.find((s) => s.eventId === eventId)?.chatId;
      const answeredAt = world.platform.sent.find((s) => s.chatId === chatId)?.at ?? Number.POSITIVE_INFINITY;
      expect(answeredAt - killedAt, eventId).toBeLessThan(30_000);
    }
    const metrics = await readMetrics(b.url);
    expect(metrics).toMatch(new RegExp(`^slipline_events_recovered_total ${recovered.length}$`, "m"));
  });

  it("the same event sent to both instances is answered once", async () => {
    const { world, redis } = await setup(200);
    const a = await instance(world, redis);
    const b = await instance(world, redis);
    const eventId = newEventId();
    const { chatId, body } = qrWebhook(world, 0x20000, "qr 150", eventId);
    const statuses = await Promise.all([sendSigned(a.webhookUrl, body), sendSigned(b.webhookUrl, body)]);
    expect(statuses).toEqual([200, 200]);
    await waitUntil(() => world.platform.sent.some((s) => s.chatId === chatId), 10_000);
    await settled(redis, [a, b]);
    expect(answersByChat(world.platform).get(chatId)).toEqual(["qr-card+image"]);
  });

  it("a redelivery after a restart is answered once", async () => {
    const { world, redis } = await setup(0);
    const first = await instance(world, redis);
    const eventId = newEventId();
    const { chatId, body } = qrWebhook(world, 0x30000, "qr 150", eventId);
    expect(await sendSigned(first.webhookUrl, body)).toBe(200);
    await waitUntil(() => world.platform.sent.some((s) => s.chatId === chatId), 10_000);
    expect(await first.process.stop(30_000)).toBe(0);

    // A restart (the data survives: append-only file). The queue keeps no event once it is answered (its
    // stream entry is deleted): only the ledger of answered events still knows it.
    await redis.restart();
    // The queue as the bot names it: the deployment's prefix (derived from its channel), the shop's chat.
    const client = new Redis(redis.url);
    const key = queueKeys(QUEUE_PREFIX).stream(partitionOf(`default/${chatId}`, PARTITIONS));
    // The right stream: the bot made it (its consumer group is there), and it holds nothing of the answered event.
    expect(await client.xinfo("GROUPS", key)).toHaveLength(1);
    const stream = await client.xrange(key, "-", "+");
    client.disconnect();
    expect(JSON.stringify(stream)).not.toContain(eventId);
    const second = await instance(world, redis);
    const redelivered = body.replace('"isRedelivery":false', '"isRedelivery":true');
    expect(redelivered).toContain('"isRedelivery":true');
    expect(await sendSigned(second.webhookUrl, redelivered)).toBe(200);
    await settled(redis, [second]);
    expect(answersByChat(world.platform).get(chatId)).toEqual(["qr-card+image"]);
    const metrics = await readMetrics(second.url);
    expect(metrics).toMatch(/^slipline_duplicate_events_total\{shop="default"\} 1$/m);
  });

  /**
   * Two instances, a burst of 200 split between them, Redis restarted (down 0.5 s) after 60: every webhook
   * is acknowledged, every event answered, none twice (once nothing is left that could answer).
   */
  async function burstThroughRestart(world: World, redis: TestRedis, firstChat: number): Promise<string> {
    const a = await instance(world, redis);
    const b = await instance(world, redis);
    let restarting: Promise<void> | undefined;
    const sent = await burst(world, {
      count: 200,
      perSecond: 100,
      firstChat,
      target: (n) => (n % 2 === 0 ? a.webhookUrl : b.webhookUrl),
      onSent: (n) => {
        if (n === 60) restarting = redis.restart({ downMs: 500 });
      },
    });
    await restarting;
    const acked = sent.filter((s) => s.status === 200);
    expect(acked.length).toBe(sent.length);
    await waitUntil(() => acked.every((s) => answersByChat(world.platform).has(s.chatId)), 90_000);
    await settled(redis, [a, b]);
    const answers = answersByChat(world.platform);
    expect(acked.filter((s) => !answers.has(s.chatId))).toEqual([]);
    const twice = [...answers].filter(([, list]) => list.length > 1);
    expect(twice).toEqual([]);
    await whenReady(a);
    await whenReady(b);
    return a.process.output() + b.process.output();
  }

  it("Redis restarted mid-burst, its data kept: every acknowledged event is answered, none twice", async () => {
    const { world, redis } = await setup(300);
    const output = await burstThroughRestart(world, redis, 0x40000);
    // While Redis was away, events were handled where they arrived, and said so.
    expect(output).toMatch(/events not stored in redis; handling them in this process/);
  });

  it("Redis back empty mid-burst (no persistence): every acknowledged event is answered, none twice", async () => {
    const redis = await startTestRedis({ persistence: false });
    cleanups.push(() => redis.stop());
    const world = await startWorld(300);
    cleanups.push(() => world.close());
    const output = await burstThroughRestart(world, redis, 0x48000);
    // The instances noticed and stored again what they still kept.
    expect(output).toMatch(/redis lost stored items: stored again what this instance still kept/);
  });

  it("one chat's events are handled one at a time and in order, though they reach different instances", async () => {
    const { world, redis } = await setup(1_000);
    const a = await instance(world, redis);
    const b = await instance(world, redis);
    const chatId = lineId("U", 0x50000);
    const webhook = (text: string) => webhookBody([textEvent({ source: { type: "user", userId: chatId }, replyToken: world.platform.issueReplyToken(chatId), text })]);
    expect(await sendSigned(a.webhookUrl, webhook("qr 1"))).toBe(200);
    expect(await sendSigned(b.webhookUrl, webhook("qr 2"))).toBe(200);
    expect(await sendSigned(a.webhookUrl, webhook("qr 3"))).toBe(200);
    await waitUntil(() => world.platform.sent.filter((s) => s.chatId === chatId).length === 3, 30_000);
    const sends = world.platform.sent.filter((s) => s.chatId === chatId);
    const amounts = sends.map((s) => JSON.stringify(s.messages).match(/฿(\d)\.00/)?.[1]);
    expect(amounts).toEqual(["1", "2", "3"]);
    // Not side by side: each waited for the one before it (the service takes 1 s each).
    expect((sends[2]?.at ?? 0) - (sends[0]?.at ?? 0)).toBeGreaterThanOrEqual(1_800);
  });

  it("shares the customer note's 12-hour rule between instances", async () => {
    const { world, redis } = await setup(0);
    const a = await instance(world, redis);
    const b = await instance(world, redis);
    const customer = lineId("U", 0x60000);
    const say = (url: string, text: string) =>
      sendSigned(url, webhookBody([textEvent({ source: { type: "user", userId: customer }, replyToken: world.platform.issueReplyToken(customer), text })]));
    expect(await say(a.webhookUrl, "โอนแล้วค่ะ")).toBe(200);
    await waitUntil(() => world.platform.sent.some((s) => s.chatId === customer), 10_000);
    expect(await say(b.webhookUrl, "ส่งวันไหนคะ")).toBe(200);
    await settled(redis, [a, b]);
    expect(world.platform.sent.filter((s) => s.chatId === customer)).toHaveLength(1);
  });

  it("runs as web only and worker only (the Procfile's two lines): the web instance stores, the worker answers", async () => {
    const { world, redis } = await setup(0);
    const worker = await instance(world, redis, { INSTANCE_ROLE: "worker" });
    const web = await instance(world, redis, { INSTANCE_ROLE: "web" });
    const { chatId, body } = qrWebhook(world, 0x70000);
    expect(await sendSigned(web.webhookUrl, body)).toBe(200);
    await waitUntil(() => world.platform.sent.some((s) => s.chatId === chatId), 10_000);
    expect(answersByChat(world.platform).get(chatId)).toEqual(["qr-card+image"]);
    // A worker-only instance takes no webhooks.
    expect(await sendSigned(worker.webhookUrl, qrWebhook(world, 0x70001).body)).toBe(503);
    expect(web.process.output()).not.toMatch(/event queue workers started/);
    // A web instance is ready before Redis has answered; that start is not reported as degraded.
    expect(web.process.output()).not.toMatch(/degraded/);
    expect(worker.process.output()).toMatch(/event queue workers started/);
  });

  it("while Redis is unreachable serves degraded (readyz 200 says so, the gauge is 1, one log line each way); a worker-only instance is not ready", async () => {
    const { world, redis } = await setup(0);
    const bot = await instance(world, redis);
    const worker = await instance(world, redis, { INSTANCE_ROLE: "worker" });
    expect(await readyz(bot)).toEqual({ status: 200, body: { status: "ready" } });
    expect(await gauge(bot, "slipline_degraded")).toBe(0);
    // Down until every step below has seen what it looks at (each waits for that, not for the clock).
    let comeBack: () => void = () => undefined;
    const down = redis.restart({ until: new Promise<void>((resolve) => (comeBack = resolve)) });
    try {
      const degraded = await until(
        () => readyz(bot),
        (r) => r.body.status === "degraded",
        20_000,
      );
      expect(degraded).toEqual({ status: 200, body: { status: "degraded", redis: "unreachable" } });
      expect(await gauge(bot, "slipline_degraded")).toBe(1);
      expect(await readyz(worker)).toEqual({ status: 503, body: { status: "redis_unreachable" } });
      // What "can serve" means: a webhook now is answered, handled in this process.
      const { chatId, body } = qrWebhook(world, 0x80000);
      expect(await sendSigned(bot.webhookUrl, body)).toBe(200);
      await waitUntil(() => world.platform.sent.some((s) => s.chatId === chatId), 10_000);
      expect(answersByChat(world.platform).get(chatId)).toEqual(["qr-card+image"]);
      // Its failed attempts to reach Redis are counted while Redis is away (the count the end checks).
      const counted = await until(
        () => readMetrics(bot.url),
        (text) => /^slipline_redis_errors_total [1-9]/m.test(text),
        20_000,
      );
      expect(counted).toMatch(/^slipline_redis_errors_total [1-9]/m);
      // Still away when all that was seen: the instance served it degraded, not after Redis came back.
      expect(await readyz(bot)).toEqual({ status: 200, body: { status: "degraded", redis: "unreachable" } });
    } finally {
      comeBack();
      await down;
    }
    expect(
      await until(
        () => readyz(bot),
        (r) => r.body.status === "ready",
        30_000,
      ),
    ).toEqual({ status: 200, body: { status: "ready" } });
    await whenReady(worker);
    expect(await gauge(bot, "slipline_degraded")).toBe(0);
    const log = bot.process.output();
    expect(log.match(/"msg":"degraded: redis unreachable/g)).toHaveLength(1);
    expect(log.match(/"msg":"no longer degraded/g)).toHaveLength(1);
    expect(log.indexOf("no longer degraded")).toBeGreaterThan(log.indexOf("degraded: redis unreachable"));
    const metrics = await readMetrics(bot.url);
    expect(metrics).toMatch(/^slipline_redis_errors_total [1-9]/m);
  });
});

describe("a web instance that starts while Redis is away", { timeout: 60_000 }, () => {
  it("is ready and degraded, says so once, and answers webhooks in-process", async () => {
    const world = await startWorld(0);
    cleanups.push(() => world.close());
    // Nothing listens there: Redis is away from the start.
    const bot = await startBot(world, { REDIS_URL: `redis://127.0.0.1:${await freePort()}`, INSTANCE_ROLE: "web" });
    await bot.process.waitFor(/"msg":"degraded: redis unreachable/);
    expect(await readyz(bot)).toEqual({ status: 200, body: { status: "degraded", redis: "unreachable" } });
    expect(await gauge(bot, "slipline_degraded")).toBe(1);
    const { chatId, body } = qrWebhook(world, 0x90000);
    expect(await sendSigned(bot.webhookUrl, body)).toBe(200);
    await waitUntil(() => world.platform.sent.some((s) => s.chatId === chatId), 10_000);
    expect(answersByChat(world.platform).get(chatId)).toEqual(["qr-card+image"]);
    expect(bot.process.output().match(/"msg":"degraded: redis unreachable/g)).toHaveLength(1);
  });
});

async function readyz(bot: BotProcess): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${bot.url}/readyz`);
  // What the start-up check of the LINE channel found is not this test's subject.
  const { line: _line, lineWarnings: _warnings, ...body } = (await answer.json()) as Record<string, unknown>;
  return { status: answer.status, body };
}

async function gauge(bot: BotProcess, name: string): Promise<number> {
  const text = await readMetrics(bot.url);
  return Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
}

/** Asks again every 50 ms until `done` holds; the last answer either way. */
async function until<T>(ask: () => Promise<T>, done: (answer: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let answer = await ask();
  while (!done(answer) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer = await ask();
  }
  return answer;
}
