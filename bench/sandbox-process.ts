// Benchmark child: the sandbox slip service, counting the requests it serves and how long each took,
// so the benchmark can report service requests per event and subtract the service's own time.
// BENCH_SANDBOX_LATENCY_MS (default 0) makes it a slow service: each of its four operations answers that
// many milliseconds late (the slow-service scenarios in bench/slow-service.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox } from "@slipline/slip-sandbox";
import { serveControl } from "./control.js";

const dbDir = mkdtempSync(join(tmpdir(), "slipline-bench-"));
const dbPath = join(dbDir, "sandbox.db");
const latencyRaw = process.env.BENCH_SANDBOX_LATENCY_MS ?? "0";
if (!/^[0-9]{1,6}$/.test(latencyRaw)) throw new Error(`BENCH_SANDBOX_LATENCY_MS must be whole milliseconds, got "${latencyRaw}"`);
const latencyMs = Number(latencyRaw);
const sandbox = await startSandbox({ port: 0, host: "127.0.0.1", dbPath, latencyMs });

let requests = 0;
let serviceMs: number[] = [];
sandbox.server.on("request", (_request, response) => {
  const started = performance.now();
  requests += 1;
  response.once("finish", () => serviceMs.push(performance.now() - started));
});

const control = await serveControl({
  drain: () => {
    const drained = { requests, serviceMs };
    requests = 0;
    serviceMs = [];
    return drained;
  },
});
console.log(JSON.stringify({ ready: true, url: sandbox.url, controlUrl: control.url, latencyMs }));

process.on("SIGTERM", () => {
  control.close();
  void sandbox.close().then(() => {
    rmSync(dbDir, { recursive: true, force: true });
    process.exit(0);
  });
});
