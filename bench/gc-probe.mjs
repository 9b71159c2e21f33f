// Loaded into every bot process the bench measures (`node --import ./bench/gc-probe.mjs`), the echo bot's
// too, so both are counted the same way: V8's GC profiler records each collection's pause and the heap's
// used size before and after it. Bytes allocated are what the heap grew by between collections (each
// collection's "before" less the last one's "after"), plus its growth since the last one.
// On SIGUSR2 it writes the totals so far to $BENCH_GC_PROBE_DIR/<pid>.json; the bench reads them before and
// after a step. With BENCH_ALLOC_PROFILE=1 it also samples where the bytes are allocated (V8's sampling heap
// profiler, keeping objects the collector has freed, so it shows allocation rather than what stays) and
// writes <pid>.heapprofile there when the process exits (read it with bench/profile-report.ts).
// Plain JavaScript, outside src/: the bot itself knows nothing of it.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import v8 from "node:v8";

const dir = process.env.BENCH_GC_PROBE_DIR;
if (dir !== undefined && dir !== "") {
  const totals = { reads: 0, allocatedBytes: 0, pauseMs: 0, collections: 0, scavenges: 0, markCompacts: 0, longestPauseMsSinceRead: 0 };
  let lastAfter = v8.getHeapStatistics().used_heap_size;
  let profiler = new v8.GCProfiler();
  profiler.start();
  // How late the event loop ran its timers since the last read (a stall delays every event in hand).
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();

  // BENCH_GC_PROBE_COLLECT=1 (with node --expose-gc): a full collection before each reading, so the heap's
  // figures are what is live (bench/overload-memory.ts).
  const collect = process.env.BENCH_GC_PROBE_COLLECT === "1" && typeof globalThis.gc === "function";
  const take = () => {
    if (collect) globalThis.gc();
    const { statistics } = profiler.stop();
    profiler = new v8.GCProfiler();
    profiler.start();
    for (const gc of statistics) {
      const before = gc.beforeGC.heapStatistics.usedHeapSize;
      totals.allocatedBytes += Math.max(0, before - lastAfter);
      lastAfter = gc.afterGC.heapStatistics.usedHeapSize;
      const pauseMs = gc.cost / 1000;
      totals.pauseMs += pauseMs;
      totals.longestPauseMsSinceRead = Math.max(totals.longestPauseMsSinceRead, pauseMs);
      totals.collections += 1;
      if (gc.gcType === "Scavenge" || gc.gcType === "MinorMarkSweep") totals.scavenges += 1;
      else if (gc.gcType === "MarkSweepCompact") totals.markCompacts += 1;
    }
    const now = v8.getHeapStatistics().used_heap_size;
    totals.allocatedBytes += Math.max(0, now - lastAfter);
    lastAfter = now;
    totals.reads += 1;
    totals.eventLoopDelayMs = {
      p50: loopDelay.percentile(50) / 1e6,
      p99: loopDelay.percentile(99) / 1e6,
      max: loopDelay.max / 1e6,
    };
    loopDelay.reset();
    // Where the resident memory is, at this read (MiB): V8's heap (by space), Buffers and other memory outside it.
    const memory = process.memoryUsage();
    const mib = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;
    totals.memoryMiB = {
      rss: mib(memory.rss),
      heapTotal: mib(memory.heapTotal),
      heapUsed: mib(memory.heapUsed),
      external: mib(memory.external),
      arrayBuffers: mib(memory.arrayBuffers),
      spaces: Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, mib(space.physical_space_size)])),
    };
    writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(totals));
    totals.longestPauseMsSinceRead = 0;
  };
  process.on("SIGUSR2", take);

  if (process.env.BENCH_ALLOC_PROFILE === "1") {
    const session = new Session();
    session.connect();
    session.post("HeapProfiler.startSampling", { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    // An in-process session answers synchronously, so the profile is written before the exit completes.
    process.on("exit", () => {
      session.post("HeapProfiler.stopSampling", (error, result) => {
        if (error === null) writeFileSync(join(dir, `${process.pid}.heapprofile`), JSON.stringify(result.profile));
      });
    });
  }
}
