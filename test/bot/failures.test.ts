// End to end, when things go wrong: the service down or slow, an expired package, strangers, messages that are not text.
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedSend } from "@slipline/line-stand-in";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { startFaultServer } from "../kit/fault-server.js";
import type { FaultServer } from "../kit/fault-server.js";
import { shownText } from "../kit/messages.js";
import { chatIdOf, imageEvent, lineId, stickerEvent, textEvent } from "../kit/webhook.js";
import type { TestSource } from "../kit/webhook.js";

const STAFF = lineId("U", 0x71);
const CUSTOMER = lineId("U", 0x72);
const STAFF_GROUP = lineId("C", 0x81);
const SHOP_GROUP = lineId("C", 0x82);

/** STAFF in 1:1 chats and everyone in STAFF_GROUP are staff; SHOP_GROUP is a group with customers. */
const staffLists = { staffUserIds: new Set([STAFF]), staffGroupIds: new Set([STAFF_GROUP]) };

let bot: BotHarness | undefined;
let fault: FaultServer | undefined;
afterEach(async () => {
  await bot?.close();
  await fault?.close();
  bot = undefined;
  fault = undefined;
});

async function say(b: BotHarness, source: TestSource, text: string): Promise<RecordedSend[]> {
  return b.exchange([textEvent({ source, replyToken: b.token(chatIdOf(source)), text })]);
}

