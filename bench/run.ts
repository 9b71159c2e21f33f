// `npm run bench`: slipline against the official echo-bot pattern under the same open-loop webhook load,
// all on loopback, plus the qr-image and history-query figures, and two scenarios with a slow slip service
// (bench/slow-service.ts: goodput, and SIGTERM mid-burst). Prints a table; writes JSON to bench/results/.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpuSeconds, freePort, peakRssMiB, startChild, type Child } from "./processes.js";
import { runStep, type StepMeasurement, type StepPlan } from "./load.js";
import { quantile } from "./stats.js";
import { benchQrImage } from "./qr-image.js";
import { benchHistoryQuery } from "./history-query.js";
import { benchGoodput, benchSigterm, type SlowServiceSetup } from "./slow-service.js";

// BENCH_QUICK=1 runs a short version (two low rates, small database) to check the harness itself.
const QUICK = process.env.BENCH_QUICK === "1";
const RATES = QUICK ? [100, 500] : [100, 250, 500, 1_000, 2_000];
const STEP_MS = QUICK ? 2_000 : 5_000;
// BENCH_PROFILE=1 writes a CPU profile of the bot (node --cpu-prof) to bench/results/profile/.
const PROFILE = process.env.BENCH_PROFILE === "1";
const CHANNEL_SECRET = "0123456789abcdef0123456789abcdef"; // a channel secret is 32 hex digits
const ACCESS_TOKEN = "bench-access-token";
// The slow-service scenarios: `qr 150` at 100 events/s against a sandbox answering each operation in 2 s.
// Quick runs send fewer events at the same rate and latency (the SIGTERM one enough to go on past 1.5 s).
const SLOW = { latencyMs: 2_000, eventsPerSecond: 100, text: "qr 150" };
const GOODPUT_EVENTS = QUICK ? 100 : 300;
const SIGTERM_EVENTS = QUICK ? 200 : 300;
const TEXTS = ["balance", "qr 0812345678 150", "history", "help", "ยอด", "คิวอาร์ 150", "ประวัติ", "ช่วยเหลือ"];

interface BotFigures {
  rate: number;
  eventsSent: number;
  eventsLost: number;
  ackP50: number;
  ackP99: number;
  e2eP50: number;
  e2eP99: number;
  e2eMax: number;
  /** End-to-end minus the sandbox's own service time for the event's service requests (p99). */
  botAddedP99: number | null;
  cpuSecondsPer1000: number;
  serviceRequestsPerEvent: number | null;
  rejectedByLine: number;
  ackErrors: number;
  /** End-to-end p50 and p99 per text sent, ms: which command costs what. */
  e2eByText: Record<string, { p50: number; p99: number }>;
  /** The bot's peak resident memory so far (VmHWM), read after this step. */
  peakRssMiB: number;
  /** CPU seconds the other processes used during the step: the machine has 2 cores for all of them. */
  otherCpuSeconds: { lineStandIn: number; sandbox: number; loadGenerator: number };
}

interface Drained {
  requests: number;
  serviceMs: number[];
}

const round = (value: number, digits = 2) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value);

async function drainSandbox(sandbox: Child): Promise<Drained> {
  const response = await fetch(`${String(sandbox.ready.controlUrl)}/drain`, { method: "POST" });
  return (await response.json()) as Drained;
}

function stepPlan(eventsPerSecond: number, durationMs: number): StepPlan {
  return { eventsPerSecond, durationMs, texts: TEXTS, groupShare: 0.3, batchEvery: 5, batchSize: 3, drainMs: 15_000 };
}

