// Scenario: what a second instance adds. A burst of `qr 150`, one webhook per chat, open-loop at
// `eventsPerSecond`, against a slow slip service (each operation answers `latencyMs` late), sent to
//  - one instance without Redis, then
//  - two instances sharing a fresh redis-server, the webhooks alternating between them,
// each with a fresh slow sandbox. How long the answers take (p95, and the last one, from the first webhook)
// says how much work the layout holds at once: with a slow service, capacity is events in hand.
import { setTimeout as sleep } from "node:timers/promises";
import type { Arrival } from "./line-stand-in.js";
import { startTestRedis } from "../test/kit/redis-server.js";
import { metricSum } from "./processes.js";
import { quantile } from "./stats.js";
import { control, newBotLog, planEvents, prepare, round, sendBurst, startBot, startSlowSandbox, type SlowServiceSetup } from "./slow-service.js";

export interface CapacityPlan {
  events: number;
  /** Wait at most this long for the answers after the last webhook. */
  waitMs: number;
  /** Extra environment for every bot (MAX_RUNNING_EVENTS, to compare bounds). */
  env?: Record<string, string>;
  /** Node arguments for the two Redis instances (default the build): another build to compare with. */
  pairBotArgs?: string[];
}

export interface CapacityLayout {
  instances: number;
  acknowledged: number;
  answered: number;
  /** From each webhook to its first answer, ms. */
  answerP50Ms: number;
  answerP95Ms: number;
  /** From the first webhook to the last answer, ms. */
  lastAnswerMs: number;
  /** Events each instance handled (its slipline_events_total over the burst). */
  handledPerInstance: number[];
  answeredTwice: number;
}

export interface CapacityFigures {
  latencyMs: number;
  eventsPerSecond: number;
  events: number;
  env: Record<string, string>;
  one: CapacityLayout;
  two: CapacityLayout;
  /** Two instances' figure over one instance's: below 1 means the second instance added capacity. */
  p95Ratio: number;
  lastRatio: number;
}

const now = () => performance.timeOrigin + performance.now();

async function runLayout(setup: SlowServiceSetup, plan: CapacityPlan, instances: 1 | 2): Promise<CapacityLayout> {
  const lineControlUrl = String(setup.line.ready.controlUrl);
  const events = planEvents(plan.events);
  const staff = events.map((event) => event.userId);
  const stoppers: (() => Promise<void>)[] = [];
  try {
    const sandbox = await startSlowSandbox(setup.latencyMs);
    stoppers.push(() => sandbox.stop());
    let env = { ...plan.env };
    const pairSetup = instances === 2 && plan.pairBotArgs !== undefined ? { ...setup, botArgs: plan.pairBotArgs } : setup;
    if (instances === 2) {
      const redis = await startTestRedis({ persistence: false });
      stoppers.push(() => redis.stop());
      env = { ...env, REDIS_URL: redis.url };
    }
    const bots = [];
    for (let i = 0; i < instances; i++) {
      const bot = await startBot(pairSetup, sandbox, staff, newBotLog(), env, `slipline ${i === 0 ? "A" : "B"} (capacity)`, "/readyz");
      stoppers.push(() => bot.stop());
      bots.push(bot);
    }
    // The instances share the queue's partitions out within a few claim rounds.
    await sleep(instances === 2 ? 1_500 : 0);
    const urls = bots.map((bot) => String(bot.ready.url));
    const handledBefore = await Promise.all(urls.map((url) => metricSum(url, "slipline_events_total")));
    const bodies = await prepare(setup, events);
    const burst = await sendBurst((index) => `${urls[index % urls.length] ?? ""}/webhook`, setup.channelSecret, bodies, setup.eventsPerSecond);

    const answers = new Map<string, number[]>();
    const acknowledged = events.filter((_, index) => burst.deliveries[index]?.status === 200);
    const deadline = now() + plan.waitMs;
    // Bounded by the deadline: read the stand-in every 200 ms until every acknowledged event has its answer.
    while (now() < deadline && !acknowledged.every((event) => answers.has(event.chatId))) {
      await sleep(200);
      const drained = await control<{ arrivals: Arrival[] }>(`${lineControlUrl}/drain`, {});
      for (const arrival of drained.arrivals) answers.set(arrival.chatId, [...(answers.get(arrival.chatId) ?? []), arrival.at]);
    }
    const handledAfter = await Promise.all(urls.map((url) => metricSum(url, "slipline_events_total")));
    const latencies = events.flatMap((event, index) => {
      const first = answers.get(event.chatId)?.[0];
      const sentAt = burst.deliveries[index]?.sentAt;
      return first !== undefined && sentAt !== undefined ? [first - sentAt] : [];
    });
    const last = Math.max(burst.startedAt, ...[...answers.values()].map((list) => list[0] ?? 0));
    return {
      instances,
      acknowledged: acknowledged.length,
      answered: acknowledged.filter((event) => answers.has(event.chatId)).length,
      answerP50Ms: round(quantile(latencies, 0.5)),
      answerP95Ms: round(quantile(latencies, 0.95)),
      lastAnswerMs: round(last - burst.startedAt),
      handledPerInstance: handledAfter.map((after, index) => after - (handledBefore[index] ?? 0)),
      answeredTwice: [...answers.values()].filter((list) => list.length > 1).length,
    };
  } finally {
    for (const stop of stoppers.reverse()) await stop();
  }
}

export async function benchCapacity(setup: SlowServiceSetup, plan: CapacityPlan): Promise<CapacityFigures> {
  const one = await runLayout(setup, plan, 1);
  const two = await runLayout(setup, plan, 2);
  return {
    latencyMs: setup.latencyMs,
    eventsPerSecond: setup.eventsPerSecond,
    events: plan.events,
    env: plan.env ?? {},
    one,
    two,
    p95Ratio: round(two.answerP95Ms / one.answerP95Ms, 3),
    lastRatio: round(two.lastAnswerMs / one.lastAnswerMs, 3),
  };
}

/** The scenario's line in the bench's output. */
export function capacityLine(figures: CapacityFigures): string {
  const layout = (label: string, l: CapacityLayout) =>
    `${label}: answered ${l.answered}/${l.acknowledged}, p50/p95 ${l.answerP50Ms}/${l.answerP95Ms} ms, last ${l.lastAnswerMs} ms` +
    `${l.instances > 1 ? ` (handled ${l.handledPerInstance.join(" / ")})` : ""}${l.answeredTwice > 0 ? `, ${l.answeredTwice} answered twice` : ""}`;
  const env = Object.entries(figures.env)
    .map(([name, value]) => `${name}=${value}`)
    .join(" ");
  return (
    `capacity (${figures.events} chats, "qr 150" at ${figures.eventsPerSecond}/s, the service answering in ${figures.latencyMs / 1000} s${env === "" ? "" : `, ${env}`}): ` +
    `${layout("one instance", figures.one)}; ${layout("two on Redis", figures.two)}; two/one: p95 ${figures.p95Ratio}x, last ${figures.lastRatio}x`
  );
}
