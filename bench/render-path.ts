// `npm run bench:render`: the replies that show dates and times (a history page, a day's and a week's
// summary with their figures, the balance with its forecast, "has it arrived?"), rendered in a loop by this
// build (dist/, built first). BENCH_BEFORE=<dir> renders the same views with another build too (<dir> is
// its dist, e.g. an earlier commit's, with a node_modules it can resolve), in alternating rounds, and prints
// ours/before: what a change did to the render path, measured in one run. Prints a table; writes JSON to
// bench/results/. BENCH_PROFILE=1 renders with this build alone (BENCH_BEFORE is left out) and writes a CPU
// profile of the rendering, the build before it left out, to bench/results/profile/render-path.cpuprofile:
// read it with bench/profile-report.ts.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { BalanceView } from "../src/commands/balance/render.js";
import type { HistoryView } from "../src/commands/history/render.js";
import type { PaidView } from "../src/commands/paid/render.js";
import type { SummaryView } from "../src/commands/summary/render.js";
import type { HistoryItem } from "../src/slip/types.js";
import type { SummaryFigures, SummaryShape } from "../src/summary/figures.js";
import { quantile } from "./stats.js";

const BEFORE = process.env.BENCH_BEFORE;
const PROFILE = process.env.BENCH_PROFILE === "1";
const QUICK = process.env.BENCH_QUICK === "1";
const ROUNDS = QUICK ? 3 : 15;
/** Each build renders a scenario for about this long per round. */
const ROUND_MS = QUICK ? 20 : 60;
const TIME_ZONE = "Asia/Bangkok";
/** 22 Nov 2026 14:05 in Bangkok. */
const NOW = new Date("2026-11-22T07:05:00.000Z");
const STATUSES = ["valid", "valid", "valid", "valid", "duplicate", "invalid", "fraud", "not_found"];
const SOURCES = ["line", "api", "web"];

interface Build {
  renderHistory(view: HistoryView): unknown;
  renderSummary(view: SummaryView): unknown;
  renderBalance(view: BalanceView): unknown;
  renderPaid(view: PaidView): unknown;
  computeFigures(items: readonly HistoryItem[], shape: SummaryShape): SummaryFigures;
}

async function loadBuild(dist: string): Promise<Build> {
  // Each command's renderer lives in its folder (commands/<name>/render.js); builds from before that layout
  // (the one before date-fns, say) kept them in render/<name>.js.
  const from = async <T>(...paths: string[]): Promise<T> => {
    const found = paths.map((path) => resolve(dist, path)).find((path) => existsSync(path));
    if (found === undefined) throw new Error(`${dist} has none of ${paths.join(", ")}`);
    return (await import(pathToFileURL(found).href)) as T;
  };
  const [history, summary, balance, paid, figures] = await Promise.all([
    from<Pick<Build, "renderHistory">>("commands/history/render.js", "render/history.js"),
    from<Pick<Build, "renderSummary">>("commands/summary/render.js", "render/summary.js"),
    from<Pick<Build, "renderBalance">>("commands/balance/render.js", "render/balance.js"),
    from<Pick<Build, "renderPaid">>("commands/paid/render.js", "render/paid.js"),
    from<Pick<Build, "computeFigures">>("summary/figures.js"),
  ]);
  return { ...history, ...summary, ...balance, ...paid, ...figures };
}

/** Checks spread over the `days` days up to NOW, newest first; deterministic. */
function checks(count: number, days: number): HistoryItem[] {
  const span = days * 86_400_000 - 3_600_000;
  return Array.from({ length: count }, (_, i) => {
    const status = STATUSES[i % STATUSES.length] ?? "valid";
    return {
      code: status === "valid" ? 200 : 400,
      status,
      amount: 50 + ((i * 7_919) % 250_000) / 100,
      transRef: `0156${String(1_000_000_000 + i * 104_729).slice(-10)}APP0${i % 10}`,
      transDate: new Date(NOW.getTime() - (span * i) / count - 60_000).toISOString(),
      senderName: `นาย ทดสอบ ${i % 37}`,
      receiverName: "ร้านกาแฟดีใจ",
      receiverAccount: "xxx-x-x1234-x",
      source: SOURCES[i % SOURCES.length] ?? "line",
      tokensCharged: i % 5 === 0 ? 0.5 : 1,
      createdAt: new Date(NOW.getTime() - (span * i) / count).toISOString(),
    };
  });
}

const WEEK = { from: { year: 2026, month: 11, day: 16 }, to: { year: 2026, month: 11, day: 22 } };
const TODAY = { year: 2026, month: 11, day: 22 };

interface Scenario {
  name: string;
  run(build: Build): unknown;
}