function figures(
  rate: number,
  step: StepMeasurement,
  cpu: number,
  drained: Drained | undefined,
  extra: Pick<BotFigures, "peakRssMiB" | "otherCpuSeconds">,
): BotFigures {
  let botAddedP99: number | null = null;
  let serviceRequestsPerEvent: number | null = null;
  if (drained) {
    serviceRequestsPerEvent = drained.requests / step.eventsSent;
    // The service's time per event: its mean time per request times the requests per event. Subtracting
    // it from each event's end-to-end latency leaves what the bot itself (and LINE's stand-in) added.
    const meanServiceMs = drained.serviceMs.reduce((sum, ms) => sum + ms, 0) / Math.max(1, drained.serviceMs.length);
    const serviceMsPerEvent = meanServiceMs * serviceRequestsPerEvent;
    botAddedP99 = quantile(
      step.endToEndMs.map((ms) => ms - serviceMsPerEvent),
      0.99,
    );
  }
  return {
    rate,
    eventsSent: step.eventsSent,
    eventsLost: step.eventsLost,
    ackP50: quantile(step.ackMs, 0.5),
    ackP99: quantile(step.ackMs, 0.99),
    e2eP50: quantile(step.endToEndMs, 0.5),
    e2eP99: quantile(step.endToEndMs, 0.99),
    e2eMax: quantile(step.endToEndMs, 1),
    botAddedP99,
    cpuSecondsPer1000: (cpu / step.eventsSent) * 1000,
    serviceRequestsPerEvent,
    rejectedByLine: step.rejectedByLine,
    ackErrors: step.ackErrors,
    e2eByText: Object.fromEntries(
      [...step.endToEndByText].map(([text, ms]) => [text, { p50: round(quantile(ms, 0.5)), p99: round(quantile(ms, 0.99)) }]),
    ),
    ...extra,
  };
}

async function measureBot(
  name: string,
  start: () => Promise<Child>,
  line: Child,
  sandbox: Child,
): Promise<{ steps: BotFigures[]; peakRssMiB: number }> {
  const lineControlUrl = String(line.ready.controlUrl);
  const bot = await start();
  const pid = bot.process.pid ?? 0;
  const target = { webhookUrl: `${String(bot.ready.url)}/webhook`, channelSecret: CHANNEL_SECRET, lineControlUrl };
  try {
    await runStep(target, stepPlan(100, 2_000)); // warm-up: JIT, connection pools, caches
    await drainSandbox(sandbox);
    const steps: BotFigures[] = [];
    const cpuOf = (child: Child) => cpuSeconds(child.process.pid ?? 0);
    const ownCpu = () => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1e6;
    };
    for (const rate of RATES) {
      const before = { bot: cpuSeconds(pid), line: cpuOf(line), sandbox: cpuOf(sandbox), own: ownCpu() };
      const step = await runStep(target, stepPlan(rate, STEP_MS));
      const cpu = cpuSeconds(pid) - before.bot;
      const otherCpuSeconds = {
        lineStandIn: round(cpuOf(line) - before.line),
        sandbox: round(cpuOf(sandbox) - before.sandbox),
        loadGenerator: round(ownCpu() - before.own),
      };
      const drained = await drainSandbox(sandbox);
      steps.push(
        figures(rate, step, cpu, name === "slipline" ? drained : undefined, { peakRssMiB: round(peakRssMiB(pid), 1), otherCpuSeconds }),
      );
      process.stderr.write(`  ${name} @ ${rate}/s: ${step.eventsAnswered}/${step.eventsSent} answered\n`);
    }
    return { steps, peakRssMiB: peakRssMiB(pid) };
  } finally {
    await bot.stop();
  }
}

