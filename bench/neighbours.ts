// The noisy neighbour (issue 39, goal 1), as whole processes on loopback: one deployment (a shops file) of two
// shops, each with its own LINE channel and its own slip service. Shop A floods at 100 events/s while its
// service answers in 2 s; shop B sends 5 events/s to a service that answers at once. Per layout (one
// instance; two instances on one redis-server, the webhooks alternating between them):
// - a step of B alone, then a step of A flooding beside B, each `stepMs` long, every event `qr 150`;
// - B's events lost (not answered), its webhooks refused (503), its e2e p95 alone and beside A;
// - A's events acknowledged (200), and each answered once: none lost, none answered twice.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Pool } from "undici";
import { retryKeyFor } from "../src/line/outbox.js";
import { freePort } from "../test/kit/free-port.js";
import { TEST_METRICS_TOKEN } from "../test/kit/metrics.js";
import { startTestRedis } from "../test/kit/redis-server.js";
import { signBody } from "../test/kit/webhook.js";
import type { Arrival } from "./line-stand-in.js";
import { startChild, type Child } from "./processes.js";
import { startSlowSandbox } from "./slow-service.js";
import { quantile } from "./stats.js";

export interface NeighboursSetup {
  /** The LINE stand-in's API and its control port (bench/line-stand-in.ts). */
  lineUrl: string;
  lineControlUrl: string;
}

export interface NeighboursOptions {
  /** Shop A's rate, events/s, and its service's latency, ms. */
  floodRate: number;
  floodLatencyMs: number;
  /** Shop B's rate, events/s. */
  quietRate: number;
  /** Each step's length (B alone, then A beside B). */
  stepMs: number;
  /** After the flood, how long A's acknowledged events may take to be answered. */
  drainMs: number;
}

/** One shop's events in one step. */
export interface ShopStep {
  sent: number;
  /** Webhooks answered 200. */
  acknowledged: number;
  /** Webhooks answered 503 (busy). */
  refused503: number;
  /** Webhooks answered otherwise, or not at all. */
  otherErrors: number;
  /** Acknowledged events never answered. */
  lost: number;
  /** Acknowledged events answered more than once. */
  answeredTwice: number;
  /** End to end, from the webhook to the answer at the stand-in, ms (answered events). */
  e2eP50: number;
  e2eP95: number;
}

export interface NeighboursLayout {
  layout: string;
  alone: ShopStep;
  /** B beside A's flood, and A's flood itself. */
  beside: ShopStep;
  flood: ShopStep;
  /** Replies the stand-in refused in both steps: a reply token used again (a second answer). */
  rejectedByLine: number;
}

export interface NeighboursFigures {
  options: NeighboursOptions;
  layouts: NeighboursLayout[];
}

const QUIET = "quiet";
const FLOOD = "flood";
const SECRETS = { [FLOOD]: "f100d000000000000000000000000001", [QUIET]: "9e1e7000000000000000000000000002" } as const;
/** Chats enough that A's per-chat order never holds its events back: each chat has about one event a step. */
const usersOf = (shop: string, count: number): string[] => Array.from({ length: count }, (_, i) => `U${(shop === FLOOD ? 0xa0000 : 0xb0000) + i}`.padEnd(33, "0"));

interface Planned {
  key: string;
  shop: string;
  userId: string;
  eventId: string;
  atOffsetMs: number;
}

/** Wall-clock ms, as the stand-in stamps its arrivals. */
const now = (): number => performance.timeOrigin + performance.now();

let serial = 0;
function plan(shop: string, rate: number, stepMs: number, users: readonly string[]): Planned[] {
  const count = Math.round((rate * stepMs) / 1000);
  return Array.from({ length: count }, (_, i) => {
    serial += 1;
    return { key: `N${serial}`, shop, userId: users[i % users.length] ?? "", eventId: `01NEIGH${String(serial).padStart(19, "0")}`, atOffsetMs: (i * 1000) / rate };
  });
}

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/**
 * Sends the planned events (one a webhook, to the bots in turn) at their times, then collects answers until
 * every acknowledged event is answered or `drainMs` passes; figures per shop, and the replies the stand-in
 * refused (a reply token used twice: an event answered twice).
 */
