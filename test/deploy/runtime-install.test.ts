// The Dockerfile's two stages, run outside a container: the build stage's compile into a folder of its own,
// then the runtime stage's steps (package.json, package-lock.json and dist only; `npm ci --omit=dev`;
// `node dist/main.js`) in an empty temporary folder. The bot started there, in LINE mode against the LINE
// stand-in and the sandbox on loopback, must pass its probes, answer a signed webhook, and stop cleanly.
import { execFile, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startLinePlatform } from "@slipline/line-stand-in";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import { startSandbox } from "@slipline/slip-sandbox";
import { childEnv } from "../kit/entry-process.js";
import { lineId, postWebhook, textEvent, webhookBody } from "../kit/webhook.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "slipline-runtime-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the runtime stage outside a container", { timeout: 300_000 }, () => {
  it("installs production dependencies only, and the bot they run passes its probes, answers a webhook and exits 0 on SIGTERM", async () => {
    // Build stage: `npm run build` (tsc with tsconfig.build.json), into a folder of its own. Runtime stage:
    // the two package files, `npm ci --omit=dev` (it needs no dist: the package has no install scripts of its
    // own), then dist. The two stages' commands run at the same time, as a multi-stage build may.
    const app = join(dir, "app");
    for (const file of ["package.json", "package-lock.json"]) cpSync(join(REPO, file), join(app, file));
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    await Promise.all([
      run(process.execPath, [join(REPO, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--outDir", join(dir, "build")], { cwd: REPO }),
      run(npm, ["ci", "--omit=dev", "--workspaces=false", "--ignore-scripts=false", "--no-audit", "--no-fund", "--prefer-offline"], {
        cwd: app,
        env: { ...process.env, NODE_ENV: "production" },
        maxBuffer: 16 * 1024 * 1024,
      }),
    ]);
    cpSync(join(dir, "build"), join(app, "dist"), { recursive: true });
    // The production dependencies are there; the tools (workspaces under tools/) and their dependencies, and
    // the menus' canvas (a development dependency), are not.
    expect(existsSync(join(app, "node_modules/express"))).toBe(true);
    expect(existsSync(join(app, "node_modules/@slipline"))).toBe(false);
    expect(existsSync(join(app, "node_modules/better-sqlite3"))).toBe(false);
    expect(existsSync(join(app, "node_modules/qr"))).toBe(false);
    expect(existsSync(join(app, "node_modules/@napi-rs/canvas"))).toBe(false);

    const accessToken = "runtime-stage-access-token-0123456789";
    const channelSecret = "0123456789abcdef0123456789abcdef";
    const sandbox = await startSandbox();
    const platform = await startLinePlatform({ channelAccessToken: accessToken });
    const bot = spawn(process.execPath, ["dist/main.js"], {
      cwd: app,
      env: childEnv({
        NODE_ENV: "production",
        PORT: "0",
        LINE_CHANNEL_SECRET: channelSecret,
        LINE_CHANNEL_ACCESS_TOKEN: accessToken,
        LINE_API_BASE_URL: platform.url,
        SLIP_API_BASE_URL: sandbox.url,
        SLIP_API_SECRET: DEMO_SECRETS.shop,
        SHUTDOWN_DRAIN_SECONDS: "0",
      }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    bot.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    bot.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => bot.once("exit", (code) => resolve(code)));
    try {
      const port = await new Promise<string>((resolve, reject) => {
        const look = (): void => {
          const match = /"port":(\d+),"mode":"line"/.exec(output);
          if (match?.[1] !== undefined) resolve(match[1]);
        };
        bot.stdout.on("data", look);
        void exited.then(() => reject(new Error(`the bot exited before listening:\n${output}`)));
      });
      const url = `http://127.0.0.1:${port}`;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const user = lineId("U", 0x7e57);
      const body = webhookBody([textEvent({ source: { type: "user", userId: user }, replyToken: platform.issueReplyToken(user), text: "help" })]);
      expect((await postWebhook(`${url}/webhook`, body, { secret: channelSecret })).status).toBe(200);
      const [sent] = await platform.waitForSent(1, 10_000);
      expect(sent?.chatId).toBe(user);
      bot.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (bot.exitCode === null && bot.signalCode === null) bot.kill("SIGKILL");
      await exited;
      await platform.close();
      await sandbox.close();
    }
  });
});
