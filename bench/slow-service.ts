// Two scenarios with a slow slip service (each operation answers after `latencyMs`), each with a fresh slow
// sandbox and a fresh bot, and the shared LINE stand-in:
//  - goodput: a burst of `qr 150` sent open-loop; how many get the real QR card, how many "service not
//    answering", how many nothing, and how long the answers took;
//  - SIGTERM mid-burst: the same burst, with SIGTERM sent to the bot (by PID) part-way; whether every
//    event it acknowledged is still answered, what it does with the rest, and how it exits.
// Every event is a webhook of its own from a chat of its own, so an answer at the stand-in names its event.
import { signBody } from "../test/kit/webhook.js";
import { setTimeout as sleep } from "node:timers/promises";
import { Pool } from "undici";
import type { Arrival } from "./line-stand-in.js";
import { TSX_WITH_TOOL_SOURCES } from "../test/kit/entry-process.js";
import { freePort } from "../test/kit/free-port.js";
import { startChild, type Child } from "./processes.js";
import { quantile } from "./stats.js";
import { TEST_METRICS_TOKEN } from "../test/kit/metrics.js";

export interface SlowServiceSetup {
  /** The LINE stand-in child (bench/line-stand-in.ts), shared with the other steps. */
  line: Child;
  channelSecret: string;
  accessToken: string;
  /** Each of the sandbox's operations answers this late, ms. */
  latencyMs: number;
  eventsPerSecond: number;
  /** The text every event carries. */
  text: string;
  /** How the bot is started: node arguments (default the build, dist/main.js). */
  botArgs?: string[];
}

export interface GoodputPlan {
  events: number;
  /** Wait for the answers at most this long after the last webhook. */
  waitMs: number;
  /** The share of real answers aimed for. */
  goalShare: number;
}

export interface SigtermPlan {
  events: number;
  /** SIGTERM this long after the first webhook. */
  sigtermAfterMs: number;
  /** Wait at most this long for the bot to exit after SIGTERM; then SIGKILL. */
  exitWaitMs: number;
}

export type AnswerKind = "qr" | "unavailable" | "restarting" | "other";

export interface Planned {
  chatId: string;
  userId: string;
  isGroup: boolean;
  eventId: string;
}

export interface Delivery {
  /** When the webhook went out, epoch ms. */
  sentAt: number;
  /** HTTP status, or undefined when the request failed without one. */
  status: number | undefined;
  /** The failure's code (ECONNREFUSED, UND_ERR_SOCKET, ...) when there was no status. */
  error: string | undefined;
}

export interface Answer {
  kind: AnswerKind;
  at: number;
  text: string | undefined;
}

export interface GoodputFigures {
  latencyMs: number;
  eventsPerSecond: number;
  eventsSent: number;
  acknowledged: number;
  /** Webhooks answered with another status than 200, by status. */
  otherStatuses: Record<string, number>;
  /** Webhooks that got no HTTP answer, by error code. */
  connectionErrors: Record<string, number>;
  realAnswers: number;
  unavailableAnswers: number;
  otherAnswers: number;
  noAnswer: number;
  /** Real answers among the events sent. */
  realShare: number;
  goalShare: number;
  goalMet: boolean;
  /** Time from the webhook to its first answer at the LINE stand-in, any answer, ms. */
  answerP50Ms: number;
  answerP99Ms: number;
  realAnswerP50Ms: number;
  realAnswerP99Ms: number;
  unavailableAnswerP50Ms: number;
  /** From the first webhook to the last answer, ms. */
  lastAnswerAfterMs: number;
  /** Chats that got more than one message send. */
  extraSends: number;
  rejectedByLine: number;
  /** The bot's own log: "event handled" lines by outcome. */
  botOutcomes: Record<string, number>;
  /** Up to three texts of answers that were neither a QR card, nor "service not answering". */
  otherAnswerTexts: string[];
}

