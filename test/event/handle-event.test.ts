import { afterEach, describe, expect, it } from "vitest";
import { publicAnswer } from "../../src/privacy/answer.js";
import type { ChatContext, HandlerOutcome } from "../../src/handlers/context.js";
import { REAL_HANDLERS } from "../../src/event/handle-event.js";
import type { EventHandlers } from "../../src/event/handle-event.js";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { followEvent, lineId, newEventId, otherEvent, stickerEvent, textEvent } from "../kit/webhook.js";

const USER = lineId("U", 0xe1);
const OTHER_USER = lineId("U", 0xe2);
const GROUP = lineId("C", 0xe3);

/** Handlers that record what reached them and answer with a plain text, so the dispatcher is seen alone. */
function recordingHandlers(overrides: Partial<EventHandlers> = {}) {
  const calls: { kind: string; text?: string; chat: string }[] = [];
  const answer = async (ctx: ChatContext, text: string): Promise<HandlerOutcome> => {
    await ctx.send(publicAnswer("help", [{ type: "text", text }]));
    return { command: "help", outcome: "answered" };
  };
  const handlers: EventHandlers = {
    handleText: async (input, ctx) => {
      calls.push({ kind: "text", text: input.text, chat: ctx.chat.id });
      return answer(ctx, `echo ${input.text}`);
    },
    handleNonText: async (messageType, ctx) => {
      calls.push({ kind: "non_text", text: messageType, chat: ctx.chat.id });
      return answer(ctx, `non-text ${messageType}`);
    },
    handleImage: async (input, ctx) => {
      calls.push({ kind: "image", text: input.messageId ?? "(no id)", chat: ctx.chat.id });
      return answer(ctx, "photo");
    },
    handlePostback: async (data, ctx) => {
      calls.push({ kind: "postback", text: data, chat: ctx.chat.id });
      return answer(ctx, `postback ${data}`);
    },
    handleGreeting: async (ctx) => {
      calls.push({ kind: "greeting", chat: ctx.chat.id });
      return answer(ctx, "hello");
    },
    handleEditedText: async (input, ctx) => {
      calls.push({ kind: "edited_text", text: input.text, chat: ctx.chat.id });
      return answer(ctx, `edited ${input.text}`);
    },
    handleMemberJoined: async (members, ctx) => {
      calls.push({ kind: "member_joined", text: String(members), chat: ctx.chat.id });
      return answer(ctx, "welcome");
    },
    ...overrides,
  };
  return { handlers, calls };
}

let bot: BotHarness | undefined;
afterEach(async () => {
  await bot?.close();
  bot = undefined;
});

