// WATCH_PAYMENTS_MINUTES end to end: a staff QR's amount paid after the QR is pushed to that staff chat;
// a customer's QR is never watched, so no payer's name reaches a customer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { shownText } from "../kit/messages.js";
import { lineId, textEvent } from "../kit/webhook.js";

/** 11:00 in Bangkok on 20 November 2026. */
let clock = new Date("2026-11-20T04:00:00.000Z");
const OWNER = lineId("U", 0x901);
const CUSTOMER = lineId("U", 0x902);

let bot: BotHarness;
beforeAll(async () => {
  bot = await startBotHarness({
    now: () => clock,
    sandboxDevRoutes: true,
    alerts: { watchMinutes: 30 },
    settings: { staffUserIds: new Set([OWNER]), defaultLang: "en" },
  });
});
afterAll(async () => {
  await bot.close();
});

const later = (minutes: number): void => {
  clock = new Date(clock.getTime() + minutes * 60_000);
};
const say = (userId: string, text: string) => bot.exchange([textEvent({ source: { type: "user", userId }, replyToken: bot.token(userId), text })]);
const pay = async (amount: number): Promise<void> => {
  const res = await fetch(`${bot.slipUrl}/dev/payments`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ amount, senderName: "นาย สมชาย ใจดี" }),
  });
  expect(res.status).toBe(200);
};
async function tick(): Promise<string[]> {
  const mark = bot.platform.sent.length;
  await bot.notifier?.tick();
  return bot.platform.sent.slice(mark).map((s) => `${s.kind} ${s.chatId === OWNER ? "owner" : s.chatId === CUSTOMER ? "customer" : s.chatId}: ${shownText(s.messages)}`);
}

describe("the payment watch", { timeout: 60_000 }, () => {
  it("pushes '฿444.00 received' to the staff chat that made the QR, once", async () => {
    const [qr] = await say(OWNER, "qr 0812345678 444");
    expect(qr?.messages.some((m) => m.type === "image")).toBe(true);
    later(1);
    expect(await tick()).toEqual([]);
    later(1);
    await pay(444);
    later(1);
    expect(await tick()).toEqual(["push owner: ✅ ฿444.00 received from นาย สมชาย ใจดี at 11:02."]);
    later(1);
    expect(await tick()).toEqual([]);
  });

  it("says it in Thai for a QR asked for in Thai: 446 บาท, the time with น.", async () => {
    later(10);
    await say(OWNER, "คิวอาร์ 0812345678 446");
    later(1);
    await pay(446);
    later(1);
    expect(await tick()).toEqual([expect.stringMatching(/^push owner: ✅ ยอด 446 บาท จาก นาย สมชาย ใจดี เข้าแล้วค่ะ \(\d{2}:\d{2} น\.\)$/u)]);
  });

  it("does not watch a customer's QR", async () => {
    later(10);
    const [qr] = await say(CUSTOMER, "qr 555");
    expect(qr?.messages.some((m) => m.type === "image")).toBe(true);
    later(1);
    await pay(555);
    later(1);
    expect(await tick()).toEqual([]);
  });
});
