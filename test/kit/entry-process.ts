// Runs one of our entry points (src/main.ts, tools/slip-sandbox/src/main.ts) as a child process with a clean
// environment, reads what it prints, and stops it by PID; names the entries the bench starts too.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

export interface EntryProcess {
  readonly child: ChildProcess;
  /** stdout and stderr as they arrived. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** The exit code, or null when a signal ended it. */
  readonly exited: Promise<number | null>;
  /** The first match in the output; fails when the process exits or the time runs out first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

/** The kit's echo bot (the official @line/bot-sdk pattern, the bench's baseline): plain JavaScript, for `node` as it is. */
export const ECHO_BOT_ENTRY = "test/kit/echo-bot.mjs";

/** Node's arguments for running TypeScript with the tools' packages read from their sources. */
export const TSX_WITH_TOOL_SOURCES = ["--conditions=slipline-source", "--import", "tsx"] as const;

const running = new Set<EntryProcess>();

/**
 * PATH and HOME only, plus libfaketime's variables when the suite runs under a shifted clock
 * (`npm run test:hours`), so that every process of a test sees the same time.
 */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" };
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && (name === "LD_PRELOAD" || name.startsWith("FAKETIME"))) env[name] = value;
  }
  return { ...env, ...extra };
}

/**
 * `node --import tsx <entry> ...args`, from the repository root; `entry` is relative to it. The tools'
 * packages are taken from their sources (the "slipline-source" condition), as the bot itself is.
 */
export function startEntry(entry: string, env: Record<string, string>, args: readonly string[] = []): EntryProcess {
  const child = spawn(process.execPath, [...TSX_WITH_TOOL_SOURCES, entry, ...args], {
    cwd: REPO,
    // No drain step unless a test asks for it: each stop would otherwise wait the default 5 s.
    env: childEnv({ SHUTDOWN_DRAIN_SECONDS: "0", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  let both = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    both += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
    both += chunk;
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      running.delete(entryProcess);
      resolve(code);
    });
  });
  const isRunning = (): boolean => child.exitCode === null && child.signalCode === null;

  const entryProcess: EntryProcess = {
    child,
    output: () => both,
    stdout: () => out,
    stderr: () => err,
    exited,
    // A start from TypeScript sources takes seconds, and several times that while other test files start
    // theirs on the same cores: the wait ends as soon as the line comes, so the bound only limits a failure.
    waitFor(pattern, timeoutMs = 45_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const match = both.match(pattern);
          if (match === null) return false;
          finish();
          resolve(match);
          return true;
        };
        const onData = (): void => void check();
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`no ${pattern} within ${timeoutMs} ms; output so far:\n${both}`));
        }, timeoutMs);
        const finish = (): void => {
          clearTimeout(timer);
          child.stdout?.off("data", onData);
          child.stderr?.off("data", onData);
        };
        if (check()) return;
        child.stdout?.on("data", onData);
        child.stderr?.on("data", onData);
        void exited.then(() => {
          if (check()) return;
          finish();
          reject(new Error(`${entry} exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${both}`));
        });
      });
    },
    async stop(graceMs = 5_000) {
      if (!isRunning()) return child.exitCode;
      child.kill("SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), graceMs)));
      const result = await Promise.race([exited, late]);
      clearTimeout(timer);
      if (result !== "late") return result;
      child.kill("SIGKILL");
      return exited;
    },
  };
  running.add(entryProcess);
  return entryProcess;
}

/** Kills (SIGKILL) every entry process a test left running. For afterEach / afterAll. */
export async function killLeftovers(): Promise<void> {
  const left = [...running];
  for (const p of left) p.child.kill("SIGKILL");
  await Promise.all(left.map((p) => p.exited));
}
