// Scenario: SIGKILL one of two instances mid-burst. A fresh redis-server, a fresh slow sandbox (each
// operation answers `latencyMs` late), two bots sharing that Redis (REDIS_URL). A burst of `qr 150` goes
// open-loop at `eventsPerSecond`, the webhooks alternating between the two; after `killAfterEvents` webhooks
// one instance is killed with SIGKILL (by PID), and the rest of the burst goes to the survivor. The one killed
// is the one with more events in hand then (its /metrics, slipline_events_in_flight): whichever instance
// took the webhook, a stored event is worked by whichever instance's worker gets its partition first, and
// killing an instance that holds nothing would test nothing.
// Every event is a webhook of its own from a chat of its own, so an answer at the stand-in names its event.
// The events the dead instance held are locked in Redis until the lock expires; then the survivor takes
// them up. Reported: acknowledged events with no answer (goal 0), events answered twice (goal 0), and the
// time from the kill to the last answer.
import { setTimeout as sleep } from "node:timers/promises";
import type { Arrival } from "./line-stand-in.js";
import { startTestRedis } from "../test/kit/redis-server.js";
import { metricSum } from "./processes.js";
import { quantile } from "./stats.js";
import {
  classify,
  control,
  countBy,
  newBotLog,
  planEvents,
  prepare,
  round,
  sendBurst,
  startBot,
  startSlowSandbox,
  type AnswerKind,
  type SlowServiceSetup,
} from "./slow-service.js";

export interface SigkillPlan {
  events: number;
  /** SIGKILL the second instance once this many webhooks have gone out. */
  killAfterEvents: number;
  /** Wait at most this long for the answers after the last webhook. */
  waitMs: number;
  /** Keep watching at least this long after the kill, for a second answer from an event taken up again. */
  watchAfterKillMs: number;
}

export interface SigkillFigures {
  latencyMs: number;
  eventsPerSecond: number;
  eventsSent: number;
  /** SIGKILL went this long after the first webhook, ms; and after how many webhooks. */
  killAtMs: number;
  sentBeforeKill: number;
  acknowledged: number;
  /** Acknowledged webhooks by the instance that answered 200. */
  acknowledgedBy: { killed: number; survivor: number };
  /** Events each instance had in hand just before the kill (slipline_events_in_flight). */
  inFlightAtKill: { killed: number; survivor: number };
  /** Which of the two (by start order) was killed. */
  killedInstance: "A" | "B";
  otherStatuses: Record<string, number>;
  /** Webhooks that got no HTTP answer (those in flight to the killed instance), by error code. */
  connectionErrors: Record<string, number>;
  /** Acknowledged events that got nothing at the LINE stand-in (goal 0). */
  acknowledgedUnanswered: number;
  /** Of those, acknowledged by the killed instance. */
  unansweredOfKilled: number;
  /** Events that got more than one accepted send at the stand-in (goal 0). */
  answeredTwice: number;
  /** Pushes the stand-in answered 409 (their retry key already accepted): a second copy refused, not sent. */
  duplicatePushesRefused: number;
  rejectedByLine: number;
  acknowledgedReal: number;
  acknowledgedUnavailable: number;
  acknowledgedOther: number;
  /** Events not acknowledged that were answered all the same. */
  notAcknowledgedButAnswered: number;
  /** From the kill to the last answer at the stand-in, ms. */
  lastAnswerAfterKillMs: number;
  /** From its webhook to its first answer, per acknowledged event, ms. */
  answerP50Ms: number;
  answerP99Ms: number;
  /** The same for the events acknowledged by the killed instance. */
  killedAnswerP50Ms: number;
  killedAnswerP99Ms: number;
  /** Stored events the survivor logged as "found in the hands of an instance that stopped; taken up again". */
  recoveredBySurvivor: number;
  /**
   * Takeover: from the kill to the survivor's answers to the events the dead instance held (those it took up
   * again), ms: the first and the last of them.
   */
  takeoverFirstAnswerMs: number;
  takeoverLastAnswerMs: number;
  survivorOutcomes: Record<string, number>;
  /** The survivor's warnings and errors, by message. */
  survivorWarnings: Record<string, number>;
  /** What the killed instance logged as handled before it died. */
  killedOutcomes: Record<string, number>;
  /** How the killed instance exited (should be SIGKILL). */
  killedExitSignal: string | null;
  /** Whether every acknowledged event had an answer before the wait ran out. */
  allAnswered: boolean;
  otherAnswerTexts: string[];
}

