// The opt-in pushes against the real sandbox and the LINE stand-in, at a clock the test moves: each push
// goes out when due, once (also across a restart and two instances on Redis), not when LINE's quota is
// spent, and the payment watch finds a payment made after the QR only.
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startLinePlatform } from "@slipline/line-stand-in";
import type { LinePlatform, RecordedSend } from "@slipline/line-stand-in";
import { createLineHttpApi } from "../../src/line/api.js";
import type { LineHttpApi } from "../../src/line/api.js";
import { createOutbox } from "../../src/line/outbox.js";
import type { StaffLists } from "../../src/roles/audience.js";
import { createLogger } from "../../src/log.js";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import { startSandbox } from "@slipline/slip-sandbox";
import type { RunningSandbox } from "@slipline/slip-sandbox";
import { createNotifier } from "../../src/schedules/notifier.js";
import type { AlertSettings, Notifier } from "../../src/schedules/notifier.js";
import { readQuota } from "../../src/schedules/quota.js";
import { rareLineCalls } from "../../src/line/rare-calls.js";
import type { RareLineCalls } from "../../src/line/rare-calls.js";
import { memoryScheduleStore, redisScheduleStore } from "../../src/stores/schedules.js";
import type { ScheduleStore } from "../../src/stores/schedules.js";
import { createSlipClient } from "../../src/slip/client.js";
import { ServiceUnavailableError } from "../../src/slip/errors.js";
import type { AccountInfo, SlipClient } from "../../src/slip/types.js";
import { createSummaryLoader } from "../../src/summary/load.js";
import { captureLogs } from "../kit/log-capture.js";
import { shownText } from "../kit/messages.js";
import { startTestRedis } from "../kit/redis-server.js";
import type { TestRedis } from "../kit/redis-server.js";
import { lineId } from "../kit/webhook.js";

const OWNER = lineId("U", 0x801);
const STAFF_GROUP = lineId("C", 0x802);
const CASHIER_CHAT = lineId("U", 0x803);
const SECRET = DEMO_SECRETS.shop;

/** An instant given as Bangkok wall time, e.g. `bangkok("2026-11-20 18:00")`. */
const bangkok = (wall: string): Date => new Date(`${wall.replace(" ", "T")}:00+07:00`);

let clock = bangkok("2026-11-20 08:00");
let sandbox: RunningSandbox;
let platform: LinePlatform;
let api: RareLineCalls;
let realSlip: SlipClient;
let redis: TestRedis;
let redisClient: Redis;
const logs = captureLogs();
const log = createLogger({ level: "debug", destination: logs, secrets: [SECRET] });
/** What the account says, over the sandbox's own answer: the tokens and expiry a test needs. */
let accountOverride: Partial<AccountInfo> = {};
/** While true the slip service's history fails, as when the service is down. */
let historyDown = false;
/** While true the way to LINE answers 500, as when LINE is down. */
let lineDown = false;
let lineProxy: Server;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock, devRoutes: true });
  realSlip = createSlipClient({ baseUrl: sandbox.url, apiSecret: SECRET, accountCacheSeconds: 0 });
  redis = await startTestRedis();
  redisClient = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  await startLineProxy();
}, 30_000);
afterAll(async () => {
  await viaProxy.close();
  await new Promise((resolve) => lineProxy.close(resolve));
  redisClient.disconnect();
  await redis?.stop();
  await realSlip?.close();
  await platform?.close();
  await sandbox?.close();
});

const slip: SlipClient = {
  slipHistory: (query) => (historyDown ? Promise.reject(new ServiceUnavailableError("GET /api/slip-history", 3, 503, "HTTP 503")) : realSlip.slipHistory(query)),
  promptPayQr: (request) => realSlip.promptPayQr(request),
  promptPayQrUrl: (request) => realSlip.promptPayQrUrl(request),
  accountInfo: async () => ({ ...(await realSlip.accountInfo()), ...accountOverride }),
  close: () => Promise.resolve(),
};

/** The staff lists of the moment; a test may change them, as a reload would. */
const STAFF: StaffLists = { staffUserIds: new Set([OWNER, CASHIER_CHAT]), staffGroupIds: new Set([STAFF_GROUP]) };
let staff: StaffLists = STAFF;

function notifierWith(alerts: AlertSettings, store: ScheduleStore, storeOutlivesRestart: boolean): Notifier {
  return createNotifier({
    alerts,
    settings: { timeZone: "Asia/Bangkok", defaultLang: "en" },
    staff: () => staff,
    slip,
    summaries: createSummaryLoader({ slip, now: () => clock, reuseMs: 0 }),
    outbox: createOutbox({ api: viaProxy, log, staff: () => staff, backoffBaseMs: 5, backoffMaxMs: 20, loadingDelayMs: 0 }),
    quota: () => readQuota(api, log),
    store,
    storeOutlivesRestart,
    log,
    now: () => clock,
    accountEveryMs: 0,
  });
}

