// `npx tsx bench/redis-footprint.ts`: what one instance costs a Redis, for sizing a plan (connections
// allowed, commands billed): a private redis-server on a free loopback port, one bot (role both) against the
// LINE stand-in and the sandbox, left idle; `INFO clients` for the connections and `INFO commandstats` over
// BENCH_IDLE_SECONDS (default 60) for the commands, counted after a reset of the statistics. Two instances
// are measured the same way. Prints one JSON line.
import { Redis } from "ioredis";
import { startLinePlatform } from "@slipline/line-stand-in";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import { startSandbox } from "@slipline/slip-sandbox";
import { startEntry } from "../test/kit/entry-process.js";
import { commandStats, startTestRedis } from "../test/kit/redis-server.js";

const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? "60");
const SECRET = "0123456789abcdef0123456789abcdef";
const TOKEN = "redis-footprint-access-token";

async function measure(instances: number): Promise<Record<string, unknown>> {
  const redis = await startTestRedis();
  const platform = await startLinePlatform({ channelAccessToken: TOKEN });
  const sandbox = await startSandbox();
  const admin = new Redis(redis.url, { connectionName: "footprint-admin" });
  const bots = [];
  try {
    for (let i = 0; i < instances; i += 1) {
      const bot = startEntry("src/main.ts", {
        PORT: "0",
        LINE_CHANNEL_SECRET: SECRET,
        LINE_CHANNEL_ACCESS_TOKEN: TOKEN,
        LINE_API_BASE_URL: platform.url,
        SLIP_API_BASE_URL: sandbox.url,
        SLIP_API_SECRET: DEMO_SECRETS.shop,
        REDIS_URL: redis.url,
      });
      bots.push(bot);
      await bot.waitFor(/event queue workers started/, 60_000);
    }
    // Settle (partitions shared out), then count.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const clients = String(await admin.client("LIST"))
      .split("\n")
      .filter((line) => / name=slipline/.test(line));
    await admin.config("RESETSTAT");
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1_000));
    const calls = commandStats(await admin.info("commandstats"));
    delete calls["config|resetstat"];
    delete calls.config;
    delete calls.info;
    const total = Object.values(calls).reduce((a, b) => a + b, 0);
    return {
      instances,
      connectionsPerInstance: clients.length / instances,
      connectionNames: [...new Set(clients.map((line) => /name=(\S+)/.exec(line)?.[1]))],
      idleSeconds: IDLE_SECONDS,
      commandsPerInstancePerMinute: Math.round((total / instances / IDLE_SECONDS) * 60),
      commandsPerInstancePerDay: Math.round((total / instances / IDLE_SECONDS) * 86_400),
      calls,
    };
  } finally {
    for (const bot of bots) await bot.stop();
    admin.disconnect();
    await sandbox.close();
    await platform.close();
    await redis.stop();
  }
}

const results = [await measure(1), await measure(2)];
process.stdout.write(`${JSON.stringify(results)}\n`);
