// The entry point as a process: config errors stop it, local mode prints one URL, LINE mode answers signed webhooks.
import { afterEach, describe, expect, it } from "vitest";
import { startLinePlatform } from "@slipline/line-stand-in";
import type { LinePlatform } from "@slipline/line-stand-in";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import { shownText } from "./kit/messages.js";
import { killLeftovers, startEntry, type EntryProcess } from "./kit/entry-process.js";
import { lineId, postWebhook, textEvent, webhookBody } from "./kit/webhook.js";
import { freePort } from "./kit/free-port.js";
import { startLineModeMain } from "./kit/line-mode-main.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function startMain(env: Record<string, string>): EntryProcess {
  return startEntry("src/main.ts", env);
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

  it("names every wrong variable of the shop's and the process's settings at once, on stderr, and shows no secret", async () => {
    const secrets = { METRICS_TOKEN: "short pass", REDIS_URL: "http://:hunter2-redis-password@cache:6379", SLIP_API_SECRET: "sk live with spaces" };
    const main = startMain({
      ...secrets,
      SLIP_API_BASE_URL: "http://slips.example.com",
      PROMPTPAY_ID: "12345",
      STAFF_GROUP_IDS: "group-1",
      DAILY_SUMMARY_AT: "25:00",
      WATCH_PAYMENTS_MINUTES: "0",
      INSTANCE_ROLE: "web",
      LOG_LEVEL: "loud",
    });
    expect(await main.exited).toBe(1);
    expect(main.stdout()).toBe("");
    expect(main.stderr()).toBe(
      [
        "slipline: Invalid configuration (9 problems):",
        "  SLIP_API_BASE_URL: must be an https URL (http only on localhost/127.0.0.1), without query or fragment",
        "  SLIP_API_SECRET: must be at least 8 characters, without spaces",
        '  PROMPTPAY_ID: "12345" is not a PromptPay id: use a phone number (10 digits starting with 0, or +66…), a 13-digit citizen or tax id, or a 15-digit e-wallet id',
        `  STAFF_GROUP_IDS: "group-1" is not a LINE group id (C or R followed by 32 hex digits; the bot's "id" command in the group shows it)`,
        "  METRICS_TOKEN: must be at least 16 visible characters without spaces (it is a password for /metrics)",
        "  REDIS_URL: must be a redis:// or rediss:// URL, such as redis://:password@host:6379/0 (the value is not shown here)",
        '  DAILY_SUMMARY_AT: "25:00" is not a time: use HH:MM in 24 hours, such as 21:30 (the business time zone)',
        "  WATCH_PAYMENTS_MINUTES: must be a whole number from 1 to 1440 (minutes)",
        '  LOG_LEVEL: "loud" is not a level: use one of fatal, error, warn, info, debug, trace, silent',
        "",
      ].join("\n"),
    );
    for (const secret of [...Object.values(secrets), "hunter2"]) expect(main.stderr()).not.toContain(secret);
  });

  it("with a LINE channel but no slip service refuses to start, naming both variables; SLIP_SANDBOX=1 starts with a warning", async () => {
    const line = { LINE_CHANNEL_SECRET: "0123456789abcdef0123456789abcdef", LINE_CHANNEL_ACCESS_TOKEN: "main-test-token-not-to-be-shown" };
    const refused = startMain({ PORT: "0", ...line });
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toMatch(/SLIP_API_BASE_URL: is missing/);
    expect(refused.stderr()).toMatch(/SLIP_API_SECRET: is missing/);
    expect(refused.output()).not.toContain(line.LINE_CHANNEL_ACCESS_TOKEN);

    const platform: LinePlatform = await startLinePlatform({ channelAccessToken: line.LINE_CHANNEL_ACCESS_TOKEN });
    cleanups.push(() => platform.close());
    const sandboxed = startMain({ PORT: "0", SANDBOX_DB: ":memory:", SLIP_SANDBOX: "1", LINE_API_BASE_URL: platform.url, ...line });
    await sandboxed.waitFor(/"mode":"line"/);
    expect(sandboxed.output()).toMatch(/SLIP_SANDBOX=1 with a real LINE channel[^\n]*never use this for a real shop/);
    // No staff listed with a real channel: the warning says private commands are refused to everyone.
    expect(sandboxed.output()).toMatch(/refused to everyone until staff are listed/);
    expect(await sandboxed.stop()).toBe(0);
  });

  it("with nothing configured runs sandbox, LINE stand-in and console, prints one URL, and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    // NODE_DEBUG=module names every CommonJS module loaded (SQLite's and the canvas's bindings are).
    const main = startMain({ PORT: String(port), SANDBOX_DB: ":memory:", NODE_DEBUG: "module" });
    const [, url] = await main.waitFor(/Open (http:\/\/127\.0\.0\.1:\d+\/)/);
    expect(main.stderr()).toMatch(/better-sqlite3/);
    expect(main.stderr()).toMatch(/@napi-rs\/canvas/);
    // The console is on the port the newcomer chose, beside the webhook and the health check.
    expect(url).toBe(`http://127.0.0.1:${port}/`);
    const page = await fetch(url ?? "");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/html/);
    expect((await fetch(`${url}healthz`)).status).toBe(200);
    // Local mode plays two shops' OAs: each has its webhook; /webhook names no shop.
    expect((await fetch(`${url}webhook/cafe`)).status).toBe(405);
    expect((await fetch(`${url}webhook/second`)).status).toBe(405);
    expect((await fetch(`${url}webhook`)).status).toBe(404);
    expect((await fetch(`${url}api/config`)).headers.get("content-type")).toMatch(/json/);
    expect((await fetch(`${url}no-such-page`)).status).toBe(404);
    expect(main.stdout().match(/Open http/g)).toHaveLength(1);
    // Local mode lists the console's staff personas and staff group, so nothing warns about empty lists.
    expect(main.stdout()).not.toMatch(/no staff listed/);
    main.child.kill("SIGTERM");
    expect(await main.exited).toBe(0);
    expect(main.stdout()).toMatch(/shutting down/);
  });

  it("in LINE mode answers a signed webhook through the configured LINE API and slip service", async () => {
    const bot = await startLineModeMain({ PROMPTPAY_ID: "0812345678", STAFF_USER_IDS: lineId("U", 0xabc), BOT_LANG: "en", NODE_DEBUG: "module" });
    cleanups.push(() => bot.close());
    const { main, platform, sandbox, channelSecret: secret, accessToken: token } = bot;
    const user = lineId("U", 0xabc);
    const body = webhookBody([textEvent({ source: { type: "user", userId: user }, replyToken: platform.issueReplyToken(user), text: "balance" })]);
    const answer = await postWebhook(`${bot.url}/webhook`, body, { secret });
    expect(answer.status).toBe(200);
    const [sent] = await platform.waitForSent(1);
    expect(sent?.kind).toBe("reply");
    expect(shownText(sent?.messages ?? [])).toMatch(/ร้านกาแฟดีใจ/);
    // The package's expiry as the service has it, as its day in Bangkok (BOT_LANG=en: `24 May 2027`); Intl's calendar says which day.
    const account = (await (await fetch(`${sandbox.url}/api/account/info`, { headers: { Authorization: `Bearer ${DEMO_SECRETS.shop}` } })).json()) as {
      data: { expiresAt: string };
    };
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", { timeZone: "Asia/Bangkok", day: "numeric", month: "short", year: "numeric" })
        .formatToParts(new Date(account.data.expiresAt))
        .map((part) => [part.type, part.value]),
    );
    expect(shownText(sent?.messages ?? [])).toContain(`${parts.day} ${parts.month} ${parts.year}`);
    main.child.kill("SIGTERM");
    expect(await main.exited).toBe(0);
    for (const s of [secret, token, DEMO_SECRETS.shop]) expect(main.stdout() + main.stderr()).not.toContain(s);
    // The sandbox (SQLite) and the rich menus' drawing (the canvas) are local mode's: a deployment never loads
    // them. Nor, without REDIS_URL, the Redis client.
    expect(main.stderr()).toMatch(/MODULE \d+/);
    expect(main.stderr()).not.toMatch(/better-sqlite3|@napi-rs\/canvas|ioredis/);
  });
});
