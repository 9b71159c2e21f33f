// Summaries, "has it arrived?" and the token forecast, end to end in LINE mode at a fixed clock: the bot's
// figures against figures this test computes on its own from the sandbox's history over HTTP.
import type { messagingApi } from "@line/bot-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedSend } from "@slipline/line-stand-in";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { postbackData, quickReplyTaps, shownText } from "../kit/messages.js";
import { lineId, postbackEvent, textEvent } from "../kit/webhook.js";

/** 14:30 in Bangkok on Friday 20 November 2026, for the bot and its sandbox alike. */
let clock = new Date("2026-11-20T07:30:00.000Z");
const OWNER = lineId("U", 0x701);
const SHOP_SECRET = "demo-shop-secret";

let bot: BotHarness;
beforeAll(async () => {
  bot = await startBotHarness({
    now: () => clock,
    sandboxDevRoutes: true,
    settings: { staffUserIds: new Set([OWNER]), defaultLang: "en" },
  });
});
afterAll(async () => {
  await bot.close();
});

async function say(text: string): Promise<RecordedSend> {
  const sent = await bot.exchange([textEvent({ source: { type: "user", userId: OWNER }, replyToken: bot.token(OWNER), text })]);
  expect(sent).toHaveLength(1);
  return sent[0] as RecordedSend;
}

interface Item {
  status: string;
  amount: number | null;
  source: string;
  tokensCharged: number;
  createdAt: string;
}

/** Every item of the demo shop from `from` to `to` (Bangkok dates, both included), read page by page here. */
async function itemsBetween(from: string, to: string, status?: string): Promise<Item[]> {
  const items: Item[] = [];
  for (let page = 1; page <= 500; page++) {
    const query = new URLSearchParams({ from, to, limit: "100", page: String(page), ...(status === undefined ? {} : { status }) });
    const res = await fetch(`${bot.slipUrl}/api/slip-history?${query.toString()}`, { headers: { Authorization: `Bearer ${SHOP_SECRET}` } });
    const body = (await res.json()) as { data: { items: Item[]; pagination: { pages: number } } };
    items.push(...body.data.items);
    if (page >= body.data.pagination.pages) break;
  }
  return items;
}

