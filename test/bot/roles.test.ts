// Roles and privacy in LINE mode, black box: signed webhooks into the real bot, the sandbox behind it,
// the LINE stand-in recording every reply. Staff and customers; 1:1, a staff group, a customer group.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RecordedSend } from "@slipline/line-stand-in";
import { formatMoney } from "../../src/render/format.js";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { quickReplyTaps, quickReplyTexts, shownText } from "../kit/messages.js";
import { chatIdOf, followEvent, imageEvent, joinEvent, lineId, mentionText, postbackEvent, stickerEvent, textEvent } from "../kit/webhook.js";
import type { TestSource } from "../kit/webhook.js";

const OWNER = lineId("U", 0x301);
const CASHIER = lineId("U", 0x302);
const CUSTOMER = lineId("U", 0x303);
const OTHER_CUSTOMER = lineId("U", 0x304);
const STAFF_GROUP = lineId("C", 0x311);
const MIXED_GROUP = lineId("C", 0x312);
const staffLists = { staffUserIds: new Set([OWNER, CASHIER]), staffGroupIds: new Set([STAFF_GROUP]) };

const dm = (userId: string): TestSource => ({ type: "user", userId });
const inGroup = (groupId: string, userId?: string): TestSource => (userId === undefined ? { type: "group", groupId } : { type: "group", groupId, userId });

async function say(bot: BotHarness, source: TestSource, text: string, mentioned = false): Promise<RecordedSend[]> {
  const message = mentioned ? mentionText("slipline", text) : { text, mentionees: undefined };
  return bot.exchange([
    textEvent({
      source,
      replyToken: bot.token(chatIdOf(source)),
      text: message.text,
      ...(message.mentionees === undefined ? {} : { mentionees: message.mentionees }),
    }),
  ]);
}

const said = (sent: readonly RecordedSend[]): string => shownText(sent.flatMap((s) => s.messages));

