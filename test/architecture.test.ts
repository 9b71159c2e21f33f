// The folders are the architecture: imports run down the layers of src/ (the bot), and the local tools
// (tools/*: the sandbox, the LINE stand-in, the chat console and local mode's world) are packages of their own
// that the bot never imports, and that a production install leaves out. Read from the source itself, so a
// change that breaks a rule fails here with the offending import named.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SRC = join(ROOT, "src/");

/** Lower numbers are lower layers; a module may import only from its own layer or below. */
const LAYERS: Record<string, number> = {
  // Facts and small mechanisms everything may use.
  time: 0,
  "line-limits.ts": 0,
  "line-ids.ts": 0,
  "line-http.ts": 0,
  "loopback.ts": 0,
  "demo-shop.ts": 0,
  promptpay: 0,
  "retry.ts": 0,
  "log.ts": 0,
  // Pure reading of input (the parsing kit, the reader, the registry and each command's definition, words,
  // parser and texts),
  // the slip service's client and types, answers sealed with their audience, and the storage ports (each in
  // memory and in Redis, Redis's client as a type only).
  commands: 1,
  slip: 1,
  privacy: 1,
  stores: 1,
  // Who may see what, the figures of a summary, the configuration.
  roles: 2,
  summary: 2,
  shops: 2,
  "config.ts": 2,
  settings: 2,
  // Pure message builders, and the menus' design.
  render: 3,
  "commands/*/render.ts": 3,
  "rich-menu": 3,
  // One handler per command (in its folder), and the router with its table of them (handlers/routes.ts).
  "commands/*/handle.ts": 4,
  handlers: 4,
  // A photo read as a slip: its handler, the QR reader, the payload, its answers (a handler of its own, beside the router).
  "slip-photo": 4,
  // The LINE edge, the durable queue (a library that knows nothing of the bot); an event's one path (event/)
  // and the intakes that feed it; the pushes, shared state, metrics.
  line: 5,
  queue: 5,
  event: 6,
  intake: 6,
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
  // The entry point, and what it asks of local mode (a tool package, loaded by name at run time).
  "main.ts": 9,
  "local-tools.ts": 9,
};
/** Entry points of their own (processes started by npm scripts): they wire whatever they need. */
const ENTRY_POINTS = new Set(["main.ts", "rich-menu/main.ts"]);
/** Production modules that may load a local-only part (the canvas), dynamically only. */
const DRAWING = new Set(["rich-menu/draw.ts", "rich-menu/build.ts"]);

/** The tool packages (tools/<dir>), and the tools each may import: the packages' own layering. */
const TOOLS: Record<string, { name: string; uses: readonly string[] }> = {
  "slip-sandbox": { name: "@slipline/slip-sandbox", uses: [] },
  "line-stand-in": { name: "@slipline/line-stand-in", uses: [] },
  "chat-console": { name: "@slipline/chat-console", uses: ["line-stand-in"] },
  "local-mode": { name: "@slipline/local-mode", uses: ["slip-sandbox", "line-stand-in", "chat-console"] },
};
/** Local mode's world is built around the bot's composition root: it may use any of the bot's modules. */
const ASSEMBLY = "local-mode";
/** The other tools build on the bot's facts and the slip service's types only (layers 0 and 1). */
const TOOLS_REACH = 1;

interface Import {
  from: string;
  to: string;
  dynamic: boolean;
  /** `import type`: erased when compiled, so it loads nothing. */
  typeOnly: boolean;
  /** By path (`to` is then a path from src/), or a package by name (`to` is the specifier). */
  byPath: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** Every import of `file`: a relative one as a path from src/ (`../tools/...` outside it), a package's by its name. */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  const from = relative(SRC, file);
  const found: Import[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)) {
    const spec = match[1] ?? match[2] ?? "";
    const to = spec.startsWith(".") ? relative(SRC, normalize(join(dirname(file), spec))).replace(/\.js$/, ".ts") : spec;
    found.push({ from, to, dynamic: match[2] !== undefined, typeOnly: /^\s*(?:import|export)\s+type\s/.test(match[0]), byPath: spec.startsWith(".") });
  }
  return found;
}

/**
 * The top folder, or the file itself for a file directly in src/. A command's folder holds its renderer and
 * its handler too: they sit with the renderers and the handlers, the rest of the folder with the parsing.
 */
