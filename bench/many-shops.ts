// Many shops in one deployment (a shops file), measured as whole processes on loopback:
// - start-up: a file of 1,000 shops against a file of one, several runs each in turn: the time from the
//   process's start to /readyz 200, and the resident memory once idle (after each shop's start-up look at its
//   LINE channel);
// - CPU per event at one rate: the 1,000-shop deployment with the events spread over 100 shops' webhooks
//   (each signed with its shop's own channel secret) against the 1-shop deployment with all of them, the two
//   running side by side and measured in turn;
// - a reload of the whole file (every shop renamed, so each is changed in place) on SIGHUP in the middle of a
//   step at the same rate, against the step before it: events lost, webhooks refused, e2e p99.
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeStaffPool, runStep } from "./load.js";
import type { StaffPool, StepMeasurement, StepPlan } from "./load.js";
import { freePort } from "../test/kit/free-port.js";
import { cpuSeconds } from "./processes.js";
import { quantile } from "./stats.js";
import { TEST_METRICS_TOKEN } from "../test/kit/metrics.js";

export interface ManyShopsSetup {
  /** The LINE stand-in's API and its control port (bench/line-stand-in.ts). */
  lineUrl: string;
  lineControlUrl: string;
  sandboxUrl: string;
  /** The slip service secret every bench shop uses (the sandbox's demo shop). */
  slipSecret: string;
}

export interface ManyShopsOptions {
  /** Shops in the large file. */
  shops: number;
  /** Runs of each file for the start-up figures, in turn. */
  startupRuns: number;
  /** How long a process is left idle after /readyz 200 before its memory is read. */
  idleMs: number;
  /** The rate of the CPU and reload steps, events/s, and their length. */
  rate: number;
  stepMs: number;
  /** Shops the spread load goes to. */
  spreadOver: number;
  /** Each layout's steps for the CPU figure (one shop and spread, in turn). */
  cpuRounds: number;
  /** Reloads under load, each with a step without one before it (p99 over all of each kind). */
  reloadRounds: number;
}

export interface StartupFigures {
  shops: number;
  readyMs: number[];
  idleRssMiB: number[];
}

export interface LoadFigures {
  eventsSent: number;
  eventsLost: number;
  refused: number;
  cpuSecondsPer1000: number;
  e2eP99: number;
  /** Every answered event's end-to-end time, ms (to pool steps; left out of the results file). */
  e2eMs?: number[];
}

export interface ManyShopsFigures {
  startup: { one: StartupFigures; many: StartupFigures };
  /** The file's size in bytes (the staff lists of the loaded shops make most of it). */
  fileBytes: number;
  /** `oneShop`: the 1-shop deployment, every event to its shop; `spread`: the large one, over `spreadOver` shops. */
  cpu: { rate: number; spreadOver: number; oneShop: LoadFigures; spread: LoadFigures };
  /** `shopsChanged`: the fewest any reload changed; `reloadMs`: the longest from SIGHUP to the "shops reloaded" line. */
  reload: { rate: number; rounds: number; before: LoadFigures; during: LoadFigures; shopsChanged: number; reloadMs: number };
}

/** The load's chats: staff of each loaded shop (the bot does its full work for them). */
const STAFF: StaffPool = makeStaffPool(100, 30);
const TEXTS = ["balance", "qr 0812345678 150", "history", "help"];

const shopId = (n: number): string => `shop-${String(n).padStart(4, "0")}`;
const channelSecretOf = (n: number): string => (0xbe000000 + n).toString(16).padStart(32, "0");

/**
 * The shops file: `loaded` shops list the load's staff pool, the rest three staff users of their own (as a
 * small shop would). Every shop has its own channel; all use the sandbox's demo account.
 */
function shopsFileText(setup: ManyShopsSetup, count: number, loaded: number, nameSuffix: string): string {
  const shops = Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    const own = { users: [0, 1, 2].map((k) => `U${(0x5b000000 * 4 + n * 4 + k).toString(16).padStart(32, "0")}`), groups: [] as string[] };
    return {
      id: shopId(n),
      name: `Bench shop ${n}${nameSuffix}`,
      line: { channelSecret: channelSecretOf(n), channelAccessToken: `bench-shop-token-${n}` },
      slip: { baseUrl: setup.sandboxUrl, apiSecret: setup.slipSecret },
      promptPayId: "0812345678",
      staff: n <= loaded ? { users: STAFF.users, groups: STAFF.groups } : own,
      lang: "en",
    };
  });
  return JSON.stringify({ shops });
}

interface ShopsBot {
  child: ChildProcess;
  url: string;
  /** Lines the bot printed with this message since it started. */
  linesWith(msg: string): number;
  /** The "shops reloaded" lines so far: when each was read (performance.now()) and how many shops it changed. */
  reloads(): readonly { at: number; changed: number }[];
  stop(): Promise<void>;
}

/**
 * Starts the built bot on a shops file and resolves once /readyz answers 200, with how long that took.
 * `profile`: it writes a CPU profile when it stops (bench/results/profile/).
 */