async function runStep(setup: NeighboursSetup, botUrls: readonly string[], events: Planned[], drainMs: number): Promise<{ shops: Map<string, ShopStep>; rejectedByLine: number }> {
  await postJson(`${setup.lineControlUrl}/reset`, {});
  const { tokens } = await postJson<{ tokens: string[] }>(`${setup.lineControlUrl}/tokens`, { chatIds: events.map((e) => e.key) });
  const tokenOf = new Map(events.map((e, i) => [e.key, tokens[i] ?? ""]));
  const pools = botUrls.map((url) => new Pool(url, { connections: 256, keepAliveTimeout: 30_000 }));
  const sentAt = new Map<string, number>();
  const status = new Map<string, string>();
  const inFlight: Promise<void>[] = [];
  const ordered = [...events].sort((a, b) => a.atOffsetMs - b.atOffsetMs);
  const start = now();
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const elapsed = now() - start;
      while (next < ordered.length && (ordered[next]?.atOffsetMs ?? Infinity) <= elapsed) {
        const event = ordered[next];
        const pool = pools[next % pools.length];
        next += 1;
        if (event === undefined || pool === undefined) continue;
        const body = JSON.stringify({
          destination: "Ubench0000000000000000000000000000",
          events: [
            {
              type: "message",
              mode: "active",
              timestamp: Date.now(),
              webhookEventId: event.eventId,
              deliveryContext: { isRedelivery: false },
              replyToken: tokenOf.get(event.key) ?? "",
              source: { type: "user", userId: event.userId },
              message: { id: event.eventId.slice(-18), type: "text", text: "qr 150", quoteToken: "q" },
            },
          ],
        });
        sentAt.set(event.key, now());
        inFlight.push(
          pool
            .request({
              method: "POST",
              path: `/webhook/${event.shop}`,
              headers: { "content-type": "application/json", "x-line-signature": signBody(body, SECRETS[event.shop as keyof typeof SECRETS]) },
              body,
            })
            .then(async (response) => {
              await response.body.dump();
              status.set(event.key, String(response.statusCode));
            })
            .catch(() => {
              status.set(event.key, "error");
            }),
        );
      }
      if (next < ordered.length) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);

  const acknowledged = new Set(events.filter((e) => status.get(e.key) === "200").map((e) => e.key));
  const byRetryKey = new Map(events.map((e) => [retryKeyFor(e.eventId, 0), e.key]));
  const answers = new Map<string, number[]>();
  const deadline = now() + drainMs;
  let rejectedByLine = 0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const drained = await postJson<{ arrivals: Arrival[]; rejected: number }>(`${setup.lineControlUrl}/drain`, {});
    rejectedByLine += drained.rejected;
    for (const arrival of drained.arrivals) {
      const key = arrival.kind === "reply" ? arrival.chatId : arrival.retryKey === undefined ? undefined : byRetryKey.get(arrival.retryKey.toLowerCase());
      if (key === undefined || !sentAt.has(key)) continue;
      const list = answers.get(key) ?? [];
      list.push(arrival.at);
      answers.set(key, list);
    }
    const waiting = [...acknowledged].some((key) => !answers.has(key));
    if (!waiting || now() > deadline) break;
  }
  await Promise.all(pools.map((pool) => pool.close()));

  const figures = new Map<string, ShopStep>();
  for (const shop of new Set(events.map((e) => e.shop))) {
    const mine = events.filter((e) => e.shop === shop);
    const e2e = mine.flatMap((e) => {
      const at = answers.get(e.key)?.[0];
      const sent = sentAt.get(e.key);
      return at === undefined || sent === undefined ? [] : [at - sent];
    });
    figures.set(shop, {
      sent: mine.length,
      acknowledged: mine.filter((e) => acknowledged.has(e.key)).length,
      refused503: mine.filter((e) => status.get(e.key) === "503").length,
      otherErrors: mine.filter((e) => status.get(e.key) !== "200" && status.get(e.key) !== "503").length,
      lost: mine.filter((e) => acknowledged.has(e.key) && !answers.has(e.key)).length,
      answeredTwice: mine.filter((e) => (answers.get(e.key)?.length ?? 0) > 1).length,
      e2eP50: quantile(e2e, 0.5),
      e2eP95: quantile(e2e, 0.95),
    });
  }
  return { shops: figures, rejectedByLine };
}

function shopsFile(slow: string, fast: string, floodUsers: readonly string[], quietUsers: readonly string[]): string {
  const shop = (id: string, baseUrl: string, users: readonly string[]) => ({
    id,
    name: `Bench ${id}`,
    line: { channelSecret: SECRETS[id as keyof typeof SECRETS], channelAccessToken: `bench-${id}-token` },
    slip: { baseUrl, apiSecret: "demo-shop-secret" },
    promptPayId: "0812345678",
    staff: { users, groups: [] },
    lang: "en",
  });
  return JSON.stringify({ shops: [shop(FLOOD, slow, floodUsers), shop(QUIET, fast, quietUsers)] });
}

