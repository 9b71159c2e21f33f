// `npm run sandbox`: the sandbox slip service on its own (env PORT, SANDBOX_DB, SANDBOX_PUBLIC_URL, SANDBOX_HOST, SANDBOX_LATENCY_MS).
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DEMO_SECRETS, DEMO_STORE_NAMES, demoShopId } from "./demo.js";
import { startSandbox } from "./server.js";
import { openStore } from "./store.js";

const USAGE = 'usage: npm run sandbox [-- --seed N] [--pay AMOUNT [--from "NAME"]] [--serve]';

interface Settings {
  port: number;
  host: string;
  dbPath: string;
  publicUrl: string | undefined;
  seed: number | undefined;
  /** `--pay 150`: a customer paying the demo shop now, in satang. */
  pay: { amountSatang: number; senderName: string | undefined } | undefined;
  serve: boolean;
  latencyMs: number;
}

/** Reads env and arguments; returns every problem at once. */
function readSettings(env: NodeJS.ProcessEnv, argv: readonly string[]): { settings?: Settings; problems: string[] } {
  const problems: string[] = [];

  let port = 4000;
  if (env.PORT !== undefined) {
    port = /^[0-9]{1,5}$/.test(env.PORT) ? Number(env.PORT) : -1;
    if (port < 0 || port > 65_535) problems.push(`PORT must be an integer from 0 to 65535, got "${env.PORT}"`);
  }

  const host = env.SANDBOX_HOST ?? "127.0.0.1";
  if (host.length === 0) problems.push("SANDBOX_HOST must not be empty");

  const dbPath = env.SANDBOX_DB ?? "data/sandbox.db";
  if (dbPath.length === 0) problems.push("SANDBOX_DB must not be empty");

  // Unset: http://localhost:PORT, or the listening URL when PORT=0 picks a free port.
  const publicUrl = env.SANDBOX_PUBLIC_URL?.replace(/\/+$/, "") ?? (port === 0 ? undefined : `http://localhost:${port}`);
  if (publicUrl !== undefined && !/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(publicUrl)) {
    problems.push(`SANDBOX_PUBLIC_URL must be an http(s) URL without query or fragment, got "${publicUrl}"`);
  }

  let latencyMs = 0;
  if (env.SANDBOX_LATENCY_MS !== undefined) {
    latencyMs = /^[0-9]{1,6}$/.test(env.SANDBOX_LATENCY_MS) ? Number(env.SANDBOX_LATENCY_MS) : -1;
    if (latencyMs < 0 || latencyMs > 120_000) problems.push(`SANDBOX_LATENCY_MS must be milliseconds from 0 to 120000, got "${env.SANDBOX_LATENCY_MS}"`);
  }

  let seed: number | undefined;
  let payAmount: number | undefined;
  let payFrom: string | undefined;
  let serve = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--seed") {
      const value = argv[i + 1] ?? "";
      i++;
      if (!/^[0-9]{1,9}$/.test(value) || Number(value) < 1) {
        problems.push(`--seed needs a number of checks from 1 to 999999999, got "${value}"`);
      } else {
        seed = Number(value);
      }
    } else if (arg === "--pay") {
      const value = argv[i + 1] ?? "";
      i++;
      const satang = /^\d{1,10}(\.\d{1,2})?$/.test(value) ? Math.round(Number(value) * 100) : 0;
      if (satang <= 0) problems.push(`--pay needs an amount in baht greater than 0, with at most 2 decimals, got "${value}"`);
      else payAmount = satang;
    } else if (arg === "--from") {
      payFrom = argv[i + 1];
      i++;
      if (payFrom === undefined || payFrom.trim() === "") problems.push("--from needs the payer's name");
    } else if (arg === "--serve") {
      serve = true;
    } else {
      problems.push(`unknown argument "${arg ?? ""}" (${USAGE})`);
    }
  }
  if (payFrom !== undefined && payAmount === undefined) problems.push("--from goes with --pay");
  if (problems.length > 0) return { problems };
  const pay = payAmount === undefined ? undefined : { amountSatang: payAmount, senderName: payFrom?.trim() };
  const oneShot = seed !== undefined || pay !== undefined;
  return { settings: { port, host, dbPath, publicUrl, seed, pay, serve: !oneShot || serve, latencyMs }, problems };
}

async function main(): Promise<void> {
  const { settings, problems } = readSettings(process.env, process.argv.slice(2));
  if (settings === undefined) {
    console.error(`sandbox: cannot start:\n  ${problems.join("\n  ")}`);
    process.exitCode = 1;
    return;
  }
  if (settings.dbPath !== ":memory:") mkdirSync(dirname(settings.dbPath), { recursive: true });

  const store = openStore(settings.dbPath);
  if (settings.seed !== undefined || settings.pay !== undefined) {
    // The demo shop must exist first.
    store.refreshDemo(Date.now());
  }
  if (settings.pay !== undefined) {
    const check = store.addPayment({ ...settings.pay, atMs: Date.now() });
    console.log(`sandbox: ${DEMO_STORE_NAMES.shop} received ฿${((check.amountSatang ?? 0) / 100).toFixed(2)} from ${check.senderName ?? "?"} (ref ${check.transRef})`);
  }
  if (settings.seed !== undefined) {
    const started = performance.now();
    const { count } = store.seedExtraChecks(settings.seed, Date.now());
    const seconds = (performance.now() - started) / 1000;
    const shopTotal = store.history(demoShopId("shop"), { page: 1, limit: 1 }).total;
    console.log(`sandbox: added ${count} checks for the demo shop in ${seconds.toFixed(1)} s; it has ${shopTotal} now (${store.checkCount()} in ${settings.dbPath})`);
  }
  if (!settings.serve) {
    store.close();
    return;
  }

  const sandbox = await startSandbox({
    port: settings.port,
    host: settings.host,
    store,
    latencyMs: settings.latencyMs,
    ...(settings.publicUrl === undefined ? {} : { publicUrl: settings.publicUrl }),
  });

  // Handlers first: whoever reads the address below may signal at once.
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A second signal while closing: give up waiting.
      process.exit(1);
    }
    stopping = true;
    console.log(`sandbox: ${signal}, stopping`);
    sandbox.close().then(
      () => {
        process.exitCode = 0;
      },
      (error: unknown) => {
        console.error("sandbox: error while stopping", error);
        process.exitCode = 1;
      },
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);

  console.log(`sandbox: slip service listening on ${sandbox.url} (links use ${settings.publicUrl ?? sandbox.url})`);
  const { seeded, added } = sandbox.demo;
  console.log(`sandbox: database ${settings.dbPath} (${seeded ? "new demo data" : "demo data brought up to now"}: ${added} checks added, ${store.checkCount()} in all)`);
  console.log("sandbox: demo API secrets (Authorization: Bearer <secret>):");
  console.log(`  ${DEMO_SECRETS.shop.padEnd(22)} ${DEMO_STORE_NAMES.shop} (active)`);
  console.log(`  ${DEMO_SECRETS.other.padEnd(22)} ${DEMO_STORE_NAMES.other} (active)`);
  console.log(`  ${DEMO_SECRETS.expired.padEnd(22)} ${DEMO_STORE_NAMES.expired} (package expired)`);
}

await main();