/** Pushes the stand-in accepted since `mark` (an index into its record). */
const pushesSince = (mark: number): RecordedSend[] => platform.sent.slice(mark).filter((s) => s.kind === "push");

/** Moves the clock, ticks, and returns what was pushed. */
async function tickAt(notifier: Notifier, wall: string): Promise<RecordedSend[]> {
  clock = bangkok(wall);
  const mark = platform.sent.length;
  await notifier.tick();
  return pushesSince(mark);
}

/** The checks the sandbox has today so far (its days are Bangkok calendar dates), asked here over HTTP. */
async function checksToday(): Promise<number> {
  const date = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Bangkok" }).format(clock);
  const query = new URLSearchParams({ from: date, to: date, limit: "1" });
  const res = await fetch(`${sandbox.url}/api/slip-history?${query.toString()}`, { headers: { Authorization: `Bearer ${SECRET}` } });
  return ((await res.json()) as { data: { pagination: { total: number } } }).data.pagination.total;
}

const stores: { name: string; fresh: () => Promise<ScheduleStore>; outlivesRestart: boolean }[] = [
  { name: "in memory", fresh: () => Promise.resolve(memoryScheduleStore(() => clock.getTime())), outlivesRestart: false },
  {
    name: "on Redis",
    fresh: async () => {
      await redisClient.flushdb();
      return redisScheduleStore(redisClient, "slipline-test:");
    },
    outlivesRestart: true,
  },
];

/** The sender's way to LINE: the stand-in, or 500 while `lineDown`. */
let viaProxy: LineHttpApi;
async function startLineProxy(): Promise<void> {
  lineProxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (lineDown) {
        res.writeHead(500, { "content-type": "application/json" }).end('{"message":"An error occurred in the server"}');
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length")) as Record<string, string>;
      void fetch(`${platform.url}${req.url ?? ""}`, { method: req.method ?? "GET", headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) }).then(
        async (answer) => {
          res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
        },
      );
    });
  });
  await new Promise<void>((resolve) => lineProxy.listen(0, "127.0.0.1", resolve));
  viaProxy = createLineHttpApi({ channelAccessToken: "notifier-test-token", baseUrl: `http://127.0.0.1:${(lineProxy.address() as AddressInfo).port}` });
}

// A LINE of each test's own: LINE refuses a push whose retry key it has seen, and the tests repeat dates.
beforeEach(async () => {
  accountOverride = {};
  historyDown = false;
  lineDown = false;
  await platform?.close();
  platform = await startLinePlatform({ channelAccessToken: "notifier-test-token" });
  api = rareLineCalls({ baseUrl: platform.url, channelAccessToken: "notifier-test-token" });
});

