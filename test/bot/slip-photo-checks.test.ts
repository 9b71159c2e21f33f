// What the staff read about a slip photo when the service's history says more than one thing: a slip
// checked three times (the first check, and how many came after: the duplicate trick), a service that
// answers more than the reference asked for, an expired package and an outage. The whole bot through signed
// webhooks (the kit's harness), the photo served by the LINE stand-in, the service scripted.
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { sendData, sendJson, startFaultServer } from "../kit/fault-server.js";
import type { FaultServer, RecordedRequest } from "../kit/fault-server.js";
import { shownText } from "../kit/messages.js";
import { slipPayload, slipScreenshot } from "../kit/slip-images.js";
import { imageEvent, lineId } from "../kit/webhook.js";

const STAFF = lineId("U", 0x5e1);
const REF = "016104141402ATF01234";
/** 17:00 in Bangkok on 14 April 2026: the checks below are today's. */
const NOW = new Date("2026-04-14T10:00:00.000Z");

const item = (over: Record<string, unknown>) => ({
  code: 200000,
  status: "valid",
  amount: 150,
  transRef: REF,
  transDate: "2026-04-14T07:01:30.000Z",
  senderName: "MR. NOK SAIJAI",
  receiverName: "SLIPLINE COFFEE",
  receiverAccount: "xxx-x-x5678-x",
  source: "line_oa_system",
  tokensCharged: 1,
  createdAt: "2026-04-14T07:02:00.000Z",
  ...over,
});

/** The service's history of the slip, newest first, with one check of another slip it should not have sent. */
const HISTORY = [
  item({ status: "duplicate", source: "line_group", createdAt: "2026-04-14T08:30:00.000Z" }),
  item({ transRef: "016104141455ATF09999", amount: 999, senderName: "SOMEONE ELSE", createdAt: "2026-04-14T08:00:00.000Z" }),
  item({ status: "duplicate", source: "api", createdAt: "2026-04-14T07:45:00.000Z" }),
  item({}),
];

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

async function botWith(script: (request: RecordedRequest, res: ServerResponse) => void): Promise<{ bot: BotHarness; service: FaultServer }> {
  const service = await startFaultServer(script);
  open.push(service);
  const bot = await startBotHarness({
    slip: { baseUrl: service.url, apiSecret: "slip-secret-for-tests" },
    slipRetries: 0,
    settings: { staffUserIds: new Set([STAFF]), defaultLang: "en" },
    now: () => NOW,
  });
  open.push(bot);
  return { bot, service };
}

async function sendSlip(bot: BotHarness): Promise<string> {
  const messageId = bot.platform.addMessageContent(await slipScreenshot({ qrText: slipPayload(REF) }), "image/png");
  const sends = await bot.exchange([imageEvent({ source: { type: "user", userId: STAFF }, replyToken: bot.token(STAFF), messageId })]);
  expect(sends.map((s) => [s.chatId, s.kind])).toEqual([[STAFF, "reply"]]);
  return shownText(sends[0]?.messages ?? []);
}

describe("a slip checked several times", { timeout: 60_000 }, () => {
  it("shows the first check, how many came after it and the latest's result, and only this slip's checks", async () => {
    const { bot, service } = await botWith((_request, res) => sendData(res, { items: HISTORY, pagination: { page: 1, limit: 100, total: 4, pages: 1 } }));
    const shown = await sendSlip(bot);
    expect(service.requests.map((r) => r.url)).toEqual([`/api/slip-history?limit=100&transRef=${REF}`]);
    for (const part of ["This slip was checked", "Valid", "฿150.00", "MR. NOK SAIJAI", "SLIPLINE COFFEE", "14:02", "LINE OA (system)", REF]) expect(shown).toContain(part);
    expect(shown).toContain("Checked 3 times; the first check is shown");
    expect(shown).toContain("2 more checks since; the latest: Duplicate 15:30");
    expect(shown).not.toContain("SOMEONE ELSE");
    expect(shown).not.toContain("฿999.00");
    // The log names the reference, never the names.
    const lookups = bot.logs.entries().filter((entry) => entry.msg === "slip photo looked up");
    expect(lookups.map((entry) => [entry.transRef, entry.checks])).toEqual([[REF, 3]]);
    expect(JSON.stringify(bot.logs.entries())).not.toContain("NOK SAIJAI");
  });
});

describe("the service failing", { timeout: 60_000 }, () => {
  it("an expired package (402) and an outage (503) are said plainly", async () => {
    let status = 402;
    const { bot } = await botWith((_request, res) => sendJson(res, status, { message: status === 402 ? "Package expired" : "Service Unavailable" }));
    expect(await sendSlip(bot)).toBe("The shop's slip-check package has expired. Please renew the package, then try again.");
    status = 503;
    expect(await sendSlip(bot)).toBe("The slip service is not answering right now. Please try again shortly.");
  });
});