export interface SigtermFigures {
  latencyMs: number;
  eventsPerSecond: number;
  eventsSent: number;
  /** SIGTERM went this long after the first webhook, ms; and after how many webhooks. */
  sigtermAtMs: number;
  sentBeforeSigterm: number;
  acknowledged: number;
  /** Acknowledged webhooks sent after SIGTERM. */
  acknowledgedAfterSigterm: number;
  refused503: number;
  otherStatuses: Record<string, number>;
  connectionErrors: Record<string, number>;
  /** Acknowledged events that got nothing at the LINE stand-in (goal 0). */
  acknowledgedUnanswered: number;
  acknowledgedReal: number;
  acknowledgedUnavailable: number;
  acknowledgedRestarting: number;
  acknowledgedOther: number;
  /** Events not acknowledged that were answered all the same (should be 0). */
  notAcknowledgedButAnswered: number;
  answerP50Ms: number;
  answerP99Ms: number;
  /** GET /readyz on a new connection 200 ms after SIGTERM: the status, or the error code. */
  readyzAfterSigterm: string;
  exitCode: number | null;
  exitSignal: string | null;
  /** From SIGTERM to the process's exit, ms. */
  exitAfterMs: number;
  /** The bot did not exit within the wait and was killed. */
  killed: boolean;
  /** What the bot's log said at the end: events abandoned and apologies sent. */
  botReport: { abandoned: number; apologised: number } | null;
  /** What the bot's log said at SIGTERM: events waiting and running. */
  atSigterm: { waiting: number; running: number } | null;
  rejectedByLine: number;
  botOutcomes: Record<string, number>;
  otherAnswerTexts: string[];
}

const now = () => performance.timeOrigin + performance.now();

let serial = 0;

/** `count` events, each from a chat of its own; every other one from a group. Ids unlike the load steps'. */
export function planEvents(count: number): Planned[] {
  const planned: Planned[] = [];
  for (let i = 0; i < count; i += 1) {
    serial += 1;
    const hex = `5100${serial.toString(16).padStart(28, "0")}`;
    const userId = `U${hex}`;
    const isGroup = i % 2 === 1;
    planned.push({ chatId: isGroup ? `C${hex}` : userId, userId, isGroup, eventId: `01SLOW${String(serial).padStart(20, "0")}` });
  }
  return planned;
}

function webhookBody(event: Planned, text: string, replyToken: string): string {
  return JSON.stringify({
    destination: "Ubench0000000000000000000000000000",
    events: [
      {
        type: "message",
        mode: "active",
        timestamp: Date.now(),
        webhookEventId: event.eventId,
        deliveryContext: { isRedelivery: false },
        replyToken,
        source: event.isGroup ? { type: "group", groupId: event.chatId, userId: event.userId } : { type: "user", userId: event.userId },
        message: { id: event.eventId.slice(-18), type: "text", text, quoteToken: "q" },
      },
    ],
  });
}

export async function control<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

export function classify(arrival: Arrival): AnswerKind {
  if (arrival.types?.includes("flex")) return "qr";
  const text = arrival.text ?? "";
  if (/restarting|เริ่มระบบใหม่/i.test(text)) return "restarting";
  if (/try again shortly|ลองใหม่อีกสักครู่|cannot be made right now|ตอนนี้สร้าง QR ไม่ได้/i.test(text)) return "unavailable";
  return "other";
}

/** Reads what reached the stand-in since the last drain into `answers` (first answer per chat); counts the rest. */
async function collect(lineControlUrl: string, answers: Map<string, Answer>, tally: { extraSends: number; rejected: number }): Promise<void> {
  const drained = await control<{ arrivals: Arrival[]; rejected: number }>(`${lineControlUrl}/drain`, { withMessages: true });
  tally.rejected += drained.rejected;
  for (const arrival of drained.arrivals) {
    if (answers.has(arrival.chatId)) tally.extraSends += 1;
    else answers.set(arrival.chatId, { kind: classify(arrival), at: arrival.at, text: arrival.text });
  }
}

/**
 * Sends one webhook per event at `eventsPerSecond`, open loop: each at its planned time, whatever became
 * of the earlier ones. `at` runs once, `at.offsetMs` after the first webhook, before any webhook due then
 * (when it returns a promise, the webhooks wait for it, then catch up). `webhookUrl` may be a function of the event's index: where that event's webhook goes (asked when it goes).
 */
