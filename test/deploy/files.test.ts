// The deployment files (Dockerfile, compose.yaml, Kubernetes manifests, fly.toml, render.yaml, the systemd
// unit) read against the code: the port, the probe paths, the start command, the Node version, the variable
// names, and drain + grace + the closing messages within each platform's kill timeout. No container engine
// runs here, so this is what can be checked without one.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig, VARIABLE_NAMES } from "../../src/config.js";
import { APOLOGY_TIMEOUT_MS } from "../../src/event/handle-event.js";

const ROOT = new URL("../../", import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, ROOT), "utf8");

const pkg = JSON.parse(read("package.json")) as { engines: { node: string }; scripts: Record<string, string> };
const DEFAULTS = loadConfig({});
/** What the bot still needs after the grace: the closing "please send again" messages. */
const CLOSING_SECONDS = APOLOGY_TIMEOUT_MS / 1000;
/** The Procfile's web line: the one start command every platform file must use. */
const START = /^web:\s*(.+)$/m.exec(read("Procfile"))?.[1]?.trim() ?? "";
const SERVER_SOURCE = read("src/webhook/routes.ts");

/** The seconds from SIGTERM to exit in the worst case, with the file's settings (the defaults for unset ones). */
function shutdownSeconds(env: Record<string, string>): number {
  const config = loadConfig(env);
  return config.shutdownDrainSeconds + config.shutdownGraceSeconds + CLOSING_SECONDS;
}

function pick(env: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => names.includes(name)));
}

/** `^a.b.c || ^d.e.f` as npm reads it, for versions without pre-release parts. */
function satisfiesCaretRanges(version: string, ranges: string): boolean {
  const [major, minor, patch] = version.split(".").map(Number);
  return ranges.split("||").some((range) => {
    const [m, n, p] = range.trim().replace(/^\^/, "").split(".").map(Number);
    if (major !== m) return false;
    return (minor ?? 0) > (n ?? 0) || ((minor ?? 0) === (n ?? 0) && (patch ?? 0) >= (p ?? 0));
  });
}

const SHUTDOWN_NAMES = ["SHUTDOWN_DRAIN_SECONDS", "SHUTDOWN_GRACE_SECONDS"];

describe("the code the files are checked against", () => {
  it("serves the probes and metrics at the paths the files name", () => {
    for (const path of ["/healthz", "/readyz", "/metrics"]) expect(SERVER_SOURCE).toContain(`app.get("${path}"`);
  });

  it("the Procfile and package start the same program, and the defaults fit Heroku's 30 s", () => {
    expect(START).toBe("node dist/main.js");
    expect(pkg.scripts.start).toMatch(new RegExp(`&& ${START}$`));
    expect(shutdownSeconds({})).toBeLessThanOrEqual(30);
  });
});

