// End to end: signed webhooks into the real bot, the real sandbox behind the real client, the LINE stand-in recording.
import { mkdirSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedSend } from "@slipline/line-stand-in";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { postbackData, quickReplyTexts, shownText } from "../kit/messages.js";
import { chatIdOf, joinEvent, lineId, mentionText, newEventId, postbackEvent, followEvent, textEvent } from "../kit/webhook.js";
import type { TestSource } from "../kit/webhook.js";

const STAFF = lineId("U", 0x51);
const SECOND = lineId("U", 0x52);
const GROUP = lineId("C", 0x61);
const ONE_TO_ONE: TestSource = { type: "user", userId: STAFF };
const IN_GROUP: TestSource = { type: "group", groupId: GROUP, userId: STAFF };

let bot: BotHarness;
/** One example per command of what the bot sent, kept for the closing note. */
const samples: Record<string, unknown> = {};

beforeAll(async () => {
  bot = await startBotHarness({ settings: { staffUserIds: new Set([STAFF, SECOND]), staffGroupIds: new Set([GROUP]) } });
});
afterAll(async () => {
  await bot.close();
  mkdirSync("test-output", { recursive: true });
  writeFileSync("test-output/bot-messages.json", `${JSON.stringify(samples, null, 2)}\n`);
});

async function say(source: TestSource, text: string, mentionees?: { index: number; length: number; isSelf?: boolean }[]): Promise<RecordedSend[]> {
  return bot.exchange([textEvent({ source, replyToken: bot.token(chatIdOf(source)), text, ...(mentionees === undefined ? {} : { mentionees }) })]);
}

/** The one reply the bot sent, with nothing pushed. */
function onlyReply(sent: RecordedSend[], chatId: string): RecordedSend {
  expect(sent.map((s) => [s.kind, s.chatId])).toEqual([["reply", chatId]]);
  return sent[0] as RecordedSend;
}

describe.each([
  ["a 1:1 chat", ONE_TO_ONE],
  ["a group", IN_GROUP],
])("commands in %s", (_where, source) => {
  const chatId = chatIdOf(source);

  it.each([
    ["qr 150", /฿150\.00/, /081-xxx-5678/],
    ["คิวอาร์ 0812345678 1,500.50", /฿1,500\.50/, /พร้อมเพย์/],
  ])("%s gives a QR bubble with the amount and the masked payee, and a savable image", async (text, amount, extra) => {
    const reply = onlyReply(await say(source, text), chatId);
    const [bubble, image] = reply.messages;
    expect(bubble?.type).toBe("flex");
    expect(shownText(reply.messages)).toMatch(amount);
    expect(shownText(reply.messages)).toMatch(extra);
    expect(image?.type).toBe("image");
    if (image?.type !== "image") return;
    // The image is the service's QR, and it loads.
    const png = await fetch(image.originalContentUrl);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    samples[text.startsWith("qr") ? "qr (en)" : "qr (th)"] ??= reply.messages;
  });

  it.each([
    ["history 7d", /Page 1 of/, "en"],
    ["ประวัติ 7วัน", /หน้า 1 จาก/, "th"],
  ])("%s gives a history page whose next-page button opens page 2", async (text, pageOne, lang) => {
    const first = onlyReply(await say(source, text), chatId);
    expect(first.messages).toHaveLength(1);
    expect(shownText(first.messages)).toMatch(pageOne);
    expect(quickReplyTexts(first.messages).length).toBeGreaterThanOrEqual(6);
    // The paging button's data; the rows carry postbacks of their own (each row's reference).
    const next = postbackData(first.messages).find((data) => /(page|หน้า) 2$/.test(data));
    expect(next).toBeDefined();
    const tapped = await bot.exchange([postbackEvent({ source, replyToken: bot.token(chatId), data: next ?? "" })]);
    const second = onlyReply(tapped, chatId);
    expect(shownText(second.messages)).toMatch(lang === "en" ? /Page 2 of/ : /หน้า 2 จาก/);
    samples[`history (${lang})`] ??= first.messages;
    samples[`history next page (${lang})`] ??= { postbackData: next, messages: second.messages };
  });

  it("a history quick reply (a filter) works when tapped", async () => {
    const first = onlyReply(await say(source, "history 7d"), chatId);
    const fraud = quickReplyTexts(first.messages).find((t) => /fraud/.test(t));
    expect(fraud).toBeDefined();
    const filtered = onlyReply(await say(source, fraud ?? ""), chatId);
    expect(shownText(filtered.messages)).toMatch(/Fraud/);
  });

  it.each([
    ["balance", /ร้านกาแฟดีใจ/, /tokens/i],
    ["โทเคน", /ร้านกาแฟดีใจ/, /โทเคน/],
  ])("%s shows the store, tokens and expiry", async (text, store, tokens) => {
    const reply = onlyReply(await say(source, text), chatId);
    expect(shownText(reply.messages)).toMatch(store);
    expect(shownText(reply.messages)).toMatch(tokens);
    samples[`balance (${text === "balance" ? "en" : "th"})`] ??= reply.messages;
  });

  it.each([
    ["help", /qr 150/],
    ["ช่วยเหลือ", /คิวอาร์ 150/],
  ])("%s lists the commands with examples", async (text, example) => {
    const reply = onlyReply(await say(source, text), chatId);
    expect(shownText(reply.messages)).toMatch(example);
    expect(quickReplyTexts(reply.messages).length).toBeGreaterThan(0);
    samples[`help (${text === "help" ? "en" : "th"})`] ??= reply.messages;
  });

  it.each([
    ["id", /user id/],
    ["ไอดี", /ไอดี/],
  ])("%s shows the sender's id (and the group's, in a group)", async (text, label) => {
    const reply = onlyReply(await say(source, text), chatId);
    const shown = shownText(reply.messages);
    expect(shown).toMatch(label);
    expect(shown).toContain(STAFF);
    if (source.type === "group") expect(shown).toContain(GROUP);
    samples[`id (${text === "id" ? "en" : "th"}, ${source.type})`] ??= reply.messages;
  });

  it("a usage error says what was wrong and shows the right usage", async () => {
    const reply = onlyReply(await say(source, "qr 0812345678 12.345"), chatId);
    expect(shownText(reply.messages)).toMatch(/2 decimals|decimal/i);
    samples["usage error (en)"] ??= reply.messages;
  });
});

