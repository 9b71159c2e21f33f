// The LINE stand-in over real HTTP: reply tokens, retry keys, loading, auth, and LINE-like 400s for bad bodies.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { HTTPFetchError, messagingApi } from "@line/bot-sdk";
import { startLinePlatform } from "../src/platform.js";
import type { LinePlatform, LinePlatformOptions } from "../src/platform.js";

const USER = "U" + "1".repeat(32);
const GROUP = "C" + "2".repeat(32);
const TOKEN = "test-channel-token";

let platform: LinePlatform;
let clock = 1_000_000;

async function start(options: LinePlatformOptions = {}): Promise<LinePlatform> {
  platform = await startLinePlatform({ now: () => clock, ...options });
  return platform;
}

afterEach(async () => {
  await platform.close();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(platform.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>), headers: response.headers };
}

const hello: messagingApi.TextMessage = { type: "text", text: "hello" };

describe("reply", () => {
  beforeEach(async () => {
    clock = 1_000_000;
    await start();
  });

  it("accepts a fresh token once, records the send and answers like LINE", async () => {
    const token = platform.issueReplyToken(USER);
    const first = await post("/v2/bot/message/reply", { replyToken: token, messages: [hello, { type: "text", text: "two" }] });
    expect(first.status).toBe(200);
    const sentMessages = first.json["sentMessages"] as { id: string }[];
    expect(sentMessages).toHaveLength(2);
    expect(sentMessages[0]?.id).toMatch(/^\d{18}$/);
    expect(first.headers.get("x-line-request-id")).toMatch(/\S{16,}/);
    expect(platform.sent).toHaveLength(1);
    expect(platform.sent[0]).toMatchObject({ kind: "reply", chatId: USER, messages: [hello, { type: "text", text: "two" }] });

    const second = await post("/v2/bot/message/reply", { replyToken: token, messages: [hello] });
    expect(second.status).toBe(400);
    expect(second.json).toEqual({ message: "Invalid reply token" });
    expect(platform.sent).toHaveLength(1);
    expect(platform.rejected.at(-1)).toMatchObject({ path: "/v2/bot/message/reply", status: 400, message: "Invalid reply token", chatId: USER });
  });

  it("refuses an unknown token and a token past its time to live", async () => {
    const unknown = await post("/v2/bot/message/reply", { replyToken: "f".repeat(32), messages: [hello] });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toEqual({ message: "Invalid reply token" });

    const token = platform.issueReplyToken(GROUP);
    clock += 60_001;
    const late = await post("/v2/bot/message/reply", { replyToken: token, messages: [hello] });
    expect(late.status).toBe(400);
    expect(late.json).toEqual({ message: "Invalid reply token" });
    expect(platform.sent).toHaveLength(0);
  });

  it("accepts a token right at the end of its time to live", async () => {
    const token = platform.issueReplyToken(GROUP);
    clock += 60_000;
    const response = await post("/v2/bot/message/reply", { replyToken: token, messages: [hello] });
    expect(response.status).toBe(200);
    expect(platform.sent[0]?.chatId).toBe(GROUP);
  });

  it("honours a custom time to live", async () => {
    await platform.close();
    await start({ replyTokenTtlMs: 10 });
    const token = platform.issueReplyToken(USER);
    clock += 11;
    expect((await post("/v2/bot/message/reply", { replyToken: token, messages: [hello] })).status).toBe(400);
  });

  it("rejects X-Line-Retry-Key on reply without using the token", async () => {
    const token = platform.issueReplyToken(USER);
    const response = await post("/v2/bot/message/reply", { replyToken: token, messages: [hello] }, { "x-line-retry-key": randomUUID() });
    expect(response.status).toBe(400);
    expect(String(response.json["message"])).toMatch(/retry key/i);
    expect((await post("/v2/bot/message/reply", { replyToken: token, messages: [hello] })).status).toBe(200);
  });

  it("does not use up the token when the body is invalid", async () => {
    const token = platform.issueReplyToken(USER);
    const bad = await post("/v2/bot/message/reply", { replyToken: token, messages: [{ type: "text", text: "" }] });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({
      message: "The request body has 1 error(s)",
      details: [{ message: "May not be empty", property: "messages[0].text" }],
    });
    expect(platform.rejected.at(-1)).toMatchObject({ status: 400, chatId: USER, details: [{ property: "messages[0].text" }] });
    expect((await post("/v2/bot/message/reply", { replyToken: token, messages: [hello] })).status).toBe(200);
  });
});