export async function sendBurst(
  webhookUrl: string | ((index: number) => string),
  channelSecret: string,
  bodies: string[],
  eventsPerSecond: number,
  at?: { offsetMs: number; run: () => void | Promise<void> },
): Promise<{ deliveries: Delivery[]; startedAt: number; ranAt: number | undefined; sentBeforeRun: number }> {
  const signed = bodies.map((body) => ({ body, signature: signBody(body, channelSecret) }));
  const urlOf = typeof webhookUrl === "string" ? () => webhookUrl : webhookUrl;
  // One connection pool per origin the webhooks go to.
  const pools = new Map<string, Pool>();
  const poolFor = (url: URL): Pool => {
    let pool = pools.get(url.origin);
    if (pool === undefined) {
      pool = new Pool(url.origin, {
        connections: 64,
        keepAliveTimeout: 30_000,
        headersTimeout: 15_000,
        bodyTimeout: 15_000,
        connect: { timeout: 5_000 },
      });
      pools.set(url.origin, pool);
    }
    return pool;
  };
  const deliveries: Delivery[] = [];
  const inFlight: Promise<void>[] = [];
  const startedAt = now();
  let ranAt: number | undefined;
  let sentBeforeRun = 0;
  let next = 0;
  try {
    // One pass per millisecond or so, until the last webhook is out: bounded by the plan's length.
    while (next < signed.length) {
      const elapsed = now() - startedAt;
      if (at && ranAt === undefined && elapsed >= at.offsetMs) {
        ranAt = now();
        sentBeforeRun = next;
        await at.run();
      }
      while (next < signed.length && (next * 1000) / eventsPerSecond <= elapsed) {
        const request = signed[next];
        const delivery: Delivery = { sentAt: now(), status: undefined, error: undefined };
        deliveries.push(delivery);
        const url = new URL(urlOf(next));
        next += 1;
        if (!request) continue;
        inFlight.push(
          poolFor(url)
            .request({
              method: "POST",
              path: url.pathname,
              headers: { "content-type": "application/json", "x-line-signature": request.signature },
              body: request.body,
            })
            .then(async (response) => {
              delivery.status = response.statusCode;
              await response.body.dump();
            })
            .catch((error: unknown) => {
              if (delivery.status === undefined) delivery.error = errorCode(error);
            }),
        );
      }
      if (next < signed.length) await sleep(1);
    }
    // The last webhook may be due before `at`: it still runs, at its time.
    if (at && ranAt === undefined) {
      await sleep(Math.max(0, startedAt + at.offsetMs - now()));
      ranAt = now();
      sentBeforeRun = next;
      await at.run();
    }
    await Promise.all(inFlight); // each ends by its answer, an error, or the pool's timeouts
  } finally {
    await Promise.all([...pools.values()].map((pool) => pool.destroy()));
  }
  return { deliveries, startedAt, ranAt, sentBeforeRun };
}

export function errorCode(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const cause = (error as { cause?: { code?: unknown } }).cause;
    if (typeof cause?.code === "string") return cause.code;
    if (error instanceof Error) return error.name;
  }
  return "unknown";
}

export function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

export function round(value: number, digits = 1): number {
  return Number.isFinite(value) ? Number(value.toFixed(digits)) : value;
}

/** What the bot's JSON log tells: outcomes of handled events, and its shutdown lines. */
export interface BotLog {
  outcomes: string[];
  /** Stored events found in the hands of a worker that stopped, and taken up again (Redis mode). */
  recovered: number;
  /** Their ids (the log's itemId: the webhook event's id). */
  recoveredIds: string[];
  /** Warnings and errors (pino level 40 and up), counted by message. */
  warnings: Record<string, number>;
  shuttingDown: { waiting: number; running: number } | null;
  stopped: { abandoned: number; apologised: number } | null;
}

export function newBotLog(): BotLog {
  return { outcomes: [], recovered: 0, recoveredIds: [], warnings: {}, shuttingDown: null, stopped: null };
}