describe("group rules", () => {
  it("answers a command after a mention of the bot", async () => {
    const { text, mentionees } = mentionText("slipline", "balance");
    const reply = onlyReply(await say(IN_GROUP, text, mentionees), GROUP);
    expect(shownText(reply.messages)).toMatch(/ร้านกาแฟดีใจ/);
  });

  it("answers a Thai command after a mention of the bot", async () => {
    const { text, mentionees } = mentionText("slipline", "คิวอาร์ 99");
    const reply = onlyReply(await say(IN_GROUP, text, mentionees), GROUP);
    expect(shownText(reply.messages)).toMatch(/฿99\.00/);
  });

  it("stays silent for group talk that is no command", async () => {
    expect(await say(IN_GROUP, "see you at the shop tomorrow")).toEqual([]);
    expect(await say(IN_GROUP, "ขอบคุณค่ะ")).toEqual([]);
  });

  it("stays silent when the message starts by mentioning someone else", async () => {
    expect(await say(IN_GROUP, "@Malee qr 150 please", [{ index: 0, length: 6 }])).toEqual([]);
  });

  it("in a 1:1 chat, text that is no command gets a short hint", async () => {
    const reply = onlyReply(await say(ONE_TO_ONE, "hello there"), STAFF);
    expect(shownText(reply.messages)).toMatch(/ประวัติ|history/);
    samples["unknown text (1:1)"] ??= reply.messages;
  });

  it("greets on follow and on join, with help quick replies", async () => {
    const sent = await bot.exchange([
      followEvent({ source: { type: "user", userId: SECOND }, replyToken: bot.token(SECOND) }),
      joinEvent({ source: { type: "group", groupId: GROUP }, replyToken: bot.token(GROUP) }),
    ]);
    expect(sent.map((s) => [s.kind, s.chatId]).sort()).toEqual(
      [
        ["reply", GROUP],
        ["reply", SECOND],
      ].sort(),
    );
    for (const s of sent) expect(quickReplyTexts(s.messages).length).toBeGreaterThan(0);
    samples["greeting (follow)"] ??= sent.find((s) => s.chatId === SECOND)?.messages;
  });
});