describe("push", () => {
  beforeEach(async () => {
    await start();
  });

  it("sends to a user or a group and remembers the retry key", async () => {
    const key = randomUUID();
    const first = await post("/v2/bot/message/push", { to: GROUP, messages: [hello] }, { "x-line-retry-key": key });
    expect(first.status).toBe(200);
    const firstRequestId = first.headers.get("x-line-request-id");
    expect(platform.sent).toEqual([expect.objectContaining({ kind: "push", chatId: GROUP, retryKey: key, messages: [hello] })]);

    const again = await post("/v2/bot/message/push", { to: GROUP, messages: [hello] }, { "x-line-retry-key": key });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ message: "The retry key is already accepted", sentMessages: first.json["sentMessages"] });
    expect(again.headers.get("x-line-accepted-request-id")).toBe(firstRequestId);
    expect(again.headers.get("x-line-request-id")).not.toBe(firstRequestId);
    expect(platform.sent).toHaveLength(1);
    expect(platform.duplicates).toEqual([expect.objectContaining({ retryKey: key, chatId: GROUP, acceptedRequestId: firstRequestId })]);
    expect(platform.rejected).toHaveLength(0);

    const other = await post("/v2/bot/message/push", { to: USER, messages: [hello] }, { "x-line-retry-key": randomUUID() });
    expect(other.status).toBe(200);
    const plain = await post("/v2/bot/message/push", { to: USER, messages: [hello] });
    expect(plain.status).toBe(200);
    expect(platform.sent.map((s) => s.chatId)).toEqual([GROUP, USER, USER]);
    expect(platform.sent[2]?.retryKey).toBeUndefined();
  });

  it("refuses a retry key that is not a UUID and a bad destination", async () => {
    const badKey = await post("/v2/bot/message/push", { to: USER, messages: [hello] }, { "x-line-retry-key": "again-please" });
    expect(badKey.status).toBe(400);
    const badTo = await post("/v2/bot/message/push", { to: "someone", messages: [hello] });
    expect(badTo.status).toBe(400);
    expect(badTo.json["details"]).toEqual([{ message: "The value for the 'to' parameter is invalid", property: "to" }]);
    const noTo = await post("/v2/bot/message/push", { messages: [hello] });
    expect(noTo.json["details"]).toEqual([{ message: "must be specified", property: "to" }]);
    expect(platform.sent).toHaveLength(0);
  });
});

describe("loading animation", () => {
  beforeEach(async () => {
    await start();
  });

  it("answers 202 {} for a user and records it", async () => {
    const response = await post("/v2/bot/chat/loading/start", { chatId: USER, loadingSeconds: 10 });
    expect(response.status).toBe(202);
    expect(response.json).toEqual({});
    const defaulted = await post("/v2/bot/chat/loading/start", { chatId: USER });
    expect(defaulted.status).toBe(202);
    expect(platform.loadings.map((l) => l.loadingSeconds)).toEqual([10, 20]);
  });

  it("refuses a group id like LINE", async () => {
    const response = await post("/v2/bot/chat/loading/start", { chatId: GROUP, loadingSeconds: 10 });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ message: "Only user id is acceptable" });
    expect(platform.loadings).toHaveLength(0);
    expect(platform.rejected.at(-1)).toMatchObject({ path: "/v2/bot/chat/loading/start", chatId: GROUP });
  });

  it("refuses seconds outside 5..60 in steps of 5", async () => {
    for (const loadingSeconds of [0, 7, 65, "10"]) {
      const response = await post("/v2/bot/chat/loading/start", { chatId: USER, loadingSeconds });
      expect(response.status, String(loadingSeconds)).toBe(400);
      expect(response.json["details"]).toEqual([expect.objectContaining({ property: "loadingSeconds" })]);
    }
  });
});