export async function benchNeighbours(setup: NeighboursSetup, options: NeighboursOptions): Promise<NeighboursFigures> {
  const dir = mkdtempSync(join(tmpdir(), "slipline-bench-neighbours-"));
  const slow = await startSlowSandbox(options.floodLatencyMs);
  const fast = await startSlowSandbox(0);
  const floodUsers = usersOf(FLOOD, Math.round((options.floodRate * options.stepMs) / 1000));
  const quietUsers = usersOf(QUIET, 50);
  const file = join(dir, "shops.json");
  writeFileSync(file, shopsFile(String(slow.ready.url), String(fast.ready.url), floodUsers, quietUsers));
  const layouts: NeighboursLayout[] = [];
  try {
    for (const layout of ["one instance", "2 + Redis"] as const) {
      const redis = layout === "2 + Redis" ? await startTestRedis() : undefined;
      const bots: Child[] = [];
      try {
        for (let i = 0; i < (redis === undefined ? 1 : 2); i++) {
          const port = await freePort();
          const url = `http://127.0.0.1:${port}`;
          const child = await startChild(`slipline ${i === 0 ? "A" : "B"} (neighbours, ${layout})`, ["dist/main.js"], {
            env: {
              SHOPS_FILE: file,
              LINE_API_BASE_URL: setup.lineUrl,
              PORT: String(port),
              LOG_LEVEL: "error",
              METRICS_TOKEN: TEST_METRICS_TOKEN,
              SHUTDOWN_DRAIN_SECONDS: "0",
              ...(redis === undefined ? {} : { REDIS_URL: redis.url, REDIS_KEY_PREFIX: "bench-neighbours" }),
            },
            healthUrl: `${url}/readyz`,
            onLine: () => undefined,
          });
          bots.push({ ...child, ready: { ...child.ready, url } });
        }
        const urls = bots.map((bot) => String(bot.ready.url));
        process.stderr.write(`neighbours (${layout}): B alone...\n`);
        const first = await runStep(setup, urls, plan(QUIET, options.quietRate, options.stepMs, quietUsers), 15_000);
        const alone = first.shops.get(QUIET);
        process.stderr.write(`neighbours (${layout}): A flooding beside B...\n`);
        const both = await runStep(
          setup,
          urls,
          [...plan(FLOOD, options.floodRate, options.stepMs, floodUsers), ...plan(QUIET, options.quietRate, options.stepMs, quietUsers)],
          options.drainMs,
        );
        const beside = both.shops.get(QUIET);
        const flood = both.shops.get(FLOOD);
        if (alone === undefined || beside === undefined || flood === undefined) throw new Error("a step measured nothing");
        layouts.push({ layout, alone, beside, flood, rejectedByLine: first.rejectedByLine + both.rejectedByLine });
      } finally {
        for (const bot of bots) await bot.stop();
        await redis?.stop();
      }
    }
  } finally {
    await slow.stop();
    await fast.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { options, layouts };
}

const ms = (value: number): string => (Number.isFinite(value) ? String(Math.round(value)) : String(value));

export function neighboursLine(figures: NeighboursFigures): string {
  const o = figures.options;
  return (
    `noisy neighbour (A ${o.floodRate}/s, its service at ${o.floodLatencyMs / 1000} s; B ${o.quietRate}/s; steps of ${o.stepMs / 1000} s, every event "qr 150"):\n` +
    figures.layouts
      .map(
        (l) =>
          `  ${l.layout.padEnd(13)} B: lost ${l.beside.lost} (alone ${l.alone.lost}), 503 ${l.beside.refused503} (alone ${l.alone.refused503}), other errors ${l.beside.otherErrors}, ` +
          `p95 ${ms(l.beside.e2eP95)} ms beside A vs ${ms(l.alone.e2eP95)} ms alone (x${(l.beside.e2eP95 / l.alone.e2eP95).toFixed(2)}); ` +
          `A: ${l.flood.sent} sent, ${l.flood.acknowledged} acknowledged, ${l.flood.refused503} refused 503, ${l.flood.lost} acknowledged not answered, ${l.flood.answeredTwice} answered twice; replies refused by the stand-in ${l.rejectedByLine}`,
      )
      .join("\n")
  );
}
