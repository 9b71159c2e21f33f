import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/** The tools' packages (tools/*) from their sources, as tsc and tsx take them; then Vite's own conditions. */
const conditions = ["slipline-source", "module", "node", "development|production"];

const FILES = ["test/**/*.test.ts", "tools/*/test/**/*.test.ts"];

/**
 * Files that measure the bot under a burst (throughput, a SIGKILL or Redis lost mid-burst, memory held by
 * slow clients): they judge timings and sizes of processes they start, so they run last, one at a time,
 * with nothing else on the machine's cores.
 */
export const ALONE = ["test/bot/one-instance.test.ts", "test/bot/several-instances.test.ts"];

/**
 * The other files mostly wait on sockets and child processes (the bot, the sandbox, redis-server, Chromium),
 * so they run two files per core at once.
 */
const WORKERS = 2 * availableParallelism();

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: WORKERS,
    projects: [
      // A worker keeps its modules from one file to the next (isolate: false): each file importing the
      // product's sources afresh was two thirds of the run's import time. Nothing in the suite mocks a
      // module or fakes timers, and each file closes what it starts.
      { extends: true, test: { name: "together", include: FILES, exclude: ALONE, isolate: false, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "alone", include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
