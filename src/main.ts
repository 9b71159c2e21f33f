// The bot's entry point: read the configuration, find the shops (a shops file, the environment's one shop, or
// local mode's demo shops), start the one deployment, and answer the signals: SIGTERM/SIGINT stop it cleanly,
// SIGHUP (and a change of the shops file) reloads the shops. Entry points (this one, rich-menu/main.ts, and
// the sandbox's own in tools/slip-sandbox) are the only readers of process.env.
import { readFileSync, watch } from "node:fs";
import type { FSWatcher } from "node:fs";
import type { Logger } from "pino";
import { botConfigOf, compose } from "./compose.js";
import type { App } from "./compose.js";
import { ConfigError, loadConfig, redisPassword } from "./config.js";
import type { Config } from "./config.js";
import { installHttpTimeouts } from "./line/http-timeouts.js";
import { createLogger } from "./log.js";
import { loadLocalMode } from "./local-tools.js";
import type { LocalWorld } from "./local-tools.js";
import { readShopsFile } from "./shops/file.js";
import { DEFAULT_WEBHOOK_PATH, environmentShopOf } from "./shops/shop.js";
import type { ShopConfig } from "./shops/shop.js";

async function run(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`slipline: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }

  // The shops a shops file lists are read and checked before anything starts: a bad file starts nothing.
  let fileShops: readonly ShopConfig[] | undefined;
  if (config.shopsFile !== undefined) {
    const read = await readShopsFile(config.shopsFile, process.env, false);
    if (!read.ok) {
      process.stderr.write(`slipline: Invalid shops file ${config.shopsFile} (${countOf(read.problems.length, "problem")}):\n${read.problems.map((p) => `  ${p}`).join("\n")}\n`);
      process.exit(1);
    }
    fileShops = read.shops;
  }

  // REDIS_TLS_CA is read now: a file that cannot be read or holds no certificate stops the start.
  const redisTlsCa = config.redisTlsCa === undefined ? undefined : readCertificates(config.redisTlsCa);

  // Every secret any shop has, now and after a reload, is kept out of the log.
  let shopSecrets: readonly string[] = secretsOf(fileShops ?? []);
  const processSecrets = [
    config.line?.channelSecret,
    config.line?.previousChannelSecret,
    config.line?.channelAccessToken,
    config.slip?.apiSecret,
    config.metricsToken,
    redisPassword(config.redisUrl),
    config.redisUrl,
  ];
  let secrets: readonly (string | undefined)[] = [...processSecrets, ...shopSecrets];
  const log = createLogger({ level: config.logLevel, secrets: () => secrets });
  installHttpTimeouts();

  let local: LocalWorld | undefined;
  try {
    let shops: readonly ShopConfig[];
    let lineApiBaseUrl = config.lineApiBaseUrl;
    let lineDataApiBaseUrl = config.lineDataApiBaseUrl;
    if (fileShops !== undefined) {
      shops = fileShops;
    } else if (config.line !== undefined) {
      shops = [await environmentShop(config, log)];
    } else {
      // Local mode: loaded only here, so a deployment never loads SQLite, the canvas or the demo data.
      const world = await localTools("local mode (the sandbox, the LINE stand-in and the console)", loadLocalMode).then((m) => m.startLocalWorld(config, log));
      local = world;
      shops = world.shops;
      lineApiBaseUrl = world.lineApiBaseUrl;
      // The stand-in plays LINE's data host too (photos' content).
      lineDataApiBaseUrl = world.lineApiBaseUrl;
      shopSecrets = world.secrets;
      secrets = [...processSecrets, ...shopSecrets];
    }

    const deployment = await compose(botConfigOf(config, shops, { many: fileShops !== undefined, redisTlsCa, local }), {
      log,
      baseUrls: { line: lineApiBaseUrl, lineData: lineDataApiBaseUrl },
    });

    if (local !== undefined) {
      await local.started(deployment.url);
      process.stdout.write(`\nslipline is running. Open http://127.0.0.1:${deployment.port}/ to chat with the bot.\n\n`);
    } else {
      const paths = shops.length === 1 ? (shops[0]?.webhookPath ?? DEFAULT_WEBHOOK_PATH) : "/webhook/<shop id>";
      process.stdout.write(`\nslipline is running. LINE webhook: http://localhost:${deployment.port}${paths} (set this path on your public https URL).\n\n`);
    }

    const shopsFile = config.shopsFile;
    const watcher = shopsFile === undefined ? undefined : watchShopsFile(shopsFile, () => void reload());
    /** A reload: the file read again and checked; if good, served from the next event; if bad, nothing changes. */
    async function reload(): Promise<void> {
      if (shopsFile === undefined) return;
      const read = await readShopsFile(shopsFile, process.env);
      if (!read.ok) {
        log.error({ problems: read.problems }, "shops file not reloaded: it has problems, so the running shops stay as they are");
        return;
      }
      // A new list only when the file brings a secret not seen before: the logger prepares each new list
      // once, some 10 ms for a thousand shops, on the next line logged.
      const known = new Set(shopSecrets);
      const added = secretsOf(read.shops).filter((secret) => !known.has(secret));
      if (added.length > 0) {
        shopSecrets = [...new Set([...shopSecrets, ...added])];
        secrets = [...processSecrets, ...shopSecrets];
      }
      await deployment.reload(read.shops).catch((err: unknown) => log.error({ err }, "shops file not reloaded"));
    }
    // Local mode has no load balancer to drain.
    const drainSeconds = local === undefined ? config.shutdownDrainSeconds : 0;
    handleSignals(deployment, config, drainSeconds, log, reload, async () => {
      watcher?.close();
      await local?.close();
    });
  } catch (err) {
    log.fatal({ err }, "start-up failed");
    await local?.close();
    process.exit(1);
  }
}