describe("Dockerfile, .dockerignore, .nvmrc", () => {
  const dockerfile = read("Dockerfile");
  const nvmrc = read(".nvmrc").trim();
  const image = /^ARG NODE_IMAGE=node:(\d+\.\d+\.\d+)-bookworm-slim$/m.exec(dockerfile);

  it("pins one exact Node LTS version, the same as .nvmrc, that package.json's engines allow", () => {
    expect(image?.[1]).toBe(nvmrc);
    expect(nvmrc).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Number(nvmrc.split(".")[0]) % 2).toBe(0); // even majors become LTS
    expect(satisfiesCaretRanges(nvmrc, pkg.engines.node)).toBe(true);
  });

  it("builds in one stage (npm ci, npm run build) and runs from another with production dependencies only", () => {
    const [build, runtime] = dockerfile.split(/^FROM .* AS runtime$/m);
    expect(build).toMatch(/^FROM \$\{NODE_IMAGE\} AS build$/m);
    expect(build).toMatch(/^RUN npm ci\b/m);
    expect(build).toMatch(/^RUN npm run build$/m);
    expect(runtime).toMatch(/^RUN npm ci --omit=dev\b/m);
    expect(runtime).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(runtime).not.toMatch(/npm run build/);
  });

  it("installs without the workspaces in both stages, so the tools' native addons (the sandbox's SQLite) never build", () => {
    const installs = [...dockerfile.matchAll(/^RUN (npm ci\b.*)$/gm)].map((m) => m[1] ?? "");
    expect(installs).toHaveLength(2);
    for (const install of installs) expect(install.split(/\s+/)).toContain("--workspaces=false");
  });

  it("runs as a user that is not root, on the settings' default port, with the Procfile's command and /healthz as its health check", () => {
    const runtime = dockerfile.split(/^FROM .* AS runtime$/m)[1] ?? "";
    const user = /^USER (\S+)$/m.exec(runtime)?.[1];
    expect(user).toBeDefined();
    expect(["root", "0"]).not.toContain(user);
    expect(/^ENV PORT=(\d+)$/m.exec(runtime)?.[1]).toBe(String(DEFAULTS.port));
    expect(/^EXPOSE (\d+)$/m.exec(runtime)?.[1]).toBe(String(DEFAULTS.port));
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(runtime)?.[1] ?? "[]") as string[];
    expect(cmd.join(" ")).toBe(START);
    expect(/^HEALTHCHECK [\s\S]*?\/healthz/m.test(runtime)).toBe(true);
  });

  it("keeps local files and secrets out of the build context", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((line) => line.trim());
    for (const entry of ["node_modules", "dist", ".git", ".env", ".env.*"]) expect(ignored).toContain(entry);
  });

  it("keeps the tools (npm workspaces) out of the build context, so neither stage installs their dependencies", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((line) => line.trim());
    const workspaces = (JSON.parse(read("package.json")) as { workspaces: string[] }).workspaces;
    expect(workspaces.length).toBeGreaterThan(0);
    for (const workspace of workspaces) expect(workspace.startsWith("tools/")).toBe(true);
    expect(ignored).toContain("tools");
    expect(dockerfile).not.toMatch(/\btools\b/);
    // Heroku's buildpack installs from the checkout: .slugignore takes the tools out before it runs.
    expect(
      read(".slugignore")
        .split("\n")
        .map((line) => line.trim()),
    ).toContain("tools");
  });
});

/** A compose env file's variables: `NAME=value` or `NAME="value"` lines; comments and blank lines skipped. */
function envFile(text: string): Record<string, string> {
  const lines = text.split("\n").filter((line) => line.trim() !== "" && !line.trimStart().startsWith("#"));
  return Object.fromEntries(lines.map((line): [string, string] => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1).replace(/^"(.*)"$/, "$1")]));
}

