// The folders are the architecture: imports run down the layers, and the local tools (the sandbox, the
// LINE stand-in and console, the menus' drawing) stay out of a deployed bot's module graph. Read from the
// source itself, so a change that breaks a rule fails here with the offending import named.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/** Lower numbers are lower layers; a module may import only from its own layer or below. */
const LAYERS: Record<string, number> = {
  // Facts and small mechanisms everything may use.
  time: 0,
  "line-limits.ts": 0,
  "line-ids.ts": 0,
  "loopback.ts": 0,
  promptpay: 0,
  "retry.ts": 0,
  "log.ts": 0,
  // Pure reading of input, the slip service's client and types, and answers sealed with their audience.
  commands: 1,
  slip: 1,
  privacy: 1,
  // Who may see what, the figures of a summary, the configuration.
  roles: 2,
  summary: 2,
  shops: 2,
  "config.ts": 2,
  settings: 2,
  // Pure message builders, and the menus' design.
  render: 3,
  "rich-menu": 3,
  // One handler per command.
  handlers: 4,
  // The LINE edge; an event's one path (event/) and the intakes that feed it; the pushes, shared state, metrics.
  line: 5,
  event: 6,
  intake: 6,
  pipeline: 6,
  schedules: 6,
  "shared-state": 6,
  metrics: 7,
  // The staff web app (its page and data API), mounted by the composition root.
  "staff-app": 7,
  // The HTTP face: webhook admission, verification, the refusals, /healthz, /readyz, /metrics.
  webhook: 7,
  // The one composition root (compose.ts) and its parts (compose/: a shop's bot, the shared connections).
  "compose.ts": 8,
  compose: 8,
  "main.ts": 9,
  // Local mode's world around the composition root (the sandbox, the stand-in, the console, the demo shops).
  "local-mode.ts": 9,
};
/** Local mode's tools: never imported by the bot's layers except through main's dynamic imports. */
const LOCAL_TOOLS = new Set(["sandbox", "local-line"]);
/** Entry points of their own (processes started by npm scripts): they wire whatever they need. */
const ENTRY_POINTS = new Set(["main.ts", "sandbox/main.ts", "rich-menu/main.ts"]);
/** Local mode's world: built from the local tools and the bot, loaded by main only, dynamically. */
const LOCAL_ASSEMBLY = "local-mode.ts";
/** Production modules that may load a local-only part, dynamically only. */
const DRAWING = new Set(["rich-menu/draw.ts", "rich-menu/build.ts"]);

interface Import {
  from: string;
  to: string;
  dynamic: boolean;
  /** `import type`: erased when compiled, so it loads nothing. */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  const from = relative(SRC, file);
  const found: Import[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"|import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g)) {
    const spec = match[1] ?? match[2] ?? "";
    const to = relative(SRC, normalize(join(dirname(file), spec))).replace(/\.js$/, ".ts");
    found.push({ from, to, dynamic: match[2] !== undefined, typeOnly: /^\s*(?:import|export)\s+type\s/.test(match[0]) });
  }
  return found;
}

/** The top folder, or the file itself for a file directly in src/. */
const unitOf = (path: string): string => path.split("/")[0] ?? path;

const imports = sourceFiles(SRC).flatMap(importsOf);

