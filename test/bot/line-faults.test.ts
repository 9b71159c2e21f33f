// End to end with LINE itself misbehaving (nock in front of api.line.me): the bot's answer still gets through, once.
import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startBotHarness } from "../helpers/bot-harness.js";
import type { BotHarness } from "../helpers/bot-harness.js";
import { lineId, textEvent } from "../helpers/webhook.js";

const LINE = "https://api.line.me";
const USER = lineId("U", 0x91);
const GROUP = lineId("C", 0x92);

let bot: BotHarness;
beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect("127.0.0.1");
  bot = await startBotHarness({ lineBaseUrl: LINE, settings: { staffUserIds: new Set([USER]), staffGroupIds: new Set([GROUP]) } });
});
afterEach(() => {
  nock.cleanAll();
});
afterAll(async () => {
  await bot.close();
  nock.enableNetConnect();
});

function qrEvent(source: { type: "user"; userId: string } | { type: "group"; groupId: string }) {
  return textEvent({ source, replyToken: "line-issued-reply-token-abc", text: "qr 150" });
}

/** The copies of the bot's answer LINE accepted, by kind, from the recorded nock calls. */
interface Copies {
  replies: number;
  pushes: number;
}

function lastHandled(): Record<string, unknown> | undefined {
  return bot.logs.entries().filter((e) => e.msg === "event handled").at(-1);
}

describe("LINE faults, end to end: how many copies the user gets", () => {
  it("reply 500 four times, then push 500, then push 200: one copy, by push, one retry key", async () => {
    const keys: string[] = [];
    const copies: Copies = { replies: 0, pushes: 0 };
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .times(4)
      .reply(500, { message: "Internal error" }, { "x-line-request-id": "rid-reply-500" })
      .post("/v2/bot/message/push")
      .reply(function () {
        keys.push(String(this.req.headers["x-line-retry-key"]));
        return [500, { message: "Internal error" }];
      })
      .post("/v2/bot/message/push", (body: { to: string; messages: { type: string }[] }) => body.to === USER && body.messages[0]?.type === "flex")
      .reply(function () {
        keys.push(String(this.req.headers["x-line-retry-key"]));
        copies.pushes++;
        return [200, { sentMessages: [{ id: "1" }, { id: "2" }] }];
      });
    await bot.exchange([qrEvent({ type: "user", userId: USER })]);
    expect(scope.isDone()).toBe(true);
    expect(copies).toEqual({ replies: 0, pushes: 1 });
    expect(new Set(keys).size).toBe(1);
    expect(bot.logs.text()).toContain("rid-reply-500");
    expect(lastHandled()).toMatchObject({ outcome: "answered_by_push", delivery: ["push:reply_failed"] });
  });

  it("a reply that LINE answered 500 but delivered: the retry hears the token is used, and nothing more is sent", async () => {
    const push = nock(LINE).post("/v2/bot/message/push").reply(200, {});
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .reply(500, { message: "Internal error" })
      .post("/v2/bot/message/reply")
      .reply(400, { message: "Invalid reply token" });
    await bot.exchange([qrEvent({ type: "group", groupId: GROUP })]);
    expect(scope.isDone()).toBe(true);
    expect(push.isDone()).toBe(false);
    expect(lastHandled()).toMatchObject({ outcome: "answered", delivery: ["reply"] });
  });

  it("a rate-limited reply waits for LINE's Retry-After and is answered by reply, never by a paid push", async () => {
    const push = nock(LINE).post("/v2/bot/message/push").reply(200, {});
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .reply(429, { message: "The API rate limit has been exceeded. Try again later." }, { "retry-after": "1" })
      .post("/v2/bot/message/reply")
      .reply(200, { sentMessages: [] });
    const started = Date.now();
    await bot.exchange([qrEvent({ type: "group", groupId: GROUP })]);
    expect(scope.isDone()).toBe(true);
    expect(push.isDone()).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // it did wait for LINE's second, not a blind retry
    expect(lastHandled()).toMatchObject({ outcome: "answered", delivery: ["reply"] });
  });

  it("the monthly limit stops the push: not delivered, logged as an error with its reason", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .reply(400, { message: "Invalid reply token" })
      .post("/v2/bot/message/push")
      .reply(429, { message: "You have reached your monthly limit." }, { "x-line-request-id": "rid-monthly" });
    await bot.exchange([qrEvent({ type: "group", groupId: GROUP })]);
    expect(scope.isDone()).toBe(true);
    const line = bot.logs.entries().find((e) => e.requestId === "rid-monthly");
    expect(line).toMatchObject({ level: 50, status: 429 });
    expect(lastHandled()).toMatchObject({ outcome: "not_delivered", reason: "monthly_limit", delivery: ["none:monthly_limit"] });
  });

  it("an expired reply token is answered once by push", async () => {
    let pushes = 0;
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .reply(400, { message: "Invalid reply token" })
      .post("/v2/bot/message/push")
      .reply(() => {
        pushes++;
        return [200, { sentMessages: [] }];
      });
    await bot.exchange([qrEvent({ type: "user", userId: USER })]);
    expect(scope.isDone()).toBe(true);
    expect(pushes).toBe(1);
    expect(lastHandled()).toMatchObject({ outcome: "answered_by_push", delivery: ["push:invalid_reply_token"] });
  });

  it("a reply that cannot reach LINE at all (connection refused) is retried, then pushed", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .times(4)
      .replyWithError({ code: "ECONNREFUSED", message: "connect ECONNREFUSED" })
      .post("/v2/bot/message/push")
      .reply(200, { sentMessages: [] });
    await bot.exchange([qrEvent({ type: "user", userId: USER })]);
    expect(scope.isDone()).toBe(true);
    expect(lastHandled()).toMatchObject({ outcome: "answered_by_push", delivery: ["push:reply_failed"] });
  });
});
