// `npx tsx bench/profile-report.ts <file.cpuprofile> [top]`: where a CPU profile (node --cpu-prof, written
// by `BENCH_PROFILE=1 npm run bench`) spends its busy time: by part (our code by folder, each npm package,
// Node's internals by module, the garbage collector, native code), first by self time, then by the samples
// whose stack holds that part anywhere (inclusive; async continuations count where they resume), and by
// function, as shares of the samples that were not idle.
// `npx tsx bench/profile-report.ts --compare <a.cpuprofile> <b.cpuprofile> [top]`: the busy seconds of each
// part in two profiles side by side (say the echo bot's and slipline's from one run), largest difference first;
// `b1.cpuprofile+b2.cpuprofile` sums two (the two instances of the pair).
// `--step <rate>` (first) keeps only the samples taken during the load step at that rate and its CPU rounds,
// from the windows the bench wrote beside the profiles (windows.json): the same events for every layout,
// without the start-up, the warm-up and the idle spells (the warm-up, at 250/s a process, is busier for the
// pair than its steps, so "the busiest stretch" would pick it).
// `npx tsx bench/profile-report.ts <pid>.heapprofile [top]`: where the bytes were allocated, from the sampling
// heap profile the GC probe writes (`BENCH_ALLOC_PROFILE=1`, bench/gc-probe.mjs): by part, with the part
// anywhere on the stack, and by function, as shares of all the bytes sampled.
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** When sampling began, in microseconds of the machine's monotonic clock (process.hrtime's). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The part of the program a script URL belongs to. */
export function partOf(url: string, functionName: string): string {
  if (url === "") {
    if (functionName === "(garbage collector)") return "GC";
    if (functionName === "(idle)" || functionName === "(program)" || functionName === "(root)") return functionName;
    return "native";
  }
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch?.[1] !== undefined) return packageMatch[1];
  if (url.startsWith("node:")) {
    const inner = url.slice("node:".length).replace(/^internal\//, "");
    const [first, second] = inner.split("/");
    return `node:${second === undefined || first === "deps" ? first : `${first}/${second.replace(/\.js$/, "")}`}`;
  }
  const ours = /\/(src|dist)\/(.+)$/.exec(url);
  if (ours?.[2] !== undefined) {
    const folder = ours[2].includes("/") ? ours[2].slice(0, ours[2].indexOf("/")) : ours[2].replace(/\.js$/, "");
    return `slipline ${folder}`;
  }
  return url;
}

export interface Busy {
  busyMicros: number;
  byPart: Map<string, number>;
}

/** A stretch of a process's life in which the bench ran one load step or CPU round (bench/run.ts). */
export interface StepWindow {
  pid: number;
  layout: string;
  rate: number;
  /** Monotonic clock, microseconds (as a profile's startTime). */
  fromMicros: number;
  toMicros: number;
}

/**
 * Which samples fall in one of the windows: sample i was taken at startTime plus the deltas up to and
 * including i (`timeDeltas[i]` is the time before sample i, as in a .cpuprofile).
 */
export function samplesWithin(startTime: number, timeDeltas: readonly number[], windows: readonly Pick<StepWindow, "fromMicros" | "toMicros">[]): boolean[] {
  let clock = startTime;
  return timeDeltas.map((delta) => {
    clock += delta;
    return windows.some((window) => clock >= window.fromMicros && clock <= window.toMicros);
  });
}

/** The process a profile is of: node --cpu-prof names it CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile. */
export function profilePid(path: string): number {
  const pid = Number(basename(path).split(".")[3]);
  if (!Number.isInteger(pid)) throw new Error(`${path}: not a name node --cpu-prof gives (CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile)`);
  return pid;
}

