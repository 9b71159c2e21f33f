// The test files CI runs beyond the whole suite, computed from their imports and text: those that touch the
// platform (run again on the other supported Node majors) and those that read the date (run again at 00:05
// Bangkok). test/groups.json holds the lists; test/groups.test.ts fails when they differ from these rules.
//   node scripts/test-groups.mjs            prints each group with why each file is in it
//   node scripts/test-groups.mjs --write    writes test/groups.json (after test files move, are added or removed)
//   node scripts/test-groups.mjs platform   prints one group's files, one a line
//
// A test file touches the platform when the file itself
//   - imports a Node module that opens sockets, servers, TLS, processes or threads: node:net, node:http, node:https,
//     node:tls, node:http2, node:dgram, node:child_process, node:worker_threads, node:cluster;
//   - imports a native addon (better-sqlite3, @napi-rs/canvas), or a product module whose own imports load
//     one (followed through product modules, not through test code);
//   - starts Chromium (playwright-core), a redis-server (the test kit's test/kit/redis-server.ts) or one of
//     our entry points as a process (the test kit's test/kit/entry-process.ts);
//   - sends or handles a signal (`.kill("SIG...")`, `process.kill(`, `process.on("SIG...")`).
// An `import type` loads nothing at run time and does not count. What it reaches only through other test
// code does not count either: a bot test that talks to the harness's loopback servers tests the bot, and the
// files above test the sockets under it.
// Whole-bot runs (test/bot/, test/browser/) check what users see, through the kit's processes and sockets;
// the platform under them is checked by the files that test it directly (test/main.test.ts: signals and exit
// codes; test/deploy/runtime-install.test.ts: the production install; the tools' tests: the native addons). A whole-bot file is in
// the group only when it is the one test of something the platform does, and says so in a comment line
// `// Platform: <what>` (keep-alive timers, SIGTERM seen from outside, SIGHUP and file watching, TLS to Redis).
//
// A test file reads the date when it runs the product on the real clock and its own text is about days:
//   - it starts the product: it imports, itself or through the test code it imports, the kit's bot harness
//     (test/kit/bot-harness.ts), the kit's test/kit/entry-process.ts, the sandbox's server (the module that
//     exports startSandbox) or playwright-core; these take "now" from the real clock unless a test passes one;
//   - and it names a day or a range of days: today, yesterday, วันนี้, เมื่อวาน, the history, summary or
//     export commands ("history", ประวัติ, "summary", ยอด, "export"), or imports a module of a time/ folder.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const LIST = "test/groups.json";
/** Folders with no test files of ours: installs anywhere, and what builds and runs write at the top. */
const SKIPPED = (path, name) => name === "node_modules" || ["dist", ".git", "coverage", "test-output", "data", "bench/results"].includes(path);

const PLATFORM_MODULES = new Set(["net", "http", "https", "tls", "http2", "dgram", "child_process", "worker_threads", "cluster"].map((name) => `node:${name}`));
const NATIVE_ADDONS = new Set(["better-sqlite3", "@napi-rs/canvas"]);
const BROWSER = "playwright-core";
/** The test kit's modules that start processes, and those that start the product. */
const PROCESS_STARTERS = new Set(["test/kit/redis-server.ts", "test/kit/entry-process.ts"]);
const PRODUCT_STARTERS = new Set(["test/kit/bot-harness.ts", "test/kit/entry-process.ts"]);
const WHOLE_BOT = /^test\/(?:bot|browser)\//;
const PLATFORM_NOTE = /^\/\/ Platform: (.+)$/m;
const SIGNAL = /\.kill\(\s*"SIG|process\.kill\(|process\.on\(\s*"SIG/;
const DAYS = /\btoday\b|\byesterday\b|วันนี้|เมื่อวาน|"history\b|ประวัติ|"summary\b|ยอด|"export\b/i;
const TYPE_ONLY = /^[\s;]*(?:import|export)\s+type\s/;
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^;]*?\sfrom\s*"([^"]+)"|(?:^|[\s;])import\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g;

const texts = new Map();
function text(file) {
  if (!texts.has(file)) texts.set(file, readFileSync(join(ROOT, file), "utf8"));
  return texts.get(file);
}

/** A file's imports: package names as written, relative ones as repository paths (`.js` read as the `.ts` beside it). */
function importsOf(file) {
  const found = [];
  for (const match of text(file).matchAll(IMPORT)) {
    // `import type` is gone once compiled: it loads nothing.
    if (TYPE_ONLY.test(match[0])) continue;
    const spec = match[1] ?? match[2] ?? match[3] ?? "";
    if (!spec.startsWith(".")) {
      found.push({ spec });
      continue;
    }
    const path = join(dirname(file), spec);
    const resolved = [path, path.replace(/\.js$/, ".ts"), path.replace(/\.mjs$/, ".mts")].find((candidate) => existsSync(join(ROOT, candidate)));
    if (resolved !== undefined) found.push({ spec, path: resolved.split(sep).join("/") });
  }
  return found;
}

