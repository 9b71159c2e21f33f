// Benchmark child: the sandbox slip service, counting the requests it serves and how long each took,
// so the benchmark can report service requests per event and subtract the service's own time.
import { createServer } from "node:http";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox } from "../src/sandbox/server.js";

const dbPath = join(mkdtempSync(join(tmpdir(), "slipline-bench-")), "sandbox.db");
const sandbox = await startSandbox({ port: 0, host: "127.0.0.1", dbPath });

let requests = 0;
let serviceMs: number[] = [];
sandbox.server.on("request", (_request, response) => {
  const started = performance.now();
  requests += 1;
  response.once("finish", () => serviceMs.push(performance.now() - started));
});

const control = createServer((request, response) => {
  if (request.method === "POST" && request.url === "/drain") {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ requests, serviceMs }));
    requests = 0;
    serviceMs = [];
  } else {
    response.writeHead(404).end();
  }
});
control.listen(0, "127.0.0.1");
await once(control, "listening");
const address = control.address();
const controlPort = typeof address === "object" && address ? address.port : 0;
console.log(JSON.stringify({ ready: true, url: sandbox.url, controlUrl: `http://127.0.0.1:${controlPort}` }));

process.on("SIGTERM", () => {
  control.close();
  void sandbox.close().then(() => process.exit(0));
});