/** A profile, with only the samples of its steps at `stepRate` when given (the others' time set to 0). */
function readProfile(path: string, stepRate: number | undefined): CpuProfile {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  if (stepRate === undefined) return profile;
  const windowsPath = join(dirname(path), "windows.json");
  const pid = profilePid(path);
  const windows = (JSON.parse(readFileSync(windowsPath, "utf8")) as { windows: StepWindow[] }).windows.filter((window) => window.pid === pid && window.rate === stepRate);
  if (windows.length === 0) throw new Error(`${windowsPath} has no step at ${stepRate}/s for process ${pid}`);
  const kept = samplesWithin(profile.startTime, profile.timeDeltas, windows);
  return { ...profile, timeDeltas: profile.timeDeltas.map((delta, index) => (kept[index] === true ? delta : 0)) };
}

export function busyByPart(path: string, stepRate: number | undefined): Busy {
  const profiles = path.split("+").map((one) => readProfile(one, stepRate));
  const byPart = new Map<string, number>();
  let busyMicros = 0;
  for (const profile of profiles) {
    const counted = busyIn(profile);
    busyMicros += counted.busyMicros;
    for (const [part, micros] of counted.byPart) byPart.set(part, (byPart.get(part) ?? 0) + micros);
  }
  return { busyMicros, byPart };
}

function busyIn(profile: CpuProfile): Busy {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPart = new Map<string, number>();
  let busyMicros = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (node === undefined) return;
    const part = partOf(node.callFrame.url, node.callFrame.functionName);
    if (part === "(idle)") return;
    const micros = profile.timeDeltas[index] ?? 0;
    busyMicros += micros;
    byPart.set(part, (byPart.get(part) ?? 0) + micros);
  });
  return { busyMicros, byPart };
}

function compare(pathA: string, pathB: string, top: number, stepRate: number | undefined): string {
  const [a, b] = [busyByPart(pathA, stepRate), busyByPart(pathB, stepRate)];
  const parts = new Set([...a.byPart.keys(), ...b.byPart.keys()]);
  const seconds = (micros: number) => (micros / 1e6).toFixed(2).padStart(7);
  const rows = [...parts]
    .map((part) => ({ part, a: a.byPart.get(part) ?? 0, b: b.byPart.get(part) ?? 0 }))
    .sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a))
    .slice(0, top)
    .map(
      ({ part, a: inA, b: inB }) =>
        `  ${seconds(inA)} ${seconds(inB)} ${
          (inB - inA >= 0 ? "+" : "-") +
          seconds(Math.abs(inB - inA))
            .trim()
            .padStart(6)
        }  ${part}`,
    );
  return [
    `busy seconds by part (self): A = ${pathA}, B = ${pathB}`,
    `  ${"A".padStart(7)} ${"B".padStart(7)} ${"B - A".padStart(7)}`,
    `  ${seconds(a.busyMicros)} ${seconds(b.busyMicros)} ${
      (b.busyMicros - a.busyMicros >= 0 ? "+" : "-") +
      seconds(Math.abs(b.busyMicros - a.busyMicros))
        .trim()
        .padStart(6)
    }  all busy time`,
    ...rows,
  ].join("\n");
}