const isTestCode = (path) => path.split("/").includes("test");
const base = (path) => path.slice(path.lastIndexOf("/") + 1);

/** Whether a product module, or a product module it imports, loads a native addon. */
function loadsNativeAddon(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  return importsOf(file).some(({ spec, path }) => (path === undefined ? NATIVE_ADDONS.has(spec) : !isTestCode(path) && loadsNativeAddon(path, seen)));
}

/** Why a test file touches the platform (empty: it does not). */
export function platformReasons(file) {
  if (WHOLE_BOT.test(file)) {
    const note = PLATFORM_NOTE.exec(text(file));
    return note === null ? [] : [`a whole-bot run that is the one test of: ${note[1]}`];
  }
  const reasons = new Set();
  for (const { spec, path } of importsOf(file)) {
    if (path === undefined) {
      if (PLATFORM_MODULES.has(spec)) reasons.add(`imports ${spec}`);
      if (NATIVE_ADDONS.has(spec)) reasons.add(`imports ${spec}`);
      if (spec === BROWSER) reasons.add("starts Chromium");
    } else if (isTestCode(path)) {
      if (PROCESS_STARTERS.has(path)) reasons.add(`starts processes (${base(path)})`);
    } else if (loadsNativeAddon(path)) {
      reasons.add(`loads a native addon (${path})`);
    }
  }
  if (SIGNAL.test(text(file))) reasons.add("sends or handles signals");
  return [...reasons];
}

/** Why a test file reads the date (empty: it does not). */
export function dateReasons(file) {
  const starts = new Set();
  const seen = new Set([file]);
  const queue = [file];
  while (queue.length > 0) {
    for (const { spec, path } of importsOf(queue.pop())) {
      if (path === undefined) {
        if (spec === BROWSER) starts.add("Chromium");
      } else if (isTestCode(path)) {
        if (PRODUCT_STARTERS.has(path)) starts.add(base(path));
        if (!seen.has(path)) {
          seen.add(path);
          queue.push(path);
        }
      } else if (/export (?:async )?function startSandbox\b/.test(text(path))) {
        starts.add(path);
      }
    }
  }
  const day = DAYS.exec(text(file))?.[0] ?? importsOf(file).find(({ path }) => path?.split("/").includes("time"))?.path;
  if (starts.size === 0 || day === undefined) return [];
  return [`starts the product on the real clock (${[...starts].sort().join(", ")})`, `is about days (${day})`];
}

/** Every test file of the repository, as vitest would find them. */
export function testFiles(dir = "") {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) return SKIPPED(path, entry.name) ? [] : testFiles(path);
      return entry.name.endsWith(".test.ts") ? [path] : [];
    })
    .sort();
}

/** Both groups, each a sorted list of test files with why each is in it. */
export function testGroups() {
  const files = testFiles();
  const group = (reasonsOf) => files.map((file) => ({ file, reasons: reasonsOf(file) })).filter(({ reasons }) => reasons.length > 0);
  return { platform: group(platformReasons), date: group(dateReasons) };
}

/** test/groups.json as it is. */
export function savedGroups() {
  return JSON.parse(readFileSync(join(ROOT, LIST), "utf8"));
}

function main(args) {
  const groups = testGroups();
  if (args[0] === "--write") {
    const lists = { platform: groups.platform.map(({ file }) => file), date: groups.date.map(({ file }) => file) };
    writeFileSync(join(ROOT, LIST), `${JSON.stringify(lists, null, 2)}\n`);
    console.log(`${LIST}: ${lists.platform.length} platform files, ${lists.date.length} date files`);
  } else if (args[0] === "platform" || args[0] === "date") {
    for (const { file } of groups[args[0]]) console.log(file);
  } else if (args.length === 0) {
    for (const [name, entries] of Object.entries(groups)) {
      console.log(`${name} (${entries.length} files)`);
      for (const { file, reasons } of entries) console.log(`  ${file}: ${reasons.join("; ")}`);
    }
  } else {
    console.error("usage: node scripts/test-groups.mjs [--write | platform | date]");
    process.exitCode = 2;
  }
}

if (relative(fileURLToPath(import.meta.url), process.argv[1] ?? "") === "") main(process.argv.slice(2));