describe("with the staff lists set", () => {
  let bot: BotHarness;
  beforeAll(async () => {
    bot = await startBotHarness({ settings: { ...staffLists, defaultLang: "en" } });
  });
  afterAll(async () => {
    await bot.close();
  });

  it("staff in a 1:1 chat: history and balance, any PromptPay id, a typo gets 'did you mean', a greeting the menu", async () => {
    expect(said(await say(bot, dm(OWNER), "history 7d"))).toMatch(/Slip checks[\s\S]*Page 1 of/);
    expect(said(await say(bot, dm(OWNER), "โทเคน"))).toMatch(/ร้านกาแฟดีใจ[\s\S]*Pro/);
    expect(said(await say(bot, dm(OWNER), "ยอดเมื่อวาน"))).toMatch(/สรุปยอด[\s\S]*เมื่อวาน[\s\S]*ยอดโอนเข้า/);
    expect(said(await say(bot, dm(CASHIER), "qr 0899999999 500"))).toMatch(/฿500\.00[\s\S]*089-xxx-9999/);
    const typo = await say(bot, dm(OWNER), "histroy");
    expect(said(typo)).toBe("Unknown command “histroy”. Did you mean “history”?");
    expect(quickReplyTexts(typo[0]?.messages ?? [])).toEqual(["history"]);
    const thaiTypo = await say(bot, dm(OWNER), "เชคยอด 150");
    expect(said(thaiTypo)).toBe("หมายถึง “เช็คยอด” หรือเปล่าคะ");
    expect(quickReplyTexts(thaiTypo[0]?.messages ?? [])).toEqual(["เช็คยอด"]);
    // The QR tap opens the keyboard with `คิวอาร์ ` typed (its postback is answered with where the amount goes).
    expect(quickReplyTaps((await say(bot, dm(OWNER), "สวัสดีค่ะ"))[0]?.messages ?? [])).toEqual([
      { shows: "คิวอาร์", sends: "quick:type qr th" },
      { shows: "ประวัติ", sends: "ประวัติ" },
      { shows: "ยอด", sends: "ยอด" },
      { shows: "ยอดเมื่อวาน", sends: "ยอดเมื่อวาน" },
      { shows: "โทเคน", sends: "โทเคน" },
      { shows: "วิธีใช้", sends: "วิธีใช้" },
    ]);
  });

  it("a staff group: everyone in it is staff, even without a user id", async () => {
    expect(said(await say(bot, inGroup(STAFF_GROUP, CUSTOMER), "balance"))).toMatch(/ร้านกาแฟดีใจ/);
    expect(said(await say(bot, inGroup(STAFF_GROUP), "ประวัติ"))).toMatch(/ประวัติตรวจสลิป/);
    expect(said(await say(bot, inGroup(STAFF_GROUP), "เช็คสลิป เมื่อวาน"))).toMatch(/ประวัติตรวจสลิป[\s\S]*เมื่อวาน/);
    // A near miss gets "did you mean" in a group too, when the bot is mentioned.
    expect(said(await say(bot, inGroup(STAFF_GROUP, OWNER), "ประวัต", true))).toBe("หมายถึง “ประวัติ” หรือเปล่าคะ");
    expect(await say(bot, inGroup(STAFF_GROUP, OWNER), "ประวัต")).toEqual([]);
  });

  it("a customer in a 1:1 chat: private commands thanked once and shown nothing, QR only to the shop, one friendly note, silence for stickers and photos", async () => {
    // To a customer a staff command's words are talk ("I paid, please check"): thanks, once, then quiet.
    const thanks = said(await say(bot, dm(CUSTOMER), "history"));
    expect(thanks).toBe("Thank you 🙏 The shop will check and reply soon.");
    for (const text of ["ยอด", "balance", "history yesterday fraud"]) expect(await say(bot, dm(CUSTOMER), text), text).toEqual([]);
    expect(said(await say(bot, dm(CUSTOMER), "คิวอาร์ 150"))).toMatch(/฿150\.00[\s\S]*081-xxx-5678/);
    expect(said(await say(bot, dm(CUSTOMER), "qr 0812345678 99"))).toMatch(/฿99\.00/); // the shop's own id, spelled out
    const scam = said(await say(bot, dm(CUSTOMER), "qr 0899999999 500"));
    expect(scam).toMatch(/only make QR codes that pay this shop/);
    expect(scam).not.toMatch(/089|฿500/);
    expect(bot.logs.entries().some((e) => e.msg === "a QR to another PromptPay id was asked for where customers see it; refused")).toBe(true);

    const note = said(await say(bot, dm(OTHER_CUSTOMER), "โอนแล้วค่ะ"));
    expect(note).toMatch(/ทางร้านจะรีบตอบกลับ[\s\S]*กดปุ่ม “จ่ายด้วย QR” ด้านล่าง/);
    expect(note).not.toMatch(/ไม่รู้จักคำสั่ง|Unknown command|ประวัติ|history/);
    for (const words of ["สวัสดี", "🙏", "ส่งวันไหนคะ?"]) expect(await say(bot, dm(OTHER_CUSTOMER), words)).toEqual([]);
    const quiet = await bot.exchange([
      stickerEvent({ source: dm(OTHER_CUSTOMER), replyToken: bot.token(OTHER_CUSTOMER) }),
      imageEvent({ source: dm(OTHER_CUSTOMER), replyToken: bot.token(OTHER_CUSTOMER) }),
    ]);
    expect(quiet).toEqual([]);
  });

  it("a customer's help shows only how to pay; following the OA greets them as a customer", async () => {
    const help = said(await say(bot, dm(CUSTOMER), "help"));
    expect(help).toMatch(/qr 150[\s\S]*send the slip in this chat/);
    expect(help).not.toMatch(/history|balance|token/i);
    const greeting = await bot.exchange([followEvent({ source: dm(lineId("U", 0x399)), replyToken: bot.token(lineId("U", 0x399)) })]);
    expect(said(greeting)).toMatch(/thanks for adding us[\s\S]*qr 150/i);
    expect(quickReplyTaps(greeting[0]?.messages ?? [])).toEqual([
      { shows: "qr", sends: "qr" },
      { shows: "How to pay", sends: "help" },
    ]);
  });

  it("a customer's menu taps: 'contact the shop' says staff will answer and keeps the bot out of the next message; 'pay by QR' says to add the amount", async () => {
    const customer = lineId("U", 0x305);
    const tap = (data: string) => bot.exchange([postbackEvent({ source: dm(customer), replyToken: bot.token(customer), data })]);
    expect(said(await tap("menu:type qr"))).toBe("พิมพ์ยอดเงินต่อท้ายได้เลยค่ะ เช่น “คิวอาร์ 150” แล้วกดส่งนะคะ");
    expect(said(await tap("ติดต่อร้าน"))).toBe("พิมพ์ข้อความถึงร้านได้เลยค่ะ พนักงานจะรีบตอบในแชทนี้นะคะ 🙏");
    // What they write next is for a person: the bot stays quiet (without the tap, it would send its note).
    expect(await say(bot, dm(customer), "อยากสอบถามเรื่องออเดอร์ค่ะ")).toEqual([]);
    expect(said(await say(bot, dm(lineId("U", 0x306)), "อยากสอบถามเรื่องออเดอร์ค่ะ"))).not.toBe("");
  });

  it("a customer group: bare command words are talk; a qr with its amount is answered; staff asking get a pointer", async () => {
    for (const text of ["เมนู", "?", "help", "ยอด", "h", "history", "จ่าย", "สลิป", "จ่ายเงิน", "คำสั่ง", "สลิปค่ะ", "ยอดเมื่อวานดีมาก"]) {
      expect(await say(bot, inGroup(MIXED_GROUP, CUSTOMER), text), text).toEqual([]);
      expect(await say(bot, inGroup(MIXED_GROUP, OWNER), text), text).toEqual([]);
    }
    expect(said(await say(bot, inGroup(MIXED_GROUP, CUSTOMER), "เมนู", true))).toMatch(/ชำระเงินด้วย QR พร้อมเพย์/);
    expect(said(await say(bot, inGroup(MIXED_GROUP, CUSTOMER), "qr 150"))).toMatch(/฿150\.00/);
    const pointer = said(await say(bot, inGroup(MIXED_GROUP, OWNER), "history today"));
    expect(pointer).toBe("Please ask me for the shop's data in our 1:1 chat or in the staff group.");
    expect(said(await say(bot, inGroup(MIXED_GROUP, OWNER), "ยอด", true))).toMatch(/แชทส่วนตัว/);
    expect(said(await say(bot, inGroup(MIXED_GROUP, CUSTOMER), "ยอด", true))).toBe("ขอบคุณค่ะ 🙏 ทางร้านจะตรวจสอบแล้วรีบตอบกลับนะคะ");
    // The owner learns a new group's id there, to list it as a staff group.
    expect(said(await say(bot, inGroup(MIXED_GROUP, OWNER), "id"))).toContain(MIXED_GROUP);
    // A paging button forwarded into the group shows nothing either.
    const tap = await bot.exchange([postbackEvent({ source: inGroup(MIXED_GROUP, OWNER), replyToken: bot.token(MIXED_GROUP), data: "history 7d page 2" })]);
    expect(said(tap)).toMatch(/1:1 chat or in the staff group/);
    const joined = await bot.exchange([joinEvent({ source: inGroup(lineId("C", 0x398)), replyToken: bot.token(lineId("C", 0x398)) })]);
    expect(quickReplyTaps(joined[0]?.messages ?? [])).toEqual([
      { shows: "qr", sends: "qr" },
      { shows: "How to pay", sends: "help" },
    ]);
  });
});

