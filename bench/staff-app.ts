// Benchmark of the staff web app (BENCH_ONLY=staff-app): exporting the newest 20,000 checks of a 31-day range
// as CSV from the sandbox, streamed (time, and the process's heap while it streams, against a smaller export:
// flat memory means the same peak whatever the number of rows), and the history API's latency for a 100-row page.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import { startSandbox } from "@slipline/slip-sandbox";
import { openStore } from "@slipline/slip-sandbox";
import { startBotHarness } from "../test/kit/bot-harness.js";
import { quantile } from "./stats.js";

const NOW = new Date("2026-11-20T07:30:00.000Z");
/** Several staff members: the API allows each 120 requests a minute, and the bench's clock stands still. */
const STAFF = Array.from({ length: 4 }, (_, i) => `U${String(i).repeat(32)}`);
const LOGIN = { channelId: "1650000001", liffId: "1650000001-BenchApp" } as const;
/** Extra checks spread over the demo's 90 days: some 25,000 of them in the last 31. */
const EXTRA_CHECKS = 75_000;
const HISTORY_WARMUP = 20;
const HISTORY_REQUESTS = 300;

export interface ExportFigures {
  range: string;
  rows: number;
  seconds: number;
  /** The process's heap above its level before the export, at its highest while streaming. */
  peakHeapGrowthMiB: number;
  cut: string;
}

export interface StaffAppFigures {
  checksInSandbox: number;
  exports: ExportFigures[];
  history: { requests: number; limit: number; medianMs: number; p99Ms: number };
}

const MiB = 1024 * 1024;
const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;

export async function benchStaffApp(): Promise<StaffAppFigures> {
  const dir = mkdtempSync(join(tmpdir(), "slipline-bench-staff-app-"));
  const store = openStore(join(dir, "sandbox.db"));
  store.refreshDemo(NOW.getTime());
  store.seedExtraChecks(EXTRA_CHECKS, NOW.getTime());
  const sandbox = await startSandbox({ store, now: () => NOW });
  const bot = await startBotHarness({
    now: () => NOW,
    lineNow: () => NOW.getTime(),
    slip: { baseUrl: sandbox.url, apiSecret: DEMO_SECRETS.shop },
    login: LOGIN,
    settings: { staffUserIds: new Set(STAFF) },
  });
  try {
    const tokens = STAFF.map((userId) => bot.platform.issueIdToken(userId, LOGIN.channelId));
    const headers = { authorization: `Bearer ${tokens[0] ?? ""}` };

    const exportOnce = async (from: string, to: string): Promise<ExportFigures> => {
      global.gc?.();
      const base = process.memoryUsage().heapUsed;
      let peak = base;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 10);
      const started = performance.now();
      const res = await fetch(`${bot.url}/app/api/export.csv?from=${from}&to=${to}`, { headers });
      if (res.status !== 200 || res.body === null) throw new Error(`export answered ${res.status}`);
      let rows = -1; // the header
      for await (const chunk of res.body) for (const byte of chunk as Uint8Array) if (byte === 0x0a) rows += 1;
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      return { range: `${from}..${to}`, rows, seconds: round(seconds), peakHeapGrowthMiB: round((peak - base) / MiB, 1), cut: res.headers.get("x-export-cut") ?? "" };
    };
    // Warm: the first export pays for compiling and connecting.
    await exportOnce("2026-11-20", "2026-11-20");
    const exports = [await exportOnce("2026-11-18", "2026-11-20"), await exportOnce("2026-10-21", "2026-11-20")];

    const times: number[] = [];
    for (let i = 0; i < HISTORY_WARMUP + HISTORY_REQUESTS; i += 1) {
      const page = 1 + (i % 50);
      const started = performance.now();
      const token = tokens[1 + (i % (tokens.length - 1))] ?? "";
      const res = await fetch(`${bot.url}/app/api/history?from=2026-10-21&to=2026-11-20&limit=100&page=${page}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`history answered ${res.status}`);
      if (i >= HISTORY_WARMUP) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return {
      checksInSandbox: store.checkCount(),
      exports,
      history: { requests: HISTORY_REQUESTS, limit: 100, medianMs: round(quantile(times, 0.5)), p99Ms: round(quantile(times, 0.99)) },
    };
  } finally {
    await bot.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function staffAppLine(f: StaffAppFigures): string {
  return [
    `staff app (sandbox with ${f.checksInSandbox} checks):`,
    ...f.exports.map((e) => `  export ${e.range}: ${e.rows} rows in ${e.seconds} s, heap +${e.peakHeapGrowthMiB} MiB at most while streaming (cut: ${e.cut})`),
    `  history, ${f.history.limit}-row pages: median ${f.history.medianMs} ms, p99 ${f.history.p99Ms} ms over ${f.history.requests} requests`,
  ].join("\n");
}
