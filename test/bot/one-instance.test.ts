// One bot process, attacked black-box on loopback: a burst with the slip service slowed down, SIGTERM in
// the middle of it, a full queue, a grace period that runs out, and clients that hold connections open.
// Every acknowledged event must get exactly one answer; what is refused is refused with 503.
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startLinePlatform } from "../../src/local-line/platform.js";
import type { LinePlatform } from "../../src/local-line/platform.js";
import { DEMO_SECRETS } from "../../src/sandbox/demo.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { killLeftovers, startEntry } from "../helpers/entry-process.js";
import type { EntryProcess } from "../helpers/entry-process.js";
import { shownText } from "../helpers/messages.js";
import { lineId, postWebhook, textEvent, webhookBody } from "../helpers/webhook.js";

const SECRET = "0123456789abcdef0123456789abcdef";
const TOKEN = "one-instance-test-access-token";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface World {
  platform: LinePlatform;
  sandbox: RunningSandbox;
  bot: EntryProcess;
  webhookUrl: string;
  url: string;
}

/** The LINE stand-in and a slow sandbox in this process, the bot as a process of its own in LINE mode. */
async function startWorld(latencyMs: number, env: Record<string, string> = {}): Promise<World> {
  const platform = await startLinePlatform({ channelAccessToken: TOKEN });
  cleanups.push(() => platform.close());
  const sandbox = await startSandbox({ latencyMs });
  cleanups.push(() => sandbox.close());
  const bot = startEntry("src/main.ts", {
    PORT: "0",
    LINE_CHANNEL_SECRET: SECRET,
    LINE_CHANNEL_ACCESS_TOKEN: TOKEN,
    LINE_API_BASE_URL: platform.url,
    SLIP_API_BASE_URL: sandbox.url,
    SLIP_API_SECRET: DEMO_SECRETS.shop,
    PROMPTPAY_ID: "0812345678",
    LOG_LEVEL: "info",
    ...env,
  });
  const [, port] = await bot.waitFor(/"port":(\d+),"mode":"line"/, 60_000);
  const url = `http://127.0.0.1:${port}`;
  return { platform, sandbox, bot, webhookUrl: `${url}/webhook`, url };
}

interface Sent {
  chatId: string;
  /** HTTP status of the webhook, or 0 when the connection was refused. */
  status: number;
}

/**
 * `count` webhooks of one `qr 150` event each, at `perSecond` (open loop), each from a chat of its own:
 * half 1:1 chats, half groups. `onSent(n)` runs after the n-th is sent.
 */