/** The environment's one shop (LINE mode), on /webhook; with SLIP_SANDBOX=1 its slip service is the embedded sandbox. */
async function environmentShop(config: Config, log: Logger): Promise<ShopConfig> {
  const line = config.line;
  if (line === undefined) throw new Error("the environment names no LINE channel");
  let slip = config.slip;
  let qrImageOrigins: string[] = [];
  if (slip === undefined) {
    const { startEmbeddedSandbox, DEMO_SECRETS } = await localTools("the embedded sandbox", loadLocalMode);
    const sandbox = await startEmbeddedSandbox(config, log, false);
    slip = { baseUrl: sandbox.url, apiSecret: DEMO_SECRETS.shop };
    if (config.sandbox.publicUrl !== undefined) qrImageOrigins = [config.sandbox.publicUrl];
    log.warn("SLIP_SANDBOX=1 with a real LINE channel: everyone on it sees the demo shop's made-up checks, and QR codes pay the demo id; never use this for a real shop");
  }
  return environmentShopOf(config, line, slip, qrImageOrigins);
}

/** The PEM certificates in `path`, or the process stops naming REDIS_TLS_CA and why (as any wrong setting). */
function readCertificates(path: string): string {
  const refuse = (problem: string): never => {
    process.stderr.write(`slipline: ${new ConfigError([{ variable: "REDIS_TLS_CA", problem }]).message}\n`);
    process.exit(1);
  };
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (err) {
    return refuse(`cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) refuse(`${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return pem;
}

function secretsOf(shops: readonly ShopConfig[]): string[] {
  return shops.flatMap((shop) =>
    [shop.line.channelSecret, shop.line.previousChannelSecret, shop.line.channelAccessToken, shop.slip.apiSecret].filter((s): s is string => s !== undefined),
  );
}

/** Reloads when the file changes (editors often replace it: its directory is watched); bursts count once. */
function watchShopsFile(path: string, changed: () => void): FSWatcher | undefined {
  let timer: NodeJS.Timeout | undefined;
  try {
    return watch(path, { persistent: false }, () => {
      clearTimeout(timer);
      timer = setTimeout(changed, 250);
      timer.unref();
    });
  } catch {
    return undefined;
  }
}

function handleSignals(deployment: App, config: Config, drainSeconds: number, log: Logger, reload: () => Promise<void>, closeLocal: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A second Ctrl-C means "now".
      log.warn({ signal }, "second signal: stopping at once");
      process.exit(1);
    }
    stopping = true;
    // SIGTERM comes from a platform, behind a load balancer; SIGINT is someone at a terminal: no drain.
    const drain = signal === "SIGTERM" ? drainSeconds : 0;
    log.info({ signal, drainSeconds: drain, graceSeconds: config.shutdownGraceSeconds, waiting: deployment.intake.waiting, running: deployment.intake.running }, "shutting down");
    void deployment.shutdown(config.shutdownGraceSeconds * 1000, drain * 1000).then(async ({ abandoned, leftForOthers }) => {
      await closeLocal();
      log.info({ abandoned: abandoned.length, apologised: abandoned.filter((a) => a.apologised).length, leftForOthers }, "stopped");
      process.exit(abandoned.length === 0 ? 0 : 1);
    });
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.on("SIGHUP", () => {
    if (config.shopsFile === undefined) {
      log.info("SIGHUP: no SHOPS_FILE, nothing to reload (the environment is read at start-up only)");
      return;
    }
    log.info({ file: config.shopsFile }, "SIGHUP: reloading the shops");
    void reload();
  });
}

/**
 * Loads what only local mode uses. Its packages (tools/, with SQLite and the canvas) are development-only,
 * so a production install (`npm ci --omit=dev`, as Heroku prunes) leaves them out: say so rather than crash.
 */
async function localTools<T>(what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw err;
    throw new Error(`${what} needs the development dependencies, which this install left out (run npm ci without --omit=dev): ${(err as Error).message}`);
  }
}

function countOf(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

await run();
