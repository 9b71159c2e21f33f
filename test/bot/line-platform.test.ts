// LINE's newer platform, through the real bot process in LINE mode against the LINE stand-in: the start-up
// look at the channel (the token, the webhook URL) on /readyz and in the metrics, without ever holding the
// start up; mark as read after a command in a 1:1 chat; edited messages in a group; and ids of another
// shape refused before they reach a LINE URL or a Redis key.
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedSend } from "@slipline/line-stand-in";
import { killLeftovers } from "../kit/entry-process.js";
import { readMetrics } from "../kit/metrics.js";
import { freePort } from "../kit/free-port.js";
import { sendSigned, startBot, startWorld, waitUntil, whenReady } from "../kit/loopback-world.js";
import type { BotProcess, World } from "../kit/loopback-world.js";
import { shownText } from "../kit/messages.js";
import { lineId, otherEvent, textEvent, webhookBody } from "../kit/webhook.js";

const STAFF = lineId("U", 0xa51);
const CUSTOMER = lineId("U", 0xa52);
const GROUP = lineId("C", 0xa53);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function world(): Promise<World> {
  const started = await startWorld(0);
  cleanups.push(() => started.close());
  return started;
}

async function readyz(bot: BotProcess): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${bot.url}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Waits (bounded) until the start-up look at the channel is over. */
async function checked(bot: BotProcess): Promise<{ status: number; body: Record<string, unknown> }> {
  await whenReady(bot).catch(() => undefined);
  const deadline = Date.now() + 20_000;
  let answer = await readyz(bot);
  while (answer.body.line === "checking" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer = await readyz(bot);
  }
  return answer;
}

/** Posts events and waits until the stand-in has taken `answers` more sends. */
async function exchange(w: World, bot: BotProcess, events: unknown[], answers: number): Promise<RecordedSend[]> {
  const mark = w.platform.sent.length;
  expect(await sendSigned(bot.webhookUrl, webhookBody(events))).toBe(200);
  await waitUntil(() => w.platform.sent.length >= mark + answers, 15_000);
  return w.platform.sent.slice(mark);
}

describe("the start-up look at the LINE channel", { timeout: 120_000 }, () => {
  it("reports the channel on /readyz and in the metrics, and warns when the webhook is off or points elsewhere", async () => {
    const w = await world();
    w.platform.setWebhook({ endpoint: "https://old-host.example/webhook", active: false });
    const bot = await startBot(w, { PUBLIC_URL: "https://bot.example" });
    const answer = await checked(bot);
    expect(answer).toEqual({ status: 200, body: { status: "ready", line: "ok", lineWarnings: ["webhook_off", "webhook_elsewhere"] } });
    // /readyz can be read before the log lines have come through the child's pipe: wait for them (bounded).
    await waitUntil(() => bot.process.output().includes("the channel's webhook URL is not this deployment's (PUBLIC_URL)"), 10_000);
    expect(bot.process.output()).toMatch(/"basicId":"@slipline".*"msg":"LINE channel checked: the token works"/);
    expect(bot.process.output()).toContain("the channel's webhook URL is not this deployment's (PUBLIC_URL)");
    const metrics = await readMetrics(bot.url);
    expect(metrics).toMatch(/^slipline_line_check\{shop="default",state="ok"\} 1$/m);
    expect(metrics).toMatch(/^slipline_line_check\{shop="default",state="token_rejected"\} 0$/m);

    // Set right, the same check has nothing to say.
    expect(await bot.process.stop(15_000)).toBe(0);
    w.platform.setWebhook({ endpoint: "https://bot.example/webhook", active: true });
    const fixed = await startBot(w, { PUBLIC_URL: "https://bot.example" });
    expect(await checked(fixed)).toEqual({ status: 200, body: { status: "ready", line: "ok" } });
  });

  it("starts and serves when LINE refuses the token or cannot be reached, and says which", async () => {
    const w = await world();
    const refused = await startBot(w, { LINE_CHANNEL_ACCESS_TOKEN: "a-token-line-does-not-know" });
    expect(await checked(refused)).toEqual({ status: 200, body: { status: "ready", line: "token_rejected" } });
    await waitUntil(() => refused.process.output().includes("LINE refused the channel access token"), 10_000);
    expect(refused.process.output()).toContain("LINE refused the channel access token");
    expect(refused.process.output()).not.toContain("a-token-line-does-not-know");

    const closed = `http://127.0.0.1:${await freePort()}`;
    const away = await startBot(w, { LINE_API_BASE_URL: closed });
    expect(await checked(away)).toMatchObject({ status: 200, body: { status: "ready", line: "unreachable" } });
  });
});