describe("event dispatcher", () => {
  it("answers the webhook before the events are handled", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = false;
    const { handlers } = recordingHandlers({
      handleText: async (_input, ctx) => {
        started = true;
        await gate;
        await ctx.send(publicAnswer("help", [{ type: "text", text: "late" }]));
        return { command: "history", outcome: "answered" };
      },
    });
    bot = await startBotHarness({ handlers });
    const answer = await bot.post([textEvent({ source: { type: "user", userId: USER }, replyToken: bot.token(USER), text: "history" })]);
    expect(answer.status).toBe(200);
    expect(bot.platform.sent).toHaveLength(0); // answered while the handler is still waiting
    release();
    await bot.drain();
    expect(started).toBe(true);
    expect(bot.platform.sent.map((s) => s.kind)).toEqual(["reply"]);
  });

  it("keeps each event in its own error boundary: a bug in one is logged, its chat (a group too) gets an apology, the rest go on", async () => {
    const { handlers } = recordingHandlers({
      handleText: async (input, ctx) => {
        if (input.text === "boom") throw new TypeError("a bug");
        await ctx.send(publicAnswer("help", [{ type: "text", text: "fine" }]));
        return { command: "help", outcome: "answered" };
      },
    });
    bot = await startBotHarness({ handlers, settings: { defaultLang: "en" } });
    const sent = await bot.exchange([
      textEvent({ source: { type: "user", userId: USER }, replyToken: bot.token(USER), text: "boom" }),
      textEvent({ source: { type: "group", groupId: GROUP, userId: USER }, replyToken: bot.token(GROUP), text: "boom" }),
      textEvent({ source: { type: "user", userId: OTHER_USER }, replyToken: bot.token(OTHER_USER), text: "ok" }),
    ]);
    expect(sent.filter((s) => s.chatId === USER).map((s) => s.messages)).toEqual([[{ type: "text", text: "Sorry, something went wrong. Please try again." }]]);
    // A group is not left in silence either.
    expect(sent.filter((s) => s.chatId === GROUP).map((s) => s.messages)).toEqual([[{ type: "text", text: "Sorry, something went wrong. Please try again." }]]);
    expect(sent.filter((s) => s.chatId === OTHER_USER).map((s) => s.messages)).toEqual([[{ type: "text", text: "fine" }]]);
    const failures = bot.logs.entries().filter((e) => e.msg === "handler failed");
    expect(failures).toHaveLength(2);
    expect(JSON.stringify(failures[0])).toContain("a bug");
  });

  it("handles a redelivered event once, within a webhook and across webhooks", async () => {
    const { handlers, calls } = recordingHandlers();
    bot = await startBotHarness({ handlers });
    const eventId = newEventId();
    const token = bot.token(USER);
    const event = textEvent({ source: { type: "user", userId: USER }, replyToken: token, text: "qr 150", eventId });
    const redelivered = { ...event, deliveryContext: { isRedelivery: true } };
    await bot.exchange([event, event]);
    const again = await bot.exchange([redelivered]);
    expect(calls).toHaveLength(1);
    expect(again).toEqual([]);
    expect(bot.logs.entries().filter((e) => e.outcome === "duplicate")).toHaveLength(2);
  });

  it("sends nothing in standby mode and ignores unknown event types without error", async () => {
    const { handlers, calls } = recordingHandlers();
    bot = await startBotHarness({ handlers });
    const answer = await bot.post([
      textEvent({ source: { type: "user", userId: USER }, text: "balance", mode: "standby" }),
      otherEvent({ source: { type: "group", groupId: GROUP }, type: "messageEdited", replyToken: bot.token(GROUP), extra: { message: { type: "text", text: "qr 5" } } }),
      otherEvent({ source: { type: "user", userId: USER }, type: "somethingNew2030" }),
      otherEvent({ source: { type: "user", userId: USER }, type: "unfollow" }),
      { junk: true },
    ]);
    expect(answer.status).toBe(200);
    await bot.drain();
    expect(calls).toEqual([]);
    expect(bot.platform.sent).toEqual([]);
    expect(bot.logs.entries().filter((e) => e.level === 50)).toEqual([]);
  });

  it("routes text with its mentions, postbacks and greetings to their handlers", async () => {
    const { handlers, calls } = recordingHandlers();
    bot = await startBotHarness({ handlers });
    await bot.exchange([
      textEvent({
        source: { type: "group", groupId: GROUP, userId: USER },
        replyToken: bot.token(GROUP),
        text: "@slipline help",
        mentionees: [{ index: 0, length: 9, isSelf: true }],
      }),
      followEvent({ source: { type: "user", userId: USER }, replyToken: bot.token(USER) }),
    ]);
    expect(calls).toEqual([
      { kind: "text", text: "@slipline help", chat: GROUP },
      { kind: "greeting", chat: USER },
    ]);
  });

  it("handles one chat's events in order", async () => {
    const order: string[] = [];
    const { handlers } = recordingHandlers({
      handleText: async (input, ctx) => {
        order.push(`start ${input.text}`);
        // The first event yields to the event loop; a second one must not start meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
        order.push(`end ${input.text}`);
        await ctx.send(publicAnswer("help", [{ type: "text", text: input.text }]));
        return { command: "help", outcome: "answered" };
      },
    });
    bot = await startBotHarness({ handlers });
    await bot.exchange([
      textEvent({ source: { type: "user", userId: USER }, replyToken: bot.token(USER), text: "one" }),
      textEvent({ source: { type: "user", userId: USER }, replyToken: bot.token(USER), text: "two" }),
    ]);
    expect(order).toEqual(["start one", "end one", "start two", "end two"]);
  });

  it("writes one log line per event with its id, chat type, command, outcome and duration", async () => {
    bot = await startBotHarness({ handlers: REAL_HANDLERS });
    const eventId = newEventId();
    await bot.exchange([textEvent({ source: { type: "user", userId: USER }, replyToken: bot.token(USER), text: "help", eventId })]);
    const lines = bot.logs.entries().filter((e) => e.msg === "event handled" && e.eventId === eventId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ eventType: "message", chatType: "user", command: "help", outcome: "answered", delivery: ["reply"] });
    expect(typeof lines[0]?.durationMs).toBe("number");
  });

  it("hands a sticker in a 1:1 chat to the non-text handler, and keeps a group's stickers from every handler", async () => {
    const { handlers, calls } = recordingHandlers();
    bot = await startBotHarness({ handlers });
    await bot.exchange([stickerEvent({ source: { type: "user", userId: USER }, replyToken: bot.token(USER) })]);
    expect(calls).toEqual([{ kind: "non_text", text: "sticker", chat: USER }]);
    const inGroup = await bot.exchange([stickerEvent({ source: { type: "group", groupId: GROUP, userId: USER }, replyToken: bot.token(GROUP) })]);
    expect(inGroup).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it("stays quiet for stickers with the real handlers, in a 1:1 chat too", async () => {
    bot = await startBotHarness({ handlers: REAL_HANDLERS, settings: { staffUserIds: new Set([USER]) } });
    const sent = await bot.exchange([stickerEvent({ source: { type: "user", userId: USER }, replyToken: bot.token(USER) })]);
    expect(sent).toEqual([]);
  });
});