const now = () => performance.timeOrigin + performance.now();

export async function benchSigkill(setup: SlowServiceSetup, plan: SigkillPlan): Promise<SigkillFigures> {
  const lineControlUrl = String(setup.line.ready.controlUrl);
  const events = planEvents(plan.events);
  const logs = [newBotLog(), newBotLog()] as const;
  const started: { stop(): Promise<void> }[] = [];
  try {
    const redis = await startTestRedis({ persistence: false });
    started.push(redis);
    const sandbox = await startSlowSandbox(setup.latencyMs);
    started.push(sandbox);
    const redisEnv = { REDIS_URL: redis.url };
    const staff = events.map((event) => event.userId);
    const bots = [
      await startBot(setup, sandbox, staff, logs[0], redisEnv, "slipline A (redis)", "/readyz"),
      await startBot(setup, sandbox, staff, logs[1], redisEnv, "slipline B (redis)", "/readyz"),
    ] as const;
    started.push(...bots);
    await sleep(1_500); // the queue's partitions shared out between the two
    const exits = bots.map((bot) => new Promise<NodeJS.Signals | null>((resolve) => bot.process.once("exit", (_code, signal) => resolve(signal))));

    const bodies = await prepare(setup, events);
    const urls = bots.map((bot) => `${String(bot.ready.url)}/webhook`);
    let killAt: number | undefined;
    let victim = 1 as 0 | 1;
    const inFlight: [number, number] = [Number.NaN, Number.NaN];
    // Before the kill, webhooks alternate (even: A, odd: B); from the kill on, all go to the survivor.
    const sentToInstance: number[] = [];
    const burst = await sendBurst(
      (index) => {
        const to = killAt === undefined ? index % 2 : 1 - victim;
        sentToInstance[index] = to;
        return urls[to] ?? "";
      },
      setup.channelSecret,
      bodies,
      setup.eventsPerSecond,
      {
        offsetMs: (plan.killAfterEvents * 1000) / setup.eventsPerSecond,
        run: async () => {
          const [a, b] = await Promise.all(bots.map((bot) => metricSum(String(bot.ready.url), "slipline_events_in_flight")));
          inFlight[0] = a ?? Number.NaN;
          inFlight[1] = b ?? Number.NaN;
          victim = inFlight[1] > inFlight[0] ? 1 : 0;
          const pid = bots[victim].process.pid;
          if (pid === undefined) throw new Error("the bot has no PID");
          killAt = now();
          process.kill(pid, "SIGKILL");
        },
      },
    );
    const killedAt = killAt ?? burst.startedAt;
    const killedExitSignal = (await Promise.race([exits[victim], sleep(5_000).then(() => null)])) ?? null;
    const survivorLog = logs[1 - victim] ?? logs[0];
    const killedLog = logs[victim];
    const sentTo = sentToInstance.map((instance) => (instance === victim ? "killed" : "survivor"));

    // Every event's sends, in order; bounded by the wait: every 200 ms until each acknowledged event has its
    // answer and the watch after the kill is over.
    const sends = new Map<string, { kind: AnswerKind; at: number; text: string | undefined }[]>();
    let duplicatePushesRefused = 0;
    let rejectedByLine = 0;
    const acknowledged = events.flatMap((event, index) => (burst.deliveries[index]?.status === 200 ? [{ event, index }] : []));
    const deadline = now() + plan.waitMs;
    const watchUntil = killedAt + plan.watchAfterKillMs;
    const allAnswered = () => acknowledged.every(({ event }) => sends.has(event.chatId));
    while (now() < deadline) {
      await sleep(200);
      const drained = await control<{ arrivals: Arrival[]; rejected: number; duplicates: number }>(`${lineControlUrl}/drain`, { withMessages: true });
      rejectedByLine += drained.rejected;
      duplicatePushesRefused += drained.duplicates;
      for (const arrival of drained.arrivals) {
        const list = sends.get(arrival.chatId) ?? [];
        list.push({ kind: classify(arrival), at: arrival.at, text: arrival.text });
        sends.set(arrival.chatId, list);
      }
      if (allAnswered() && now() >= watchUntil) break;
    }

    const first = (chatId: string) => sends.get(chatId)?.[0];
    const ackKinds = acknowledged.map(({ event }) => first(event.chatId)?.kind ?? "none");
    const ackCounts = countBy(ackKinds);
    const latencies = (filter: (index: number) => boolean) =>
      acknowledged.flatMap(({ event, index }) => {
        const answer = first(event.chatId);
        const sentAt = burst.deliveries[index]?.sentAt;
        return answer && sentAt !== undefined && filter(index) ? [answer.at - sentAt] : [];
      });
    const all = latencies(() => true);
    const ofKilled = latencies((index) => sentTo[index] === "killed");
    // The first answer to each event the survivor took up again.
    const takenUp = survivorLog.recoveredIds.flatMap((id) => {
      const chatId = events.find((event) => event.eventId === id)?.chatId;
      const answer = chatId === undefined ? undefined : first(chatId);
      return answer === undefined ? [] : [answer.at];
    });
    const lastAnswer = Math.max(killedAt, ...[...sends.values()].flatMap((list) => list.map((send) => send.at)));
    const otherAnswerTexts = [...sends.values()].flatMap((list) => list.filter((send) => send.kind === "other").map((send) => send.text ?? "(no text message)")).slice(0, 3);

    return {
      latencyMs: setup.latencyMs,
      eventsPerSecond: setup.eventsPerSecond,
      eventsSent: burst.deliveries.length,
      killAtMs: round(killedAt - burst.startedAt),
      sentBeforeKill: burst.sentBeforeRun,
      acknowledged: acknowledged.length,
      inFlightAtKill: { killed: inFlight[victim], survivor: inFlight[1 - victim] ?? Number.NaN },
      killedInstance: victim === 0 ? "A" : "B",
      acknowledgedBy: {
        killed: acknowledged.filter(({ index }) => sentTo[index] === "killed").length,
        survivor: acknowledged.filter(({ index }) => sentTo[index] === "survivor").length,
      },
      otherStatuses: countBy(burst.deliveries.flatMap((d) => (d.status !== undefined && d.status !== 200 ? [String(d.status)] : []))),
      connectionErrors: countBy(burst.deliveries.flatMap((d) => (d.status === undefined ? [d.error ?? "unknown"] : []))),
      acknowledgedUnanswered: ackCounts["none"] ?? 0,
      unansweredOfKilled: acknowledged.filter(({ event, index }) => sentTo[index] === "killed" && !sends.has(event.chatId)).length,
      answeredTwice: events.filter((event) => (sends.get(event.chatId)?.length ?? 0) > 1).length,
      duplicatePushesRefused,
      rejectedByLine,
      acknowledgedReal: ackCounts["qr"] ?? 0,
      acknowledgedUnavailable: ackCounts["unavailable"] ?? 0,
      acknowledgedOther: (ackCounts["other"] ?? 0) + (ackCounts["restarting"] ?? 0),
      notAcknowledgedButAnswered: events.filter((event, index) => burst.deliveries[index]?.status !== 200 && sends.has(event.chatId)).length,
      lastAnswerAfterKillMs: round(lastAnswer - killedAt),
      answerP50Ms: round(quantile(all, 0.5)),
      answerP99Ms: round(quantile(all, 0.99)),
      killedAnswerP50Ms: round(quantile(ofKilled, 0.5)),
      killedAnswerP99Ms: round(quantile(ofKilled, 0.99)),
      recoveredBySurvivor: survivorLog.recovered,
      takeoverFirstAnswerMs: round(Math.min(...takenUp) - killedAt),
      takeoverLastAnswerMs: round(Math.max(...takenUp) - killedAt),
      survivorOutcomes: countBy(survivorLog.outcomes),
      survivorWarnings: survivorLog.warnings,
      killedOutcomes: countBy(killedLog.outcomes),
      killedExitSignal,
      allAnswered: allAnswered(),
      otherAnswerTexts,
    };
  } finally {
    // Every process by its PID, the last started first.
    for (const child of started.reverse()) await child.stop();
  }
}
