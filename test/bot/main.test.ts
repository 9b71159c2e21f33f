// The entry point as a process: config errors stop it, local mode prints one URL, LINE mode answers signed webhooks.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { startLinePlatform } from "../../src/local-line/platform.js";
import type { LinePlatform } from "../../src/local-line/platform.js";
import { DEMO_SECRETS } from "../../src/sandbox/demo.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { shownText } from "../helpers/messages.js";
import { lineId, postWebhook, textEvent, webhookBody } from "../helpers/webhook.js";

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** Resolves with the first stdout match; rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
}

const running: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function startMain(env: Record<string, string>): Running {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let out = "";
  let err = "";
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    for (const w of [...waiters]) {
      const match = out.match(w.pattern);
      if (match !== null) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(match);
      }
    }
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern) {
      const now = out.match(pattern);
      if (now !== null) return Promise.resolve(now);
      return new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve });
        void exited.then((code) => reject(new Error(`main exited (${code}) before printing ${pattern}\n${out}\n${err}`)));
      });
    },
  };
}

describe("main", { timeout: 60_000 }, () => {
  it("refuses to start on bad configuration, naming every wrong variable and no secret", async () => {
    const main = startMain({
      PORT: "eighty",
      LINE_CHANNEL_ACCESS_TOKEN: "secret-token-value-that-must-not-show",
      BOT_LANG: "fr",
    });
    expect(await main.exited).toBe(1);
    expect(main.stderr()).toMatch(/PORT/);
    expect(main.stderr()).toMatch(/LINE_CHANNEL_SECRET/);
    expect(main.stderr()).toMatch(/BOT_LANG/);
    expect(main.stderr() + main.stdout()).not.toContain("secret-token-value-that-must-not-show");
  });

  it("with nothing configured runs sandbox, LINE stand-in and console, prints one URL, and stops cleanly on SIGTERM", async () => {
    const main = startMain({ PORT: "0", SANDBOX_DB: ":memory:" });
    const [, url] = await main.waitFor(/Open (http:\/\/127\.0\.0\.1:\d+\/)/);
    const page = await fetch(url ?? "");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/html/);
    expect(main.stdout().match(/Open http/g)).toHaveLength(1);
    expect(main.stdout()).toMatch(/STAFF_USER_IDS and STAFF_GROUP_IDS are empty/);
    main.child.kill("SIGTERM");
    expect(await main.exited).toBe(0);
    expect(main.stdout()).toMatch(/shutting down/);
  });

  it("in LINE mode answers a signed webhook through the configured LINE API and slip service", async () => {
    const sandbox = await startSandbox();
    cleanups.push(() => sandbox.close());
    const token = "main-test-channel-access-token-0123456789";
    const platform: LinePlatform = await startLinePlatform({ channelAccessToken: token });
    cleanups.push(() => platform.close());
    const secret = "0123456789abcdef0123456789abcdef";
    const main = startMain({
      PORT: "0",
      LINE_CHANNEL_SECRET: secret,
      LINE_CHANNEL_ACCESS_TOKEN: token,
      LINE_API_BASE_URL: platform.url,
      SLIP_API_BASE_URL: sandbox.url,
      SLIP_API_SECRET: DEMO_SECRETS.shop,
      PROMPTPAY_ID: "0812345678",
      STAFF_USER_IDS: lineId("U", 0xabc),
      BOT_LANG: "en",
    });
    const [, port] = await main.waitFor(/"port":(\d+),"mode":"line"/);
    const user = lineId("U", 0xabc);
    const body = webhookBody([textEvent({ source: { type: "user", userId: user }, replyToken: platform.issueReplyToken(user), text: "balance" })]);
    const answer = await postWebhook(`http://127.0.0.1:${port}/webhook`, body, { secret });
    expect(answer.status).toBe(200);
    const [sent] = await platform.waitForSent(1);
    expect(sent?.kind).toBe("reply");
    expect(shownText(sent?.messages ?? [])).toMatch(/ร้านกาแฟดีใจ/);
    main.child.kill("SIGTERM");
    expect(await main.exited).toBe(0);
    for (const s of [secret, token, DEMO_SECRETS.shop]) expect(main.stdout() + main.stderr()).not.toContain(s);
  });
});
