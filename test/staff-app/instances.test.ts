// The staff app in LINE mode, two bot processes sharing a redis-server of the test's own: LINE_LOGIN_CHANNEL_ID
// and LIFF_ID turn the app on, and an export link used on one instance is refused on the other.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRedis } from "../kit/redis-server.js";
import type { TestRedis } from "../kit/redis-server.js";
import { startBot, startWorld, whenReady } from "../kit/loopback-world.js";
import type { BotProcess, World } from "../kit/loopback-world.js";

const STAFF = "U5a1e0c7f3b2d4e6f8a9b0c1d2e3f4a5b";
const LOGIN_CHANNEL = "1650000001";

let world: World;
let redis: TestRedis;
const bots: BotProcess[] = [];

beforeAll(async () => {
  world = await startWorld(0);
  redis = await startTestRedis({ persistence: false });
  const env = {
    REDIS_URL: redis.url,
    STAFF_USER_IDS: STAFF,
    LINE_LOGIN_CHANNEL_ID: LOGIN_CHANNEL,
    LIFF_ID: `${LOGIN_CHANNEL}-AbCdEfGh`,
    PUBLIC_URL: "https://bot.example.com",
  };
  bots.push(...(await Promise.all([startBot(world, env), startBot(world, env)])));
  await Promise.all(bots.map((bot) => whenReady(bot)));
}, 120_000);

afterAll(async () => {
  for (const bot of bots) await bot.process.stop();
  await redis?.stop();
  await world?.close();
}, 60_000);

describe("the staff app on two instances", { timeout: 60_000 }, () => {
  it("serves the page and the API with the login set, and an export link once across instances", async () => {
    const [a, b] = bots as [BotProcess, BotProcess];
    const page = await fetch(`${a.url}/app/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`data-liff-id="${LOGIN_CHANNEL}-AbCdEfGh"`);

    const token = world.platform.issueIdToken(STAFF, LOGIN_CHANNEL);
    const made = await fetch(`${b.url}/app/api/export-link`, { headers: { authorization: `Bearer ${token}` } });
    expect(made.status).toBe(200);
    const { url } = (await made.json()) as { url: string };
    const first = await fetch(`${a.url}${url}`);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const again = await fetch(`${b.url}${url}`);
    expect(again.status).toBe(410);
    expect(((await again.json()) as { error: string }).error).toBe("link_used");
  });
});
