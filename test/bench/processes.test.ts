// The bench's CPU readings from /proc: work done on a thread other than the main one counts as the helper
// threads', and work on the main thread does not.
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { cpuSeconds, helperThreadCpuSeconds } from "../../bench/processes.js";

/** A fixed amount of arithmetic (CPU time, whatever the wall clock): about half a second here. */
function spin(): number {
  let x = 0;
  for (let i = 0; i < 2e8; i++) x = (x + i) % 7;
  return x;
}

describe("helperThreadCpuSeconds", () => {
  it("counts a worker thread's CPU and not the main thread's", async () => {
    const before = { all: cpuSeconds(process.pid), helpers: helperThreadCpuSeconds(process.pid) };
    const worker = new Worker(`const { parentPort } = require("node:worker_threads"); parentPort.postMessage((${spin.toString()})());`, { eval: true });
    await new Promise((resolve, reject) => worker.once("message", resolve).once("error", reject));
    await worker.terminate();
    const workerSpent = helperThreadCpuSeconds(process.pid) - before.helpers;
    expect(workerSpent).toBeGreaterThan(0.15);

    const mainBefore = helperThreadCpuSeconds(process.pid);
    const allBefore = cpuSeconds(process.pid);
    spin();
    const mainSpent = cpuSeconds(process.pid) - allBefore;
    expect(mainSpent).toBeGreaterThan(0.15);
    // The helpers' share of the main thread's spin: at most what other threads did meanwhile, far below it.
    expect(helperThreadCpuSeconds(process.pid) - mainBefore).toBeLessThan(mainSpent / 2);
    // A thread that has ended still counts (the worker above is gone). Each reading is in 10 ms clock ticks:
    // two of them may be 20 ms off, and the sum of decimal tick counts a hair more.
    expect(helperThreadCpuSeconds(process.pid) - before.helpers).toBeGreaterThan(workerSpent - 0.025);
    expect(cpuSeconds(process.pid) - before.all).toBeGreaterThan(workerSpent);
  });
});
