// Two shops in one deployment, in process: each shop's webhook takes only its own channel's signature (the
// other shop's is 401 and nothing of it is handled), and each shop's events are answered through its own
// channel, to its own chats, with its own slip service account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_STORE_NAMES } from "@slipline/slip-sandbox";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness, HarnessShop } from "../kit/bot-harness.js";
import { shownText } from "../kit/messages.js";
import { lineId, postWebhook, textEvent, webhookBody } from "../kit/webhook.js";
import type { TestSource } from "../kit/webhook.js";

const CAFE_STAFF = lineId("U", 0xd01);
const NOODLE_STAFF = lineId("U", 0xd02);
const NOODLE_GROUP = lineId("C", 0xd11);
const BAD_SIGNATURE = "webhook refused: bad signature";

let bot: BotHarness;
let noodle: HarnessShop;

beforeAll(async () => {
  bot = await startBotHarness({
    settings: { staffUserIds: new Set([CAFE_STAFF]) },
    moreShops: [{ id: "noodle", settings: { staffUserIds: new Set([NOODLE_STAFF]), staffGroupIds: new Set([NOODLE_GROUP]) } }],
  });
  const more = bot.moreShops.get("noodle");
  if (more === undefined) throw new Error("the harness did not start the noodle shop");
  noodle = more;
});
afterAll(async () => {
  await bot.close();
});

/** What went out from `mark` on, as [channel, kind, chat], in a fixed order. */
const sentSince = (mark: number): string[][] =>
  bot.platform.sent
    .slice(mark)
    .map((s) => [s.channel, s.kind, s.chatId])
    .sort((a, b) => a.join().localeCompare(b.join()));

const refusals = (): Record<string, unknown>[] => bot.logs.entries().filter((e) => e.msg === BAD_SIGNATURE);

const cafeSays = (text: string, source: TestSource = { type: "user", userId: CAFE_STAFF }) => textEvent({ source, replyToken: bot.token(CAFE_STAFF), text });
const noodleSays = (text: string, source: TestSource = { type: "user", userId: NOODLE_STAFF }, replyToken?: string) =>
  textEvent({ source, replyToken: replyToken ?? noodle.token(source.type === "group" ? source.groupId : NOODLE_STAFF), text });

describe("two shops in one deployment", () => {
  it("each webhook takes only its own channel's signature: the other shop's is 401 and its events are never handled", async () => {
    const mark = bot.platform.sent.length;
    const refusedBefore = refusals().length;

    // The café's webhook, signed with the noodle shop's secret, then with its own.
    const foreignAtCafe = await postWebhook(bot.webhookUrl, webhookBody([cafeSays("qr 11")]), { secret: noodle.channelSecret });
    expect(foreignAtCafe).toEqual({ status: 401, body: { message: "Invalid signature" } });
    expect((await bot.post([cafeSays("qr 12")])).status).toBe(200);
    // The noodle shop's webhook, signed with the café's secret, then with its own.
    expect(await noodle.post([noodleSays("qr 21")], bot.channelSecret)).toEqual({ status: 401, body: { message: "Invalid signature" } });
    expect((await noodle.post([noodleSays("qr 22")])).status).toBe(200);
    // Every accepted event handled: a refused one, had it got in, would have been answered by now too.
    await bot.drain();

    expect(sentSince(mark)).toEqual([
      ["default", "reply", CAFE_STAFF],
      ["noodle", "reply", NOODLE_STAFF],
    ]);
    const sent = bot.platform.sent.slice(mark);
    expect(shownText(sent.find((s) => s.channel === "default")?.messages ?? [])).toMatch(/฿12\.00/);
    expect(shownText(sent.find((s) => s.channel === "noodle")?.messages ?? [])).toMatch(/฿22\.00/);
    // Each refusal was logged by the shop whose webhook was asked.
    expect(
      refusals()
        .slice(refusedBefore)
        .map((e) => e["shop"]),
    ).toEqual(["default", "noodle"]);
  });

  it("each shop's events are answered through its own channel, to its own chats, with its own service account", async () => {
    const mark = bot.platform.sent.length;
    const rejectedBefore = bot.platform.rejected.length;
    const inNoodleGroup: TestSource = { type: "group", groupId: NOODLE_GROUP, userId: NOODLE_STAFF };
    // Both at once; in the noodle shop's group a reply token LINE no longer takes, so the answer is pushed.
    const [cafe, noodleAnswer] = await Promise.all([
      bot.post([cafeSays("balance")]),
      noodle.post([noodleSays("balance"), noodleSays("qr 33", inNoodleGroup, "expired-or-never-issued-token")]),
    ]);
    expect([cafe.status, noodleAnswer.status]).toEqual([200, 200]);
    await bot.drain();

    expect(sentSince(mark)).toEqual([
      ["default", "reply", CAFE_STAFF],
      ["noodle", "push", NOODLE_GROUP],
      ["noodle", "reply", NOODLE_STAFF],
    ]);
    const sent = bot.platform.sent.slice(mark);
    const textTo = (chatId: string): string => shownText(sent.find((s) => s.chatId === chatId)?.messages ?? []);
    // Each shop's balance is its own slip service account's.
    expect(textTo(CAFE_STAFF)).toContain(DEMO_STORE_NAMES.shop);
    expect(textTo(CAFE_STAFF)).not.toContain(DEMO_STORE_NAMES.other);
    expect(textTo(NOODLE_STAFF)).toContain(DEMO_STORE_NAMES.other);
    expect(textTo(NOODLE_STAFF)).not.toContain(DEMO_STORE_NAMES.shop);
    expect(textTo(NOODLE_GROUP)).toMatch(/฿33\.00/);
    // The stand-in refused nothing but the stale reply token, and that in the noodle shop's channel.
    expect(bot.platform.rejected.slice(rejectedBefore).map((r) => [r.channel, r.path, r.status])).toEqual([["noodle", "/v2/bot/message/reply", 400]]);
  });
});
