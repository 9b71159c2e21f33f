// Webhook events the console builds: LINE's shapes, ULID event ids, bot mentions, and signatures the SDK accepts.
import { describe, expect, it } from "vitest";
import { validateSignature } from "@line/bot-sdk";
import { DEMO_BOT, DEMO_GROUPS, DEMO_PEOPLE, findBotMentions, greetingEvent, newEventId, postbackEvent, signedWebhook, textMessageEvent } from "../src/webhook-events.js";
import { isChatId, isUserId } from "../src/validate.js";

const user = DEMO_PEOPLE[0]!.userId;
const group = DEMO_GROUPS[0]!.groupId;
const fixed = { now: () => 1_780_000_000_000, random: (size: number) => Buffer.alloc(size, 0xab) };

describe("webhook events", () => {
  it("demo ids are LINE-shaped", () => {
    for (const p of DEMO_PEOPLE) expect(isUserId(p.userId)).toBe(true);
    for (const g of DEMO_GROUPS) expect(isChatId(g.groupId) && g.groupId.startsWith("C")).toBe(true);
    expect(isUserId(DEMO_BOT.userId)).toBe(true);
    expect(new Set([...DEMO_PEOPLE.map((p) => p.userId), ...DEMO_GROUPS.map((g) => g.groupId)]).size).toBe(DEMO_PEOPLE.length + DEMO_GROUPS.length);
  });

  it("event ids are ULIDs whose time part sorts with the clock", () => {
    const a = newEventId({ ...fixed, now: () => 1_000 });
    const b = newEventId({ ...fixed, now: () => 2_000 });
    expect(a).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(a < b).toBe(true);
    expect(newEventId()).not.toBe(newEventId());
  });

  it("a 1:1 text event has the reply token, the user source and no mention", () => {
    const event = textMessageEvent({ source: { type: "user", userId: user }, text: "@slipline qr 150", replyToken: "tok" }, fixed);
    expect(event).toMatchObject({
      type: "message",
      mode: "active",
      timestamp: 1_780_000_000_000,
      replyToken: "tok",
      source: { type: "user", userId: user },
      deliveryContext: { isRedelivery: false },
      message: { type: "text", text: "@slipline qr 150" },
    });
    expect(event.message).not.toHaveProperty("mention");
  });

  it("in a group, @slipline anywhere becomes a self mention with UTF-16 index and length", () => {
    const text = "ขอ @slipline ยอด";
    const event = textMessageEvent({ source: { type: "group", groupId: group, userId: user }, text, replyToken: "t" }, fixed);
    expect(event.source).toEqual({ type: "group", groupId: group, userId: user });
    const mentionees = event.message.type === "text" ? event.message.mention?.mentionees : undefined;
    expect(mentionees).toEqual([{ index: 3, length: 9, type: "user", userId: DEMO_BOT.userId, isSelf: true }]);
    expect(text.slice(3, 12)).toBe("@slipline");
    expect(findBotMentions("@sliplinebot hi", "slipline")).toEqual([]);
    expect(findBotMentions("@SlipLine, hi @slipline", "slipline").map((m) => m.index)).toEqual([0, 14]);
  });

  it("postback, follow and join events", () => {
    expect(postbackEvent({ source: { type: "user", userId: user }, data: "history page 2", replyToken: "r" }, fixed)).toMatchObject({
      type: "postback",
      postback: { data: "history page 2" },
      replyToken: "r",
    });
    expect(greetingEvent({ source: { type: "user", userId: user }, replyToken: "r" }, fixed)).toMatchObject({ type: "follow", follow: { isUnblocked: false } });
    const join = greetingEvent({ source: { type: "group", groupId: group, userId: user }, replyToken: "r" }, fixed);
    expect(join).toMatchObject({ type: "join", source: { type: "group", groupId: group } });
    expect(join.source).not.toHaveProperty("userId");
  });

  it("signs the exact body bytes the way LINE does (official vector, and Thai text)", () => {
    const vector = signedWebhook([], "8c570fa6dd201bb328f1c1eac23a96d8", "U8e742f61d673b39c7fff3cecb7536ef0");
    expect(vector.body).toBe('{"destination":"U8e742f61d673b39c7fff3cecb7536ef0","events":[]}');
    expect(vector.headers["x-line-signature"]).toBe("GhRKmvmHys4Pi8DxkF4+EayaH0OqtJtaZxgTD9fMDLs=");

    const event = textMessageEvent({ source: { type: "user", userId: user }, text: "ยอด 😀", replyToken: "t" }, fixed);
    const signed = signedWebhook([event], "secret");
    expect(validateSignature(Buffer.from(signed.body, "utf8"), "secret", signed.headers["x-line-signature"]!)).toBe(true);
    expect(validateSignature(Buffer.from(signed.body, "utf8"), "other", signed.headers["x-line-signature"]!)).toBe(false);
    expect(JSON.parse(signed.body)).toEqual({ destination: DEMO_BOT.userId, events: [event] });
  });
});
