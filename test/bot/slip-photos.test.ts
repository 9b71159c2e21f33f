// A slip photo in the chat, through the real bot process in LINE mode: the LINE stand-in serves the photo's
// bytes on its data host, the sandbox answers the history by reference. Staff (1:1, staff group) get the
// slip's check as the service has it, "not checked yet", or "no slip QR could be read"; a customer is thanked
// and never sees the result, and the shop's opt-in push brings the lookup to the staff group, once per slip.
// The images are the kit's (a clean screenshot, a degraded phone photo, a photo with no QR, a payment QR).
import generatePayload from "promptpay-qr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import type { RecordedSend } from "@slipline/line-stand-in";
import { killLeftovers } from "../kit/entry-process.js";
import { sendSigned, startBot, startWorld, waitUntil } from "../kit/loopback-world.js";
import type { BotProcess, World } from "../kit/loopback-world.js";
import { shownText } from "../kit/messages.js";
import { phonePhoto, photoWithoutQr, qrImage, slipPayload, slipScreenshot } from "../kit/slip-images.js";
import { imageEvent, lineId, webhookBody } from "../kit/webhook.js";
import type { TestSource } from "../kit/webhook.js";

const STAFF = lineId("U", 0x5f1);
const CUSTOMER = lineId("U", 0x5f2);
const STAFF_GROUP = lineId("C", 0x5f3);
const MIXED_GROUP = lineId("C", 0x5f4);

/** A check as the sandbox has it: what the card must show. */
interface ServiceCheck {
  status: string;
  amount: number;
  transRef: string;
  senderName: string;
  receiverName: string;
  source: string;
}