describe("compose.yaml", () => {
  const compose = read("compose.yaml");
  const services = compose.split(/^ {2}(?=[a-z][\w-]*:$)/m).slice(1);
  const bots = services.filter((s) => /^\s+build: \.$/m.test(s));

  // No `docker compose` on this machine: its rule (a required env file must exist, an optional one may be
  // missing) is checked here against the shipped files.
  it("reads each bot's shipped example env file, then the shop's own file when there is one, so a fresh clone starts", () => {
    for (const bot of bots) {
      const files = [...bot.matchAll(/^ {6}- path: (\S+)(\n {8}required: false)?$/gm)].map((m) => ({ path: m[1] ?? "", required: m[2] === undefined }));
      const example = files[0]?.path ?? "";
      expect(example).toMatch(/^\.env\.shop-[a-z]\.example$/);
      expect(files).toEqual([
        { path: example, required: true },
        { path: example.replace(/\.example$/, ""), required: false },
      ]);
      expect(() => read(example)).not.toThrow();
    }
  });

  it("ships example env files of known variables that stop the bot naming the four values to fill in", () => {
    for (const example of [".env.shop-a.example", ".env.shop-b.example"]) {
      const env = envFile(read(example));
      for (const name of Object.keys(env)) expect(VARIABLE_NAMES).toContain(name);
      let message = "";
      try {
        loadConfig(env);
      } catch (err) {
        message = (err as Error).message;
      }
      const named = [...message.matchAll(/^ {2}([A-Z_]+):/gm)].map((m) => m[1]);
      expect(named).toEqual(["LINE_CHANNEL_SECRET", "LINE_CHANNEL_ACCESS_TOKEN", "SLIP_API_BASE_URL", "SLIP_API_SECRET"]);
    }
  });

  it("runs Redis with AOF and noeviction", () => {
    const redis = services.find((s) => s.startsWith("redis:")) ?? "";
    const command = JSON.parse(/command: (\[.*\])/.exec(redis)?.[1] ?? "[]") as string[];
    expect(command.join(" ")).toContain("--appendonly yes");
    expect(command.join(" ")).toContain("--maxmemory-policy noeviction");
  });

  it("runs two bots whose stop grace period holds drain, grace and the closing messages, with known variables only", () => {
    expect(bots).toHaveLength(2);
    for (const bot of bots) {
      const env = Object.fromEntries([...bot.matchAll(/^ {6}([A-Z_]+): "?([^"\n]*)"?$/gm)].map((m) => [m[1] ?? "", m[2] ?? ""]));
      for (const name of Object.keys(env)) expect(VARIABLE_NAMES).toContain(name);
      expect(env.PORT).toBe(String(DEFAULTS.port));
      expect(bot).toMatch(new RegExp(`- "\\d+:${env.PORT}"`));
      const grace = Number(/stop_grace_period: (\d+)s/.exec(bot)?.[1]);
      expect(shutdownSeconds(pick(env, SHUTDOWN_NAMES))).toBeLessThanOrEqual(grace);
    }
  });
});

describe("Kubernetes", () => {
  const deployment = read("deploy/kubernetes/deployment.yaml");
  const env = Object.fromEntries([...deployment.matchAll(/- name: ([A-Z_]+)\n\s+value: "?([^"\n]*)"?/g)].map((m) => [m[1] ?? "", m[2] ?? ""]));

  it("probes liveness on /healthz and readiness on /readyz, on the port the bot listens on, and starts the Procfile's command", () => {
    expect(/livenessProbe:\s+httpGet:\s+path: (\S+)/.exec(deployment)?.[1]).toBe("/healthz");
    expect(/readinessProbe:\s+httpGet:\s+path: (\S+)/.exec(deployment)?.[1]).toBe("/readyz");
    expect(/containerPort: (\d+)/.exec(deployment)?.[1]).toBe(env.PORT);
    expect((JSON.parse(/command: (\[.*\])/.exec(deployment)?.[1] ?? "[]") as string[]).join(" ")).toBe(START);
    for (const name of Object.keys(env)) expect(VARIABLE_NAMES).toContain(name);
    // The settings it gives are valid ones.
    expect(() => loadConfig(pick(env, ["PORT", "HTTP_KEEP_ALIVE_SECONDS", "REDIS_KEY_PREFIX", ...SHUTDOWN_NAMES]))).not.toThrow();
  });

  it("gives the preStop sleep, the drain, the grace and the closing messages time within terminationGracePeriodSeconds", () => {
    const period = Number(/terminationGracePeriodSeconds: (\d+)/.exec(deployment)?.[1]);
    const preStop = Number(/preStop:\s+exec:\s+command: \["sleep", "(\d+)"\]/.exec(deployment)?.[1]);
    expect(preStop).toBeGreaterThan(0);
    expect(preStop + shutdownSeconds(pick(env, SHUTDOWN_NAMES))).toBeLessThanOrEqual(period);
  });

  it("has a PodDisruptionBudget, a Service and a ServiceMonitor that scrapes each pod's /metrics", () => {
    expect(read("deploy/kubernetes/poddisruptionbudget.yaml")).toMatch(/kind: PodDisruptionBudget/);
    const service = read("deploy/kubernetes/service.yaml");
    expect(service).toMatch(/targetPort: http/);
    const monitor = read("deploy/kubernetes/servicemonitor.yaml");
    expect(monitor).toMatch(/- port: http\n\s+path: \/metrics/);
    expect(monitor).toMatch(/key: METRICS_TOKEN/);
  });

  it("has every suggested alert of docs/operations.md, with its expression", () => {
    const operations = read("docs/operations.md");
    const table = operations.slice(operations.indexOf("| alert | PromQL | why |"));
    const rows = table.slice(0, table.indexOf("\n\n")).split("\n").slice(2);
    const rules = read("deploy/kubernetes/prometheusrule.yaml").split("- alert: ").slice(1);
    expect(rows.length).toBeGreaterThan(10);
    expect(rules).toHaveLength(rows.length);
    for (const row of rows) {
      const [name = "", promql = ""] = row
        .split(/(?<!\\)\|/)
        .slice(1)
        .map((cell) => cell.trim());
      const rule = rules.find((r) => r.includes(`summary: '${name}'`));
      expect(rule, name).toBeDefined();
      const expr = /expr: '(.*)'/.exec(rule ?? "")?.[1] ?? "";
      for (const [, fragment] of promql.matchAll(/`([^`]+)`/g)) expect(expr, name).toContain((fragment ?? "").replaceAll("\\|", "|"));
      const wait = /for (\d+m)/.exec(promql)?.[1];
      if (wait !== undefined) expect(rule, name).toContain(`for: ${wait}`);
    }
  });
});

describe("fly.toml, render.yaml, the systemd unit", () => {
  it("fly.toml: the bot's port, /readyz as its check, and a kill_timeout that holds the shutdown", () => {
    const fly = read("fly.toml");
    const env = Object.fromEntries(
      [
        ...fly
          .slice(fly.indexOf("[env]"))
          .split(/\n\[(?!env)/)[0]!
          .matchAll(/^\s+([A-Z_]+) = "([^"]*)"$/gm),
      ].map((m) => [m[1] ?? "", m[2] ?? ""]),
    );
    for (const name of Object.keys(env)) expect(VARIABLE_NAMES).toContain(name);
    expect(/internal_port = (\d+)/.exec(fly)?.[1]).toBe(env.PORT);
    expect(/path = "(\/\w+)"/.exec(fly.slice(fly.indexOf("[[http_service.checks]]")))?.[1]).toBe("/readyz");
    expect(shutdownSeconds(pick(env, SHUTDOWN_NAMES))).toBeLessThanOrEqual(Number(/^kill_timeout = (\d+)$/m.exec(fly)?.[1]));
    expect(/^\s*dockerfile = "Dockerfile"$/m.test(fly)).toBe(true);
  });

  it("render.yaml: the build and start commands, /readyz, the Node version of .nvmrc, and a shutdown delay that holds the shutdown", () => {
    const render = read("render.yaml");
    expect(/buildCommand: (.+)/.exec(render)?.[1]).toBe("npm ci && npm run build");
    expect(/startCommand: (.+)/.exec(render)?.[1]).toBe(START);
    expect(/healthCheckPath: (.+)/.exec(render)?.[1]).toBe("/readyz");
    const env = Object.fromEntries([...render.matchAll(/- key: ([A-Z_]+)\n\s+value: "?([^"\n]*)"?/g)].map((m) => [m[1] ?? "", m[2] ?? ""]));
    expect(env.NODE_VERSION).toBe(read(".nvmrc").trim());
    for (const [, name] of render.matchAll(/- key: ([A-Z_]+)/g)) if (name !== "NODE_VERSION") expect(VARIABLE_NAMES).toContain(name);
    expect(shutdownSeconds(pick(env, SHUTDOWN_NAMES))).toBeLessThanOrEqual(Number(/maxShutdownDelaySeconds: (\d+)/.exec(render)?.[1]));
    expect(render).toMatch(/maxmemoryPolicy: noeviction/);
  });

  it("the systemd unit: the start command, known variables, and a TimeoutStopSec that holds the shutdown", () => {
    const unit = read("deploy/systemd/slipline.service");
    expect(/^ExecStart=\/usr\/bin\/(.+)$/m.exec(unit)?.[1]).toBe(START);
    const env = Object.fromEntries([...unit.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)].map((m) => [m[1] ?? "", m[2] ?? ""]));
    for (const name of Object.keys(env)) if (name !== "NODE_ENV") expect(VARIABLE_NAMES).toContain(name);
    expect(shutdownSeconds(pick(env, SHUTDOWN_NAMES))).toBeLessThanOrEqual(Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]));
    expect(/^KillSignal=SIGTERM$/m.test(unit)).toBe(true);
  });
});