describe("delivery", () => {
  it("handles a webhook carrying several events from different chats", async () => {
    const sent = await bot.exchange([
      textEvent({ source: ONE_TO_ONE, replyToken: bot.token(STAFF), text: "qr 10" }),
      textEvent({ source: { type: "user", userId: SECOND }, replyToken: bot.token(SECOND), text: "โทเคน" }),
      textEvent({ source: IN_GROUP, replyToken: bot.token(GROUP), text: "help" }),
      textEvent({ source: IN_GROUP, replyToken: bot.token(GROUP), text: "nice weather" }),
    ]);
    expect(sent.map((s) => s.chatId).sort()).toEqual([GROUP, SECOND, STAFF].sort());
    expect(sent.every((s) => s.kind === "reply")).toBe(true);
    expect(shownText(sent.find((s) => s.chatId === STAFF)?.messages ?? [])).toMatch(/฿10\.00/);
    expect(shownText(sent.find((s) => s.chatId === SECOND)?.messages ?? [])).toMatch(/โทเคน/);
  });

  it("answers a redelivered event once", async () => {
    const eventId = newEventId();
    const event = textEvent({ source: ONE_TO_ONE, replyToken: bot.token(STAFF), text: "balance", eventId });
    const first = await bot.exchange([event]);
    const again = await bot.exchange([{ ...event, deliveryContext: { isRedelivery: true } }]);
    expect(first).toHaveLength(1);
    expect(again).toEqual([]);
  });

  it("pushes the answer with a retry key when the reply token has expired", async () => {
    const sent = await bot.exchange([textEvent({ source: IN_GROUP, replyToken: "expired-or-never-issued-token", text: "qr 20" })]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: "push", chatId: GROUP });
    expect(sent[0]?.retryKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(shownText(sent[0]?.messages ?? [])).toMatch(/฿20\.00/);
    expect(bot.platform.rejected.some((r) => r.path === "/v2/bot/message/reply" && /Invalid reply token/.test(r.message))).toBe(true);
  });

  it("pushes when the token was already used (same token, a new event)", async () => {
    const token = bot.token(STAFF);
    await bot.exchange([textEvent({ source: ONE_TO_ONE, replyToken: token, text: "id" })]);
    const sent = await bot.exchange([textEvent({ source: ONE_TO_ONE, replyToken: token, text: "id" })]);
    expect(sent.map((s) => s.kind)).toEqual(["push"]);
  });

  it("shows the loading animation in a 1:1 chat for history when the service is slow, never in a group", async () => {
    // The animation starts only if the answer is not out first: a service answering in 300 ms makes sure of it.
    const slow = await startBotHarness({ slipLatencyMs: 300, settings: { staffUserIds: new Set([STAFF]), staffGroupIds: new Set([GROUP]) } });
    try {
      const ask = (source: TestSource) => slow.exchange([textEvent({ source, replyToken: slow.token(chatIdOf(source)), text: "history" })]);
      expect(await ask(ONE_TO_ONE)).toHaveLength(1);
      expect(await ask(IN_GROUP)).toHaveLength(1);
      // The animation is fire and forget: wait for the stand-in to have it, bounded.
      for (let i = 0; i < 100 && slow.platform.loadings.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(slow.platform.loadings.map((l) => l.chatId)).toEqual([STAFF]);
      expect(slow.platform.rejected.filter((r) => r.path.includes("loading"))).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it("every answer it sends is within LINE's limits: the stand-in takes each, and refuses nothing but a stale reply token", async () => {
    const rejectedBefore = bot.platform.rejected.length;
    // Every kind of answer, the longest ones included, in both kinds of chat; the last one's token is stale.
    const commands = [
      "qr 150",
      "คิวอาร์ 0812345678 1,500.50",
      "history 30d",
      "ประวัติ 7วัน",
      "history 7d fraud",
      "balance",
      "โทเคน",
      "help",
      "ช่วยเหลือ",
      "id",
      "ไอดี",
      "qr 0812345678 12.345",
    ];
    const answers: RecordedSend[] = [];
    for (const source of [ONE_TO_ONE, IN_GROUP]) for (const text of commands) answers.push(onlyReply(await say(source, text), chatIdOf(source)));
    answers.push(onlyReply(await say(ONE_TO_ONE, "hello there"), STAFF));
    answers.push(
      ...(await bot.exchange([
        followEvent({ source: { type: "user", userId: SECOND }, replyToken: bot.token(SECOND) }),
        joinEvent({ source: { type: "group", groupId: GROUP }, replyToken: bot.token(GROUP) }),
      ])),
    );
    const stale = await bot.exchange([textEvent({ source: IN_GROUP, replyToken: "stale-reply-token-of-this-test", text: "history 30d" })]);
    expect(stale.map((s) => [s.kind, s.chatId])).toEqual([["push", GROUP]]);
    answers.push(...stale);

    expect(answers).toHaveLength(2 * commands.length + 4);
    expect(answers.every((a) => a.messages.length > 0)).toBe(true);
    const rejected = bot.platform.rejected.slice(rejectedBefore);
    expect(rejected.map((r) => [r.path, r.status, r.message])).toEqual([["/v2/bot/message/reply", 400, "Invalid reply token"]]);
  });

  it("never logs the channel secret, the access token, the API secret or a reply token", async () => {
    const linesBefore = bot.logs.entries().length;
    const fresh = bot.token(STAFF);
    const staleEvent = textEvent({ source: IN_GROUP, replyToken: "stale-reply-token-never-logged", text: "qr 20" });
    const sent = await bot.exchange([textEvent({ source: ONE_TO_ONE, replyToken: fresh, text: "history" }), staleEvent]);
    expect(sent.map((s) => [s.kind, s.chatId]).sort()).toEqual([
      ["push", GROUP],
      ["reply", STAFF],
    ]);

    // This traffic's own lines: among them the stale token's failed reply, by its event's id.
    const lines = bot.logs.entries().slice(linesBefore);
    expect(lines.some((line) => line["msg"] === "reply token expired or used; pushing instead" && line["eventId"] === staleEvent.webhookEventId)).toBe(true);
    const text = JSON.stringify(lines);
    for (const secret of [bot.channelSecret, bot.accessToken, bot.apiSecret, fresh, "stale-reply-token-never-logged"]) expect(text).not.toContain(secret);
  });
});
