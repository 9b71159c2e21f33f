// Why a second run of an answered event sends nothing, when nothing in Redis remembers the first (Redis
// came back empty, so the ledger and the delivery journal are gone, and the instance that stored the event
// stored it again): LINE takes a reply token once, and a push's X-Line-Retry-Key is remembered for a day.
// The queue hands such an event over with `mayHaveRunBefore` (and, storing each event id once, leaves the
// ledger out); within the token's life "Invalid reply token" then means the first run's reply went out.
// The real pipeline, outbox and LINE stand-in, in one process.
import { afterEach, describe, expect, it } from "vitest";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { handleEvent } from "../../src/event/handle-event.js";
import { DEFAULT_SHOP_ID } from "../../src/shops/shop.js";
import { lineId, textEvent } from "../kit/webhook.js";

let harness: BotHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const CUSTOMER = lineId("U", 0x5ec0);

/** The harness's one shop, and the event's one path, as the durable intake's workers call it. */
function handleNow(h: BotHarness, event: unknown, taken?: { mayHaveRunBefore: boolean }): Promise<void> {
  const shop = h.deployment.shops.byId(DEFAULT_SHOP_ID);
  if (shop === undefined) throw new Error("the harness has no shop");
  return handleEvent(shop, event, { via: "queue", mayHaveRunBefore: taken?.mayHaveRunBefore === true });
}
const MINUTE = 60_000;

describe("an answered event run a second time, with nothing in Redis to say so", () => {
  it("sends nothing more when its answer went by reply: the used token is refused and no push follows", async () => {
    harness = await startBotHarness();
    const event = textEvent({ source: { type: "user", userId: CUSTOMER }, replyToken: harness.token(CUSTOMER), text: "qr 150" });
    await handleNow(harness, event);
    expect(harness.platform.sent).toHaveLength(1);
    expect(harness.platform.sent[0]?.kind).toBe("reply");

    await handleNow(harness, event, { mayHaveRunBefore: true });
    expect(harness.platform.sent).toHaveLength(1);
    expect(harness.platform.rejected.map((r) => r.message)).toEqual(["Invalid reply token"]);
    const handled = harness.logs.entries().filter((entry) => entry.msg === "event handled");
    expect(handled.map((entry) => entry["delivery"])).toEqual([["reply"], ["earlier_run"]]);
  });

  it("sends nothing more when its answer went by push: the same retry key is answered 409", async () => {
    // The event is two minutes old: its token is past its life, so both runs push, with one retry key.
    let clock = Date.parse("2026-11-24T09:00:00Z");
    harness = await startBotHarness({ now: () => new Date(clock) });
    const event = textEvent({
      source: { type: "user", userId: CUSTOMER },
      replyToken: "expired-token-of-an-old-event",
      text: "qr 150",
      timestamp: clock - 2 * MINUTE,
    });
    await handleNow(harness, event);
    expect(harness.platform.sent.map((s) => s.kind)).toEqual(["push"]);

    clock += 5_000;
    await handleNow(harness, event, { mayHaveRunBefore: true });
    expect(harness.platform.sent).toHaveLength(1);
    expect(harness.platform.duplicates).toHaveLength(1);
    expect(harness.platform.duplicates[0]?.retryKey).toBe(harness.platform.sent[0]?.retryKey);
  });

  it("sends nothing from the queue when an in-process run spent the token (Redis took the event but answered too late)", async () => {
    harness = await startBotHarness();
    const event = textEvent({ source: { type: "user", userId: CUSTOMER }, replyToken: harness.token(CUSTOMER), text: "qr 150" });
    const shop = harness.deployment.shops.byId(DEFAULT_SHOP_ID);
    if (shop === undefined) throw new Error("the harness has no shop");
    await harness.deployment.intake.take(shop, [event]);
    await harness.drain();
    await handleNow(harness, event);
    expect(harness.platform.sent.map((s) => s.kind)).toEqual(["reply"]);
    expect(harness.platform.rejected.map((r) => r.message)).toEqual(["Invalid reply token"]);
  });
});
