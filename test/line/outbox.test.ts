import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { messagingApi } from "@line/bot-sdk";
import { createOutbox } from "../../src/line/outbox.js";
import { sdkLineApi } from "../kit/sdk-line-api.js";
import type { OutboxOptions } from "../../src/line/outbox.js";
import { createLogger } from "../../src/log.js";
import { publicAnswer, staffAnswer } from "../../src/privacy/answer.js";
import { captureLogs } from "../kit/log-capture.js";

const LINE = "https://api.line.me";
const TOKEN = "sender-test-access-token-0123456789abcdef";
const USER = `U${"1".repeat(32)}`;
const GROUP = `C${"2".repeat(32)}`;
const HELLO_MESSAGES: messagingApi.Message[] = [{ type: "text", text: "hello" }];
const HELLO = publicAnswer("help", HELLO_MESSAGES);
const RATE_LIMIT = { message: "The API rate limit has been exceeded. Try again later." };
const MONTHLY = { message: "You have reached your monthly limit." };

function setup(overrides: Partial<OutboxOptions> = {}) {
  const logs = captureLogs();
  const log = createLogger({ level: "debug", destination: logs, secrets: [TOKEN] });
  const delays: number[] = [];
  const keys: string[] = [];
  let n = 0;
  const sender = createOutbox({
    staff: () => ({ staffUserIds: new Set(), staffGroupIds: new Set() }),
    api: sdkLineApi(new messagingApi.MessagingApiClient({ channelAccessToken: TOKEN, baseURL: LINE })),
    log,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    newRetryKey: () => {
      const key = `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
      keys.push(key);
      return key;
    },
    ...overrides,
  });
  return { sender, logs, delays, keys };
}

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect("127.0.0.1");
});
afterEach(() => {
  nock.cleanAll();
});
afterAll(() => {
  nock.enableNetConnect();
  // The suite's workers keep their modules between files (vitest.config.ts): take nock out of node's http.
  nock.restore();
});

describe("sender", () => {
  it("replies with the reply token and pushes nothing when LINE accepts", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/reply", { replyToken: "tok-1", messages: HELLO_MESSAGES })
      .matchHeader("authorization", `Bearer ${TOKEN}`)
      .reply(200, { sentMessages: [{ id: "1" }] });
    const { sender } = setup();
    const outlet = sender.forEvent({ replyToken: "tok-1", chat: { type: "user", id: USER } });
    await outlet.send(HELLO);
    expect(scope.isDone()).toBe(true);
    expect(outlet.deliveries).toEqual([{ via: "reply" }]);
  });

  it("pushes the same messages with a retry key when the reply token is invalid", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .reply(400, { message: "Invalid reply token" }, { "x-line-request-id": "req-reply-1" })
      .post("/v2/bot/message/push", { to: GROUP, messages: HELLO_MESSAGES })
      .matchHeader("x-line-retry-key", /^[0-9a-f-]{36}$/)
      .reply(200, { sentMessages: [{ id: "2" }] });
    const { sender, logs } = setup();
    const outlet = sender.forEvent({ replyToken: "old-token", chat: { type: "group", id: GROUP } });
    await outlet.send(HELLO);
    expect(scope.isDone()).toBe(true);
    expect(outlet.deliveries).toMatchObject([{ via: "push", reason: "invalid_reply_token", attempts: 1 }]);
    expect(logs.text()).toContain("req-reply-1");
  });

  it("retries a push after a 500 with the same retry key, and logs LINE's request id", async () => {
    const seen: string[] = [];
    const scope = nock(LINE)
      .post("/v2/bot/message/push")
      .reply(function () {
        seen.push(String(this.req.headers["x-line-retry-key"]));
        return [500, { message: "Internal server error" }, { "x-line-request-id": "req-500" }];
      })
      .post("/v2/bot/message/push")
      .reply(function () {
        seen.push(String(this.req.headers["x-line-retry-key"]));
        return [200, { sentMessages: [{ id: "3" }] }];
      });
    const { sender, logs, delays, keys } = setup();
    const outlet = sender.forEvent({ replyToken: undefined, chat: { type: "user", id: USER } });
    await outlet.send(HELLO);
    expect(scope.isDone()).toBe(true);
    expect(seen).toEqual([keys[0], keys[0]]);
    expect(keys).toHaveLength(1);
    expect(delays).toHaveLength(1);
    expect(outlet.deliveries).toMatchObject([{ via: "push", attempts: 2 }]);
    const failure = logs.entries().find((e) => e.requestId === "req-500");
    expect(failure).toMatchObject({ op: "push", status: 500, lineMessage: "Internal server error" });
  });

  it("counts a 409 (retry key already accepted) as sent", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/push")
      .replyWithError({ code: "ECONNRESET", message: "socket hang up" })
      .post("/v2/bot/message/push")
      .reply(409, { message: "The retry key is already accepted", sentMessages: [{ id: "4" }] });
    const { sender } = setup();
    const outlet = sender.forEvent({ replyToken: undefined, chat: { type: "user", id: USER } });
    await outlet.send(HELLO);
    expect(scope.isDone()).toBe(true);
    expect(outlet.deliveries).toMatchObject([{ via: "push", attempts: 2 }]);
  });

  it("retries a rate-limited push with growing jittered backoff, and honours LINE's Retry-After up to a bound", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/push")
      .times(2)
      .reply(429, RATE_LIMIT)
      .post("/v2/bot/message/push")
      .reply(429, RATE_LIMIT, { "retry-after": "3" })
      .post("/v2/bot/message/push")
      .reply(429, RATE_LIMIT, { "retry-after": "120" })
      .post("/v2/bot/message/push")
      .reply(200, {});
    const { sender, delays } = setup({ backoffBaseMs: 100, backoffMaxMs: 10_000, attempts: 5, maxRetryAfterMs: 10_000 });
    const outlet = sender.forEvent({ replyToken: undefined, chat: { type: "user", id: USER } });
    await outlet.send(HELLO);
    expect(scope.isDone()).toBe(true);
    // Full jitter below base * 2^(n-1) (random fixed at 0.5), then Retry-After: 3 s, then 120 s cut to the bound.
    expect(delays).toEqual([50, 100, 3_000, 10_000]);
    expect(outlet.deliveries).toMatchObject([{ via: "push", attempts: 5 }]);
  });

  it("retries a rate-limited reply (nothing was sent) and never sends the reply twice once accepted", async () => {
    let replies = 0;
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .reply(429, RATE_LIMIT, { "retry-after": "1" })
      .post("/v2/bot/message/reply")
      .reply(() => {
        replies++;
        return [200, {}];
      });
    const { sender, delays } = setup();
    const outlet = sender.forEvent({ replyToken: "tok-2", chat: { type: "user", id: USER } });
    await outlet.send(HELLO);
    expect(scope.isDone()).toBe(true);
    expect(replies).toBe(1);
    expect(delays).toEqual([1_000]);
    expect(outlet.deliveries).toEqual([{ via: "reply" }]);
  });

  it("never turns a rate-limited reply into a paid push: after every attempt it is not delivered, and says why", async () => {
    const replies = nock(LINE).post("/v2/bot/message/reply").times(3).reply(429, RATE_LIMIT);
    const push = nock(LINE).post("/v2/bot/message/push").reply(200, {});
    const { sender, logs } = setup({ attempts: 3 });
    const outlet = sender.forEvent({ replyToken: "tok-rl", chat: { type: "user", id: USER } });
    await outlet.send(HELLO);
    expect(replies.isDone()).toBe(true);
    expect(push.isDone()).toBe(false);
    expect(outlet.deliveries).toEqual([{ via: "none", reason: "rate_limited" }]);
    expect(logs.text()).toMatch(/no paid push for a rate limit/);
  });

  it("stops at LINE's monthly limit without retrying, and says so in the log", async () => {
    const scope = nock(LINE).post("/v2/bot/message/push").reply(429, MONTHLY, { "x-line-request-id": "req-monthly" });
    const { sender, logs, delays } = setup();
    const outlet = sender.forEvent({ replyToken: undefined, chat: { type: "group", id: GROUP } });
    await outlet.send(HELLO);
    expect(scope.isDone()).toBe(true);
    expect(delays).toEqual([]);
    expect(outlet.deliveries).toEqual([{ via: "none", reason: "monthly_limit" }]);
    const line = logs.entries().find((e) => e.requestId === "req-monthly");
    expect(line).toMatchObject({ level: 50, status: 429, lineMessage: MONTHLY.message });
    expect(String(line?.msg)).toMatch(/monthly/);
  });

  it("retries a reply after a 5xx with the same token: one copy whether the first got through or not", async () => {
    // LINE said 502, then the retry with the same token is accepted: one reply.
    const retried = nock(LINE)
      .post("/v2/bot/message/reply", { replyToken: "tok-3", messages: HELLO_MESSAGES })
      .reply(502, { message: "Bad gateway" })
      .post("/v2/bot/message/reply", { replyToken: "tok-3", messages: HELLO_MESSAGES })
      .reply(200, {});
    const { sender } = setup();
    const outlet = sender.forEvent({ replyToken: "tok-3", chat: { type: "user", id: USER } });
    await outlet.send(HELLO);
    expect(retried.isDone()).toBe(true);
    expect(outlet.deliveries).toEqual([{ via: "reply" }]);

    // The first reply went through although LINE answered 500: the retry learns the token is used. No push, no second copy.
    const used = nock(LINE).post("/v2/bot/message/reply").reply(500, { message: "Internal" }).post("/v2/bot/message/reply").reply(400, { message: "Invalid reply token" });
    const push = nock(LINE).post("/v2/bot/message/push").reply(200, {});
    const second = setup().sender.forEvent({ replyToken: "tok-3b", chat: { type: "user", id: USER } });
    await second.send(HELLO);
    expect(used.isDone()).toBe(true);
    expect(push.isDone()).toBe(false);
    expect(second.deliveries).toEqual([{ via: "reply" }]);
  });

  it("pushes when LINE said every reply attempt failed, so the user is not left without an answer", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .times(3)
      .reply(503, { message: "Service unavailable" })
      .post("/v2/bot/message/push", { to: USER, messages: HELLO_MESSAGES })
      .reply(200, {});
    const { sender } = setup({ attempts: 3 });
    const outlet = sender.forEvent({ replyToken: "tok-503", chat: { type: "user", id: USER } });
    await outlet.send(HELLO);
    expect(scope.isDone()).toBe(true);
    expect(outlet.deliveries).toMatchObject([{ via: "push", reason: "reply_failed", attempts: 1 }]);
  });

  it("pushes after the reply could not even connect, retrying the push's own network errors", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/reply")
      .times(2)
      .replyWithError({ code: "ECONNREFUSED", message: "connect ECONNREFUSED" })
      .post("/v2/bot/message/push")
      .replyWithError({ code: "ECONNREFUSED", message: "connect ECONNREFUSED" })
      .post("/v2/bot/message/push")
      .reply(200, {});
    const { sender } = setup({ attempts: 2 });
    const outlet = sender.forEvent({ replyToken: "tok-4", chat: { type: "user", id: USER } });
    await outlet.send(HELLO);
    expect(scope.isDone()).toBe(true);
    expect(outlet.deliveries).toMatchObject([{ via: "push", reason: "reply_failed", attempts: 2 }]);
  });

  it("sends nothing more when LINE took the reply but never answered: it may have arrived", async () => {
    const replies = nock(LINE).post("/v2/bot/message/reply").times(2).replyWithError({ code: "UND_ERR_HEADERS_TIMEOUT", message: "Headers Timeout Error" });
    const push = nock(LINE).post("/v2/bot/message/push").reply(200, {});
    const { sender, logs } = setup({ attempts: 2 });
    const outlet = sender.forEvent({ replyToken: "tok-slow", chat: { type: "user", id: USER } });
    await outlet.send(HELLO);
    expect(replies.isDone()).toBe(true);
    expect(push.isDone()).toBe(false);
    expect(outlet.deliveries).toEqual([{ via: "none", reason: "line_unknown" }]);
    expect(logs.text()).toMatch(/may have arrived/);
  });

  it("gives up after a bounded number of push attempts, and calls it LINE being down", async () => {
    const scope = nock(LINE).post("/v2/bot/message/push").times(3).reply(503, { message: "Service unavailable" });
    const { sender, delays } = setup({ attempts: 3 });
    const outlet = sender.forEvent({ replyToken: undefined, chat: { type: "user", id: USER } });
    await outlet.send(HELLO);
    expect(scope.isDone()).toBe(true);
    expect(delays).toHaveLength(2);
    expect(outlet.deliveries).toEqual([{ via: "none", reason: "line_down" }]);
  });

  it("does not retry a push LINE rejects as invalid", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/push")
      .reply(400, { message: "The request body has 1 error(s)", details: [{ message: "Length must be between 1 and 5000", property: "messages[0].text" }] });
    const { sender, logs } = setup();
    const outlet = sender.forEvent({ replyToken: undefined, chat: { type: "user", id: USER } });
    await outlet.send(HELLO);
    expect(scope.isDone()).toBe(true);
    expect(outlet.deliveries).toEqual([{ via: "none", reason: "rejected" }]);
    expect(logs.text()).toContain("messages[0].text");
  });

  it("uses the reply token once: a second batch, and messages past five, are pushed", async () => {
    const six: messagingApi.Message[] = Array.from({ length: 6 }, (_, i) => ({ type: "text", text: `m${i}` }));
    const scope = nock(LINE)
      .post("/v2/bot/message/reply", (body: { messages: unknown[] }) => body.messages.length === 5)
      .reply(200, {})
      .post("/v2/bot/message/push", (body: { messages: unknown[] }) => body.messages.length === 1)
      .reply(200, {})
      .post("/v2/bot/message/push")
      .reply(200, {});
    const { sender } = setup();
    const outlet = sender.forEvent({ replyToken: "tok-5", chat: { type: "user", id: USER } });
    await outlet.send(publicAnswer("help", six));
    await outlet.send(HELLO);
    expect(scope.isDone()).toBe(true);
    expect(outlet.deliveries).toMatchObject([{ via: "reply" }, { via: "push", reason: "second_batch" }, { via: "push", reason: "second_batch" }]);
  });

  it("starts the loading animation in 1:1 chats only, and a refusal does not throw", async () => {
    const scope = nock(LINE).post("/v2/bot/chat/loading/start", { chatId: USER, loadingSeconds: 10 }).reply(500, { message: "boom" }, { "x-line-request-id": "req-loading" });
    const { sender, logs } = setup({ loadingDelayMs: 0 });
    sender.forEvent({ replyToken: "t", chat: { type: "group", id: GROUP } }).showLoading();
    sender.forEvent({ replyToken: "t", chat: { type: "user", id: USER } }).showLoading();
    // Fire and forget: wait for the logged refusal rather than for a promise.
    for (let i = 0; i < 200 && !logs.text().includes("req-loading"); i++) await new Promise((r) => setTimeout(r, 5));
    expect(scope.isDone()).toBe(true);
    expect(logs.entries().find((e) => e.op === "loading")).toMatchObject({ status: 500, requestId: "req-loading" });
  });

  it("skips the loading animation when the answer goes out before the delay", async () => {
    const OTHER = `U${"3".repeat(32)}`;
    const loading = nock(LINE).post("/v2/bot/chat/loading/start", { chatId: USER, loadingSeconds: 10 }).reply(202, {});
    const otherLoading = nock(LINE).post("/v2/bot/chat/loading/start", { chatId: OTHER, loadingSeconds: 10 }).reply(202, {});
    const reply = nock(LINE)
      .post("/v2/bot/message/reply")
      .reply(200, { sentMessages: [{ id: "1" }] });
    const { sender } = setup({ loadingDelayMs: 150 });
    const outlet = sender.forEvent({ replyToken: "tok-quick", chat: { type: "user", id: USER } });
    outlet.showLoading();
    await outlet.send(HELLO);
    // The barrier: another chat's animation, asked for after the answer with the same delay and never
    // answered, so it starts. Once it has, this chat's delay (which began earlier) has run out too.
    sender.forEvent({ replyToken: "tok-unanswered", chat: { type: "user", id: OTHER } }).showLoading();
    for (let i = 0; i < 400 && !otherLoading.isDone(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(otherLoading.isDone()).toBe(true);
    expect(reply.isDone()).toBe(true);
    expect(loading.isDone()).toBe(false);
  });

  it("shows the loading animation once when the answer is still being prepared after the delay", async () => {
    const loading = nock(LINE).post("/v2/bot/chat/loading/start", { chatId: USER, loadingSeconds: 10 }).once().reply(202, {});
    const { sender } = setup({ loadingDelayMs: 10 });
    const outlet = sender.forEvent({ replyToken: "tok-slow", chat: { type: "user", id: USER } });
    outlet.showLoading();
    outlet.showLoading(); // a second call while one is pending starts nothing more
    for (let i = 0; i < 200 && !loading.isDone(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(loading.isDone()).toBe(true);
  });

  it("never writes the access token or a reply token to the log", async () => {
    nock(LINE).post("/v2/bot/message/reply").reply(400, { message: "Invalid reply token" }).post("/v2/bot/message/push").reply(200, {});
    const { sender, logs } = setup();
    await sender.forEvent({ replyToken: "reply-token-must-not-leak", chat: { type: "user", id: USER } }).send(HELLO);
    expect(logs.text().length).toBeGreaterThan(0);
    expect(logs.text()).not.toContain(TOKEN);
    expect(logs.text()).not.toContain("reply-token-must-not-leak");
  });
});

describe("the send boundary", () => {
  const STAFF_USER = `U${"5".repeat(32)}`;
  const STAFF_GROUP = `C${"6".repeat(32)}`;
  const SECRET_NAME = "นาย ข้อมูล ลับ";
  const PRIVATE: messagingApi.Message[] = [{ type: "text", text: `฿150.00 from ${SECRET_NAME}` }];
  const POINTER: messagingApi.Message[] = [{ type: "text", text: "ask me in private" }];

  function boundary(lists: { users: string[]; groups: string[] }) {
    const blocked: string[] = [];
    let staff = { staffUserIds: new Set(lists.users), staffGroupIds: new Set(lists.groups) };
    const made = setup({ staff: () => staff, privacy: { blocked: (kind, chatType) => blocked.push(`${kind}@${chatType}`) } });
    return {
      ...made,
      blocked,
      setStaff: (next: { users: string[]; groups: string[] }): void => {
        staff = { staffUserIds: new Set(next.users), staffGroupIds: new Set(next.groups) };
      },
    };
  }
  const history = () => staffAnswer("history", PRIVATE, publicAnswer("ask_in_private", POINTER));

  it("lets a staff answer through to a listed staff user's 1:1 chat and to a listed staff group", async () => {
    const scope = nock(LINE)
      .post("/v2/bot/message/reply", { replyToken: "t-user", messages: PRIVATE })
      .reply(200, {})
      .post("/v2/bot/message/reply", { replyToken: "t-group", messages: PRIVATE })
      .reply(200, {});
    const { sender, blocked } = boundary({ users: [STAFF_USER], groups: [STAFF_GROUP] });
    await sender.forEvent({ replyToken: "t-user", chat: { type: "user", id: STAFF_USER } }).send(history());
    await sender.forEvent({ replyToken: "t-group", chat: { type: "group", id: STAFF_GROUP } }).send(history());
    expect(scope.isDone()).toBe(true);
    expect(blocked).toEqual([]);
  });

  it("sends the public fallback instead when the chat is no staff place, and logs and counts the block", async () => {
    const scope = nock(LINE).post("/v2/bot/message/reply", { replyToken: "t-1", messages: POINTER }).reply(200, {});
    const { sender, blocked, logs } = boundary({ users: [STAFF_USER], groups: [STAFF_GROUP] });
    // A group with customers, and a staff user's id used as if it were the group's: neither is a staff place.
    const outlet = sender.forEvent({ replyToken: "t-1", chat: { type: "group", id: GROUP }, eventId: "01EVENTPRIVACYTEST000000000" }, undefined);
    await outlet.send(history());
    expect(scope.isDone()).toBe(true);
    expect(outlet.deliveries).toEqual([{ via: "reply" }]);
    expect(blocked).toEqual(["history@group"]);
    const line = logs.entries().find((e) => e.msg === "privacy_blocked");
    expect(line).toMatchObject({ chatType: "group", kind: "history", instead: "ask_in_private" });
    expect(logs.text()).not.toContain(SECRET_NAME);
  });

  it("sends nothing when a staff answer without a public form is on its way to a customer place", async () => {
    const { sender, blocked } = boundary({ users: [STAFF_USER], groups: [] });
    const outlet = sender.forEvent({ replyToken: "t-2", chat: { type: "user", id: USER } });
    await outlet.send(staffAnswer("payment_received", PRIVATE, undefined));
    expect(outlet.deliveries).toEqual([{ via: "none", reason: "privacy" }]);
    expect(blocked).toEqual(["payment_received@user"]);
  });

  it("pushes a staff answer only to a staff place; elsewhere nothing at all, not even a fallback", async () => {
    const scope = nock(LINE).post("/v2/bot/message/push", { to: STAFF_GROUP, messages: PRIVATE }).reply(200, {});
    const { sender, blocked } = boundary({ users: [], groups: [STAFF_GROUP] });
    expect(await sender.push({ type: "group", id: STAFF_GROUP }, history(), "daily-1")).toMatchObject([{ via: "push", reason: "scheduled" }]);
    expect(await sender.push({ type: "group", id: GROUP }, history(), "daily-1")).toEqual([{ via: "none", reason: "privacy" }]);
    expect(scope.isDone()).toBe(true);
    expect(blocked).toEqual(["history@group"]);
  });

  it("judges the destination when the answer goes out, against the staff lists of that moment", async () => {
    const scope = nock(LINE).post("/v2/bot/message/reply", { replyToken: "t-3", messages: POINTER }).reply(200, {});
    const { sender, blocked, setStaff } = boundary({ users: [STAFF_USER], groups: [] });
    const outlet = sender.forEvent({ replyToken: "t-3", chat: { type: "user", id: STAFF_USER } });
    // The user leaves the staff list (a reload) while the answer is being prepared.
    setStaff({ users: [], groups: [] });
    await outlet.send(history());
    expect(scope.isDone()).toBe(true);
    expect(blocked).toEqual(["history@user"]);
  });

  it("lets public answers go anywhere", async () => {
    const scope = nock(LINE).post("/v2/bot/message/reply", { replyToken: "t-4", messages: POINTER }).reply(200, {});
    const { sender, blocked } = boundary({ users: [], groups: [] });
    await sender.forEvent({ replyToken: "t-4", chat: { type: "room", id: `R${"7".repeat(32)}` } }).send(publicAnswer("ask_in_private", POINTER));
    expect(scope.isDone()).toBe(true);
    expect(blocked).toEqual([]);
  });
});
