// `npx tsx bench/profile-report.ts <file.cpuprofile> [top]`: where a CPU profile (node --cpu-prof, written
// by `BENCH_PROFILE=1 npm run bench`) spends its busy time: by part (our code by folder, each npm package,
// Node's internals by module, the garbage collector, native code), first by self time, then by the samples
// whose stack holds that part anywhere (inclusive; async continuations count where they resume), and by
// function, as shares of the samples that were not idle.
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
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

function report(path: string, top: number): string {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
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

const [path, topText] = process.argv.slice(2);
if (path === undefined) {
  process.stderr.write("usage: npx tsx bench/profile-report.ts <file.cpuprofile> [top]\n");
  process.exit(2);
}
console.log(report(path, Number(topText ?? 25)));