async function startShopsBot(setup: ManyShopsSetup, file: string, profile = false): Promise<{ bot: ShopsBot; readyMs: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [...(profile ? ["--cpu-prof", "--cpu-prof-dir", "bench/results/profile"] : []), "dist/main.js"], {
    env: { ...process.env, SHOPS_FILE: file, LINE_API_BASE_URL: setup.lineUrl, PORT: String(port), LOG_LEVEL: "info", METRICS_TOKEN: TEST_METRICS_TOKEN },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const counts = new Map<string, number>();
  const reloads: { at: number; changed: number }[] = [];
  let buffered = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      const match = /"msg":"([^"]*)"/.exec(line);
      if (match?.[1] !== undefined) counts.set(match[1], (counts.get(match[1]) ?? 0) + 1);
      if (match?.[1] === "shops reloaded") reloads.push({ at: performance.now(), changed: (JSON.parse(line) as { changed: string[] }).changed.length });
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
    }
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4_000)));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = once(child, "exit");
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await gone;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the bot exited with ${child.exitCode} before it was ready:\n${stderr}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the bot was not ready within 120 s:\n${stderr}`);
    }
    const ready = await fetch(`${url}/readyz`).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status === 200;
      },
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { bot: { child, url, linesWith: (msg) => counts.get(msg) ?? 0, reloads: () => reloads, stop }, readyMs: performance.now() - started };
}

/** Resident memory now (VmRSS), MiB. */
function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

function plan(rate: number, durationMs: number): StepPlan {
  return { eventsPerSecond: rate, durationMs, texts: TEXTS, groupShare: 0.3, batchEvery: 5, batchSize: 3, drainMs: 15_000, staff: STAFF };
}

function loadFigures(step: StepMeasurement, cpu: number): LoadFigures {
  return {
    eventsSent: step.eventsSent,
    eventsLost: step.eventsLost,
    refused: step.ackErrors,
    cpuSecondsPer1000: (cpu / step.eventsSent) * 1000,
    e2eP99: quantile(step.endToEndMs, 0.99),
    e2eMs: step.endToEndMs,
  };
}

/** Several steps' figures as one (CPU per event weighted by events; p99 over all their events). */
function together(parts: readonly LoadFigures[]): LoadFigures {
  const sent = parts.reduce((sum, p) => sum + p.eventsSent, 0);
  return {
    eventsSent: sent,
    eventsLost: parts.reduce((sum, p) => sum + p.eventsLost, 0),
    refused: parts.reduce((sum, p) => sum + p.refused, 0),
    cpuSecondsPer1000: parts.reduce((sum, p) => sum + p.cpuSecondsPer1000 * p.eventsSent, 0) / sent,
    e2eP99: quantile(
      parts.flatMap((p) => p.e2eMs ?? []),
      0.99,
    ),
  };
}

export async function benchManyShops(setup: ManyShopsSetup, options: ManyShopsOptions): Promise<ManyShopsFigures> {
  const dir = mkdtempSync(join(tmpdir(), "slipline-bench-shops-"));
  try {
    const oneFile = join(dir, "one.json");
    const manyFile = join(dir, "many.json");
    writeFileSync(oneFile, shopsFileText(setup, 1, 1, ""));
    const manyText = shopsFileText(setup, options.shops, options.spreadOver, "");
    writeFileSync(manyFile, manyText);

    // Start-up: the two files in turn, so a slow spell of the machine falls on both.
    const startup = { one: { shops: 1, readyMs: [] as number[], idleRssMiB: [] as number[] }, many: { shops: options.shops, readyMs: [] as number[], idleRssMiB: [] as number[] } };
    for (let run = 0; run < options.startupRuns; run++) {
      for (const [figures, file] of [
        [startup.one, oneFile],
        [startup.many, manyFile],
      ] as const) {
        const { bot, readyMs } = await startShopsBot(setup, file);
        try {
          await new Promise((resolve) => setTimeout(resolve, options.idleMs));
          figures.readyMs.push(readyMs);
          figures.idleRssMiB.push(rssMiB(bot.child.pid ?? 0));
        } finally {
          await bot.stop();
        }
      }
      process.stderr.write(
        `  start-up run ${run + 1}: 1 shop ${Math.round(startup.one.readyMs.at(-1) ?? 0)} ms, ${options.shops} shops ${Math.round(startup.many.readyMs.at(-1) ?? 0)} ms\n`,
      );
    }

    // Load: a deployment of each file, side by side, measured in turn.
    // BENCH_PROFILE=1: the two load processes write CPU profiles.
    const profile = process.env.BENCH_PROFILE === "1";
    const single = await startShopsBot(setup, oneFile, profile);
    const many = await startShopsBot(setup, manyFile, profile).catch(async (err: unknown) => {
      await single.bot.stop();
      throw err;
    });
    try {
      const measure = async (bot: ShopsBot, shops: number, during?: () => void): Promise<LoadFigures> => {
        const pid = bot.child.pid ?? 0;
        const target = {
          webhookUrls: Array.from({ length: shops }, (_, i) => `${bot.url}/webhook/${shopId(i + 1)}`),
          channelSecret: channelSecretOf(1),
          channelSecrets: Array.from({ length: shops }, (_, i) => channelSecretOf(i + 1)),
          lineControlUrl: setup.lineControlUrl,
        };
        const before = cpuSeconds(pid);
        const timer = during === undefined ? undefined : setTimeout(during, options.stepMs / 3);
        try {
          const step = await runStep(target, plan(options.rate, options.stepMs));
          return loadFigures(step, cpuSeconds(pid) - before);
        } finally {
          clearTimeout(timer);
        }
      };
      // Warm-up of both: JIT, connection pools, each loaded shop's first calls.
      await measure(single.bot, 1);
      await measure(many.bot, options.spreadOver);
      const oneShop: LoadFigures[] = [];
      const spread: LoadFigures[] = [];
      for (let round = 0; round < options.cpuRounds; round++) {
        oneShop.push(await measure(single.bot, 1));
        spread.push(await measure(many.bot, options.spreadOver));
      }
      process.stderr.write(
        `  cpu: 1 shop ${together(oneShop).cpuSecondsPer1000.toFixed(3)} s/1k; ${options.shops} shops, over ${options.spreadOver} of them ${together(spread).cpuSecondsPer1000.toFixed(3)} s/1k\n`,
      );

      // Reloads: every shop renamed (changed in place; back again the next round), the file replaced whole,
      // then SIGHUP, a third into a step; each after a step without one.
      const before: LoadFigures[] = [];
      const during: LoadFigures[] = [];
      const reloads: { changed: number; ms: number }[] = [];
      for (let round = 0; round < options.reloadRounds; round++) {
        before.push(await measure(many.bot, options.spreadOver));
        const reloadsBefore = many.bot.reloads().length;
        let hupAt = Number.NaN;
        during.push(
          await measure(many.bot, options.spreadOver, () => {
            const next = join(dir, "many.next.json");
            writeFileSync(next, shopsFileText(setup, options.shops, options.spreadOver, round % 2 === 0 ? " (renamed)" : ""));
            renameSync(next, manyFile);
            hupAt = performance.now();
            many.bot.child.kill("SIGHUP");
          }),
        );
        // The file's replacement may be seen too (a second reload, changing nothing): the first one counts.
        const reload = many.bot.reloads()[reloadsBefore];
        reloads.push({ changed: reload?.changed ?? 0, ms: reload === undefined ? Number.NaN : reload.at - hupAt });
      }
      const [beforeAll, duringAll] = [together(before), together(during)];
      process.stderr.write(
        `  reloads during load: ${duringAll.eventsLost} lost, ${duringAll.refused} refused, p99 ${duringAll.e2eP99.toFixed(1)} ms (without ${beforeAll.e2eP99.toFixed(1)} ms)\n`,
      );
      return {
        startup,
        fileBytes: Buffer.byteLength(manyText),
        cpu: { rate: options.rate, spreadOver: options.spreadOver, oneShop: withoutSamples(together(oneShop)), spread: withoutSamples(together(spread)) },
        reload: {
          rate: options.rate,
          rounds: options.reloadRounds,
          before: withoutSamples(beforeAll),
          during: withoutSamples(duringAll),
          shopsChanged: Math.min(...reloads.map((r) => r.changed)),
          reloadMs: Math.max(...reloads.map((r) => r.ms)),
        },
      };
    } finally {
      await Promise.all([single.bot.stop(), many.bot.stop()]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const withoutSamples = ({ e2eMs: _samples, ...figures }: LoadFigures): LoadFigures => figures;

const median = (values: readonly number[]): number => quantile(values, 0.5);

export function manyShopsLine(f: ManyShopsFigures): string {
  const ms = (values: readonly number[]) => `${Math.round(median(values))} ms`;
  const mib = (values: readonly number[]) => `${median(values).toFixed(1)} MiB`;
  return (
    `many shops: start-up to /readyz 200 (median of ${f.startup.one.readyMs.length}) ${ms(f.startup.one.readyMs)} with 1 shop, ${ms(f.startup.many.readyMs)} with ${f.startup.many.shops} ` +
    `(file ${(f.fileBytes / 1024).toFixed(0)} KiB); idle RSS ${mib(f.startup.one.idleRssMiB)} vs ${mib(f.startup.many.idleRssMiB)}; ` +
    `CPU per event @${f.cpu.rate}/s ${f.cpu.oneShop.cpuSecondsPer1000.toFixed(3)} s/1k with 1 shop, ${f.cpu.spread.cpuSecondsPer1000.toFixed(3)} s/1k over ${f.cpu.spreadOver} of ${f.startup.many.shops}; ` +
    `${f.reload.rounds} reloads of ${f.startup.many.shops} shops @${f.reload.rate}/s: ${f.reload.during.eventsLost} lost, ${f.reload.during.refused} refused, ` +
    `e2e p99 ${f.reload.during.e2eP99.toFixed(1)} ms vs ${f.reload.before.e2eP99.toFixed(1)} ms in the steps without, at least ${f.reload.shopsChanged} shops changed each, ` +
    `logged within ${Number.isNaN(f.reload.reloadMs) ? "never" : `${Math.round(f.reload.reloadMs)} ms of SIGHUP`}`
  );
}