function unitOf(path: string): string {
  const part = /^commands\/[^/]+\/(render|handle)\.ts$/.exec(path)?.[1];
  return part === undefined ? (path.split("/")[0] ?? path) : `commands/*/${part}.ts`;
}
/** A package's name from an import of it or of a file in it (`@scope/name/x` -> `@scope/name`). */
const packageOf = (spec: string): string =>
  spec
    .split("/")
    .slice(0, spec.startsWith("@") ? 2 : 1)
    .join("/");

/** The router's table of handlers (handlers/routes.ts): the one module that names each command's handler. */
const ROUTES = "handlers/routes.ts";

const imports = sourceFiles(SRC).flatMap(importsOf);
/** A tool's imports: `from` is `../tools/<dir>/src/...`. */
const toolImports = (dir: string): Import[] => sourceFiles(join(ROOT, "tools", dir, "src")).flatMap(importsOf);
const manifestOf = (dir: string): { name: string; dependencies?: Record<string, string> } =>
  JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as { name: string; dependencies?: Record<string, string> };

describe("the layers", () => {
  it("every folder and top-level file of src/ has a place", () => {
    const units = new Set(sourceFiles(SRC).map((f) => unitOf(relative(SRC, f))));
    const placeless = [...units].filter((u) => LAYERS[u] === undefined);
    expect(placeless).toEqual([]);
  });

  it("imports run down: no module imports from a layer above its own", () => {
    const upward = imports.filter((i) => {
      const { from, to } = i;
      if (ENTRY_POINTS.has(from)) return false;
      const [a, b] = [LAYERS[unitOf(from)], LAYERS[unitOf(to)]];
      return a !== undefined && b !== undefined && b > a;
    });
    expect(upward.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });

  it("the queue is a library of its own: it imports nothing of src/ outside its folder, and knows nothing of LINE", () => {
    const outside = imports.filter(({ from, to, byPath }) => byPath && unitOf(from) === "queue" && unitOf(to) !== "queue");
    expect(outside.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
    const aware = sourceFiles(join(SRC, "queue"))
      .filter((file) => /\bLINE\b|@line\/|[Ww]ebhook|\b[Ss]hops?\b|reply token/.test(readFileSync(file, "utf8")))
      .map((file) => relative(SRC, file));
    expect(aware).toEqual([]);
  });

  it("commands and render never import from handlers, line or the event path", () => {
    const wrong = imports.filter(
      (i) => ["commands", "render", "commands/*/render.ts"].includes(unitOf(i.from)) && ["handlers", "commands/*/handle.ts", "line", "event", "intake"].includes(unitOf(i.to)),
    );
    expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });

  it("a command's handler is named by the router's table alone, and the table names every one", () => {
    const wrong = imports.filter((i) => unitOf(i.to) === "commands/*/handle.ts" && i.from !== ROUTES && !i.typeOnly);
    expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
    const named = imports.filter((i) => i.from === ROUTES && unitOf(i.to) === "commands/*/handle.ts").map((i) => i.to);
    const handlers = sourceFiles(SRC)
      .map((file) => relative(SRC, file))
      .filter((file) => unitOf(file) === "commands/*/handle.ts");
    expect(named.sort()).toEqual(handlers.sort());
  });

  it("src/ has no import cycle, lazy imports included (type-only imports load nothing)", () => {
    const edges = new Map<string, string[]>();
    for (const { from, to, typeOnly, byPath } of imports) if (byPath && !typeOnly) edges.set(from, [...(edges.get(from) ?? []), to]);
    const state = new Map<string, "open" | "done">();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push([...path.slice(path.indexOf(file)), file].join(" -> "));
        return;
      }
      state.set(file, "open");
      for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, "done");
    };
    for (const file of [...edges.keys()].sort()) visit(file, []);
    expect(cycles).toEqual([]);
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
    expect(imports.filter(({ from, byPath }) => byPath && from === "webhook/verify.ts").map((i) => i.to)).toEqual([]);
  });

  it("nothing below the root imports it", () => {
    const wrong = imports.filter(({ from, to }) => ["compose.ts", "compose"].includes(unitOf(to)) && !["compose.ts", "compose"].includes(unitOf(from)) && !ENTRY_POINTS.has(from));
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
    const clients = /new\s+\w+\.MessagingApiClient\b/;
    const found = sourceFiles(SRC)
      .map((file) => ({ file: relative(SRC, file), text: readFileSync(file, "utf8") }))
      .flatMap(({ file, text }) => [
        ...(sends.test(text) && file !== "line/api.ts" ? [`${file} sends`] : []),
        ...(clients.test(text) && !ENTRY_POINTS.has(file) && file !== "compose/shop.ts" ? [`${file} makes a whole client`] : []),
        ...(/import\s*\*\s*as\s+\w+\s+from\s+"[./]*privacy\/answer\.js"/.test(text) ? [`${file} imports answers as a namespace`] : []),
      ]);
    expect(found).toEqual([]);
  });
});

