// Scenario: Redis comes back empty mid-burst (a restart without persistence, as a hosted Redis without it,
// or a failover to a replica that lagged). Two instances share a fresh redis-server that keeps nothing on
// disk; a burst of `qr 150`, one webhook per chat, alternates between them; after `restartAfterEvents`
// webhooks the redis-server is stopped and started again, empty, `downMs` later. Reported: acknowledged
// events that got no answer (goal 0), chats that got a second answer (goal 0), and what the instances said
// they stored again.
import { setTimeout as sleep } from "node:timers/promises";
import type { Arrival } from "./line-stand-in.js";
import { startTestRedis } from "../test/kit/redis-server.js";
import { metricSum } from "./processes.js";
import { classify, control, countBy, newBotLog, planEvents, prepare, sendBurst, startBot, startSlowSandbox, type SlowServiceSetup } from "./slow-service.js";

export interface RedisLossPlan {
  events: number;
  restartAfterEvents: number;
  downMs: number;
  waitMs: number;
}

export interface RedisLossFigures {
  latencyMs: number;
  eventsPerSecond: number;
  eventsSent: number;
  acknowledged: number;
  otherStatuses: Record<string, number>;
  /** Acknowledged events with no answer at the stand-in (goal 0). */
  acknowledgedUnanswered: number;
  /** Chats that got more than one send accepted by the stand-in (goal 0). */
  answeredTwice: number;
  /** Pushes the stand-in refused with 409 (a retry key seen before) and replies it refused (a used token). */
  duplicatePushesRefused: number;
  rejectedByLine: number;
  /** What the instances counted: events stored again (slipline_events_restored_total), handled in-process while Redis was away. */
  restored: number;
  notStored: number;
  /** Answers by kind (the real QR, "service unavailable"...). */
  answers: Record<string, number>;
}

export async function benchRedisLoss(setup: SlowServiceSetup, plan: RedisLossPlan): Promise<RedisLossFigures> {
  const lineControlUrl = String(setup.line.ready.controlUrl);
  const events = planEvents(plan.events);
  const stoppers: (() => Promise<void>)[] = [];
  try {
    const redis = await startTestRedis({ persistence: false });
    stoppers.push(() => redis.stop());
    const sandbox = await startSlowSandbox(setup.latencyMs);
    stoppers.push(() => sandbox.stop());
    const staff = events.map((event) => event.userId);
    const bots = [];
    for (const name of ["A", "B"]) {
      const bot = await startBot(setup, sandbox, staff, newBotLog(), { REDIS_URL: redis.url }, `slipline ${name} (redis loss)`, "/readyz");
      stoppers.push(() => bot.stop());
      bots.push(bot);
    }
    await sleep(1_500); // the partitions shared out
    const urls = bots.map((bot) => String(bot.ready.url));
    const bodies = await prepare(setup, events);
    let restarting: Promise<void> | undefined;
    const burst = await sendBurst((index) => `${urls[index % 2] ?? ""}/webhook`, setup.channelSecret, bodies, setup.eventsPerSecond, {
      offsetMs: (plan.restartAfterEvents * 1000) / setup.eventsPerSecond,
      run: () => {
        restarting = redis.restart({ downMs: plan.downMs });
      },
    });
    await restarting;

    const sends = new Map<string, Arrival[]>();
    let duplicatePushesRefused = 0;
    let rejectedByLine = 0;
    const acknowledged = events.filter((_, index) => burst.deliveries[index]?.status === 200);
    const deadline = Date.now() + plan.waitMs;
    // Bounded by the deadline: every 200 ms until each acknowledged event has its answer, then 3 s more for second answers.
    let settledAt: number | undefined;
    while (Date.now() < deadline && (settledAt === undefined || Date.now() < settledAt + 3_000)) {
      await sleep(200);
      const drained = await control<{ arrivals: Arrival[]; rejected: number; duplicates: number }>(`${lineControlUrl}/drain`, { withMessages: true });
      rejectedByLine += drained.rejected;
      duplicatePushesRefused += drained.duplicates;
      for (const arrival of drained.arrivals) sends.set(arrival.chatId, [...(sends.get(arrival.chatId) ?? []), arrival]);
      if (settledAt === undefined && acknowledged.every((event) => sends.has(event.chatId))) settledAt = Date.now();
    }
    const [restored, notStored] = await Promise.all(
      ["slipline_events_restored_total", "slipline_events_not_stored_total"].map(async (name) =>
        (await Promise.all(urls.map((url) => metricSum(url, name)))).reduce((sum, n) => sum + n, 0),
      ),
    );
    return {
      latencyMs: setup.latencyMs,
      eventsPerSecond: setup.eventsPerSecond,
      eventsSent: burst.deliveries.length,
      acknowledged: acknowledged.length,
      otherStatuses: countBy(burst.deliveries.flatMap((d) => (d.status === 200 ? [] : [String(d.status ?? d.error)]))),
      acknowledgedUnanswered: acknowledged.filter((event) => !sends.has(event.chatId)).length,
      answeredTwice: [...sends.values()].filter((list) => list.length > 1).length,
      duplicatePushesRefused,
      rejectedByLine,
      restored: restored ?? Number.NaN,
      notStored: notStored ?? Number.NaN,
      answers: countBy([...sends.values()].flatMap((list) => (list[0] === undefined ? [] : [classify(list[0])]))),
    };
  } finally {
    for (const stop of stoppers.reverse()) await stop();
  }
}

export function redisLossLine(figures: RedisLossFigures): string {
  const counts = (record: Record<string, number>) =>
    Object.keys(record).length === 0
      ? "0"
      : Object.entries(record)
          .map(([key, n]) => `${n} ${key}`)
          .join(", ");
  return (
    `Redis back empty mid-burst (${figures.eventsSent} "qr 150" at ${figures.eventsPerSecond}/s, two instances, the service answering in ${figures.latencyMs / 1000} s): ` +
    `acknowledged ${figures.acknowledged} (other statuses ${counts(figures.otherStatuses)}), ` +
    `acknowledged without answer ${figures.acknowledgedUnanswered} (goal 0: ${figures.acknowledgedUnanswered === 0 ? "met" : "MISSED"}), ` +
    `chats answered twice ${figures.answeredTwice} (goal 0: ${figures.answeredTwice === 0 ? "met" : "MISSED"}); ` +
    `stored again ${figures.restored}, handled in-process while Redis was away ${figures.notStored}; ` +
    `second copies refused by the stand-in: ${figures.duplicatePushesRefused} pushes (409), ${figures.rejectedByLine} other; answers ${counts(figures.answers)}`
  );
}