async function burst(world: World, count: number, perSecond: number, seed: number, onSent?: (n: number) => void): Promise<Sent[]> {
  const pending: Promise<Sent>[] = [];
  const started = performance.now();
  for (let n = 0; n < count; n++) {
    const due = started + (n * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const group = n % 2 === 1;
    const chatId = lineId(group ? "C" : "U", seed + n);
    const source = group ? { type: "group" as const, groupId: chatId, userId: lineId("U", seed + 50_000 + n) } : { type: "user" as const, userId: chatId };
    const body = webhookBody([textEvent({ source, replyToken: world.platform.issueReplyToken(chatId), text: "qr 150" })]);
    pending.push(
      postWebhook(world.webhookUrl, body, { secret: SECRET }).then(
        (answer) => ({ chatId, status: answer.status }),
        () => ({ chatId, status: 0 }),
      ),
    );
    onSent?.(n + 1);
  }
  return Promise.all(pending);
}

/** What each chat got from the bot, as the LINE stand-in accepted it. */
function answersByChat(platform: LinePlatform): Map<string, string[]> {
  const byChat = new Map<string, string[]>();
  for (const send of platform.sent) {
    const kinds = send.messages.map((m) => (m.type === "flex" ? "qr-card" : m.type === "text" ? `text:${m.text}` : m.type));
    byChat.set(send.chatId, [...(byChat.get(send.chatId) ?? []), kinds.join("+")]);
  }
  return byChat;
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("one instance", { timeout: 120_000 }, () => {
  it("SIGTERM in the middle of a burst with a slow service: every acknowledged event gets one answer, 1:1 and groups alike", async () => {
    const world = await startWorld(2_000);
    let exited: Promise<number | null> | undefined;
    // 150 events at 100/s; SIGTERM after the 100th.
    const sent = await burst(world, 150, 100, 0x1000, (n) => {
      if (n === 100) {
        world.bot.child.kill("SIGTERM");
        exited = world.bot.exited;
      }
    });
    expect(await exited).toBe(0);

    const acked = sent.filter((s) => s.status === 200);
    const refused = sent.filter((s) => s.status !== 200);
    expect(acked.length).toBeGreaterThanOrEqual(90);
    // What came after the signal was refused (503), or found the listener closed; nothing else.
    expect(refused.every((s) => s.status === 503 || s.status === 0)).toBe(true);
    const answers = answersByChat(world.platform);
    const unanswered = acked.filter((s) => !answers.has(s.chatId));
    expect(unanswered).toEqual([]);
    // One answer each, and a real one: the QR card and its image.
    for (const s of acked) expect(answers.get(s.chatId)).toEqual(["qr-card+image"]);
    expect(acked.some((s) => s.chatId.startsWith("C")) && acked.some((s) => s.chatId.startsWith("U"))).toBe(true);
    for (const s of refused) expect(answers.has(s.chatId)).toBe(false);
    expect(world.bot.output()).toMatch(/"abandoned":0[^\n]*"stopped"/);
  });

  it("goodput: with the service answering in 2 s, a burst of 200 at 100/s gets real answers, not 'service down'", async () => {
    const world = await startWorld(2_000);
    const sent = await burst(world, 200, 100, 0x2000);
    expect(sent.every((s) => s.status === 200)).toBe(true);
    await waitUntil(() => answersByChat(world.platform).size >= 200, 60_000);
    const answers = answersByChat(world.platform);
    const real = sent.filter((s) => answers.get(s.chatId)?.[0] === "qr-card+image").length;
    expect(real / sent.length).toBeGreaterThanOrEqual(0.95);
    expect([...answers.values()].every((a) => a.length === 1)).toBe(true);
    expect(await world.bot.stop(30_000)).toBe(0);
  });

  it("past MAX_QUEUED_EVENTS the webhook answers 503 at once, and every event it accepted is answered", async () => {
    const world = await startWorld(1_000, { MAX_QUEUED_EVENTS: "5" });
    // Far faster than 64 handlers can take them: the queue fills.
    const sent = await burst(world, 120, 2_000, 0x3000);
    const acked = sent.filter((s) => s.status === 200);
    const busy = sent.filter((s) => s.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(acked.length + busy.length).toBe(sent.length);
    await waitUntil(() => acked.every((s) => answersByChat(world.platform).has(s.chatId)), 60_000);
    const answers = answersByChat(world.platform);
    for (const s of acked) expect(answers.get(s.chatId)).toEqual(["qr-card+image"]);
    for (const s of busy) expect(answers.has(s.chatId)).toBe(false);
    const metrics = await (await fetch(`${world.url}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`^slipline_webhook_refused_total\\{reason="busy"\\} ${busy.length}$`, "m"));
    expect(await world.bot.stop(30_000)).toBe(0);
  });

  it("when the grace period runs out: each unfinished chat is told to send again, each event is logged, and the exit code says so", async () => {
    const world = await startWorld(5_000, { SHUTDOWN_GRACE_SECONDS: "1", BOT_LANG: "en" });
    const sent = await burst(world, 10, 100, 0x4000);
    expect(sent.every((s) => s.status === 200)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    world.bot.child.kill("SIGTERM");
    expect(await world.bot.exited).toBe(1);
    const answers = answersByChat(world.platform);
    for (const s of sent) {
      expect(answers.get(s.chatId)).toEqual(["text:Sorry, the bot is restarting and could not answer this. Please send it again in a moment."]);
    }
    const abandoned = world.bot.output().split("\n").filter((line) => line.includes("event unfinished at the end of the shutdown grace period"));
    expect(abandoned).toHaveLength(10);
    for (const s of sent) expect(abandoned.some((line) => line.includes(s.chatId))).toBe(true);
    expect(world.bot.output()).toMatch(/"abandoned":10[^\n]*"stopped"/);
  });

  it("1,000 clients holding a half-sent body cost under 100 MB and are closed within the request timeout", async () => {
    const world = await startWorld(0);
    const rssMiB = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${world.bot.child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
    const before = rssMiB();
    const { port } = new URL(world.url);
    const half = "x".repeat(60_000);
    const head = `POST /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Line-Signature: c2lnbmF0dXJl\r\nContent-Length: 120000\r\n\r\n`;
    const sockets: Socket[] = [];
    let closed = 0;
    for (let i = 0; i < 1_000; i++) {
      const socket = connect(Number(port), "127.0.0.1", () => socket.write(head + half));
      // The server's end of it: its FIN ('end'), a reset ('error') or the close, whichever comes first.
      let ended = false;
      const serverEnded = (): void => {
        if (!ended) closed += 1;
        ended = true;
      };
      socket.resume(); // read what the server says (its 408), or 'end' never comes
      socket.on("end", serverEnded);
      socket.on("error", serverEnded);
      socket.on("close", serverEnded);
      sockets.push(socket);
    }
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      let peak = rssMiB();
      for (let i = 0; i < 10 && closed < 1_000; i++) {
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        peak = Math.max(peak, rssMiB());
      }
      expect(peak - before).toBeLessThan(100);
      // Past the 512-connection cap they were closed at once; the rest within the 15 s request timeout.
      await waitUntil(() => closed === 1_000, 10_000);
      expect(closed).toBe(1_000);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    // And the bot still works.
    const user = lineId("U", 0x5000);
    const body = webhookBody([textEvent({ source: { type: "user", userId: user }, replyToken: world.platform.issueReplyToken(user), text: "qr 150" })]);
    expect((await postWebhook(world.webhookUrl, body, { secret: SECRET })).status).toBe(200);
    await waitUntil(() => world.platform.sent.some((s) => s.chatId === user), 10_000);
    expect(shownText(world.platform.sent.find((s) => s.chatId === user)?.messages ?? [])).toMatch(/฿150\.00/);
    expect(await world.bot.stop(30_000)).toBe(0);
  });
});
