// Many shops in one deployment, through the real process in LINE mode: a shops file (secrets by `${NAME}`),
// each shop on its own webhook, answered through its own LINE channel with its own slip service secret and
// staff; unknown shops and foreign signatures refused; a reload on SIGHUP and on a change of the file that
// adds, removes and changes shops while /readyz stays 200, and a bad file that changes nothing; and, on one
// Redis, two shops of one deployment and two deployments that never mix.
// Platform: SIGHUP and watching a file for changes, in a real process.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startLinePlatform } from "@slipline/line-stand-in";
import type { LinePlatform, RecordedSend } from "@slipline/line-stand-in";
import { DEMO_SECRETS, DEMO_STORE_NAMES } from "@slipline/slip-sandbox";
import { startSandbox } from "@slipline/slip-sandbox";
import type { RunningSandbox } from "@slipline/slip-sandbox";
import { killLeftovers, startEntry } from "../kit/entry-process.js";
import type { EntryProcess } from "../kit/entry-process.js";
import { readMetrics, TEST_METRICS_TOKEN } from "../kit/metrics.js";
import { startTestRedis } from "../kit/redis-server.js";
import { shownText } from "../kit/messages.js";
import { lineId, postWebhook, textEvent, webhookBody } from "../kit/webhook.js";

const STAFF = lineId("U", 0xc01);
const CUSTOMER = lineId("U", 0xc02);
const CHANNELS = {
  cafe: { secret: "cafe0000000000000000000000000001", token: "cafe-access-token-0001" },
  noodle: { secret: "00d1e000000000000000000000000002", token: "noodle-access-token-0002" },
  bakery: { secret: "bae00000000000000000000000000003", token: "bakery-access-token-0003" },
} as const;
type ShopId = keyof typeof CHANNELS;