describe.each(stores)("opt-in pushes with the store $name", { timeout: 60_000 }, ({ fresh, outlivesRestart }) => {
  it("sends the daily summary at its time to the staff group, once, and not late when a day's window has passed", async () => {
    const notifier = notifierWith({ dailySummaryAt: { hour: 18, minute: 0 } }, await fresh(), outlivesRestart);
    expect(await tickAt(notifier, "2026-11-20 17:59")).toEqual([]);

    const sent = await tickAt(notifier, "2026-11-20 18:00");
    expect(sent.map((s) => s.chatId)).toEqual([STAFF_GROUP]);
    const shown = shownText(sent[0]?.messages ?? []);
    expect(shown).toContain("End of day");
    expect(shown).toContain(`${(await checksToday()).toLocaleString("en-US")} checks`);

    expect(await tickAt(notifier, "2026-11-20 18:30")).toEqual([]);
    expect(await tickAt(notifier, "2026-11-20 23:59")).toEqual([]);
    // The next day the bot only looks after its hour-long window: nothing that day.
    expect(await tickAt(notifier, "2026-11-21 19:00")).toEqual([]);
    expect(await tickAt(notifier, "2026-11-22 18:59")).toHaveLength(1);
  });

  it("does not send twice across a restart", async () => {
    const store = await fresh();
    const first = notifierWith({ dailySummaryAt: { hour: 18, minute: 0 } }, store, outlivesRestart);
    expect(await tickAt(first, "2026-11-20 18:05")).toHaveLength(1);
    first.stop();

    // The restarted instance: the same Redis, or (in memory) a store that forgot everything.
    const restarted = notifierWith({ dailySummaryAt: { hour: 18, minute: 0 } }, outlivesRestart ? store : await fresh(), outlivesRestart);
    clock = bangkok("2026-11-20 18:10");
    await restarted.start(3_600_000);
    restarted.stop();
    expect(await tickAt(restarted, "2026-11-20 18:15")).toEqual([]);
    expect(await tickAt(restarted, "2026-11-21 18:00")).toHaveLength(1);
  });

  it("when the bot was down at the time: sends it on coming back within the hour with Redis, not at all in memory", async () => {
    const restarted = notifierWith({ dailySummaryAt: { hour: 18, minute: 0 } }, await fresh(), outlivesRestart);
    clock = bangkok("2026-11-20 18:20");
    await restarted.start(3_600_000);
    restarted.stop();
    expect(await tickAt(restarted, "2026-11-20 18:20")).toHaveLength(outlivesRestart ? 1 : 0);
  });

  it("when the service or LINE fails at the time, tries again at the next tick, and sends once", async () => {
    const notifier = notifierWith({ dailySummaryAt: { hour: 18, minute: 0 } }, await fresh(), outlivesRestart);
    historyDown = true;
    expect(await tickAt(notifier, "2026-11-20 18:00")).toEqual([]);
    historyDown = false;
    lineDown = true;
    expect(await tickAt(notifier, "2026-11-20 18:01")).toEqual([]);
    lineDown = false;
    expect(await tickAt(notifier, "2026-11-20 18:02")).toHaveLength(1);
    expect(await tickAt(notifier, "2026-11-20 18:03")).toEqual([]);
  });

  it("skips the push when LINE's monthly quota is used up, and says so in the log", async () => {
    const notifier = notifierWith({ dailySummaryAt: { hour: 18, minute: 0 } }, await fresh(), outlivesRestart);
    platform.setMonthlyQuota(platform.pushUsage);
    const logged = logs.entries().length;
    expect(await tickAt(notifier, "2026-11-20 18:00")).toEqual([]);
    expect(platform.rejected.filter((r) => r.status === 429 && r.at >= clock.getTime())).toEqual([]);
    expect(
      logs
        .entries()
        .slice(logged)
        .some((l) => l.msg === "LINE's monthly message quota is used up: push skipped"),
    ).toBe(true);
  });

  it("alerts once when the tokens fall below the threshold, and again only after they rose above it", async () => {
    const notifier = notifierWith({ lowTokenSlips: 500 }, await fresh(), outlivesRestart);
    accountOverride = { estimatedSlips: { chat: 900, api: 800 } };
    expect(await tickAt(notifier, "2026-11-20 10:00")).toEqual([]);
    accountOverride = { estimatedSlips: { chat: 450, api: 400 } };
    const alert = await tickAt(notifier, "2026-11-20 10:05");
    expect(alert.map((s) => s.chatId)).toEqual([STAFF_GROUP]);
    expect(shownText(alert[0]?.messages ?? [])).toBe("⚠️ Tokens are left for about 400 API checks (below 500). Please top up.");
    accountOverride = { estimatedSlips: { chat: 350, api: 300 } };
    expect(await tickAt(notifier, "2026-11-20 10:10")).toEqual([]);
    expect(await tickAt(notifier, "2026-11-21 10:10")).toEqual([]);
    accountOverride = { estimatedSlips: { chat: 2_000, api: 1_800 } };
    expect(await tickAt(notifier, "2026-11-21 11:00")).toEqual([]);
    accountOverride = { estimatedSlips: { chat: 500, api: 450 } };
    expect(shownText((await tickAt(notifier, "2026-11-21 11:05"))[0]?.messages ?? [])).toContain("about 450 API checks");
  });

  it("alerts about the package's expiry once a day at 09:00 while it is within the days set", async () => {
    const notifier = notifierWith({ expiryDays: 7 }, await fresh(), outlivesRestart);
    accountOverride = { expiresAt: "2026-11-25T16:59:59Z" }; // 23:59:59 on 25 November in Bangkok
    expect(await tickAt(notifier, "2026-11-17 09:00")).toEqual([]); // 8 days before
    expect(await tickAt(notifier, "2026-11-20 08:59")).toEqual([]);
    const alert = await tickAt(notifier, "2026-11-20 09:00");
    expect(shownText(alert[0]?.messages ?? [])).toBe("⚠️ The slip-check package expires in 5 days (25 Nov 2026). Please renew it.");
    expect(await tickAt(notifier, "2026-11-20 15:00")).toEqual([]);
    expect(shownText((await tickAt(notifier, "2026-11-25 09:30"))[0]?.messages ?? [])).toContain("expires today");
    expect(await tickAt(notifier, "2026-11-26 09:00")).toEqual([]);
  });

  it("tells the QR's chat when its amount is paid after the QR, once; a payment before the QR or after the watch does not count", async () => {
    const notifier = notifierWith({ watchMinutes: 30 }, await fresh(), outlivesRestart);
    const pay = async (wall: string, amount: number, senderName: string) => {
      clock = bangkok(wall);
      const res = await fetch(`${sandbox.url}/dev/payments`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ amount, senderName }),
      });
      expect(res.status).toBe(200);
    };
    await pay("2026-11-20 13:00", 275, "นาย ก่อน คิวอาร์");
    clock = bangkok("2026-11-20 13:01");
    await notifier.watches?.watch({ chatId: CASHIER_CHAT, amountSatang: 27_500, after: clock, lang: "en" });
    expect(await tickAt(notifier, "2026-11-20 13:02")).toEqual([]);

    await pay("2026-11-20 13:05", 275, "น.ส. มาลี ทองดี");
    const told = await tickAt(notifier, "2026-11-20 13:06");
    expect(told.map((s) => s.chatId)).toEqual([CASHIER_CHAT]);
    expect(shownText(told[0]?.messages ?? [])).toBe("✅ ฿275.00 received from น.ส. มาลี ทองดี at 13:05.");
    expect(await tickAt(notifier, "2026-11-20 13:07")).toEqual([]);

    clock = bangkok("2026-11-20 14:00");
    await notifier.watches?.watch({ chatId: CASHIER_CHAT, amountSatang: 12_300, after: clock, lang: "en" });
    await pay("2026-11-20 14:31", 123, "นาย ช้า ไป");
    expect(await tickAt(notifier, "2026-11-20 14:32")).toEqual([]);
  });

  it("drops a watch whose chat is no longer a staff place when the payment comes: the payer's name goes nowhere", async () => {
    const notifier = notifierWith({ watchMinutes: 30 }, await fresh(), outlivesRestart);
    clock = bangkok("2026-11-20 15:00");
    // The cashier's QR first (the older watch takes the first payment), then the owner's, same amount.
    await notifier.watches?.watch({ chatId: CASHIER_CHAT, amountSatang: 31_400, after: clock, lang: "en" });
    clock = bangkok("2026-11-20 15:01");
    await notifier.watches?.watch({ chatId: OWNER, amountSatang: 31_400, after: clock, lang: "en" });
    // The cashier leaves the staff list (a reload) before the customer pays.
    staff = { staffUserIds: new Set([OWNER]), staffGroupIds: new Set([STAFF_GROUP]) };
    try {
      const mark = logs.entries().length;
      for (const [wall, payer] of [
        ["2026-11-20 15:05", "นาย หนึ่ง โอนก่อน"],
        ["2026-11-20 15:06", "นาง สอง โอนหลัง"],
      ] as const) {
        clock = bangkok(wall);
        const res = await fetch(`${sandbox.url}/dev/payments`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ amount: 314, senderName: payer }),
        });
        expect(res.status).toBe(200);
      }
      // The owner's push is the barrier: the poll that finds it has judged the cashier's watch too.
      const told = await tickAt(notifier, "2026-11-20 15:07");
      expect(told.map((s) => s.chatId)).toEqual([OWNER]);
      expect(platform.sent.filter((s) => s.chatId === CASHIER_CHAT && shownText(s.messages).includes("314"))).toEqual([]);
      const dropped = logs
        .entries()
        .slice(mark)
        .filter((e) => e.msg === "scheduled push dropped: its chat is no longer a staff place");
      expect(dropped).toMatchObject([{ push: "payment_received", chatType: "user" }]);
      expect(
        logs
          .entries()
          .slice(mark)
          .filter((e) => e.msg === "privacy_blocked"),
      ).toEqual([]);
    } finally {
      staff = STAFF;
    }
  });
});

describe("two instances on one Redis", { timeout: 60_000 }, () => {
  it("push the daily summary once between them", async () => {
    await redisClient.flushdb();
    const alerts = { dailySummaryAt: { hour: 18, minute: 0 } };
    const [a, b] = [notifierWith(alerts, redisScheduleStore(redisClient, "slipline-test:"), true), notifierWith(alerts, redisScheduleStore(redisClient, "slipline-test:"), true)];
    clock = bangkok("2026-11-20 18:00");
    const mark = platform.sent.length;
    await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
    expect(pushesSince(mark)).toHaveLength(1);
  });
});