const baht = (satang: number): string => `฿${(satang / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const count = (n: number): string => n.toLocaleString("en-US");
const satangOf = (items: readonly Item[]): number => items.reduce((sum, i) => sum + Math.round((i.amount ?? 0) * 100), 0);

/** The figures a summary must show, computed here from the items alone. */
function expected(items: readonly Item[]) {
  const valid = items.filter((i) => i.status === "valid");
  const byStatus = new Map<string, Item[]>();
  const bySource = new Map<string, Item[]>();
  for (const item of items) {
    byStatus.set(item.status, [...(byStatus.get(item.status) ?? []), item]);
    bySource.set(item.source, [...(bySource.get(item.source) ?? []), item]);
  }
  return {
    checks: items.length,
    valid: satangOf(valid),
    tokens: Math.round(items.reduce((sum, i) => sum + i.tokensCharged * 100, 0)) / 100,
    byStatus: [...byStatus].map(([status, list]) => ({ status, count: list.length, amount: satangOf(list) })),
    bySource: [...bySource].map(([source, list]) => ({ source, count: list.length, valid: satangOf(list.filter((i) => i.status === "valid")) })),
  };
}

/** The rows under a section title of the summary bubble: [label, count, amount]. */
function sectionRows(message: messagingApi.Message | undefined, title: string): string[][] {
  if (message?.type !== "flex") return [];
  const body = (message.contents as messagingApi.FlexBubble).body?.contents ?? [];
  const start = body.findIndex((c) => c.type === "text" && c.text === title);
  const rows: string[][] = [];
  for (const component of body.slice(start + 1)) {
    if (component.type !== "box") break;
    rows.push(component.contents.map((c) => (c.type === "text" ? (c.text ?? "") : "")));
  }
  return rows;
}

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

describe("summary, against figures computed here from the sandbox's history", { timeout: 60_000 }, () => {
  it.each([
    ["summary", "2026-11-20", "2026-11-20", undefined],
    ["summary yesterday", "2026-11-19", "2026-11-19", undefined],
    ["summary 7d", "2026-11-14", "2026-11-20", undefined],
    ["summary month", "2026-11-01", "2026-11-20", undefined],
    ["summary lastmonth fraud", "2026-10-01", "2026-10-31", "fraud"],
  ])("%s", async (text, from, to, status) => {
    const reply = await say(text);
    const figures = expected(await itemsBetween(from, to, status));
    expect(figures.checks).toBeGreaterThan(0);
    const [card] = reply.messages;
    const shown = shownText(reply.messages);
    expect(shown).toContain(`${count(figures.checks)} check`);
    expect(shown).toContain(baht(figures.valid));
    // Whole tokens without .00 (docs/thai.md: tokens).
    const tokens = Number.isInteger(figures.tokens)
      ? figures.tokens.toLocaleString("en-US")
      : figures.tokens.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(shown).toContain(`Tokens used: ${tokens}`);
    // The headline figures ride in the notification text too.
    expect(card?.type === "flex" ? card.altText : "").toMatch(new RegExp(`^Summary .+: ${count(figures.checks)} checks?, valid ${baht(figures.valid).replace(/[.$]/g, "\\$&")}$`));
    const statusRows = sectionRows(card, "By status");
    expect(statusRows).toHaveLength(figures.byStatus.length);
    for (const s of figures.byStatus) {
      expect(statusRows).toContainEqual([STATUS_WORDS[s.status], count(s.count), s.amount === 0 ? "–" : baht(s.amount)]);
    }
    const sourceRows = sectionRows(card, "By channel (valid amount)");
    expect(sourceRows).toHaveLength(figures.bySource.length);
    for (const s of figures.bySource) expect(sourceRows).toContainEqual([SOURCE_WORDS[s.source], count(s.count), baht(s.valid)]);
  });

  it("for a day, draws a bar per hour: the tallest bar is the busiest hour counted here", async () => {
    const reply = await say("summary");
    const items = await itemsBetween("2026-11-20", "2026-11-20");
    const perHour = Array.from({ length: 24 }, (_, h) => items.filter((i) => new Date(Date.parse(i.createdAt) + 7 * 3_600_000).getUTCHours() === h).length);
    const card = reply.messages[0] as messagingApi.FlexMessage;
    const body = (card.contents as messagingApi.FlexBubble).body?.contents ?? [];
    const chartIndex = body.findIndex((c) => c.type === "text" && c.text === "Per hour");
    const chart = body[chartIndex + 1];
    expect(chart?.type).toBe("box");
    const heights =
      chart?.type === "box"
        ? chart.contents.map((bar) => (bar.type === "box" ? Number(String(bar.contents[0]?.type === "box" ? bar.contents[0].height : "0").replace("px", "")) : 0))
        : [];
    expect(heights).toHaveLength(24);
    const busiest = perHour.indexOf(Math.max(...perHour));
    expect(heights[busiest]).toBe(Math.max(...heights));
    for (const [hour, n] of perHour.entries()) if (n === 0) expect(heights[hour]).toBe(1);
  });

  it("says plainly when a range has no checks, in Thai too", async () => {
    const reply = await say("สรุป 2026-01-01");
    expect(shownText(reply.messages)).toMatch(/ตรวจ 0 สลิป[\s\S]*฿0\.00[\s\S]*ไม่มีการตรวจสลิปในวันที่ 1 ม\.ค\. 2569 ค่ะ/);
  });

  it("covers at most 31 days, and says which", async () => {
    const reply = await say("summary 2026-09-01..2026-11-20");
    expect(shownText(reply.messages)).toContain("A summary covers at most 31 days: these figures are for 21 Oct – 20 Nov 2026.");
    const figures = expected(await itemsBetween("2026-10-21", "2026-11-20"));
    expect(shownText(reply.messages)).toContain(baht(figures.valid));
  });
});

describe("has it arrived?", { timeout: 60_000 }, () => {
  it("finds today's valid checks of exactly the amount, and says 'not yet' with a quick reply to ask again", async () => {
    const today = (await itemsBetween("2026-11-20", "2026-11-20", "valid")).filter((i) => i.amount !== null);
    const amount = today[0]?.amount ?? 0;
    const matching = today.filter((i) => i.amount === amount);
    const found = await say(`paid ${amount}`);
    expect(shownText(found.messages)).toContain(`Has ${baht(Math.round(amount * 100))} arrived?`);
    expect(shownText(found.messages)).toContain(matching.length === 1 ? "Arrived: 1 check" : `Arrived: ${matching.length} checks`);

    const none = await say("paid 12345.67");
    expect(shownText(none.messages)).toContain("No valid slip of this amount yet.");
    expect(quickReplyTaps(none.messages)).toEqual([{ shows: "paid 12345.67", sends: "paid 12345.67" }]);
  });

  it("a staff QR card's button checks for that amount since the QR: a payment before it does not count, one after does", async () => {
    // A customer paid ฿321.00 before the QR was made...
    const pay = (amount: number) =>
      fetch(`${bot.slipUrl}/dev/payments`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ amount, senderName: "น.ส. มาลี ทองดี" }) });
    expect((await pay(321)).status).toBe(200);
    clock = new Date(clock.getTime() + 60_000);
    const qr = await say("qr 0812345678 321");
    const [button] = postbackData(qr.messages).filter((data) => data.startsWith("paid 321 after "));
    expect(button).toBe(`paid 321 after ${clock.toISOString()}`);
    const tap = async () => bot.exchange([postbackEvent({ source: { type: "user", userId: OWNER }, replyToken: bot.token(OWNER), data: button ?? "" })]);
    expect(shownText((await tap())[0]?.messages ?? [])).toContain("No valid slip of this amount yet.");
    // ...and again after it.
    clock = new Date(clock.getTime() + 60_000);
    expect((await pay(321)).status).toBe(200);
    const after = shownText((await tap())[0]?.messages ?? []);
    expect(after).toContain("Arrived: 1 check");
    expect(after).toContain("น.ส. มาลี ทองดี");
  });
});

describe("the token forecast in balance", { timeout: 60_000 }, () => {
  it("shows the last 7 days' tokens a day, how long the tokens last, and whether they or the package end first", async () => {
    // Past the minute earlier figures are reused for, so the payments simulated above count.
    clock = new Date(clock.getTime() + 61_000);
    const items = await itemsBetween("2026-11-14", "2026-11-20");
    const perDay = items.reduce((sum, i) => sum + i.tokensCharged, 0) / 7;
    const account = (await (await fetch(`${bot.slipUrl}/api/account/info`, { headers: { Authorization: `Bearer ${SHOP_SECRET}` } })).json()) as {
      data: { tokens: number };
    };
    const days = Math.floor(account.data.tokens / perDay);
    const shown = shownText((await say("balance")).messages);
    expect(shown).toContain(`Last 7 days: ${perDay.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} tokens a day on average`);
    expect(shown).toContain(`At this pace, tokens last about ${days.toLocaleString("en-US")} days`);
    // 181 days of package against a few months of tokens at about 60 checks a day.
    expect(shown).toContain(days < 181 ? "Tokens run out before the package expires." : "The package expires before the tokens run out.");
  });
});