function scenarios(): Scenario[] {
  const weekChecks = checks(400, 7);
  const dayChecks = checks(120, 1);
  const page = weekChecks.slice(0, 10);
  const historyView: HistoryView = {
    lang: "th",
    timeZone: TIME_ZONE,
    scope: { by: "range", range: { kind: "days", days: 7 }, fromDate: WEEK.from, toDate: WEEK.to },
    page: 1,
    summary: {
      count: weekChecks.length,
      validTotal: 123_456.5,
      byStatus: [
        { status: "valid", count: 200 },
        { status: "duplicate", count: 50 },
      ],
    },
    rows: page,
  };
  const summaryOf = (build: Build, items: readonly HistoryItem[], from: typeof TODAY, range: SummaryView["range"]): unknown =>
    build.renderSummary({
      lang: "th",
      timeZone: TIME_ZONE,
      range,
      figures: build.computeFigures(items, { fromDate: from, toDate: TODAY, timeZone: TIME_ZONE }),
      coveredFrom: from,
      coveredTo: TODAY,
      askedFrom: from,
      total: items.length,
      at: NOW,
    });
  const balanceView: BalanceView = {
    lang: "th",
    timeZone: TIME_ZONE,
    now: NOW,
    account: {
      storeName: "ร้านกาแฟดีใจ",
      packageName: "Pro",
      tokens: 1_234.5,
      credits: 0,
      rate: { chat: 1, api: 1 },
      estimatedSlips: { chat: 1_234, api: 1_234 },
      expiresAt: "2026-12-01T16:59:59.000Z",
    },
    usage: { tokensCharged: 350, days: 30 },
  };
  const paidView: PaidView = {
    lang: "th",
    timeZone: TIME_ZONE,
    amountSatang: 15_000,
    after: new Date(NOW.getTime() - 30 * 60_000),
    found: dayChecks.slice(0, 3),
    askAgain: "จ่ายแล้วยัง 150",
  };
  return [
    { name: "history page (10 rows, 7 days)", run: (b) => b.renderHistory(historyView) },
    { name: "summary today (120 checks: figures + card)", run: (b) => summaryOf(b, dayChecks, TODAY, { kind: "today" }) },
    { name: "summary 7 days (400 checks: figures + card)", run: (b) => summaryOf(b, weekChecks, WEEK.from, { kind: "days", days: 7 }) },
    { name: "balance with forecast", run: (b) => b.renderBalance(balanceView) },
    { name: "has it arrived (3 found)", run: (b) => b.renderPaid(paidView) },
  ];
}

let sink = 0;

/** Microseconds per render over one round of about ROUND_MS. */
function round(scenario: Scenario, build: Build, iterations: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const result = scenario.run(build);
    sink += Array.isArray(result) ? result.length : 1;
  }
  return Number(process.hrtime.bigint() - start) / 1_000 / iterations;
}

/** Renders per round so that a round takes about ROUND_MS, from a short untimed warm-up. */
function iterationsFor(scenario: Scenario, build: Build): number {
  round(scenario, build, 200);
  const micros = round(scenario, build, 200);
  return Math.max(20, Math.round((ROUND_MS * 1_000) / micros));
}

export interface RenderPathFigure {
  scenario: string;
  oursMicros: number;
  beforeMicros?: number;
  /** ours / before, of the medians; above 1 is slower. */
  ratio?: number;
}

async function main(): Promise<void> {
  process.stderr.write("building...\n");
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });
  const ours = await loadBuild("dist");
  const before = BEFORE === undefined || PROFILE ? undefined : await loadBuild(BEFORE);
  const session = PROFILE ? new Session() : undefined;
  if (session !== undefined) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  const figures: RenderPathFigure[] = [];
  for (const scenario of scenarios()) {
    const n = iterationsFor(scenario, ours);
    if (before !== undefined) iterationsFor(scenario, before);
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate which build goes first, so neither always runs on a warmer or a busier machine.
      if (before !== undefined && r % 2 === 1) b.push(round(scenario, before, n));
      a.push(round(scenario, ours, n));
      if (before !== undefined && r % 2 === 0) b.push(round(scenario, before, n));
    }
    const oursMicros = quantile(a, 0.5);
    const beforeMicros = before === undefined ? undefined : quantile(b, 0.5);
    figures.push({ scenario: scenario.name, oursMicros, ...(beforeMicros === undefined ? {} : { beforeMicros, ratio: oursMicros / beforeMicros }) });
  }
  if (session !== undefined) {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    mkdirSync("bench/results/profile", { recursive: true });
    writeFileSync("bench/results/profile/render-path.cpuprofile", JSON.stringify(profile));
    process.stderr.write("wrote bench/results/profile/render-path.cpuprofile\n");
  }
  const total = (pick: (f: RenderPathFigure) => number | undefined): number => figures.reduce((sum, f) => sum + (pick(f) ?? Number.NaN), 0);
  const lines = [
    `render path, median µs per reply over ${ROUNDS} rounds of about ${ROUND_MS} ms per build${before === undefined ? "" : `; before = ${BEFORE}`}:`,
    ...figures.map(
      (f) =>
        `  ${f.scenario.padEnd(46)} ours ${f.oursMicros.toFixed(1).padStart(8)}` +
        (f.beforeMicros === undefined || f.ratio === undefined ? "" : `  before ${f.beforeMicros.toFixed(1).padStart(8)}  ours/before ${f.ratio.toFixed(3)}`),
    ),
    before === undefined
      ? `  ${"all five".padEnd(46)} ours ${total((f) => f.oursMicros)
          .toFixed(1)
          .padStart(8)}`
      : `  ${"all five".padEnd(46)} ours ${total((f) => f.oursMicros)
          .toFixed(1)
          .padStart(8)}  before ${total((f) => f.beforeMicros)
          .toFixed(1)
          .padStart(8)}  ours/before ${(total((f) => f.oursMicros) / total((f) => f.beforeMicros)).toFixed(3)}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  mkdirSync("bench/results", { recursive: true });
  const file = `bench/results/render-path-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
  writeFileSync(file, `${JSON.stringify({ node: process.version, rounds: ROUNDS, roundMs: ROUND_MS, before: BEFORE ?? null, figures }, null, 2)}\n`);
  process.stderr.write(`wrote ${file} (${sink > 0 ? "rendered" : "nothing rendered"})\n`);
}

await main();