describe("a customer walking through a group with the shop's staff", () => {
  let bot: BotHarness;
  afterEach(async () => {
    await bot.close();
  });

  it("never sees a payer's name, an amount from history, a token figure or the package, whatever anyone types there", async () => {
    bot = await startBotHarness({ settings: staffLists });
    // Everything private the service holds for this shop: every payer's name and every history amount.
    const names = new Set<string>();
    const amounts = new Set<string>();
    for (let page = 1; page <= 200; page++) {
      const { items, pagination } = await bot.slip.slipHistory({ limit: 100, page });
      for (const item of items) {
        if (item.senderName !== null) names.add(item.senderName);
        if (item.amount !== null) amounts.add(formatMoney(item.amount));
      }
      if (page >= pagination.pages) break;
    }
    const account = await bot.slip.accountInfo();
    expect(names.size).toBeGreaterThan(100);

    const customerLines = [
      "h",
      "history",
      "ประวัติ วันนี้",
      "balance",
      "info",
      "ยอด",
      "ยอดคงเหลือ",
      "เครดิต",
      "tokens",
      "เมนู",
      "?",
      "help",
      "qr 123.45",
      "qr 0899999999 123.45",
      "คิวอาร์",
      "โอนแล้วค่ะ",
      "สวัสดีค่ะ",
      "ประวัติ 7วัน",
      "history ref 1",
      "slips",
    ];
    const staffLines = ["history today", "ประวัติ", "ยอด", "balance", "history 7d fraud", "h yesterday", "info"];
    const inMixed = inGroup(MIXED_GROUP, CUSTOMER);
    const staffInMixed = inGroup(MIXED_GROUP, OWNER);
    for (const line of customerLines) {
      await say(bot, inMixed, line);
      await say(bot, inMixed, line, true);
    }
    for (const line of staffLines) {
      await say(bot, staffInMixed, line);
      await say(bot, staffInMixed, line, true);
    }
    await bot.exchange([postbackEvent({ source: staffInMixed, replyToken: bot.token(MIXED_GROUP), data: "ประวัติ 7วัน หน้า 2" })]);
    await bot.exchange([postbackEvent({ source: inMixed, replyToken: bot.token(MIXED_GROUP), data: "history ref 1" })]);

    const seen = bot.platform.sent.filter((s) => s.chatId === MIXED_GROUP);
    expect(seen.length).toBeGreaterThan(10); // the group did hear answers: QR codes, help, pointers, refusals
    const everything = JSON.stringify(seen.map((s) => s.messages));
    for (const name of names) expect(everything).not.toContain(name);
    for (const amount of amounts) expect(everything).not.toContain(amount);
    expect(everything).not.toContain(account.tokens.toLocaleString("en-US", { minimumFractionDigits: 2 }));
    expect(everything).not.toMatch(new RegExp(`\\b${account.packageName}\\b`));
    expect(everything).not.toMatch(/โทเคน|tokens? left|แพ็กเกจ|package/i);
    // ...while the staff group, asked the same, shows the data.
    expect(said(await say(bot, inGroup(STAFF_GROUP, OWNER), "history 7d"))).toMatch(/Page 1 of|หน้า 1 จาก/);
  });

  it("with no staff listed, shows nothing private to anyone and gives the owner the set-up steps with the id", async () => {
    bot = await startBotHarness({ settings: { staffUserIds: new Set(), staffGroupIds: new Set(), defaultLang: "en" } });
    const reply = said(await say(bot, dm(OWNER), "balance"));
    expect(reply).toBe("Thank you 🙏 The shop will check and reply soon.");
    expect(reply).not.toMatch(/ร้านกาแฟดีใจ|Pro|token/);
    expect(said(await say(bot, dm(OWNER), "id"))).toMatch(new RegExp(`${OWNER}\\nNo staff are set up yet[\\s\\S]*staff list`));
    // A customer still gets a QR to the shop.
    expect(said(await say(bot, dm(CUSTOMER), "qr 150"))).toMatch(/฿150\.00/);
  });

  it("tells a customer whose QR the service cannot make only to ask the staff, never that the package expired", async () => {
    bot = await startBotHarness({ settings: staffLists, slip: { shop: "expired" } });
    const customer = said(await say(bot, dm(CUSTOMER), "คิวอาร์ 150"));
    expect(customer).toMatch(/ทางร้านจะส่งช่องทางชำระเงินให้/);
    expect(customer).not.toMatch(/แพ็กเกจ|หมดอายุ|package|expired/i);
    expect(said(await say(bot, dm(OWNER), "คิวอาร์ 150"))).toMatch(/หมดอายุ/);
  });
});
