// End to end with LINE itself misbehaving (a scripted LINE on loopback, reached through the bot's own
// connection pool): the bot's answer still gets through, once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBotHarness } from "../kit/bot-harness.js";
import { freePort } from "../kit/free-port.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { sendJson, startFaultServer } from "../kit/fault-server.js";
import type { FaultServer, RecordedRequest } from "../kit/fault-server.js";
import { lineId, textEvent } from "../kit/webhook.js";

const USER = lineId("U", 0x91);
const GROUP = lineId("C", 0x92);
const REPLY = "/v2/bot/message/reply";
const PUSH = "/v2/bot/message/push";

/** How LINE answers one call: a status, a body and headers. */
type Answer = [status: number, body: unknown, headers?: Record<string, string>];

let line: FaultServer;
let bot: BotHarness;
beforeAll(async () => {
  line = await startFaultServer((_request, res) => sendJson(res, 500, { message: "no script" }));
  bot = await startBotHarness({ lineBaseUrl: line.url, settings: { staffUserIds: new Set([USER]), staffGroupIds: new Set([GROUP]) } });
});
afterAll(async () => {
  await bot.close();
  await line.close();
});

/** LINE answers each path's calls with its answers in turn (the last one repeats); returns this test's calls. */
function scriptLine(answers: Record<string, Answer[]>): () => RecordedRequest[] {
  const from = line.count;
  const served = new Map<string, number>();
  line.script((request, res) => {
    const list = answers[request.url] ?? [[404, { message: "Not found" }]];
    const n = served.get(request.url) ?? 0;
    served.set(request.url, n + 1);
    const [status, body, headers] = list[Math.min(n, list.length - 1)] ?? [500, {}];
    sendJson(res, status, body, headers);
  });
  return () => line.requests.slice(from);
}

function qrEvent(source: { type: "user"; userId: string } | { type: "group"; groupId: string }) {
  return textEvent({ source, replyToken: "line-issued-reply-token-abc", text: "qr 150" });
}

function lastHandled(): Record<string, unknown> | undefined {
  return bot.logs
    .entries()
    .filter((e) => e.msg === "event handled")
    .at(-1);
}

const paths = (calls: RecordedRequest[]) => calls.map((call) => call.url);

describe("LINE faults, end to end: how many copies the user gets", () => {
  it("reply 500 four times, then push 500, then push 200: one copy, by push, one retry key", async () => {
    const calls = scriptLine({
      [REPLY]: [[500, { message: "Internal error" }, { "x-line-request-id": "rid-reply-500" }]],
      [PUSH]: [
        [500, { message: "Internal error" }],
        [200, { sentMessages: [{ id: "1" }, { id: "2" }] }],
      ],
    });
    await bot.exchange([qrEvent({ type: "user", userId: USER })]);
    expect(paths(calls())).toEqual([REPLY, REPLY, REPLY, REPLY, PUSH, PUSH]);
    const pushes = calls().filter((call) => call.url === PUSH);
    // The accepted push is the bot's QR answer, to the user, under the same retry key as the refused one.
    const accepted = JSON.parse(pushes[1]?.body ?? "{}") as { to: string; messages: { type: string }[] };
    expect(accepted.to).toBe(USER);
    expect(accepted.messages[0]?.type).toBe("flex");
    expect(new Set(pushes.map((call) => call.headers["x-line-retry-key"])).size).toBe(1);
    expect(pushes[0]?.headers["x-line-retry-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(bot.logs.text()).toContain("rid-reply-500");
    expect(lastHandled()).toMatchObject({ outcome: "answered_by_push", delivery: ["push:reply_failed"] });
  });

  it("a reply that LINE answered 500 but delivered: the retry hears the token is used, and nothing more is sent", async () => {
    const calls = scriptLine({
      [REPLY]: [
        [500, { message: "Internal error" }],
        [400, { message: "Invalid reply token" }],
      ],
      [PUSH]: [[200, {}]],
    });
    await bot.exchange([qrEvent({ type: "group", groupId: GROUP })]);
    expect(paths(calls())).toEqual([REPLY, REPLY]);
    expect(lastHandled()).toMatchObject({ outcome: "answered", delivery: ["reply"] });
  });

  it("a rate-limited reply waits for LINE's Retry-After and is answered by reply, never by a paid push", async () => {
    const calls = scriptLine({
      [REPLY]: [
        [429, { message: "The API rate limit has been exceeded. Try again later." }, { "retry-after": "1" }],
        [200, { sentMessages: [] }],
      ],
      [PUSH]: [[200, {}]],
    });
    const started = Date.now();
    await bot.exchange([qrEvent({ type: "group", groupId: GROUP })]);
    expect(paths(calls())).toEqual([REPLY, REPLY]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // it did wait for LINE's second, not a blind retry
    expect(lastHandled()).toMatchObject({ outcome: "answered", delivery: ["reply"] });
  });

  it("the monthly limit stops the push: not delivered, logged as an error with its reason", async () => {
    const calls = scriptLine({
      [REPLY]: [[400, { message: "Invalid reply token" }]],
      [PUSH]: [[429, { message: "You have reached your monthly limit." }, { "x-line-request-id": "rid-monthly" }]],
    });
    await bot.exchange([qrEvent({ type: "group", groupId: GROUP })]);
    expect(paths(calls())).toEqual([REPLY, PUSH]);
    const logged = bot.logs.entries().find((e) => e.requestId === "rid-monthly");
    expect(logged).toMatchObject({ level: 50, status: 429 });
    expect(lastHandled()).toMatchObject({ outcome: "not_delivered", reason: "monthly_limit", delivery: ["none:monthly_limit"] });
  });

  it("an expired reply token is answered once by push", async () => {
    const calls = scriptLine({
      [REPLY]: [[400, { message: "Invalid reply token" }]],
      [PUSH]: [[200, { sentMessages: [] }]],
    });
    await bot.exchange([qrEvent({ type: "user", userId: USER })]);
    expect(paths(calls())).toEqual([REPLY, PUSH]);
    expect(lastHandled()).toMatchObject({ outcome: "answered_by_push", delivery: ["push:invalid_reply_token"] });
  });
});

describe("LINE unreachable (connection refused on every call)", () => {
  it("the reply is retried, then the push, and the event is logged as not delivered: nothing hangs or crashes", async () => {
    const port = await freePort();
    const unreachable = await startBotHarness({ lineBaseUrl: `http://127.0.0.1:${port}`, settings: { staffUserIds: new Set([USER]) } });
    try {
      await unreachable.exchange([qrEvent({ type: "user", userId: USER })]);
      const handled = unreachable.logs
        .entries()
        .filter((e) => e.msg === "event handled")
        .at(-1);
      expect(handled).toMatchObject({ outcome: "not_delivered", reason: "line_down", delivery: ["none:line_down"] });
      expect(unreachable.logs.text()).toContain("ECONNREFUSED");
    } finally {
      await unreachable.close();
    }
  });
});