export function readBotLine(log: BotLog, line: string): void {
  if (!line.startsWith("{")) return;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return;
  }
  if (entry["msg"] === "event handled" && typeof entry["outcome"] === "string") log.outcomes.push(entry["outcome"]);
  const msg = typeof entry["msg"] === "string" ? entry["msg"] : "";
  if (msg.includes("taken up again")) {
    log.recovered += 1;
    if (typeof entry["itemId"] === "string") log.recoveredIds.push(entry["itemId"]);
  }
  if (typeof entry["level"] === "number" && entry["level"] >= 40) log.warnings[msg] = (log.warnings[msg] ?? 0) + 1;
  if (entry["msg"] === "shutting down") {
    log.shuttingDown = { waiting: Number(entry["waiting"]), running: Number(entry["running"]) };
  }
  if (entry["msg"] === "stopped") log.stopped = { abandoned: Number(entry["abandoned"]), apologised: Number(entry["apologised"]) };
}

export async function startSlowSandbox(latencyMs: number): Promise<Child> {
  return startChild("slow sandbox", [...TSX_WITH_TOOL_SOURCES, "bench/sandbox-process.ts"], {
    env: { BENCH_SANDBOX_LATENCY_MS: String(latencyMs) },
  });
}

/** A bot against the slow sandbox; `extraEnv` adds to (or overrides) its environment, e.g. REDIS_URL. */
export async function startBot(
  setup: SlowServiceSetup,
  sandbox: Child,
  staffUserIds: string[],
  log: BotLog,
  extraEnv: Record<string, string> = {},
  name = "slipline (slow service)",
  /** Ready when this answers 200: /readyz waits, with Redis, for the queue's workers. */
  healthPath = "/healthz",
): Promise<Child> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await startChild(name, setup.botArgs ?? ["dist/main.js"], {
    env: {
      LINE_CHANNEL_SECRET: setup.channelSecret,
      LINE_CHANNEL_ACCESS_TOKEN: setup.accessToken,
      LINE_API_BASE_URL: String(setup.line.ready.url),
      PORT: String(port),
      SLIP_API_BASE_URL: String(sandbox.ready.url),
      SLIP_API_SECRET: "demo-shop-secret",
      PROMPTPAY_ID: "0812345678",
      STAFF_USER_IDS: staffUserIds.join(","),
      LOG_LEVEL: "info",
      METRICS_TOKEN: TEST_METRICS_TOKEN,
      ...extraEnv,
    },
    healthUrl: `${url}${healthPath}`,
    onLine: (line) => readBotLine(log, line),
  });
  return { ...child, ready: { ...child.ready, url } };
}

/** Issues reply tokens, forgets earlier arrivals at the stand-in, and builds each event's webhook body. */
export async function prepare(setup: SlowServiceSetup, events: Planned[]): Promise<string[]> {
  const lineControlUrl = String(setup.line.ready.controlUrl);
  const { tokens } = await control<{ tokens: string[] }>(`${lineControlUrl}/tokens`, { chatIds: events.map((e) => e.chatId) });
  await control(`${lineControlUrl}/drain`, {});
  return events.map((event, index) => webhookBody(event, setup.text, tokens[index] ?? ""));
}

function otherTexts(answers: Iterable<Answer>): string[] {
  const texts: string[] = [];
  for (const answer of answers) {
    if (answer.kind === "other" && texts.length < 3) texts.push(answer.text ?? "(no text message)");
  }
  return texts;
}