/** The English words of the card, written out here (not read from the bot). */
const STATUS_WORDS: Record<string, string> = { valid: "Valid", invalid: "Invalid", fraud: "Fraud", duplicate: "Duplicate", not_found: "Not found", error: "Error" };
const SOURCE_WORDS: Record<string, string> = {
  api: "API",
  dashboard: "Dashboard",
  line_partner: "LINE partner",
  line_group: "LINE group",
  line_oa_system: "LINE OA (system)",
  line_oa_merchant: "LINE OA (shop)",
  facebook_page: "Facebook page",
};
const baht = (amount: number): string => `฿${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

let world: World;
let bot: BotProcess;
let checks: ServiceCheck[];

beforeAll(async () => {
  // The service answers each lookup in 400 ms: past the 300 ms after which a 1:1 chat is shown LINE's loading
  // animation, however fast the photo is read.
  world = await startWorld(400);
  bot = await startBot(world, {
    LINE_DATA_API_BASE_URL: world.platform.url,
    STAFF_USER_IDS: STAFF,
    STAFF_GROUP_IDS: STAFF_GROUP,
    BOT_LANG: "en",
    SLIP_PHOTO_PUSH: "1",
  });
  // The demo shop's checks, read from the sandbox itself: the slips the tests photograph.
  const res = await fetch(`${world.sandbox.url}/api/slip-history?limit=50`, { headers: { authorization: `Bearer ${DEMO_SECRETS.shop}` } });
  const body = (await res.json()) as { data: { items: ServiceCheck[] } };
  checks = body.data.items.filter((item) => item.senderName !== null && item.amount !== null);
}, 120_000);

afterAll(async () => {
  await killLeftovers();
  await world.close();
});

function check(n: number): ServiceCheck {
  const found = checks[n];
  if (found === undefined) throw new Error(`the sandbox has fewer than ${n + 1} checks`);
  return found;
}

/** Sends a photo from `source` (its bytes kept by the stand-in, as LINE keeps them) and waits for `answers` sends. */
async function sendPhoto(source: TestSource, image: Buffer, type: "image/png" | "image/jpeg", answers: number, chatId: string): Promise<RecordedSend[]> {
  const messageId = world.platform.addMessageContent(image, type);
  return sendEvent(source, messageId, answers, chatId);
}

async function sendEvent(source: TestSource, messageId: string, answers: number, chatId: string): Promise<RecordedSend[]> {
  const mark = world.platform.sent.length;
  const event = imageEvent({ source, replyToken: world.platform.issueReplyToken(chatId), messageId });
  expect(await sendSigned(bot.webhookUrl, webhookBody([event]))).toBe(200);
  await waitUntil(() => world.platform.sent.length >= mark + answers, 30_000);
  return world.platform.sent.slice(mark);
}

const staff1to1: TestSource = { type: "user", userId: STAFF };
const staffGroup: TestSource = { type: "group", groupId: STAFF_GROUP, userId: STAFF };

describe("a staff member's slip photo", { timeout: 120_000 }, () => {
  it("a clean screenshot in a 1:1 chat: the check as the service has it, with the loading animation meanwhile", async () => {
    const slip = check(0);
    const [reply] = await sendPhoto(staff1to1, await slipScreenshot({ qrText: slipPayload(slip.transRef) }), "image/png", 1, STAFF);
    expect(reply?.kind).toBe("reply");
    const shown = shownText(reply?.messages ?? []);
    expect(shown).toContain("This slip was checked");
    for (const part of [STATUS_WORDS[slip.status], baht(slip.amount), slip.senderName, slip.receiverName, SOURCE_WORDS[slip.source] ?? slip.source, slip.transRef]) {
      expect(shown).toContain(part);
    }
    // The lookup alone outlasts the 300 ms after which LINE's animation is asked for.
    expect(world.platform.loadings.map((l) => l.chatId)).toContain(STAFF);
  });

  it("a phone photo of a slip (turned, blurred, grainy JPEG) in the staff group: the same card", async () => {
    const slip = check(1);
    const [reply] = await sendPhoto(staffGroup, await phonePhoto({ qrText: slipPayload(slip.transRef) }), "image/jpeg", 1, STAFF_GROUP);
    const shown = shownText(reply?.messages ?? []);
    expect(shown).toContain("This slip was checked");
    expect(shown).toContain(baht(slip.amount));
    expect(shown).toContain(slip.senderName);
    expect(shown).toContain(slip.transRef);
  });

  it("a slip the service never checked: said plainly, with the reference and no result", async () => {
    const [reply] = await sendPhoto(staff1to1, await slipScreenshot({ qrText: slipPayload("2404149999000001") }), "image/png", 1, STAFF);
    const shown = shownText(reply?.messages ?? []);
    expect(shown).toContain("This slip has not been checked yet");
    expect(shown).toContain("2404149999000001");
    for (const word of Object.values(STATUS_WORDS)) expect(shown).not.toContain(word);
  });

  it("a photo without a QR, a PromptPay payment QR and a slip QR whose CRC is wrong: no slip read, the original asked for", async () => {
    const unreadable = "No slip QR could be read in this photo. Please send the original slip image (a screenshot from the bank app).";
    const [none] = await sendPhoto(staff1to1, await photoWithoutQr(), "image/jpeg", 1, STAFF);
    expect(shownText(none?.messages ?? [])).toBe(unreadable);
    const [payment] = await sendPhoto(staff1to1, await qrImage(generatePayload("0812345678", { amount: 150 })), "image/png", 1, STAFF);
    expect(shownText(payment?.messages ?? [])).toBe("This is a QR to pay with, not a slip's QR. Please send the slip image from after the transfer.");
    const good = slipPayload(check(2).transRef);
    const badCrc = `${good.slice(0, -1)}${good.endsWith("0") ? "1" : "0"}`;
    const [bad] = await sendPhoto(staff1to1, await qrImage(badCrc), "image/png", 1, STAFF);
    expect(shownText(bad?.messages ?? [])).toBe(unreadable);
  });

  it("LINE's content endpoint failing (500) or not knowing the photo (404): asked to send it again", async () => {
    const again = "Could not get this photo from LINE. Please send it again.";
    world.platform.failContent(500);
    try {
      const [failed] = await sendPhoto(staff1to1, await slipScreenshot({ qrText: slipPayload(check(0).transRef) }), "image/png", 1, STAFF);
      expect(shownText(failed?.messages ?? [])).toBe(again);
    } finally {
      world.platform.failContent(undefined);
    }
    const [unknown] = await sendEvent(staff1to1, "999999999999999999", 1, STAFF);
    expect(shownText(unknown?.messages ?? [])).toBe(again);
    expect(world.platform.contentRequests.filter((r) => r.messageId === "999999999999999999").map((r) => r.status)).toEqual([404]);
  });
});

describe("a customer's slip photo", { timeout: 120_000 }, () => {
  it("in a 1:1 chat: the customer is thanked and sees nothing of the check; the staff group gets the lookup, once per slip", async () => {
    const slip = check(3);
    const image = await slipScreenshot({ qrText: slipPayload(slip.transRef) });
    const sends = await sendPhoto({ type: "user", userId: CUSTOMER }, image, "image/png", 2, CUSTOMER);
    const toCustomer = sends.filter((s) => s.chatId === CUSTOMER);
    expect(toCustomer.map((s) => s.kind)).toEqual(["reply"]);
    const thanks = shownText(toCustomer[0]?.messages ?? []);
    for (const secret of [slip.senderName, slip.receiverName, slip.transRef, baht(slip.amount), STATUS_WORDS[slip.status] ?? slip.status]) expect(thanks).not.toContain(secret);
    const toStaff = sends.filter((s) => s.chatId === STAFF_GROUP);
    expect(toStaff.map((s) => s.kind)).toEqual(["push"]);
    expect(shownText(toStaff[0]?.messages ?? [])).toContain(`A customer sent a slip from ${slip.senderName}: ${baht(slip.amount)}, ${STATUS_WORDS[slip.status]}, checked `);

    // The same slip again: LINE takes the push's retry key once, so the staff group hears of it once.
    const duplicatesBefore = world.platform.duplicates.length;
    const sentBefore = world.platform.sent.length;
    const messageId = world.platform.addMessageContent(image, "image/png");
    const event = imageEvent({ source: { type: "user", userId: CUSTOMER }, replyToken: world.platform.issueReplyToken(CUSTOMER), messageId });
    expect(await sendSigned(bot.webhookUrl, webhookBody([event]))).toBe(200);
    await waitUntil(() => world.platform.duplicates.length > duplicatesBefore, 30_000);
    expect(world.platform.sent.slice(sentBefore).filter((s) => s.chatId === STAFF_GROUP)).toEqual([]);
  });

  it("in a group with customers: nothing said there; the staff group gets the lookup", async () => {
    const slip = check(4);
    const sends = await sendPhoto(
      { type: "group", groupId: MIXED_GROUP, userId: CUSTOMER },
      await phonePhoto({ qrText: slipPayload(slip.transRef) }),
      "image/jpeg",
      1,
      MIXED_GROUP,
    );
    // The push comes after whatever the group would have been told: none of it went to the group.
    expect(sends.map((s) => [s.chatId, s.kind])).toEqual([[STAFF_GROUP, "push"]]);
    expect(shownText(sends[0]?.messages ?? [])).toContain(baht(slip.amount));
  });
});
