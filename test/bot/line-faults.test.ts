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

describe("LINE faults, end to end", () => {
  it("reply 500, then push 500, then push 200: one answer, one retry key", async () => {
    const keys: string[] = [];
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .reply(500, { message: "Internal error" }, { "x-line-request-id": "rid-reply-500" })
      .post("/v2/bot/message/push")
      .reply(function () {
        keys.push(String(this.req.headers["x-line-retry-key"]));
        return [500, { message: "Internal error" }];
      })
      .post("/v2/bot/message/push", (body: { to: string; messages: { type: string }[] }) => body.to === USER && body.messages[0]?.type === "flex")
      .reply(function () {
        keys.push(String(this.req.headers["x-line-retry-key"]));
        return [200, { sentMessages: [{ id: "1" }, { id: "2" }] }];
      });
    await bot.exchange([qrEvent({ type: "user", userId: USER })]);
    expect(scope.isDone()).toBe(true);
    expect(new Set(keys).size).toBe(1);
    expect(bot.logs.text()).toContain("rid-reply-500");
  });

  it("a rate-limited reply is retried and answered by reply", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .reply(429, { message: "The API rate limit has been exceeded. Try again later." })
      .post("/v2/bot/message/reply")
      .reply(200, { sentMessages: [] });
    await bot.exchange([qrEvent({ type: "group", groupId: GROUP })]);
    expect(scope.isDone()).toBe(true);
  });

  it("the monthly limit stops the push and is logged as an error", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .reply(400, { message: "Invalid reply token" })
      .post("/v2/bot/message/push")
      .reply(429, { message: "You have reached your monthly limit." }, { "x-line-request-id": "rid-monthly" });
    await bot.exchange([qrEvent({ type: "group", groupId: GROUP })]);
    expect(scope.isDone()).toBe(true);
    const line = bot.logs.entries().find((e) => e.requestId === "rid-monthly");
    expect(line).toMatchObject({ level: 50, status: 429 });
    const handled = bot.logs.entries().filter((e) => e.msg === "event handled").at(-1);
    expect(handled).toMatchObject({ delivery: ["none:monthly_limit"] });
  });

  it("a network error on the reply leads to a push", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .replyWithError({ code: "ECONNRESET", message: "socket hang up" })
      .post("/v2/bot/message/push")
      .reply(200, { sentMessages: [] });
    await bot.exchange([qrEvent({ type: "user", userId: USER })]);
    expect(scope.isDone()).toBe(true);
    const handled = bot.logs.entries().filter((e) => e.msg === "event handled").at(-1);
    expect(handled).toMatchObject({ delivery: ["push:reply_failed"] });
  });
});