function report(path: string, top: number, stepRate: number | undefined): string {
  const profile = readProfile(path, stepRate);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, index) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));

  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const partsOnStack = new Map<number, Set<string>>();
  const stackParts = (id: number): Set<string> => {
    let parts = partsOnStack.get(id);
    if (parts === undefined) {
      const node = byId.get(id);
      const parent = parentOf.get(id);
      parts = new Set(parent === undefined ? [] : stackParts(parent));
      if (node !== undefined) parts.add(partOf(node.callFrame.url, node.callFrame.functionName));
      partsOnStack.set(id, parts);
    }
    return parts;
  };
  const inclusive = new Map<string, number>();

  const byPart = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let idle = 0;
  let total = 0;
  for (const [id, micros] of selfMicros) {
    const node = byId.get(id);
    if (node === undefined) continue;
    total += micros;
    const { functionName, url, lineNumber } = node.callFrame;
    const part = partOf(url, functionName);
    if (part === "(idle)") {
      idle += micros;
      continue;
    }
    byPart.set(part, (byPart.get(part) ?? 0) + micros);
    for (const onStack of stackParts(id)) {
      if (!onStack.startsWith("(")) inclusive.set(onStack, (inclusive.get(onStack) ?? 0) + micros);
    }
    const name = `${functionName || "(anonymous)"} ${url === "" ? "" : `${url.replace(/^.*\/(node_modules|src|dist)\//, "$1/")}:${lineNumber + 1}`}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  }
  const busy = total - idle;
  const share = (micros: number) => `${((micros / busy) * 100).toFixed(1).padStart(5)} %`;
  const rows = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => `  ${share(micros)}  ${name}`)
      .join("\n");
  return [
    `${path}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy`,
    "busy time by part:",
    rows(byPart),
    "busy time with the part on the stack (inclusive):",
    rows(inclusive),
    "busy time by function (self):",
    rows(byFunction),
  ].join("\n");
}

interface HeapProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapProfileNode[];
}

/** Bytes allocated by part (self and with the part on the stack) and by function, from a sampling heap profile. */
export function allocationReport(path: string, top: number): string {
  const { head } = JSON.parse(readFileSync(path, "utf8")) as { head: HeapProfileNode };
  const byPart = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  const add = (map: Map<string, number>, key: string, bytes: number) => map.set(key, (map.get(key) ?? 0) + bytes);
  const walk = (node: HeapProfileNode, onStack: ReadonlySet<string>): void => {
    const { functionName, url, lineNumber } = node.callFrame;
    const part = partOf(url, functionName);
    const stack = new Set(onStack).add(part);
    if (node.selfSize > 0) {
      total += node.selfSize;
      add(byPart, part, node.selfSize);
      for (const name of stack) if (!name.startsWith("(")) add(inclusive, name, node.selfSize);
      add(byFunction, `${functionName || "(anonymous)"} ${url === "" ? "" : `${url.replace(/^.*\/(node_modules|src|dist)\//, "$1/")}:${lineNumber + 1}`}`, node.selfSize);
    }
    for (const child of node.children) walk(child, stack);
  };
  walk(head, new Set());
  const share = (bytes: number) => `${((bytes / total) * 100).toFixed(1).padStart(5)} %`;
  const rows = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, bytes]) => `  ${share(bytes)}  ${name}`)
      .join("\n");
  return [
    `${path}: ${(total / 2 ** 20).toFixed(0)} MiB sampled`,
    "bytes allocated by part:",
    rows(byPart),
    "with the part on the stack (inclusive):",
    rows(inclusive),
    "by function (self):",
    rows(byFunction),
  ].join("\n");
}

/** Run as a script (not imported, as the tests do). */
function main(given: readonly string[]): void {
  const stepRate = given[0] === "--step" ? Number(given[1]) : undefined;
  const args = stepRate === undefined ? given : given.slice(2);
  if (stepRate !== undefined && !(Number.isInteger(stepRate) && stepRate > 0)) {
    process.stderr.write("--step takes a rate the bench ran, in events a second (say 250)\n");
    process.exit(2);
  }
  if (args[0] === "--compare" && args[1] !== undefined && args[2] !== undefined) {
    console.log(compare(args[1], args[2], Number(args[3] ?? 25), stepRate));
  } else if (args[0]?.endsWith(".heapprofile") === true) {
    console.log(allocationReport(args[0], Number(args[1] ?? 25)));
  } else if (args[0] !== undefined && args[0] !== "--compare") {
    console.log(report(args[0], Number(args[1] ?? 25), stepRate));
  } else {
    process.stderr.write(
      "usage: npx tsx bench/profile-report.ts [--step <rate>] <file.cpuprofile> [top]\n" +
        "       npx tsx bench/profile-report.ts [--step <rate>] --compare <a.cpuprofile> <b.cpuprofile>[+<b2.cpuprofile>] [top]\n",
    );
    process.exit(2);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