describe("mark as read", { timeout: 60_000 }, () => {
  it("with MARK_AS_READ=1, marks a 1:1 chat read after a command, not after chatter", async () => {
    const w = await world();
    const bot = await startBot(w, { MARK_AS_READ: "1", STAFF_USER_IDS: STAFF });
    await whenReady(bot);
    const withToken = (userId: string, text: string) => {
      const event = textEvent({ source: { type: "user", userId }, replyToken: w.platform.issueReplyToken(userId), text }) as unknown as { message: Record<string, unknown> };
      event.message.markAsReadToken = w.platform.issueMarkAsReadToken(userId);
      return event;
    };
    // Chatter first, then a command, in one chat: events of one chat are handled in order.
    await exchange(w, bot, [withToken(CUSTOMER, "โอนแล้วนะคะ"), withToken(CUSTOMER, "qr 150")], 2);
    await waitUntil(() => w.platform.reads.length >= 1, 10_000);
    expect(w.platform.reads.map((r) => r.chatId)).toEqual([CUSTOMER]);
    // A mark LINE refuses (an unknown token) changes nothing for the answer.
    const stranger = textEvent({ source: { type: "user", userId: STAFF }, replyToken: w.platform.issueReplyToken(STAFF), text: "qr 20" }) as unknown as {
      message: Record<string, unknown>;
    };
    stranger.message.markAsReadToken = "not-a-token-line-gave";
    const [answer] = await exchange(w, bot, [stranger], 1);
    expect(answer?.messages.map((m) => m.type)).toEqual(["flex", "image"]);
    await waitUntil(() => w.platform.rejected.some((r) => r.path === "/v2/bot/chat/markAsRead"), 10_000);
    await waitUntil(() => bot.process.output().includes("LINE did not mark the chat read"), 10_000);
    expect(bot.process.output()).toContain("LINE did not mark the chat read");
  });
});

describe("edited messages in a group", { timeout: 60_000 }, () => {
  it("answers an edit that asks for another amount, once, with the (edited) note; an edit that changes nothing gets nothing", async () => {
    const w = await world();
    const bot = await startBot(w, { STAFF_GROUP_IDS: GROUP });
    await whenReady(bot);
    const source = { type: "group" as const, groupId: GROUP, userId: STAFF };
    const original = textEvent({ source, replyToken: w.platform.issueReplyToken(GROUP), text: "qr 150", timestamp: 1_800_000_000_000 }) as unknown as {
      message: { id: string };
    };
    const messageId = original.message.id;
    const edit = (text: string, at: number) =>
      otherEvent({ source, type: "messageEdited", extra: { replyToken: w.platform.issueReplyToken(GROUP), timestamp: at, message: { type: "text", id: messageId, text } } });

    const [first] = await exchange(w, bot, [original], 1);
    expect(shownText(first?.messages ?? [])).toContain("฿150.00");
    const [edited] = await exchange(w, bot, [edit("qr 200", 1_800_000_060_000)], 1);
    expect(shownText(edited?.messages ?? [])).toMatch(/edited[\s\S]*฿200\.00|แก้ไข[\s\S]*฿200\.00/);
    // Spacing only, then an older edit arriving late; then another message, whose answer is the barrier.
    const after = await exchange(
      w,
      bot,
      [edit("qr   200", 1_800_000_120_000), edit("qr 999", 1_800_000_030_000), textEvent({ source, replyToken: w.platform.issueReplyToken(GROUP), text: "qr 5" })],
      1,
    );
    expect(after.map((s) => shownText(s.messages))).toEqual([expect.stringContaining("฿5.00")]);
  });

  it("refuses ids of another shape before they reach a LINE URL or a Redis key", async () => {
    const w = await world();
    const bot = await startBot(w);
    await whenReady(bot);
    const bad = textEvent({ source: { type: "user", userId: CUSTOMER }, replyToken: "t", text: "qr 150" }) as unknown as Record<string, unknown>;
    bad.source = { type: "group", groupId: "C../../v2/bot/info", userId: CUSTOMER };
    const good = textEvent({ source: { type: "user", userId: CUSTOMER }, replyToken: w.platform.issueReplyToken(CUSTOMER), text: "qr 7" });
    const sends = await exchange(w, bot, [bad, good], 1);
    expect(sends.map((s) => s.chatId)).toEqual([CUSTOMER]);
    expect(w.platform.rejected).toEqual([]);
    await waitUntil(() => bot.process.output().includes("event names no chat; ignored"), 10_000);
    expect(bot.process.output()).toContain("event names no chat; ignored");
  });
});
