// `npm run sandbox` as a process: env settings, the printed address and secrets, --seed, clean stops on signals.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HistoryPage, PromptPayQrUrl } from "../../src/slip/types.js";
import { SHOP, requestJson, postJson } from "./sandbox-client.js";

const ENTRY = join(import.meta.dirname, "../../src/sandbox/main.ts");
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "slipline-sandbox-main-"));
  dirs.push(dir);
  return dir;
}

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(env: Record<string, string>, args: string[] = []): Run {
  const child = spawn(process.execPath, ["--import", "tsx", ENTRY, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let text = "";
  child.stdout?.on("data", (d: Buffer) => (text += d.toString("utf8")));
  child.stderr?.on("data", (d: Buffer) => (text += d.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => text, exited };
}

/** Waits (bounded) until the output matches. */
async function waitFor(r: Run, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const m = pattern.exec(r.output());
    if (m !== null) return m;
    if (r.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`output never matched ${pattern}:\n${r.output()}`);
}

describe("npm run sandbox", () => {
  it("serves the demo shops, prints the address and secrets, and stops cleanly on SIGTERM", async () => {
    const dir = tempDir();
    const db = join(dir, "nested", "sandbox.db");
    const r = run({ PORT: "0", SANDBOX_DB: db, SANDBOX_PUBLIC_URL: "https://qr.example.test/" });
    const [, url = ""] = await waitFor(r, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await waitFor(r, /package expired/);
    expect(r.output()).toContain("demo-shop-secret");
    expect(r.output()).toContain("demo-other-secret");
    expect(r.output()).toContain("demo-expired-secret");
    expect(existsSync(db)).toBe(true);

    const info = await requestJson(url, "/api/account/info", SHOP);
    expect(info.status).toBe(200);
    const qr = await postJson<PromptPayQrUrl>(url, "/api/promptpay-qr-url", { payload: { accountNumber: "0812345678" } });
    expect(qr.body.data?.url.startsWith("https://qr.example.test/api/qr-image?data=")).toBe(true);

    r.child.kill("SIGTERM");
    expect(await r.exited).toBe(0);
    expect(r.output()).toContain("SIGTERM");
  });

  it("stops cleanly on SIGINT", async () => {
    const r = run({ PORT: "0", SANDBOX_DB: ":memory:" });
    await waitFor(r, /listening on/);
    r.child.kill("SIGINT");
    expect(await r.exited).toBe(0);
  });

  it("adds checks with --seed and exits, keeping them in the file", async () => {
    const db = join(tempDir(), "seed.db");
    const seed = run({ SANDBOX_DB: db }, ["--seed", "2500"]);
    expect(await seed.exited).toBe(0);
    expect(seed.output()).toMatch(/added 2500 checks for the demo shop/);

    const serve = run({ PORT: "0", SANDBOX_DB: db });
    const [, url = ""] = await waitFor(serve, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const res = await requestJson<HistoryPage>(url, "/api/slip-history?limit=1", SHOP);
    expect(res.body.data?.pagination.total).toBe(3000 + 2500);
    serve.child.kill("SIGTERM");
    expect(await serve.exited).toBe(0);
  });

  it("refuses bad settings with one message naming each", async () => {
    const r = run({ PORT: "http", SANDBOX_PUBLIC_URL: "ftp://x" }, ["--seed", "-3"]);
    expect(await r.exited).toBe(1);
    expect(r.output()).toContain("PORT must be an integer from 0 to 65535");
    expect(r.output()).toContain("SANDBOX_PUBLIC_URL must be an http(s) URL");
    expect(r.output()).toContain("--seed needs a number of checks");
  });
});