/** Scenario 1: how many of a burst get the real answer when the service takes `latencyMs` per operation. */
export async function benchGoodput(setup: SlowServiceSetup, plan: GoodputPlan): Promise<GoodputFigures> {
  const lineControlUrl = String(setup.line.ready.controlUrl);
  const events = planEvents(plan.events);
  const botLog = newBotLog();
  const sandbox = await startSlowSandbox(setup.latencyMs);
  let bot: Child | undefined;
  try {
    bot = await startBot(
      setup,
      sandbox,
      events.map((e) => e.userId),
      botLog,
    );
    const bodies = await prepare(setup, events);
    const burst = await sendBurst(`${String(bot.ready.url)}/webhook`, setup.channelSecret, bodies, setup.eventsPerSecond);

    const answers = new Map<string, Answer>();
    const tally = { extraSends: 0, rejected: 0 };
    const deadline = now() + plan.waitMs;
    // Bounded by the deadline: read the stand-in every 200 ms until every event has its answer.
    while (answers.size < events.length && now() < deadline) {
      await sleep(200);
      await collect(lineControlUrl, answers, tally);
    }

    const kinds = events.map((event) => answers.get(event.chatId)?.kind ?? "none");
    const latency = (filter: (kind: AnswerKind) => boolean) =>
      events.flatMap((event, index) => {
        const answer = answers.get(event.chatId);
        const sentAt = burst.deliveries[index]?.sentAt;
        return answer && sentAt !== undefined && filter(answer.kind) ? [answer.at - sentAt] : [];
      });
    const all = latency(() => true);
    const real = latency((kind) => kind === "qr");
    const counts = countBy(kinds);
    const realAnswers = counts["qr"] ?? 0;
    const realShare = realAnswers / events.length;
    const lastAnswer = Math.max(burst.startedAt, ...[...answers.values()].map((a) => a.at));
    return {
      latencyMs: setup.latencyMs,
      eventsPerSecond: setup.eventsPerSecond,
      eventsSent: burst.deliveries.length,
      acknowledged: burst.deliveries.filter((d) => d.status === 200).length,
      otherStatuses: countBy(burst.deliveries.flatMap((d) => (d.status !== undefined && d.status !== 200 ? [String(d.status)] : []))),
      connectionErrors: countBy(burst.deliveries.flatMap((d) => (d.status === undefined ? [d.error ?? "unknown"] : []))),
      realAnswers,
      unavailableAnswers: counts["unavailable"] ?? 0,
      otherAnswers: (counts["other"] ?? 0) + (counts["restarting"] ?? 0),
      noAnswer: counts["none"] ?? 0,
      realShare: round(realShare, 4),
      goalShare: plan.goalShare,
      goalMet: realShare >= plan.goalShare,
      answerP50Ms: round(quantile(all, 0.5)),
      answerP99Ms: round(quantile(all, 0.99)),
      realAnswerP50Ms: round(quantile(real, 0.5)),
      realAnswerP99Ms: round(quantile(real, 0.99)),
      unavailableAnswerP50Ms: round(
        quantile(
          latency((kind) => kind === "unavailable"),
          0.5,
        ),
      ),
      lastAnswerAfterMs: round(lastAnswer - burst.startedAt),
      extraSends: tally.extraSends,
      rejectedByLine: tally.rejected,
      botOutcomes: countBy(botLog.outcomes),
      otherAnswerTexts: otherTexts(answers.values()),
    };
  } finally {
    await bot?.stop();
    await sandbox.stop();
  }
}

