// A staff group removed by the same reload that builds its shop anew (here an `accountCacheSeconds` change,
// as a secret rotation or a slip setting would): whatever of the old shop is still under way, an event, a
// payment watch's push, a reply or push being tried again, judges by the staff lists of the moment, so
// nothing with payer names reaches the group once the reload is applied.
import type { ServerResponse } from "node:http";
import { startSandbox, DEMO_SECRETS } from "@slipline/slip-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { sendJson, startFaultServer } from "../kit/fault-server.js";
import type { FaultServer, RecordedRequest } from "../kit/fault-server.js";
import { shownText } from "../kit/messages.js";
import { lineId, textEvent } from "../kit/webhook.js";

const OWNER = lineId("U", 0x3901);
const GROUP = lineId("C", 0x3902);
const STAFF_BEFORE = { staffUserIds: new Set([OWNER]), staffGroupIds: new Set([GROUP]) };
/** The reload's lists: the owner stays staff, the group is no longer a staff place. */
const STAFF_AFTER = { staffUserIds: new Set([OWNER]), staffGroupIds: new Set<string>() };
const REPLY = "/v2/bot/message/reply";
/** The history card's public fallback, in the shop's language. */
const ASK_IN_PRIVATE = "Please ask me for the shop's data in our 1:1 chat or in the staff group.";
const CARD = "(the history card)";
const PUSH = "/v2/bot/message/push";

/** A gate the test opens: `arrived` resolves when something reaches it, `open()` lets it through. */
function gate(): { arrived: Promise<void>; reached(): void; passed: Promise<void>; open(): void } {
  let reached = (): void => undefined;
  let open = (): void => undefined;
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  const passed = new Promise<void>((resolve) => (open = resolve));
  return { arrived, reached, passed, open };
}

const inGroup = (text: string, replyToken: string) => textEvent({ source: { type: "group", groupId: GROUP, userId: OWNER }, replyToken, text });

/** The answers the send boundary stopped, and what went instead. */
const blocked = (bot: BotHarness) =>
  bot.logs
    .entries()
    .filter((e) => e.msg === "privacy_blocked")
    .map((e) => `${String(e.kind)} -> ${String(e.instead)}`);

