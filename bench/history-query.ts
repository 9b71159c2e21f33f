// Benchmark: a filtered history query (page + COUNT) for the demo shop at one million extra rows; prints JSON.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { demoShopId } from "@slipline/slip-sandbox";
import { parseHistoryQuery } from "@slipline/slip-sandbox";
import { openStore } from "@slipline/slip-sandbox";
import { quantile } from "./stats.js";

const WARMUP = 20;
const ITERATIONS = 300;

export interface HistoryQueryBenchOptions {
  /** Checks added to the demo shop before measuring; default 1,000,000. */
  extraRows?: number;
}

export interface HistoryQueryScenario {
  name: string;
  query: string;
  total: number;
  items: number;
  iterations: number;
  medianMs: number;
  p99Ms: number;
  plan: unknown;
}

export interface HistoryQueryBenchResult {
  rows: number;
  extraRows: number;
  seedSeconds: number;
  /** The headline scenario (a status filter over the last 7 days, page 1 of 20). */
  medianMs: number;
  p99Ms: number;
  scenarios: HistoryQueryScenario[];
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** Seeds a temporary SQLite file and times the history query (COUNT + page) for several filters. */
export function benchHistoryQuery(options: HistoryQueryBenchOptions = {}): HistoryQueryBenchResult {
  const extraRows = options.extraRows ?? 1_000_000;
  const dir = mkdtempSync(join(tmpdir(), "slipline-bench-history-"));
  const store = openStore(join(dir, "sandbox.db"));
  try {
    const now = new Date("2026-11-20T07:30:00.000Z");
    store.refreshDemo(now.getTime());
    const seedStarted = performance.now();
    store.seedExtraChecks(extraRows, now.getTime());
    const seedMs = performance.now() - seedStarted;
    const shopId = demoShopId("shop");

    const someRef = store.history(shopId, { page: 1, limit: 1, toMs: now.getTime() - 40 * 86_400_000 }).items[0]?.transRef ?? "";
    // Each scenario is a query string as a caller would send it, parsed as the server parses it.
    const scenarios: [string, string][] = [
      ["status=valid, last 7 days, page 1 of 20", "status=valid&from=2026-11-14&to=2026-11-20&page=1&limit=20"],
      ["status=fraud, last 30 days, page 1 of 20", "status=fraud&from=2026-10-22&to=2026-11-20&page=1&limit=20"],
      ["today, page 1 of 100", "from=2026-11-20&to=2026-11-20&page=1&limit=100"],
      ["status=valid, all 90 days, page 1 of 20", "status=valid&from=2026-08-23&to=2026-11-20&page=1&limit=20"],
      ["status=duplicate, last 30 days, page 50 of 20", "status=duplicate&from=2026-10-22&to=2026-11-20&page=50&limit=20"],
      ["transRef exact", `transRef=${someRef}`],
    ];

    const results: HistoryQueryScenario[] = scenarios.map(([name, query]) => {
      const parsed = parseHistoryQuery(new URLSearchParams(query));
      if (!parsed.ok) throw new Error(`${name}: ${parsed.message}`);
      const filter = parsed.value;
      for (let i = 0; i < WARMUP; i++) store.history(shopId, filter);
      const times: number[] = [];
      let total = 0;
      let items = 0;
      for (let i = 0; i < ITERATIONS; i++) {
        const started = performance.now();
        const result = store.history(shopId, filter);
        times.push(performance.now() - started);
        total = result.total;
        items = result.items.length;
      }
      return {
        name,
        query,
        total,
        items,
        iterations: ITERATIONS,
        medianMs: round(quantile(times, 0.5)),
        p99Ms: round(quantile(times, 0.99)),
        plan: store.explainHistory(filter),
      };
    });

    const headline = results[0];
    return {
      rows: store.checkCount(),
      extraRows,
      seedSeconds: seedMs / 1000,
      medianMs: headline?.medianMs ?? Number.NaN,
      p99Ms: headline?.p99Ms ?? Number.NaN,
      scenarios: results,
    };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const extraRows = process.env.BENCH_HISTORY_ROWS === undefined ? undefined : Number(process.env.BENCH_HISTORY_ROWS);
  console.log(JSON.stringify(benchHistoryQuery(extraRows === undefined ? {} : { extraRows }), null, 2));
}