/** Scenario 2: SIGTERM to the bot part-way through a burst. */
export async function benchSigterm(setup: SlowServiceSetup, plan: SigtermPlan): Promise<SigtermFigures> {
  const lineControlUrl = String(setup.line.ready.controlUrl);
  const events = planEvents(plan.events);
  const botLog = newBotLog();
  const sandbox = await startSlowSandbox(setup.latencyMs);
  let bot: Child | undefined;
  try {
    bot = await startBot(
      setup,
      sandbox,
      events.map((e) => e.userId),
      botLog,
    );
    const botProcess = bot.process;
    const pid = botProcess.pid;
    if (pid === undefined) throw new Error("the bot has no PID");
    let exitedAt: number | undefined;
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
      botProcess.once("exit", (code, signal) => {
        exitedAt = now();
        resolve([code, signal]);
      });
    });
    const bodies = await prepare(setup, events);

    let sigtermAt = 0;
    // 200 ms after SIGTERM, what a new connection to /readyz gets: a status, or an error code.
    let readyzProbe: Promise<string> = Promise.resolve("not probed");
    const readyzUrl = `${String(bot.ready.url)}/readyz`;
    const burst = await sendBurst(`${String(bot.ready.url)}/webhook`, setup.channelSecret, bodies, setup.eventsPerSecond, {
      offsetMs: plan.sigtermAfterMs,
      run: () => {
        sigtermAt = now();
        process.kill(pid, "SIGTERM");
        readyzProbe = sleep(200).then(() =>
          fetch(readyzUrl, { signal: AbortSignal.timeout(2_000) }).then(
            async (response) => {
              await response.arrayBuffer();
              return String(response.status);
            },
            (error: unknown) => errorCode(error),
          ),
        );
      },
    });

    // Bounded: the bot's grace period and some; then SIGKILL, and at most 5 s more.
    let killed = false;
    const exitWait = Math.max(0, sigtermAt + plan.exitWaitMs - now());
    let exit = await Promise.race([exited, sleep(exitWait).then(() => undefined)]);
    if (exit === undefined) {
      killed = true;
      process.kill(pid, "SIGKILL");
      exit = await Promise.race([exited, sleep(5_000).then(() => undefined)]);
    }
    const exitAfterMs = (exitedAt ?? now()) - sigtermAt;
    const readyzAfterSigterm = await readyzProbe;

    // Every answer the bot sent was accepted by the stand-in before the bot exited; read them all.
    const answers = new Map<string, Answer>();
    const tally = { extraSends: 0, rejected: 0 };
    await collect(lineControlUrl, answers, tally);
    await sleep(300);
    await collect(lineControlUrl, answers, tally);

    const acknowledged = events.flatMap((event, index) => (burst.deliveries[index]?.status === 200 ? [event] : []));
    const ackKinds = acknowledged.map((event) => answers.get(event.chatId)?.kind ?? "none");
    const ackCounts = countBy(ackKinds);
    const ackLatency = acknowledged.flatMap((event) => {
      const answer = answers.get(event.chatId);
      const sentAt = burst.deliveries[events.indexOf(event)]?.sentAt;
      return answer && sentAt !== undefined ? [answer.at - sentAt] : [];
    });
    return {
      latencyMs: setup.latencyMs,
      eventsPerSecond: setup.eventsPerSecond,
      eventsSent: burst.deliveries.length,
      sigtermAtMs: round(sigtermAt - burst.startedAt),
      sentBeforeSigterm: burst.sentBeforeRun,
      acknowledged: acknowledged.length,
      acknowledgedAfterSigterm: burst.deliveries.filter((d) => d.status === 200 && d.sentAt >= sigtermAt).length,
      refused503: burst.deliveries.filter((d) => d.status === 503).length,
      otherStatuses: countBy(burst.deliveries.flatMap((d) => (d.status !== undefined && d.status !== 200 && d.status !== 503 ? [String(d.status)] : []))),
      connectionErrors: countBy(burst.deliveries.flatMap((d) => (d.status === undefined ? [d.error ?? "unknown"] : []))),
      acknowledgedUnanswered: ackCounts["none"] ?? 0,
      acknowledgedReal: ackCounts["qr"] ?? 0,
      acknowledgedUnavailable: ackCounts["unavailable"] ?? 0,
      acknowledgedRestarting: ackCounts["restarting"] ?? 0,
      acknowledgedOther: ackCounts["other"] ?? 0,
      notAcknowledgedButAnswered: events.filter((event, index) => burst.deliveries[index]?.status !== 200 && answers.has(event.chatId)).length,
      answerP50Ms: round(quantile(ackLatency, 0.5)),
      answerP99Ms: round(quantile(ackLatency, 0.99)),
      readyzAfterSigterm,
      exitCode: exit?.[0] ?? null,
      exitSignal: exit?.[1] ?? null,
      exitAfterMs: round(exitAfterMs),
      killed,
      botReport: botLog.stopped,
      atSigterm: botLog.shuttingDown,
      rejectedByLine: tally.rejected,
      botOutcomes: countBy(botLog.outcomes),
      otherAnswerTexts: otherTexts(answers.values()),
    };
  } finally {
    await bot?.stop();
    await sandbox.stop();
  }
}
