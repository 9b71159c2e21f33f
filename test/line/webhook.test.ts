import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBotHarness } from "../helpers/bot-harness.js";
import type { BotHarness } from "../helpers/bot-harness.js";
import { lineId, postWebhook, signBody, textEvent, webhookBody } from "../helpers/webhook.js";

// LINE's published test vector for the signature.
const VECTOR = {
  body: '{"destination":"U8e742f61d673b39c7fff3cecb7536ef0","events":[]}',
  secret: "8c570fa6dd201bb328f1c1eac23a96d8",
  signature: "GhRKmvmHys4Pi8DxkF4+EayaH0OqtJtaZxgTD9fMDLs=",
};

let bot: BotHarness;

beforeAll(async () => {
  bot = await startBotHarness({ channelSecret: VECTOR.secret });
});
afterAll(async () => {
  await bot.close();
});

describe("POST /webhook", () => {
  it("accepts LINE's official signature vector (the Verify request) with 200", async () => {
    expect(signBody(VECTOR.body, VECTOR.secret)).toBe(VECTOR.signature);
    const answer = await postWebhook(bot.webhookUrl, VECTOR.body, { signature: VECTOR.signature });
    expect(answer.status).toBe(200);
    expect(bot.platform.sent).toHaveLength(0);
  });

  it("refuses a body whose signature does not match with 401, and handles none of its events", async () => {
    const user = lineId("U", 0x401);
    const body = webhookBody([textEvent({ source: { type: "user", userId: user }, replyToken: bot.token(user), text: "help" })]);
    const answer = await postWebhook(bot.webhookUrl, body, { signature: signBody(`${body} `, VECTOR.secret) });
    expect(answer).toEqual({ status: 401, body: { message: "Invalid signature" } });
    await bot.bot.drain();
    expect(bot.platform.sent.filter((s) => s.chatId === user)).toHaveLength(0);
  });

  it("refuses a missing signature with 401", async () => {
    const answer = await postWebhook(bot.webhookUrl, VECTOR.body, { none: true });
    expect(answer.status).toBe(401);
  });

  it("refuses a signature made with another secret with 401", async () => {
    const answer = await postWebhook(bot.webhookUrl, VECTOR.body, { secret: "0".repeat(32) });
    expect(answer.status).toBe(401);
  });

  it("answers 400 for a correctly signed body that is not JSON", async () => {
    const answer = await postWebhook(bot.webhookUrl, '{"events": [', { secret: VECTOR.secret });
    expect(answer).toEqual({ status: 400, body: { message: "Body is not valid JSON" } });
  });

  it.each(['{"destination":"U1"}', '{"events":{}}', "[]", "null", '"events"'])(
    "answers 400 for signed JSON that is not a webhook: %s",
    async (body) => {
      const answer = await postWebhook(bot.webhookUrl, body, { secret: VECTOR.secret });
      expect(answer.status).toBe(400);
    },
  );

  it("checks the signature over the raw bytes: escaped emoji stay as LINE sent them", async () => {
    const user = lineId("U", 0x402);
    const raw = webhookBody([textEvent({ source: { type: "user", userId: user }, replyToken: bot.token(user), text: "help 🤨" })]).replace(
      "🤨",
      "\\uD83E\\uDD28",
    );
    const before = bot.platform.sent.length;
    const answer = await postWebhook(bot.webhookUrl, raw, { secret: VECTOR.secret });
    expect(answer.status).toBe(200);
    await bot.bot.drain();
    expect(bot.platform.sent.length).toBe(before + 1);
  });

  it("answers 413 for a body far larger than any webhook", async () => {
    const body = JSON.stringify({ events: [], pad: "x".repeat(1_100_000) });
    const answer = await postWebhook(bot.webhookUrl, body, { secret: VECTOR.secret });
    expect(answer.status).toBe(413);
  });

  it("answers 405 to other methods on /webhook", async () => {
    const res = await fetch(bot.webhookUrl);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("other routes", () => {
  it("GET /healthz answers 200 {status: ok}", async () => {
    const res = await fetch(`${bot.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("an unknown path answers 404 with JSON", async () => {
    const res = await fetch(`${bot.url}/nope`, { method: "POST" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "Not found" });
  });
});