describe("the layers", () => {
  it("every folder and top-level file of src/ has a place", () => {
    const units = new Set(sourceFiles(SRC).map((f) => unitOf(relative(SRC, f))));
    const placeless = [...units].filter((u) => LAYERS[u] === undefined && !LOCAL_TOOLS.has(u));
    expect(placeless).toEqual([]);
  });

  it("imports run down: no module imports from a layer above its own", () => {
    const upward = imports.filter(({ from, to }) => {
      if (ENTRY_POINTS.has(from)) return false;
      const [a, b] = [LAYERS[unitOf(from)], LAYERS[unitOf(to)]];
      return a !== undefined && b !== undefined && b > a;
    });
    expect(upward.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });

  it("commands and render never import from handlers, line or the pipeline", () => {
    const wrong = imports.filter(({ from, to }) => ["commands", "render"].includes(unitOf(from)) && ["handlers", "line", "pipeline"].includes(unitOf(to)));
    expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });
});

describe("the event path", () => {
  // webhook -> intake -> handleEvent -> handlers -> send boundary: each entered once, nothing calling back up.
  it("handleEvent is entered only by the two intakes", () => {
    const callers = sourceFiles(SRC)
      .map((file) => relative(SRC, file))
      .filter((file) => file !== "event/handle-event.ts" && /\bhandleEvent\(/.test(readFileSync(join(SRC, file), "utf8")));
    expect(callers.sort()).toEqual(["intake/durable.ts", "intake/in-process.ts"]);
  });

  it("the two layouts differ in one place: only the composition root picks the durable intake, only it stores or works the queue", () => {
    const wrong = imports.filter(({ from, to, typeOnly }) => to === "intake/durable.ts" && !typeOnly && from !== "compose.ts");
    expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
    const queueUsers = sourceFiles(SRC)
      .map((file) => relative(SRC, file))
      .filter((file) => /\.(store|startWorkers)\(/.test(readFileSync(join(SRC, file), "utf8")) && !/^(shared-state|queue)\//.test(file));
    expect(queueUsers).toEqual(["intake/durable.ts"]);
  });

  it("the webhook verifies without I/O: verify.ts imports nothing of the bot", () => {
    expect(imports.filter(({ from }) => from === "webhook/verify.ts").map((i) => i.to)).toEqual([]);
  });

  it("nothing below the root imports it", () => {
    const wrong = imports.filter(({ from, to }) => ["compose.ts", "compose"].includes(unitOf(to)) && !["compose.ts", "compose"].includes(unitOf(from)) && !ENTRY_POINTS.has(from) && from !== LOCAL_ASSEMBLY);
    expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });
});

describe("the send boundary", () => {
  // Only the boundary opens a sealed answer and talks to LINE: no other module can send a message, or
  // take a staff answer's messages and pass them off as public.
  const BOUNDARY = "line/outbox.ts";

  it("only the boundary reads an answer's messages", () => {
    const readers = sourceFiles(SRC)
      .map((file) => relative(SRC, file))
      .filter((file) => file !== BOUNDARY && file !== "privacy/answer.ts" && /\bmessagesOf\b/.test(readFileSync(join(SRC, file), "utf8")));
    expect(readers).toEqual([]);
  });

  it("only the boundary makes LINE's reply and push calls", () => {
    const wrong = imports.filter(({ from, to }) => to === "line/calls.ts" && from !== BOUNDARY);
    expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });

  it("the connection that can send (line/api.ts) is made by the composition root and used by the calls alone", () => {
    const allowed = new Set(["compose/shop.ts", "line/calls.ts", BOUNDARY]);
    const wrong = imports.filter(({ from, to }) => to === "line/api.ts" && !allowed.has(from));
    expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });

  it("nothing else sends through the LINE SDK's client: modules that need a few calls take only those", () => {
    const sends = /\.(pushMessage|replyMessage|multicast|broadcast|narrowcast)\w*\(|["'`]\/v2\/bot\/message\/(push|reply|multicast|broadcast|narrowcast)/;
    const clients = /new\s+messagingApi\.MessagingApiClient\b/;
    const found = sourceFiles(SRC)
      .map((file) => ({ file: relative(SRC, file), text: readFileSync(file, "utf8") }))
      .filter(({ file }) => !LOCAL_TOOLS.has(unitOf(file)))
      .flatMap(({ file, text }) => [
        ...(sends.test(text) && file !== "line/api.ts" ? [`${file} sends`] : []),
        ...(clients.test(text) && !ENTRY_POINTS.has(file) && file !== LOCAL_ASSEMBLY && file !== "compose/shop.ts" ? [`${file} makes a whole client`] : []),
        ...(/import\s*\*\s*as\s+\w+\s+from\s+"[./]*privacy\/answer\.js"/.test(text) ? [`${file} imports answers as a namespace`] : []),
      ]);
    expect(found).toEqual([]);
  });
});

describe("local mode's tools", () => {
  it("the bot's modules never import the sandbox or the LINE stand-in, save main's dynamic imports and local mode's world", () => {
    const wrong = imports.filter(({ from, to, dynamic }) => {
      if (!LOCAL_TOOLS.has(unitOf(to)) || LOCAL_TOOLS.has(unitOf(from)) || from === LOCAL_ASSEMBLY) return false;
      if (ENTRY_POINTS.has(from) && (dynamic || from !== "main.ts")) return false;
      return true;
    });
    expect(wrong.map((i) => `${i.from} -> ${i.to}${i.dynamic ? " (dynamic)" : ""}`)).toEqual([]);
  });

  it("local mode's world is loaded by main alone, dynamically", () => {
    const wrong = imports.filter(({ from, to, dynamic, typeOnly }) => to === LOCAL_ASSEMBLY && !typeOnly && !(from === "main.ts" && dynamic));
    expect(wrong.map((i) => `${i.from} -> ${i.to}${i.dynamic ? " (dynamic)" : ""}`)).toEqual([]);
  });

  it("the sandbox and the stand-in build on facts and the service's types only, not on the bot", () => {
    const wrong = imports.filter(({ from, to }) => LOCAL_TOOLS.has(unitOf(from)) && !LOCAL_TOOLS.has(unitOf(to)) && (LAYERS[unitOf(to)] ?? 99) > 1);
    expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });

  it("the menus' drawing (the canvas) is loaded only by the menu command and, dynamically, by local mode", () => {
    const wrong = imports.filter(
      ({ from, to, dynamic }) => DRAWING.has(to) && !DRAWING.has(from) && !(from === "rich-menu/main.ts" || ((from === "main.ts" || from === LOCAL_ASSEMBLY) && dynamic)),
    );
    expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });
});