describe("what the bot loads at start", () => {
  it("the LINE SDK only at a rare call: nothing main.ts loads imports it but for its types, or when a call needs it", () => {
    const loadedBy = new Map<string, Import[]>();
    for (const one of imports) loadedBy.set(one.from, [...(loadedBy.get(one.from) ?? []), one]);
    const loaded = new Set<string>();
    const visit = (file: string): void => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const { to, typeOnly, dynamic, byPath } of loadedBy.get(file) ?? []) if (byPath && !typeOnly && !dynamic) visit(to);
    };
    visit("main.ts");
    expect(loaded.has("compose.ts")).toBe(true); // the walk does reach the bot
    const wrong = imports.filter(({ from, to, typeOnly, dynamic }) => loaded.has(from) && packageOf(to) === "@line/bot-sdk" && !typeOnly && !dynamic);
    expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });
});

describe("the tools, packages beside the bot", () => {
  it("the bot's modules never import a tool, by path or by name", () => {
    const wrong = imports.filter(({ to, byPath }) => (byPath && to.startsWith("../")) || to.startsWith("@slipline/"));
    expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });

  it("local mode is loaded by name, at run time, by the contract the bot owns (local-tools.ts) alone", () => {
    const naming = sourceFiles(SRC)
      .map((file) => ({ file: relative(SRC, file), names: [...readFileSync(file, "utf8").matchAll(/["'`](@slipline\/[\w-]+)/g)].map((m) => m[1]) }))
      .filter(({ names }) => names.length > 0);
    expect(naming).toEqual([{ file: "local-tools.ts", names: [TOOLS[ASSEMBLY]?.name] }]);
  });

  it("the bot's production dependencies are its own: each is imported by src/, none is a tool", () => {
    const used = new Set(imports.filter(({ byPath }) => !byPath).map(({ to }) => packageOf(to)));
    const root = manifestOf(".");
    const notTheBots = Object.keys(root.dependencies ?? {}).filter((name) => !used.has(name));
    expect(notTheBots).toEqual([]);
  });

  for (const [dir, { name, uses }] of Object.entries(TOOLS)) {
    describe(name, () => {
      const own = `../tools/${dir}/src/`;
      const found = toolImports(dir);

      it("reaches the bot by path into src/, other tools only by their package names", () => {
        const wrong = found.filter(({ to, byPath }) => byPath && to.startsWith("../") && !to.startsWith(own));
        expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
      });

      it(dir === ASSEMBLY ? "may use any of the bot's modules (it assembles local mode around them)" : "builds on the bot's facts and the slip service's types only", () => {
        const reach = dir === ASSEMBLY ? 99 : TOOLS_REACH;
        const wrong = found.filter(({ to, byPath }) => byPath && !to.startsWith("../") && (LAYERS[unitOf(to)] ?? 99) > reach);
        expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
      });

      it("imports only the tools below it, and declares every package it loads as a dependency", () => {
        const allowed = new Set(uses.map((d) => TOOLS[d]?.name));
        const declared = new Set(Object.keys(manifestOf(`tools/${dir}`).dependencies ?? {}));
        const wrong = found.filter(({ to, typeOnly, byPath }) => {
          if (byPath || to.startsWith("node:")) return false;
          if (to.startsWith("@slipline/")) return !allowed.has(packageOf(to)) || !declared.has(packageOf(to));
          return !typeOnly && !declared.has(packageOf(to));
        });
        expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
        expect(manifestOf(`tools/${dir}`).name).toBe(name);
      });
    });
  }

  it("the menus' drawing (the canvas) is loaded only by the menu command and, dynamically, by local mode", () => {
    const wrong = [...imports, ...toolImports(ASSEMBLY)].filter(
      ({ from, to, dynamic }) => DRAWING.has(to) && !DRAWING.has(from) && !(from === "rich-menu/main.ts" || (from.startsWith(`../tools/${ASSEMBLY}/`) && dynamic)),
    );
    expect(wrong.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });
});
