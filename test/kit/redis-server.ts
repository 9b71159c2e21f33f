// A Redis of the test's (or the bench's) own: Debian's redis-server on a free loopback port, data in a
// temporary folder (append-only file, so a restart keeps what it had; or none, so a restart comes back
// empty as a hosted Redis without persistence does), stopped by PID. Never the machine's shared Redis.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** The running server's process id (it changes with a restart). */
  pid(): number | undefined;
  /**
   * Stops it (SIGTERM, then SIGKILL) and starts it again on the same port: with the same data, or empty without
   * persistence. Down for `downMs`, or until `until` settles (a test that checks what happens meanwhile says when).
   */
  restart(options?: { downMs?: number; until?: Promise<unknown> }): Promise<void>;
  stop(): Promise<void>;
}

export interface TestRedisOptions {
  /** Keep the data across a restart (append-only file, written at every command). Default true. */
  persistence?: boolean;
  /** More redis-server arguments, such as `--maxmemory-policy allkeys-lru`. */
  args?: readonly string[];
}

/**
 * The environment without libfaketime: under `npm run test:hours` redis-server hangs at start with it, and
 * it needs no shifted clock (the bot's expiries are relative: PX milliseconds).
 */
function realClockEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "LD_PRELOAD" && !name.startsWith("FAKETIME")));
}

/** `INFO commandstats` as calls by command name (`evalsha`, `xreadgroup`...; `config|resetstat` for subcommands). */
export function commandStats(info: string): Record<string, number> {
  const calls: Record<string, number> = {};
  for (const [, name, count] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls[name ?? ""] = Number(count);
  return calls;
}

export async function startTestRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const persistence = options.persistence ?? true;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "slipline-redis-"));
  let child: ChildProcess | undefined;

  const launch = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const args = [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--save",
        "",
        ...(persistence ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]),
        ...(options.args ?? []),
      ];
      const started = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"], env: realClockEnv() });
      child = started;
      let output = "";
      const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
      started.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once("error", (error) => {
        clearTimeout(timer);
        reject(new Error(`redis-server could not start (apt-get install -y redis-server): ${error.message}`));
      });
      started.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}):\n${output}`));
      });
    });

  const kill = async (): Promise<void> => {
    const running = child;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill("SIGTERM");
    const late = setTimeout(() => running.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(late);
  };

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: () => child?.pid,
    async restart(options = {}) {
      await kill();
      if (options.downMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.downMs));
      if (options.until !== undefined) await options.until.catch(() => undefined);
      await launch();
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
