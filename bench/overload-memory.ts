// `npm run bench:overload`: what events waiting for their turn cost in memory, and what a burst past the
// bounds costs. One bot (this build, dist/) against a slip service that answers nothing for a minute, so
// every `history` it takes holds its turn or waits for one: MAX_RUNNING_EVENTS (64) run, each with a call
// in flight, and the rest wait, up to MAX_QUEUED_EVENTS (1,000) in all; past that the webhook answers 503.
// The GC probe collects garbage before each reading, so the heap figures are what is live. Prints the
// readings and the cost per event; writes JSON to bench/results/.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Pool } from "undici";
import { TSX_WITH_TOOL_SOURCES } from "../test/kit/entry-process.js";
import { freePort } from "../test/kit/free-port.js";
import { signBody, textEvent, webhookBody } from "../test/kit/webhook.js";
import { makeStaffPool, staffEnv } from "./load.js";
import { gcProbe, readGcTotals, startChild, type Child, type GcTotals } from "./processes.js";

const QUICK = process.env.BENCH_QUICK === "1";
const CHANNEL_SECRET = "0123456789abcdef0123456789abcdef";
/** Events sent in the first part (all taken: the bound), then in the burst past it. */
const FIRST = QUICK ? 300 : 1_000;
const BURST = QUICK ? 300 : 2_000;
/** Webhooks in flight at once from the sender. */
const CONNECTIONS = 32;
const STAFF = makeStaffPool(3_000, 0);

interface Reading {
  label: string;
  eventsTaken: number;
  rssMiB: number;
  peakRssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
}

let serial = 0;
/** One `history` from a staff user, a fresh event and reply token each time. */
function body(userId: string): string {
  serial += 1;
  return webhookBody([textEvent({ source: { type: "user", userId }, replyToken: `overload-${serial}`, text: "history" })]);
}

/** Sends `count` webhooks, CONNECTIONS at a time; counts the answers by status. */
async function send(pool: Pool, count: number): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const userId = STAFF.users[next % STAFF.users.length] ?? "";
      next += 1;
      const text = body(userId);
      const response = await pool.request({
        method: "POST",
        path: "/webhook",
        headers: { "content-type": "application/json", "x-line-signature": signBody(text, CHANNEL_SECRET) },
        body: text,
      });
      await response.body.dump();
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return statuses;
}

function peakRssMiB(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? Number.NaN) / 1024;
}

async function read(bot: Child, label: string, eventsTaken: number): Promise<Reading> {
  const pid = bot.process.pid ?? 0;
  const totals: GcTotals | undefined = await readGcTotals(pid);
  if (totals === undefined) throw new Error("the bot's GC probe did not answer");
  const m = totals.memoryMiB;
  return { label, eventsTaken, rssMiB: m.rss, peakRssMiB: Math.round(peakRssMiB(pid) * 10) / 10, heapUsedMiB: m.heapUsed, heapTotalMiB: m.heapTotal, externalMiB: m.external };
}

async function main(): Promise<void> {
  process.stderr.write("building...\n");
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });
  mkdirSync(gcProbe.dir, { recursive: true });
  const sandbox = await startChild("sandbox", [...TSX_WITH_TOOL_SOURCES, "bench/sandbox-process.ts"], { env: { BENCH_SANDBOX_LATENCY_MS: "60000" } });
  const line = await startChild("line stand-in", [...TSX_WITH_TOOL_SOURCES, "bench/line-stand-in.ts"], {});
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const bot = await startChild("slipline", ["--expose-gc", ...gcProbe.args, "dist/main.js"], {
    env: {
      ...staffEnv(STAFF),
      LINE_CHANNEL_SECRET: CHANNEL_SECRET,
      LINE_CHANNEL_ACCESS_TOKEN: "bench-access-token",
      LINE_API_BASE_URL: String(line.ready.url),
      SLIP_API_BASE_URL: String(sandbox.ready.url),
      SLIP_API_SECRET: "demo-shop-secret",
      PROMPTPAY_ID: "0812345678",
      PORT: String(port),
      LOG_LEVEL: "info",
      SHUTDOWN_DRAIN_SECONDS: "0",
      BENCH_GC_PROBE_DIR: gcProbe.dir,
      BENCH_GC_PROBE_COLLECT: "1",
    },
    healthUrl: `${url}/readyz`,
    onLine: () => undefined,
  });
  const pool = new Pool(url, { connections: CONNECTIONS });
  try {
    const readings: Reading[] = [await read(bot, "idle", 0)];
    const first = await send(pool, FIRST);
    readings.push(await read(bot, `${FIRST} sent`, first["200"] ?? 0));
    const burst = await send(pool, BURST);
    readings.push(await read(bot, `${BURST} more sent`, (first["200"] ?? 0) + (burst["200"] ?? 0)));
    const [idle, full, after] = readings as [Reading, Reading, Reading];
    const perEvent = (from: Reading, to: Reading, of: keyof Reading) => ((Number(to[of]) - Number(from[of])) * 1024) / Math.max(1, to.eventsTaken - from.eventsTaken);
    console.log("what events in hand cost (the service answers nothing; 64 run, the rest wait):");
    console.table(readings);
    console.log(
      `first ${FIRST} webhooks: ${JSON.stringify(first)}; the burst of ${BURST} more: ${JSON.stringify(burst)}\n` +
        `per event taken: ${perEvent(idle, full, "heapUsedMiB").toFixed(1)} KiB live heap, ${perEvent(idle, full, "rssMiB").toFixed(1)} KiB resident; ` +
        `the burst past the bound added ${(after.peakRssMiB - full.peakRssMiB).toFixed(1)} MiB to the peak resident memory`,
    );
    mkdirSync("bench/results", { recursive: true });
    const out = `bench/results/overload-memory-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
    writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), node: process.version, first, burst, readings }, null, 1));
    console.log(`wrote ${out}`);
  } finally {
    await pool.close();
    await bot.stop();
    await line.stop();
    await sandbox.stop();
  }
}

await main();