interface World {
  platform: LinePlatform;
  sandbox: RunningSandbox;
  dir: string;
  env: Record<string, string>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function world(): Promise<World> {
  const platform = await startLinePlatform({ channels: (Object.keys(CHANNELS) as ShopId[]).map((id) => ({ name: id, accessToken: CHANNELS[id].token })) });
  const sandbox = await startSandbox({});
  const dir = mkdtempSync(join(tmpdir(), "slipline-shops-"));
  cleanups.push(async () => {
    await sandbox.close();
    await platform.close();
    rmSync(dir, { recursive: true, force: true });
  });
  // The secrets live in the environment; the file names them.
  const env: Record<string, string> = {};
  for (const id of Object.keys(CHANNELS) as ShopId[]) {
    env[`${id.toUpperCase()}_LINE_SECRET`] = CHANNELS[id].secret;
    env[`${id.toUpperCase()}_LINE_TOKEN`] = CHANNELS[id].token;
  }
  env.CAFE_SLIP_SECRET = DEMO_SECRETS.shop;
  env.NOODLE_SLIP_SECRET = DEMO_SECRETS.other;
  env.BAKERY_SLIP_SECRET = DEMO_SECRETS.other;
  return { platform, sandbox, dir, env };
}

function shopEntry(w: World, id: ShopId, staff: string[]): unknown {
  const upper = id.toUpperCase();
  return {
    id,
    line: { channelSecret: `\${${upper}_LINE_SECRET}`, channelAccessToken: `\${${upper}_LINE_TOKEN}` },
    slip: { baseUrl: w.sandbox.url, apiSecret: `\${${upper}_SLIP_SECRET}` },
    promptPayId: "0812345678",
    staff: { users: staff },
    lang: "en",
  };
}

function writeShops(w: World, shops: unknown[]): string {
  const path = join(w.dir, "shops.json");
  writeFileSync(path, JSON.stringify({ shops }, null, 2));
  return path;
}

async function startShopsBot(w: World, file: string, env: Record<string, string> = {}): Promise<{ main: EntryProcess; url: string }> {
  const main = startEntry("src/main.ts", {
    PORT: "0",
    SHOPS_FILE: file,
    LINE_API_BASE_URL: w.platform.url,
    LOG_LEVEL: "info",
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    ...w.env,
    ...env,
  });
  const [, port] = await main.waitFor(/"port":(\d+),"mode":"line"/, 60_000);
  return { main, url: `http://127.0.0.1:${port}` };
}

/** Sends `text` from `userId` in their 1:1 chat with shop `id`'s OA and returns what that OA answered. */
async function ask(w: World, url: string, id: ShopId, userId: string, text: string): Promise<RecordedSend[]> {
  const mark = w.platform.sent.length;
  const body = webhookBody([textEvent({ source: { type: "user", userId }, replyToken: w.platform.issueReplyToken(userId, id), text })]);
  const answer = await postWebhook(`${url}/webhook/${id}`, body, { secret: CHANNELS[id].secret });
  expect(answer.status, `webhook of ${id}`).toBe(200);
  await waitFor(() => w.platform.sent.length > mark, 15_000);
  return w.platform.sent.slice(mark);
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("many shops in one deployment", { timeout: 180_000 }, () => {
  it("answers each shop through its own channel, with its own slip service secret and staff, and refuses the rest", async () => {
    const w = await world();
    const file = writeShops(w, [shopEntry(w, "cafe", [STAFF]), shopEntry(w, "noodle", [])]);
    const { main, url } = await startShopsBot(w, file);

    // The same person is staff of the café and a customer of the noodle shop.
    const cafe = await ask(w, url, "cafe", STAFF, "balance");
    expect(cafe.map((s) => s.channel)).toEqual(["cafe"]);
    expect(shownText(cafe.flatMap((s) => s.messages))).toContain(DEMO_STORE_NAMES.shop);
    const noodle = await ask(w, url, "noodle", STAFF, "balance");
    expect(noodle.map((s) => s.channel)).toEqual(["noodle"]);
    expect(shownText(noodle.flatMap((s) => s.messages))).not.toMatch(new RegExp(`${DEMO_STORE_NAMES.shop}|${DEMO_STORE_NAMES.other}|Pro`));

    // /webhook names no shop with a shops file; nor does an unknown id; another shop's signature is no signature.
    const body = webhookBody([textEvent({ source: { type: "user", userId: CUSTOMER }, replyToken: "r", text: "qr 150" })]);
    expect((await postWebhook(`${url}/webhook`, body, { secret: CHANNELS.cafe.secret })).status).toBe(404);
    expect((await postWebhook(`${url}/webhook/pizza`, body, { secret: CHANNELS.cafe.secret })).status).toBe(404);
    expect((await postWebhook(`${url}/webhook/noodle`, body, { secret: CHANNELS.cafe.secret })).status).toBe(401);
    expect((await postWebhook(`${url}/webhook/noodle`, body, { none: true })).status).toBe(401);

    // Logs say which shop; the metrics count per shop.
    expect(main.output()).toMatch(/"shop":"noodle"[^\n]*"msg":"event handled"/);
    const metrics = await readMetrics(url);
    expect(metrics).toMatch(/^slipline_events_total\{shop="cafe",type="message",outcome="answered"\} 1$/m);
    expect(metrics).toMatch(/^slipline_events_total\{shop="noodle",type="message",outcome="refused"\} 1$/m);
    // No secret of any shop in the log.
    for (const secret of [CHANNELS.cafe.secret, CHANNELS.noodle.token, DEMO_SECRETS.shop, DEMO_SECRETS.other]) expect(main.output()).not.toContain(secret);
  });

  it("reloads on SIGHUP and on a change of the file: added shops answer, removed ones 404, a bad file changes nothing, /readyz stays 200", async () => {
    const w = await world();
    const file = writeShops(w, [shopEntry(w, "cafe", [STAFF]), shopEntry(w, "noodle", [])]);
    const { main, url } = await startShopsBot(w, file);
    let notReady = 0;
    let watching = true;
    const readiness = (async () => {
      while (watching) {
        if ((await fetch(`${url}/readyz`)).status !== 200) notReady += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    // The bakery joins, the noodle shop leaves, the café's staff changes: SIGHUP.
    writeShops(w, [shopEntry(w, "cafe", []), shopEntry(w, "bakery", [STAFF])]);
    main.child.kill("SIGHUP");
    await main.waitFor(/"msg":"shops reloaded"/, 15_000);
    expect(main.output()).toMatch(/"added":\["bakery"\],"changed":\["cafe"\],"removed":\["noodle"\]/);
    expect(shownText((await ask(w, url, "bakery", STAFF, "balance")).flatMap((s) => s.messages))).toContain(DEMO_STORE_NAMES.other);
    const body = webhookBody([textEvent({ source: { type: "user", userId: CUSTOMER }, replyToken: "r", text: "qr 150" })]);
    expect((await postWebhook(`${url}/webhook/noodle`, body, { secret: CHANNELS.noodle.secret })).status).toBe(404);
    // The café's staff list changed in place: STAFF is a customer there now.
    expect(shownText((await ask(w, url, "cafe", STAFF, "balance")).flatMap((s) => s.messages))).not.toContain(DEMO_STORE_NAMES.shop);

    // A bad file: the running shops stay, and the log says why.
    writeFileSync(file, JSON.stringify({ shops: [{ id: "cafe" }] }));
    main.child.kill("SIGHUP");
    await main.waitFor(/shops file not reloaded: it has problems/, 15_000);
    expect(main.output()).toMatch(/line: is missing/);
    expect((await ask(w, url, "bakery", STAFF, "qr 20")).map((s) => s.channel)).toEqual(["bakery"]);

    // A change of the file alone reloads it too.
    writeShops(w, [shopEntry(w, "cafe", [STAFF]), shopEntry(w, "bakery", [STAFF]), shopEntry(w, "noodle", [])]);
    await waitFor(async () => (await postWebhook(`${url}/webhook/noodle`, body, { secret: CHANNELS.noodle.secret })).status !== 404, 15_000);
    watching = false;
    await readiness;
    expect(notReady).toBe(0);
  });

  it("on one Redis: two deployments with a shop each, and the shops of one deployment, never mix", async () => {
    const w = await world();
    const redis = await startTestRedis();
    cleanups.push(() => redis.stop());
    // Two single-shop deployments (no REDIS_KEY_PREFIX: derived from each channel) on the same Redis.
    const one = startEntry("src/main.ts", {
      PORT: "0",
      LINE_API_BASE_URL: w.platform.url,
      LINE_CHANNEL_SECRET: CHANNELS.cafe.secret,
      LINE_CHANNEL_ACCESS_TOKEN: CHANNELS.cafe.token,
      SLIP_API_BASE_URL: w.sandbox.url,
      SLIP_API_SECRET: DEMO_SECRETS.shop,
      STAFF_USER_IDS: STAFF,
      REDIS_URL: redis.url,
      ACCOUNT_CACHE_SECONDS: "300",
    });
    const two = startEntry("src/main.ts", {
      PORT: "0",
      LINE_API_BASE_URL: w.platform.url,
      LINE_CHANNEL_SECRET: CHANNELS.noodle.secret,
      LINE_CHANNEL_ACCESS_TOKEN: CHANNELS.noodle.token,
      SLIP_API_BASE_URL: w.sandbox.url,
      SLIP_API_SECRET: DEMO_SECRETS.other,
      STAFF_USER_IDS: STAFF,
      REDIS_URL: redis.url,
      ACCOUNT_CACHE_SECONDS: "300",
    });
    const ports = await Promise.all([one, two].map(async (p) => (await p.waitFor(/"port":(\d+),"mode":"line"/, 60_000))[1]));
    const urls = ports.map((port) => `http://127.0.0.1:${port}`);
    for (const url of urls) await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, 30_000);
    // And a third deployment on the same Redis: a shops file with two shops, under a prefix of its own.
    const cached = (id: ShopId): unknown => ({ ...(shopEntry(w, id, [STAFF]) as object), accountCacheSeconds: 300 });
    const file = writeShops(w, [cached("cafe"), cached("noodle")]);
    const many = await startShopsBot(w, file, { REDIS_URL: redis.url, REDIS_KEY_PREFIX: "agency-a" });
    await waitFor(async () => (await fetch(`${many.url}/readyz`)).status === 200, 30_000);
    const targets: { url: string; path: string; id: "cafe" | "noodle" }[] = [
      { url: urls[0] ?? "", path: "/webhook", id: "cafe" },
      { url: urls[1] ?? "", path: "/webhook", id: "noodle" },
      { url: many.url, path: "/webhook/cafe", id: "cafe" },
      { url: many.url, path: "/webhook/noodle", id: "noodle" },
    ];
    // Each asks its balance (the account cache warms per shop), then each asks again: each its own shop.
    for (let round = 0; round < 2; round++) {
      for (const { url, path, id } of targets) {
        const mark = w.platform.sent.length;
        const event = textEvent({ source: { type: "user", userId: STAFF }, replyToken: w.platform.issueReplyToken(STAFF, id), text: "balance" });
        expect((await postWebhook(`${url}${path}`, webhookBody([event]), { secret: CHANNELS[id].secret })).status).toBe(200);
        await waitFor(() => w.platform.sent.length > mark, 15_000);
        const answers = w.platform.sent.slice(mark);
        expect(
          answers.map((s) => s.channel),
          `${url}${path}`,
        ).toEqual([id]);
        expect(shownText(answers.flatMap((s) => s.messages)), `${url}${path}`).toContain(id === "cafe" ? DEMO_STORE_NAMES.shop : DEMO_STORE_NAMES.other);
      }
    }
  });
});
