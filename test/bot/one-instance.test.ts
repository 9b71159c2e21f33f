// One bot process, attacked black-box on loopback: a burst with the slip service slowed down, SIGTERM in
// the middle of it, a full queue, a grace period that runs out, and clients that hold connections open.
// Every acknowledged event must get exactly one answer; what is refused is refused with 503.
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { killLeftovers } from "../kit/entry-process.js";
import { readMetrics } from "../kit/metrics.js";
import { answersByChat, burst, qrWebhook, sendSigned, startBot, startWorld, waitUntil } from "../kit/loopback-world.js";
import type { BotProcess, World } from "../kit/loopback-world.js";
import { shownText } from "../kit/messages.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A slow sandbox, the LINE stand-in, and one bot process. */
async function oneBot(latencyMs: number, env: Record<string, string> = {}): Promise<{ world: World; bot: BotProcess }> {
  const world = await startWorld(latencyMs);
  cleanups.push(() => world.close());
  return { world, bot: await startBot(world, env) };
}

describe("one instance", { timeout: 120_000 }, () => {
  it("SIGTERM in the middle of a burst with a slow service: every acknowledged event gets one answer, 1:1 and groups alike", async () => {
    const { world, bot } = await oneBot(2_000);
    let exited: Promise<number | null> | undefined;
    // 150 events at 100/s; SIGTERM after the 100th.
    const sent = await burst(world, {
      count: 150,
      perSecond: 100,
      firstChat: 0x1000,
      target: () => bot.webhookUrl,
      onSent: (n) => {
        if (n === 100) {
          bot.process.child.kill("SIGTERM");
          exited = bot.process.exited;
        }
      },
    });
    expect(await exited).toBe(0);

    const acked = sent.filter((s) => s.status === 200);
    const refused = sent.filter((s) => s.status !== 200);
    // Most of what came before the signal was taken (how many depends on how fast this process sends).
    expect(acked.length).toBeGreaterThanOrEqual(50);
    // What came after the signal was refused (503), or found the listener closed; nothing else.
    expect(refused.every((s) => s.status === 503 || s.status === 0)).toBe(true);
    const answers = answersByChat(world.platform);
    const unanswered = acked.filter((s) => !answers.has(s.chatId));
    expect(unanswered).toEqual([]);
    // One answer each, and a real one: the QR card and its image.
    for (const s of acked) expect(answers.get(s.chatId)).toEqual(["qr-card+image"]);
    expect(acked.some((s) => s.chatId.startsWith("C")) && acked.some((s) => s.chatId.startsWith("U"))).toBe(true);
    for (const s of refused) expect(answers.has(s.chatId)).toBe(false);
    expect(bot.process.output()).toMatch(/"abandoned":0[^\n]*"stopped"/);
  });

  it("goodput: with the service answering in 2 s, a burst of 200 at 100/s gets real answers, not 'service down'", async () => {
    const { world, bot } = await oneBot(2_000);
    const sent = await burst(world, { count: 200, perSecond: 100, firstChat: 0x2000, target: () => bot.webhookUrl });
    expect(sent.every((s) => s.status === 200)).toBe(true);
    await waitUntil(() => answersByChat(world.platform).size >= 200, 60_000);
    const answers = answersByChat(world.platform);
    const real = sent.filter((s) => answers.get(s.chatId)?.[0] === "qr-card+image").length;
    expect(real / sent.length).toBeGreaterThanOrEqual(0.95);
    expect([...answers.values()].every((a) => a.length === 1)).toBe(true);
    expect(await bot.process.stop(30_000)).toBe(0);
  });

  it("past MAX_QUEUED_EVENTS the webhook answers 503 at once, and every event it accepted is answered", async () => {
    const { world, bot } = await oneBot(1_000, { MAX_QUEUED_EVENTS: "5" });
    // Far faster than 64 handlers can take them: the queue fills.
    const sent = await burst(world, { count: 120, perSecond: 2_000, firstChat: 0x3000, target: () => bot.webhookUrl });
    const acked = sent.filter((s) => s.status === 200);
    const busy = sent.filter((s) => s.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(acked.length + busy.length).toBe(sent.length);
    await waitUntil(() => acked.every((s) => answersByChat(world.platform).has(s.chatId)), 60_000);
    const answers = answersByChat(world.platform);
    for (const s of acked) expect(answers.get(s.chatId)).toEqual(["qr-card+image"]);
    for (const s of busy) expect(answers.has(s.chatId)).toBe(false);
    const metrics = await readMetrics(bot.url);
    expect(metrics).toMatch(new RegExp(`^slipline_webhook_refused_total\\{reason="busy"\\} ${busy.length}$`, "m"));
    expect(await bot.process.stop(30_000)).toBe(0);
  });

  it("when the grace period runs out: each unfinished chat is told to send again, each event is logged, and the exit code says so", async () => {
    const { world, bot } = await oneBot(5_000, { SHUTDOWN_GRACE_SECONDS: "1", BOT_LANG: "en" });
    const sent = await burst(world, { count: 10, perSecond: 100, firstChat: 0x4000, target: () => bot.webhookUrl });
    expect(sent.every((s) => s.status === 200)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    bot.process.child.kill("SIGTERM");
    expect(await bot.process.exited).toBe(1);
    const answers = answersByChat(world.platform);
    for (const s of sent) {
      expect(answers.get(s.chatId)).toEqual(["text:Sorry, the bot is restarting and could not answer this. Please send it again in a moment."]);
    }
    const abandoned = bot.process
      .output()
      .split("\n")
      .filter((line) => line.includes("event unfinished at the end of the shutdown grace period"));
    expect(abandoned).toHaveLength(10);
    for (const s of sent) expect(abandoned.some((line) => line.includes(s.chatId))).toBe(true);
    expect(bot.process.output()).toMatch(/"abandoned":10[^\n]*"stopped"/);
  });

  it("1,000 clients holding a half-sent body cost under 100 MB and are closed within the request timeout", async () => {
    const { world, bot } = await oneBot(0);
    const rssMiB = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${bot.process.child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
    const before = rssMiB();
    const { port } = new URL(bot.url);
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
    const { chatId, body } = qrWebhook(world, 0x5000);
    expect(await sendSigned(bot.webhookUrl, body)).toBe(200);
    await waitUntil(() => world.platform.sent.some((s) => s.chatId === chatId), 10_000);
    expect(shownText(world.platform.sent.find((s) => s.chatId === chatId)?.messages ?? [])).toMatch(/฿150\.00/);
    expect(await bot.process.stop(30_000)).toBe(0);
  });
});