/** A port nothing listens on: bind one, then let it go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the slip service down or slow", () => {
  it("down (connection refused): a clear try-again reply, in the command's language", async () => {
    bot = await startBotHarness({
      slip: { baseUrl: `http://127.0.0.1:${await closedPort()}`, apiSecret: "demo-shop-secret" },
      slipRetries: 1,
      settings: staffLists,
    });
    const en = await say(bot, { type: "user", userId: STAFF }, "balance");
    const th = await say(bot, { type: "user", userId: STAFF }, "ประวัติ");
    expect(en.map((s) => s.kind)).toEqual(["reply"]);
    expect(shownText(en[0]?.messages ?? [])).toMatch(/try again/i);
    expect(shownText(th[0]?.messages ?? [])).toMatch(/ลองใหม่/);
    expect(shownText([...en, ...th].flatMap((s) => s.messages))).not.toMatch(/ECONNREFUSED|Error:|at /);
  });

  it("slow (never answers): the client gives up at its timeout and the reply still uses the reply token", async () => {
    fault = await startFaultServer(() => {
      // Hold the request open: the service is hanging.
    });
    bot = await startBotHarness({ slip: { baseUrl: fault.url, apiSecret: "demo-shop-secret" }, slipTimeoutMs: 300, slipRetries: 0, settings: staffLists });
    const sent = await say(bot, { type: "group", groupId: STAFF_GROUP, userId: STAFF }, "qr 150");
    expect(sent.map((s) => s.kind)).toEqual(["reply"]);
    expect(shownText(sent[0]?.messages ?? [])).toMatch(/try again/i);
    expect(fault.count).toBeGreaterThanOrEqual(1);
  });

  it("an expired package gives the renew message", async () => {
    bot = await startBotHarness({ slip: { shop: "expired" }, settings: staffLists });
    const en = await say(bot, { type: "user", userId: STAFF }, "history");
    const th = await say(bot, { type: "user", userId: STAFF }, "คิวอาร์ 150");
    expect(shownText(en[0]?.messages ?? [])).toMatch(/renew/i);
    expect(shownText(th[0]?.messages ?? [])).toMatch(/ต่ออายุ/);
  });
});

describe("staff-only commands", () => {
  const settings = { staffUserIds: new Set([STAFF]), staffGroupIds: new Set([STAFF_GROUP]), defaultLang: "en" as const };

  it("shows a customer nothing of history and balance, thanks them once, and serves staff", async () => {
    bot = await startBotHarness({ settings });
    const customer: TestSource = { type: "user", userId: CUSTOMER };
    // To a customer these are talk ("I paid, please check"): thanks once, then quiet for the shop to answer.
    expect(shownText((await say(bot, customer, "balance"))[0]?.messages ?? [])).toMatch(/The shop will check|ทางร้านจะตรวจสอบ/);
    for (const text of ["history", "ยอด"]) expect(await say(bot, customer, text), text).toEqual([]);
    const staff = await say(bot, { type: "user", userId: STAFF }, "balance");
    expect(shownText(staff[0]?.messages ?? [])).toMatch(/ร้านกาแฟดีใจ/);
  });

  it("serves anyone in a staff group; in a group with customers shows nothing private, to staff either", async () => {
    bot = await startBotHarness({ settings });
    const listed = await say(bot, { type: "group", groupId: STAFF_GROUP, userId: CUSTOMER }, "balance");
    expect(shownText(listed[0]?.messages ?? [])).toMatch(/ร้านกาแฟดีใจ/);
    // A lone command word in a customer group is talk: no answer.
    expect(await say(bot, { type: "group", groupId: SHOP_GROUP, userId: CUSTOMER }, "balance")).toEqual([]);
    expect(await say(bot, { type: "group", groupId: SHOP_GROUP }, "history")).toEqual([]);
    // Staff asking there get a pointer to a private place.
    const staffAsks = await say(bot, { type: "group", groupId: SHOP_GROUP, userId: STAFF }, "history today");
    expect(shownText(staffAsks[0]?.messages ?? [])).toMatch(/1:1 chat or in the staff group/);
    expect(shownText(staffAsks[0]?.messages ?? [])).not.toMatch(/ร้านกาแฟดีใจ|฿/);
  });

  it("keeps qr, help and id open to customers, with customer help", async () => {
    bot = await startBotHarness({ settings });
    const customer: TestSource = { type: "user", userId: CUSTOMER };
    expect(shownText((await say(bot, customer, "qr 150"))[0]?.messages ?? [])).toMatch(/฿150\.00/);
    const help = shownText((await say(bot, customer, "help"))[0]?.messages ?? []);
    expect(help).toMatch(/qr 150/);
    expect(help).not.toMatch(/history|balance/);
    expect(shownText((await say(bot, customer, "id"))[0]?.messages ?? [])).toContain(CUSTOMER);
  });
});

describe("messages that are not text", () => {
  it("stays silent for stickers and images in groups, and for stickers in 1:1", async () => {
    bot = await startBotHarness();
    const sent = await bot.exchange([
      stickerEvent({ source: { type: "group", groupId: SHOP_GROUP, userId: CUSTOMER }, replyToken: bot.token(SHOP_GROUP) }),
      imageEvent({ source: { type: "group", groupId: SHOP_GROUP, userId: CUSTOMER }, replyToken: bot.token(SHOP_GROUP) }),
      stickerEvent({ source: { type: "user", userId: CUSTOMER }, replyToken: bot.token(CUSTOMER) }),
    ]);
    expect(sent).toEqual([]);
    expect(bot.logs.entries().filter((e) => e.msg === "event handled" && e.outcome === "ignored")).toHaveLength(3);
  });

  it("asks a staff member to send again a photo LINE no longer has; thanks a customer for a photo, and shows them nothing else", async () => {
    bot = await startBotHarness({ settings: staffLists });
    const sent = await bot.exchange([imageEvent({ source: { type: "user", userId: STAFF }, replyToken: bot.token(STAFF), messageId: "100000000000000001" })]);
    expect(sent.map((s) => s.kind)).toEqual(["reply"]);
    expect(shownText(sent[0]?.messages ?? [])).toBe("ดึงรูปนี้จาก LINE ไม่ได้ค่ะ กรุณาส่งรูปมาอีกครั้งนะคะ");
    const fromCustomer = await bot.exchange([imageEvent({ source: { type: "user", userId: CUSTOMER }, replyToken: bot.token(CUSTOMER) })]);
    expect(fromCustomer.map((s) => [s.chatId, shownText(s.messages)])).toEqual([[CUSTOMER, "ขอบคุณค่ะ 🙏 ทางร้านจะตรวจสอบแล้วรีบตอบกลับนะคะ"]]);
  });
});

describe("logs", () => {
  it("never contain the secrets, the access token or reply tokens, even when things fail", async () => {
    bot = await startBotHarness({
      slip: { baseUrl: `http://127.0.0.1:${await closedPort()}`, apiSecret: "sk_test_never_log_this_0123" },
      slipRetries: 0,
      settings: staffLists,
    });
    const token = bot.token(STAFF);
    await bot.exchange([textEvent({ source: { type: "user", userId: STAFF }, replyToken: token, text: "balance" })]);
    await bot.exchange([textEvent({ source: { type: "user", userId: STAFF }, replyToken: token, text: "balance" })]); // used token: push
    const text = bot.logs.text();
    expect(text).toMatch(/push/);
    for (const secret of [bot.channelSecret, bot.accessToken, "sk_test_never_log_this_0123", token]) {
      expect(text).not.toContain(secret);
    }
  });
});
