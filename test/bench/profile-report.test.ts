// The profile report's step windows: which samples a load step is, out of a process's whole life.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { allocationReport, busyByPart, profilePid, samplesWithin } from "../../bench/profile-report.js";

const ms = 1_000; // profile times are in microseconds

describe("the samples within a step's windows", () => {
  it("are those taken between a window's start and end, on the monotonic clock the profile started at", () => {
    // Started at 5 s; samples 100 ms apart, at 5.1, 5.2, ... 6.0 s.
    const deltas = Array<number>(10).fill(100 * ms);
    const kept = samplesWithin(5_000 * ms, deltas, [{ fromMicros: 5_250 * ms, toMicros: 5_500 * ms }]);
    expect(kept).toEqual([false, false, true, true, true, false, false, false, false, false]);
  });

  it("are those of every window given (a step and its CPU rounds)", () => {
    const deltas = Array<number>(6).fill(1_000 * ms); // at 1, 2, ... 6 s
    const kept = samplesWithin(0, deltas, [
      { fromMicros: 1_500 * ms, toMicros: 2_500 * ms },
      { fromMicros: 4_500 * ms, toMicros: 6_000 * ms },
    ]);
    expect(kept).toEqual([false, true, false, false, true, true]);
  });
});

describe("the process a profile is of", () => {
  it("is the pid in the name node --cpu-prof gives the file", () => {
    expect(profilePid("bench/results/profile/CPU.20261128.150254.11619.0.001.cpuprofile")).toBe(11619);
  });

  it("is refused for a file named otherwise", () => {
    expect(() => profilePid("slipline.cpuprofile")).toThrow(/CPU\.<date>\.<time>\.<pid>/);
  });
});

describe("busy time in a step", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** A profile of process 4242 started at 10 s: 30 busy samples of warm-up (2 s), then 10 idle, then 20 busy of the step. */
  function writeProfile(windows: unknown): string {
    dir = mkdtempSync(join(tmpdir(), "slipline-profile-"));
    const nodes = [
      { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1 }, children: [2, 3] },
      { id: 2, callFrame: { functionName: "(idle)", url: "", lineNumber: -1 } },
      { id: 3, callFrame: { functionName: "dispatchOne", url: "file:///app/dist/pipeline/dispatcher.js", lineNumber: 63 } },
    ];
    const samples = [...Array<number>(30).fill(3), ...Array<number>(10).fill(2), ...Array<number>(20).fill(3)];
    const timeDeltas = samples.map(() => 100 * ms);
    const path = join(dir, "CPU.20261128.150254.4242.0.001.cpuprofile");
    writeFileSync(path, JSON.stringify({ nodes, startTime: 10_000 * ms, endTime: 16_000 * ms, samples, timeDeltas }));
    writeFileSync(join(dir, "windows.json"), JSON.stringify({ windows }));
    return path;
  }

  it("counts only the step's samples, not the warm-up's", () => {
    // The step: samples 41 to 60, at 14.1 to 16.0 s.
    const path = writeProfile([{ pid: 4242, layout: "slipline", rate: 250, fromMicros: 14_050 * ms, toMicros: 16_000 * ms }]);
    expect(busyByPart(path, 250).busyMicros).toBe(2_000 * ms);
    expect(busyByPart(path, 250).byPart.get("slipline pipeline")).toBe(2_000 * ms);
    // Without a step: the whole life, warm-up included.
    expect(busyByPart(path, undefined).busyMicros).toBe(5_000 * ms);
  });

  it("is refused when the bench wrote no step at that rate for the process", () => {
    const path = writeProfile([{ pid: 9999, layout: "slipline", rate: 250, fromMicros: 0, toMicros: 20_000 * ms }]);
    expect(() => busyByPart(path, 250)).toThrow(/no step at 250\/s for process 4242/);
  });
});

describe("bytes allocated, from a sampling heap profile", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("are counted by part where they were allocated, and by part anywhere on the stack", () => {
    dir = mkdtempSync(join(tmpdir(), "heap-profile-"));
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
    // root → handler (ours, 100 bytes) → stringify in node:buffer (300 bytes); root → express (600 bytes).
    const head = {
      callFrame: frame("(root)", ""),
      selfSize: 0,
      children: [
        {
          callFrame: frame("handle", "file:///app/dist/line/api.js"),
          selfSize: 100,
          children: [{ callFrame: frame("createFromString", "node:buffer"), selfSize: 300, children: [] }],
        },
        { callFrame: frame("next", "file:///app/node_modules/express/lib/router.js"), selfSize: 600, children: [] },
      ],
    };
    const path = join(dir, "1.heapprofile");
    writeFileSync(path, JSON.stringify({ head, samples: [] }));
    const lines = allocationReport(path, 10).split("\n");
    const rowsUnder = (title: string) => lines.slice(lines.indexOf(title) + 1, lines.indexOf(title) + 4).map((line) => line.trim());
    expect(rowsUnder("bytes allocated by part:")).toEqual(["60.0 %  express", "30.0 %  node:buffer", "10.0 %  slipline line"]);
    expect(rowsUnder("with the part on the stack (inclusive):")).toEqual(["60.0 %  express", "40.0 %  slipline line", "30.0 %  node:buffer"]);
  });
});
