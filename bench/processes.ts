// Child processes for the benchmark: start, wait until ready, read their CPU time and peak memory, stop.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import { METRICS_AUTH } from "../test/kit/metrics.js";

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  /** The first JSON line the child printed with `ready: true`. */
  readonly ready: Record<string, unknown>;
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` and resolves once it prints a JSON line with `ready: true` (or, with
 * `healthUrl`, once that URL answers 200). Other output is passed to `onLine`.
 */
export async function startChild(
  name: string,
  args: string[],
  options: { env?: Record<string, string>; healthUrl?: string; onLine?: (line: string) => void; timeoutMs?: number },
): Promise<Child> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr: string[] = [];
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr.push(chunk);
    if (stderr.length > 50) stderr.shift();
  });

  let buffered = "";
  let readyLine: Record<string, unknown> | undefined;
  const readyWaiters: Array<(value: Record<string, unknown>) => void> = [];
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
      if (!readyLine && line.startsWith("{") && line.includes('"ready":true')) {
        readyLine = JSON.parse(line) as Record<string, unknown>;
        for (const waiter of readyWaiters.splice(0)) waiter(readyLine);
      } else {
        options.onLine?.(line);
      }
    }
  });

  const timeoutMs = options.timeoutMs ?? 60_000;
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`${name} exited with ${String(code)} before it was ready:\n${stderr.join("")}`);
  });
  const ready = options.healthUrl
    ? waitForHealth(options.healthUrl, timeoutMs).then(() => ({ ready: true, url: options.healthUrl }))
    : new Promise<Record<string, unknown>>((resolve) => {
        if (readyLine) resolve(readyLine);
        else readyWaiters.push(resolve);
      });
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${name} not ready after ${timeoutMs} ms:\n${stderr.join("")}`)), timeoutMs).unref());
  const readyValue = await Promise.race([ready, exited, timeout]);

  return {
    name,
    process: child,
    ready: readyValue,
    stop: () => stopByPid(child, 5_000),
  };
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Stops a child by its PID: SIGTERM, then SIGKILL after `killAfterMs`; resolves once it has exited. */
async function stopByPid(child: ChildProcess, killAfterMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  await gone;
  clearTimeout(timer);
}

/**
 * The sum of every sample of one Prometheus metric at `<baseUrl>/metrics` (all its label sets), read with the
 * kit's METRICS_TOKEN (every bot the bench starts has it); NaN when the page cannot be read within a second.
 */
export async function metricSum(baseUrl: string, name: string): Promise<number> {
  try {
    const response = await fetch(`${baseUrl}/metrics`, { headers: METRICS_AUTH, signal: AbortSignal.timeout(1_000) });
    const text = await response.text();
    if (!response.ok) return Number.NaN;
    let sum = 0;
    for (const line of text.split("\n")) {
      if (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) sum += Number(line.slice(line.lastIndexOf(" ") + 1));
    }
    return sum;
  } catch {
    return Number.NaN;
  }
}

const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ

/** CPU seconds (user + system) from a /proc stat file: a process's (all its threads) or one thread's. */
function statCpuSeconds(path: string): number {
  const stat = readFileSync(path, "utf8");
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / CLOCK_TICKS_PER_SECOND;
}

/** CPU seconds (user + system) the process has used so far, all its threads, from /proc. */
export function cpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/**
 * CPU seconds the process's threads other than its main one have used so far (those that ended included):
 * V8's compiler and garbage-collector helpers and libuv's pool. High per event while V8 still compiles the
 * hot code, so it tells whether a process was warm when it was measured.
 */
export function helperThreadCpuSeconds(pid: number): number {
  return cpuSeconds(pid) - statCpuSeconds(`/proc/${pid}/task/${pid}/stat`);
}

/** The process's peak resident set size so far, in MiB (VmHWM). */
export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** What bench/gc-probe.mjs counted in a bot process so far. */
export interface GcTotals {
  reads: number;
  allocatedBytes: number;
  pauseMs: number;
  collections: number;
  scavenges: number;
  markCompacts: number;
  /** The longest pause since the read before this one. */
  longestPauseMsSinceRead: number;
  /** How late the event loop ran since the read before, ms (perf_hooks' monitorEventLoopDelay, 10 ms resolution). */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  /** Where the resident memory was at the read, MiB: the RSS, V8's heap (and each space's), Buffers. */
  memoryMiB: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number; spaces: Record<string, number> };
}

/** The node arguments that load the GC probe, and the folder it writes to. */
export const gcProbe = { args: ["--import", new URL("./gc-probe.mjs", import.meta.url).href], dir: "bench/results/gc-probe" };

/**
 * Asks a process's GC probe (SIGUSR2) for its totals so far and waits for the file it writes; undefined when
 * the process has no probe or does not answer within two seconds.
 */
export async function readGcTotals(pid: number): Promise<GcTotals | undefined> {
  const path = `${gcProbe.dir}/${pid}.json`;
  const readsBefore = readTotals(path)?.reads ?? 0;
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    const totals = readTotals(path);
    if (totals !== undefined && totals.reads > readsBefore) return totals;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}

function readTotals(path: string): GcTotals | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as GcTotals;
  } catch {
    return undefined;
  }
}