describe("with the LINE stand-in: an event mid-handling and a payment watch", { timeout: 60_000 }, () => {
  let clock = new Date("2026-11-20T04:00:00.000Z");
  let history = gate();
  let holdHistory = false;
  let bot: BotHarness;
  let service: FaultServer;
  let closeSandbox: () => Promise<void> = () => Promise.resolve();
  beforeAll(async () => {
    const sandbox = await startSandbox({ now: () => clock, devRoutes: true });
    closeSandbox = () => sandbox.close();
    // The slip service, held by the test: the history call waits at the gate, then the sandbox answers it.
    service = await startFaultServer(async (request: RecordedRequest, res: ServerResponse) => {
      if (holdHistory && request.url.startsWith("/api/slip-history")) {
        history.reached();
        await history.passed;
      }
      const answer = await fetch(`${sandbox.url}${request.url}`, {
        method: request.method,
        headers: { authorization: String(request.headers.authorization), "content-type": "application/json" },
        ...(request.method === "GET" ? {} : { body: request.body }),
      });
      // Its QR image links name the sandbox; as this service's own they pass the bot's check of their origin.
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
      res.end((await answer.text()).replaceAll(sandbox.url, service.url));
    });
    bot = await startBotHarness({
      now: () => clock,
      slip: { baseUrl: service.url, apiSecret: DEMO_SECRETS.shop },
      alerts: { watchMinutes: 30 },
      settings: { ...STAFF_BEFORE, defaultLang: "en" },
      expectPrivacyBlocks: true,
    });
  });
  afterAll(async () => {
    history.open();
    await bot.close();
    await service.close();
    await closeSandbox();
  });

  it("a history asked before the reload and answered after it: no card reaches the group, only its public fallback or nothing", async () => {
    // Before: the group is a staff place and gets the card.
    const [card] = await bot.exchange([inGroup("history 7d", bot.token(GROUP))]);
    expect(shownText(card?.messages ?? [])).toMatch(/Slip checks/);

    history = gate();
    holdHistory = true;
    const mark = bot.platform.sent.length;
    expect((await bot.post([inGroup("history 7d", bot.token(GROUP))])).status).toBe(200);
    await history.arrived;
    expect(await bot.reloadStaff(STAFF_AFTER, { rebuild: true })).toMatchObject({ changed: ["default"] });
    history.open();
    await bot.drain();
    holdHistory = false;

    const toGroup = bot.platform.sent.slice(mark).filter((sent) => sent.chatId === GROUP);
    expect(toGroup.map((sent) => shownText(sent.messages)).join("\n")).not.toMatch(/Slip checks/);
    expect(blocked(bot)).toEqual(["history -> ask_in_private"]);
    expect(toGroup.map((sent) => `${sent.kind}: ${shownText(sent.messages)}`)).toEqual([`reply: ${ASK_IN_PRIVATE}`]);
  });

  it("a payment watched for the group before the reload: the retired shop's pushes stop, and no '฿… received' reaches the group", async () => {
    await bot.reloadStaff(STAFF_BEFORE, { rebuild: true });
    const shopNow = (): NonNullable<ReturnType<BotHarness["deployment"]["shops"]["byId"]>> => {
      const shop = bot.deployment.shops.byId("default");
      if (shop === undefined) throw new Error("the shop is not served");
      return shop;
    };
    const watching = shopNow();
    const [qr] = await bot.exchange([inGroup("qr 0812345678 177", bot.token(GROUP))]);
    expect(qr?.messages.some((m) => m.type === "image")).toBe(true);

    await bot.reloadStaff(STAFF_AFTER, { rebuild: true });
    expect(shopNow()).not.toBe(watching);
    clock = new Date(clock.getTime() + 60_000);
    const paid = await fetch(`${service.url}/dev/payments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 177, senderName: "CAROL CUSTOMER" }),
    });
    expect(paid.status).toBe(200);
    clock = new Date(clock.getTime() + 60_000);
    const mark = bot.platform.sent.length;
    const blockedBefore = blocked(bot).length;
    // The retired shop's notifier (a timer may still fire it) and the shop served now each take a turn.
    await watching.notifier?.tick();
    await shopNow().notifier?.tick();
    expect(bot.platform.sent.slice(mark).map((sent) => `${sent.kind} ${sent.chatId === GROUP ? "group" : sent.chatId}: ${shownText(sent.messages)}`)).toEqual([]);
    // Not even tried: the retired notifier does nothing, and the shop served now has no watch for the group.
    expect(blocked(bot).slice(blockedBefore)).toEqual([]);
  });
});

describe("with LINE answering 500 or 429 first: retries and the push after a failed reply", { timeout: 60_000 }, () => {
  let line: FaultServer;
  let bot: BotHarness;
  let clock = new Date("2026-11-20T04:00:00.000Z");
  beforeAll(async () => {
    line = await startFaultServer((_request, res) => sendJson(res, 200, {}));
    bot = await startBotHarness({
      now: () => clock,
      lineBaseUrl: line.url,
      sandboxDevRoutes: true,
      alerts: { watchMinutes: 30 },
      settings: { ...STAFF_BEFORE, defaultLang: "en" },
      expectPrivacyBlocks: true,
    });
  });
  afterAll(async () => {
    await bot.close();
    await line.close();
  });

  /**
   * LINE answers each call of `path` in turn from `answers` (the last repeats), the `holdAt`-th one only once
   * the gate is open; other calls 200. Returns this test's calls of every path.
   */
  function scriptLine(path: string, answers: [number, unknown, Record<string, string>?][], holdAt: number, held: ReturnType<typeof gate>): () => RecordedRequest[] {
    const from = line.count;
    let n = 0;
    line.script(async (request, res) => {
      if (request.url !== path) return sendJson(res, 200, {});
      n += 1;
      if (n === holdAt) {
        held.reached();
        await held.passed;
      }
      const [status, body, headers] = answers[Math.min(n, answers.length) - 1] ?? [200, {}];
      sendJson(res, status, body, headers);
    });
    return () => line.requests.slice(from);
  }
  /** What each call to LINE carried: the card (by its first words) or the text. */
  const sentTexts = (calls: RecordedRequest[]): string[] =>
    calls.map((call) => {
      const body = JSON.parse(call.body) as { to?: string; messages: Parameters<typeof shownText>[0] };
      const kind = call.url === REPLY ? "reply" : `push${body.to === GROUP ? "" : ` to ${String(body.to)}`}`;
      const [first] = body.messages;
      return `${kind}: ${first?.type === "flex" && first.altText.startsWith("Slip checks") ? CARD : shownText(body.messages)}`;
    });

  it("a reply answered 429 (Retry-After) while the reload lands: its retry is judged again and not sent; the public fallback goes instead or nothing", async () => {
    await bot.reloadStaff(STAFF_BEFORE, { rebuild: true });
    const held = gate();
    const calls = scriptLine(
      REPLY,
      [
        [429, { message: "rate limited" }, { "retry-after": "1" }],
        [200, {}],
      ],
      1,
      held,
    );
    expect((await bot.post([inGroup("history 7d", "line-issued-reply-token-429")])).status).toBe(200);
    await held.arrived;
    await bot.reloadStaff(STAFF_AFTER, { rebuild: true });
    held.open();
    await bot.drain();
    // One reply (the one held), no retry of the card, no push of it.
    // The held reply carried the card; its retry did not go, and the public fallback was pushed instead.
    expect(sentTexts(calls())).toEqual([`reply: ${CARD}`, `push: ${ASK_IN_PRIVATE}`]);
  });

  it("a reply that fails every attempt while the reload lands: the push that would replace it is judged again and not sent", async () => {
    await bot.reloadStaff(STAFF_BEFORE, { rebuild: true });
    const held = gate();
    const calls = scriptLine(REPLY, [[500, { message: "Internal error" }]], 4, held);
    expect((await bot.post([inGroup("history 7d", "line-issued-reply-token-500")])).status).toBe(200);
    await held.arrived;
    await bot.reloadStaff(STAFF_AFTER, { rebuild: true });
    held.open();
    await bot.drain();
    // Four tries of the reply while the group was staff; the push that replaces a failed reply is the public fallback.
    expect(sentTexts(calls())).toEqual([`reply: ${CARD}`, `reply: ${CARD}`, `reply: ${CARD}`, `reply: ${CARD}`, `push: ${ASK_IN_PRIVATE}`]);
  });

  it("a watched payment's push answered 500 while the reload lands: its retry is not sent to the group", async () => {
    await bot.reloadStaff(STAFF_BEFORE, { rebuild: true });
    const shop = bot.deployment.shops.byId("default");
    line.script((_request, res) => sendJson(res, 200, {}));
    await bot.exchange([inGroup("qr 0812345678 178", "line-issued-reply-token-qr")]);
    clock = new Date(clock.getTime() + 60_000);
    const paid = await fetch(`${bot.slipUrl}/dev/payments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 178, senderName: "CAROL CUSTOMER" }),
    });
    expect(paid.status).toBe(200);
    clock = new Date(clock.getTime() + 60_000);
    const held = gate();
    const calls = scriptLine(
      PUSH,
      [
        [500, { message: "Internal error" }],
        [200, {}],
      ],
      1,
      held,
    );
    // The tick that found the payment is under way (its push held at LINE) when the reload lands.
    const ticking = shop?.notifier?.tick();
    await held.arrived;
    await bot.reloadStaff(STAFF_AFTER, { rebuild: true });
    held.open();
    await ticking;
    const pushes = calls().filter((call) => call.url === PUSH);
    expect(pushes.map((call) => shownText((JSON.parse(call.body) as { messages: Parameters<typeof shownText>[0] }).messages))).toEqual([
      expect.stringMatching(/฿178\.00 received from CAROL/),
    ]);
    expect(blocked(bot).filter((line) => line.startsWith("payment_received"))).toEqual(["payment_received -> nothing"]);
  });
});