async function main(): Promise<void> {
  process.stderr.write("building...\n");
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });

  const tsx = ["--import", "tsx"];
  const sandbox = await startChild("sandbox", [...tsx, "bench/sandbox-process.ts"], {});
  const line = await startChild("line stand-in", [...tsx, "bench/line-stand-in.ts"], {});
  const lineUrl = String(line.ready.url);
  const lineEnv = { LINE_CHANNEL_SECRET: CHANNEL_SECRET, LINE_CHANNEL_ACCESS_TOKEN: ACCESS_TOKEN, LINE_API_BASE_URL: lineUrl };

  try {
    process.stderr.write("echo-bot baseline...\n");
    const baseline = await measureBot(
      "echo",
      async () => startChild("echo bot", ["bench/echo-bot.mjs"], { env: { ...lineEnv, PORT: String(await freePort()) } }),
      line,
      sandbox,
    );
    process.stderr.write("slipline...\n");
    const slipline = await measureBot(
      "slipline",
      async () => {
        const port = await freePort();
        const url = `http://127.0.0.1:${port}`;
        const profile = PROFILE ? ["--cpu-prof", "--cpu-prof-dir", "bench/results/profile"] : [];
        const child = await startChild("slipline", [...profile, "dist/main.js"], {
          env: {
            ...lineEnv,
            PORT: String(port),
            SLIP_API_BASE_URL: String(sandbox.ready.url),
            SLIP_API_SECRET: "demo-shop-secret",
            PROMPTPAY_ID: "0812345678",
            LOG_LEVEL: "info",
          },
          healthUrl: `${url}/healthz`,
          onLine: () => undefined, // the bot's JSON log, as in production; read and dropped
        });
        return { ...child, ready: { ...child.ready, url } };
      },
      line,
      sandbox,
    );

    process.stderr.write("qr-image and history query...\n");
    const qrImage = await benchQrImage(QUICK ? { warmupMs: 200, budgetMs: 1_000 } : { warmupMs: 1_000, budgetMs: 3_000 });
    const historyQuery = benchHistoryQuery(QUICK ? { extraRows: 20_000 } : {});

    const slowSetup: SlowServiceSetup = { line, channelSecret: CHANNEL_SECRET, accessToken: ACCESS_TOKEN, ...SLOW };
    process.stderr.write(`goodput with the slip service answering in ${SLOW.latencyMs / 1000} s...\n`);
    const goodput = await benchGoodput(slowSetup, { events: GOODPUT_EVENTS, waitMs: 90_000, goalShare: 0.95 });
    process.stderr.write("SIGTERM mid-burst...\n");
    const sigterm = await benchSigterm(slowSetup, { events: SIGTERM_EVENTS, sigtermAfterMs: 1_500, exitWaitMs: 45_000 });

    const rows = RATES.map((rate, index) => {
      const ours = slipline.steps[index];
      const base = baseline.steps[index];
      if (!ours || !base) throw new Error(`missing step ${rate}`);
      return { rate, ours, base };
    });
    const table = rows.map(({ rate, ours, base }) => ({
      "events/s": rate,
      lost: `${ours.eventsLost} (echo ${base.eventsLost})`,
      "ack p50/p99 ms": `${round(ours.ackP50)}/${round(ours.ackP99)} (echo ${round(base.ackP50)}/${round(base.ackP99)})`,
      "e2e p50/p99/max ms": `${round(ours.e2eP50)}/${round(ours.e2eP99)}/${round(ours.e2eMax)}`,
      "echo e2e p50/p99 ms": `${round(base.e2eP50)}/${round(base.e2eP99)}`,
      "e2e p99 ratio": round(ours.e2eP99 / base.e2eP99),
      "bot-added p99 ms": ours.botAddedP99 === null ? "-" : round(ours.botAddedP99),
      "cpu s/1k ev": `${round(ours.cpuSecondsPer1000, 3)} (echo ${round(base.cpuSecondsPer1000, 3)})`,
      "cpu ratio": round(ours.cpuSecondsPer1000 / base.cpuSecondsPer1000),
      "svc req/ev": ours.serviceRequestsPerEvent === null ? "-" : round(ours.serviceRequestsPerEvent, 3),
      "peak RSS MiB": `${ours.peakRssMiB} (echo ${base.peakRssMiB})`,
      "others' cpu s": `${round(ours.otherCpuSeconds.lineStandIn + ours.otherCpuSeconds.sandbox + ours.otherCpuSeconds.loadGenerator, 1)} (echo ${round(base.otherCpuSeconds.lineStandIn + base.otherCpuSeconds.sandbox + base.otherCpuSeconds.loadGenerator, 1)})`,
    }));
    console.table(table);
    const first = slipline.steps[0];
    if (first) {
      console.log(`slipline end-to-end by command at ${first.rate} events/s (p50/p99 ms):`);
      console.log(
        Object.entries(first.e2eByText)
          .map(([text, ms]) => `  ${text.padEnd(20)} ${ms.p50}/${ms.p99}`)
          .join("\n"),
      );
    }
    console.log(
      `peak RSS: slipline ${round(slipline.peakRssMiB, 1)} MiB, echo ${round(baseline.peakRssMiB, 1)} MiB (ratio ${round(slipline.peakRssMiB / baseline.peakRssMiB)})`,
    );
    console.log(
      `qr-image at 512 px: ${round(qrImage.ours.imagesPerSecond, 0)} img/s vs qrcode toBuffer ${round(qrImage.qrcode.imagesPerSecond, 0)} img/s (ratio ${round(qrImage.ratio, 1)})`,
    );
    console.log(
      `history query at ${historyQuery.rows.toLocaleString("en")} rows: median ${round(historyQuery.medianMs, 3)} ms, p99 ${round(historyQuery.p99Ms, 3)} ms (seeded in ${round(historyQuery.seedSeconds, 1)} s)`,
    );
    const counts = (record: Record<string, number>) =>
      Object.keys(record).length === 0 ? "0" : Object.entries(record).map(([key, n]) => `${n} ${key}`).join(", ");
    console.log(
      `goodput with the slip service answering in ${SLOW.latencyMs / 1000} s (${goodput.eventsSent} "${SLOW.text}" at ${SLOW.eventsPerSecond}/s): ` +
        `acknowledged ${goodput.acknowledged}, real answers ${goodput.realAnswers}, "service unavailable" ${goodput.unavailableAnswers}, ` +
        `other ${goodput.otherAnswers}, no answer ${goodput.noAnswer}; real ${round(goodput.realShare * 100, 1)}% ` +
        `(goal >= ${goodput.goalShare * 100}%: ${goodput.goalMet ? "met" : "MISSED"}); ` +
        `time to answer p50/p99 ${goodput.answerP50Ms}/${goodput.answerP99Ms} ms (real answers ${goodput.realAnswerP50Ms}/${goodput.realAnswerP99Ms} ms)`,
    );
    console.log(
      `SIGTERM mid-burst (${sigterm.eventsSent} "${SLOW.text}" at ${SLOW.eventsPerSecond}/s, SIGTERM at ${round(sigterm.sigtermAtMs / 1000, 2)} s ` +
        `after ${sigterm.sentBeforeSigterm} webhooks): acknowledged ${sigterm.acknowledged}, refused 503 ${sigterm.refused503}, ` +
        `other statuses ${counts(sigterm.otherStatuses)}, connection errors ${counts(sigterm.connectionErrors)}; ` +
        `acknowledged without answer ${sigterm.acknowledgedUnanswered} (goal 0: ${sigterm.acknowledgedUnanswered === 0 ? "met" : "MISSED"}), ` +
        `answered: ${sigterm.acknowledgedReal} real, ${sigterm.acknowledgedUnavailable} "service unavailable", ` +
        `${sigterm.acknowledgedRestarting} "restarting", ${sigterm.acknowledgedOther} other; ` +
        `exit code ${String(sigterm.exitCode)}${sigterm.exitSignal ? ` (${sigterm.exitSignal})` : ""}${sigterm.killed ? " after SIGKILL" : ""} ` +
        `${round(sigterm.exitAfterMs / 1000, 2)} s after SIGTERM; /readyz 0.2 s after SIGTERM: ${sigterm.readyzAfterSigterm}`,
    );

    mkdirSync("bench/results", { recursive: true });
    const file = `bench/results/bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
    writeFileSync(
      file,
      JSON.stringify({ at: new Date().toISOString(), node: process.version, rates: RATES, stepMs: STEP_MS, slipline, baseline, qrImage, historyQuery, slowService: { goodput, sigterm } }, null, 2),
    );
    console.log(`results: ${file}`);
  } finally {
    await Promise.all([sandbox.stop(), line.stop()]);
  }
}

await main();
