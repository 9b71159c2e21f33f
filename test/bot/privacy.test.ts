// The two ways the shop's private data once reached customers, as named regressions, through the real bot
// process in LINE mode: a staff member working in a group that customers are in (not a staff group) gets
// what a customer gets there. A payment watch is never set up there, so a payer's name is never pushed to
// it; and the service's failures (an expired package, a wrong API secret) and a missing PROMPTPAY_ID are
// told there in the customers' words, with no setting named.
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedSend } from "@slipline/line-stand-in";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import { killLeftovers } from "../kit/entry-process.js";
import { sendSigned, startBot, startWorld, waitUntil, whenReady } from "../kit/loopback-world.js";
import type { World } from "../kit/loopback-world.js";
import { shownText } from "../kit/messages.js";
import { lineId, textEvent, webhookBody } from "../kit/webhook.js";

const STAFF = lineId("U", 0x9a1);
const SHOP_AND_CUSTOMERS = lineId("C", 0x9a2);
const PAYER = "นางสาว ลับเฉพาะ จ่ายจริง";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function world(): Promise<World> {
  const started = await startWorld(0, { devRoutes: true });
  cleanups.push(() => started.close());
  return started;
}

/** Sends `text` from the staff member in `chat` (1:1 when it is the staff's own id) and waits for the bot's answer. */
async function say(w: World, webhookUrl: string, chat: string, text: string): Promise<RecordedSend[]> {
  const source = chat === STAFF ? { type: "user" as const, userId: STAFF } : { type: "group" as const, groupId: chat, userId: STAFF };
  const mark = w.platform.sent.length;
  const body = webhookBody([textEvent({ source, replyToken: w.platform.issueReplyToken(chat), text })]);
  expect(await sendSigned(webhookUrl, body)).toBe(200);
  await waitUntil(() => w.platform.sent.length > mark, 15_000);
  return w.platform.sent.slice(mark);
}

const postbacksIn = (sends: readonly RecordedSend[]): string[] => JSON.stringify(sends.map((s) => s.messages)).match(/"data":"[^"]*"/g) ?? [];

describe("a staff member in a group with customers", { timeout: 120_000 }, () => {
  it("makes a QR there without a check-payment button, and the payment is never pushed there with the payer's name", async () => {
    const w = await world();
    const bot = await startBot(w, { STAFF_USER_IDS: STAFF, WATCH_PAYMENTS_MINUTES: "30" });
    await whenReady(bot);

    const inGroup = await say(w, bot.webhookUrl, SHOP_AND_CUSTOMERS, "qr 150");
    expect(inGroup.flatMap((s) => s.messages.map((m) => m.type))).toEqual(["flex", "image"]);
    expect(postbacksIn(inGroup)).toEqual([]);
    // The same QR in the staff member's own chat: the button, and a watch.
    const inPrivate = await say(w, bot.webhookUrl, STAFF, "qr 150");
    expect(postbacksIn(inPrivate).join()).toMatch(/150/);

    // Two transfers of 150: if the group's QR had a watch, it (the older) would take the first.
    for (const n of [1, 2]) {
      const res = await fetch(`${w.sandbox.url}/dev/payments`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ amount: 150, senderName: `${PAYER} ${n}` }),
      });
      expect(res.status).toBe(200);
    }
    // The staff chat's push is the barrier: the watch poll that sends it has judged every watch.
    await waitUntil(() => w.platform.sent.some((s) => s.kind === "push" && s.chatId === STAFF), 60_000);
    expect(w.platform.sent.filter((s) => s.kind === "push").map((s) => s.chatId)).toEqual([STAFF]);
    const toGroup = w.platform.sent
      .filter((s) => s.chatId === SHOP_AND_CUSTOMERS)
      .map((s) => shownText(s.messages))
      .join("\n");
    expect(toGroup).not.toContain(PAYER);
    expect(await bot.process.stop(15_000)).toBe(0);
  });

  it("hears the service's failures and a missing PROMPTPAY_ID in the customers' words, naming no setting", async () => {
    const w = await world();
    // The shop's package has expired, and no default PromptPay id is set.
    const expired = await startBot(w, { STAFF_USER_IDS: STAFF, SLIP_API_SECRET: DEMO_SECRETS.expired, PROMPTPAY_ID: "" });
    await whenReady(expired);
    const noId = shownText((await say(w, expired.webhookUrl, SHOP_AND_CUSTOMERS, "qr 150")).flatMap((s) => s.messages));
    const expiredPackage = shownText((await say(w, expired.webhookUrl, SHOP_AND_CUSTOMERS, "qr 0812345678 150")).flatMap((s) => s.messages));
    // In private, the staff member hears the truth.
    const privately = shownText((await say(w, expired.webhookUrl, STAFF, "qr 0812345678 150")).flatMap((s) => s.messages));
    expect(await expired.process.stop(15_000)).toBe(0);

    // A wrong API secret.
    const wrongSecret = await startBot(w, { STAFF_USER_IDS: STAFF, SLIP_API_SECRET: "not-the-shop-secret" });
    await whenReady(wrongSecret);
    const unauthorized = shownText((await say(w, wrongSecret.webhookUrl, SHOP_AND_CUSTOMERS, "qr 0812345678 150")).flatMap((s) => s.messages));
    expect(await wrongSecret.process.stop(15_000)).toBe(0);

    for (const said of [noId, expiredPackage, unauthorized]) {
      expect(said).not.toMatch(/[A-Z]+_[A-Z_]+/); // no setting's name
      expect(said).not.toMatch(/package|แพ็กเกจ|expired|หมดอายุ|renew|ต่ออายุ/i);
      expect(said).toMatch(/ทางร้านจะส่งช่องทางชำระเงินให้|the shop will send you a way to pay/); // what a customer hears: the shop will answer
      expect(said).toMatch(/แชตส่วนตัว|แชทส่วนตัว|1:1 chat/); // and, for the staff member, where to ask
    }
    expect(privately).toMatch(/แพ็กเกจ|package/);
  });
});