describe("authorization and plumbing", () => {
  it("requires a bearer token, and the configured one when given", async () => {
    await start({ channelAccessToken: TOKEN });
    const token = platform.issueReplyToken(USER);
    const none = await post("/v2/bot/message/reply", { replyToken: token, messages: [hello] }, { authorization: "" });
    expect(none.status).toBe(401);
    expect(none.headers.get("x-line-request-id")).toBeTruthy();
    const wrong = await post("/v2/bot/message/reply", { replyToken: token, messages: [hello] }, { authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    expect(String(wrong.json["message"])).toMatch(/invalid token/);
    const basic = await post("/v2/bot/message/reply", { replyToken: token, messages: [hello] }, { authorization: `Basic ${TOKEN}` });
    expect(basic.status).toBe(401);
    expect(platform.rejected.map((r) => r.status)).toEqual([401, 401, 401]);
    expect((await post("/v2/bot/message/reply", { replyToken: token, messages: [hello] })).status).toBe(200);
  });

  it("accepts any non-empty token by default", async () => {
    await start();
    const response = await post("/v2/bot/message/push", { to: USER, messages: [hello] }, { authorization: "Bearer anything" });
    expect(response.status).toBe(200);
  });

  it("answers bad JSON, a huge body and unknown paths", async () => {
    await start();
    const broken = await post("/v2/bot/message/push", "{not json");
    expect(broken.status).toBe(400);
    expect(broken.headers.get("x-line-request-id")).toBeTruthy();
    const huge = await post("/v2/bot/message/push", { to: USER, messages: [{ type: "text", text: "x".repeat(2_100_000) }] });
    expect(huge.status).toBe(413);
    const unknown = await post("/v2/bot/message/multicast", { to: [USER], messages: [hello] });
    expect(unknown.status).toBe(404);
  });

  it("waitForSent resolves on the n-th send and explains a timeout with the rejections", async () => {
    await start();
    const waiting = platform.waitForSent(2);
    await post("/v2/bot/message/push", { to: USER, messages: [hello] });
    await post("/v2/bot/message/push", { to: GROUP, messages: [hello] });
    expect((await waiting).map((s) => s.chatId)).toEqual([USER, GROUP]);
    await post("/v2/bot/message/push", { to: USER, messages: [{ type: "text", text: "" }] });
    await expect(platform.waitForSent(3, 50)).rejects.toThrow(/have 2.*May not be empty/);
  });

  it("emits sent and rejected events", async () => {
    await start();
    const events: string[] = [];
    platform.on("sent", (s) => events.push(`sent ${s.chatId}`));
    platform.on("rejected", (r) => events.push(`rejected ${r.status}`));
    await post("/v2/bot/message/push", { to: USER, messages: [hello] });
    await post("/v2/bot/message/push", { to: USER, messages: [] });
    expect(events).toEqual([`sent ${USER}`, "rejected 400"]);
  });
});

describe("with the real @line/bot-sdk client", () => {
  it("works through baseURL: reply, push with retry key (409 on repeat), loading, and 400 errors", async () => {
    await start({ channelAccessToken: TOKEN });
    const client = new messagingApi.MessagingApiClient({ channelAccessToken: TOKEN, baseURL: platform.url });
    const token = platform.issueReplyToken(USER);
    const reply = await client.replyMessage({ replyToken: token, messages: [hello] });
    expect(reply.sentMessages).toHaveLength(1);

    const used = await client.replyMessageWithHttpInfo({ replyToken: token, messages: [hello] }).catch((e: unknown) => e);
    expect(used).toBeInstanceOf(HTTPFetchError);
    const failure = used as HTTPFetchError;
    expect(failure.status).toBe(400);
    expect(JSON.parse(failure.body)).toEqual({ message: "Invalid reply token" });
    expect(failure.headers.get("x-line-request-id")).toBeTruthy();

    const key = randomUUID();
    await client.pushMessage({ to: GROUP, messages: [hello] }, key);
    const repeat = await client.pushMessage({ to: GROUP, messages: [hello] }, key).catch((e: unknown) => e);
    expect((repeat as HTTPFetchError).status).toBe(409);

    await client.showLoadingAnimation({ chatId: USER, loadingSeconds: 5 });
    expect(platform.loadings).toEqual([expect.objectContaining({ chatId: USER, loadingSeconds: 5 })]);
    expect(platform.sent.map((s) => s.kind)).toEqual(["reply", "push"]);
  });
});
