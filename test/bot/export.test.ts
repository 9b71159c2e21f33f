// The chat's `export`: a link on PUBLIC_URL that downloads a range's checks as CSV, for the staff member who
// asked, once and within 10 minutes; the rows against the sandbox's own history. At a fixed clock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedSend } from "@slipline/line-stand-in";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { shownText } from "../kit/messages.js";
import { lineId, textEvent } from "../kit/webhook.js";

/** 14:30 in Bangkok on Friday 20 November 2026. */
const START = Date.parse("2026-11-20T07:30:00.000Z");
let clock = START;
const OWNER = lineId("U", 0x801);
const CUSTOMER = lineId("U", 0x802);
const PUBLIC_URL = "https://bot.example.com";

let bot: BotHarness;
beforeAll(async () => {
  bot = await startBotHarness({ now: () => new Date(clock), publicUrl: PUBLIC_URL, settings: { staffUserIds: new Set([OWNER]), defaultLang: "en" } });
});
afterAll(async () => {
  await bot.close();
});

async function say(userId: string, text: string, on: BotHarness = bot): Promise<RecordedSend[]> {
  return on.exchange([textEvent({ source: { type: "user", userId }, replyToken: on.token(userId), text })]);
}

/** The link in the answer, reached on the bot's own address (PUBLIC_URL is the proxy in front of it). */
function linkIn(sent: readonly RecordedSend[]): string {
  const text = shownText(sent.flatMap((s) => s.messages));
  const found = /https:\/\/bot\.example\.com(\/app\/api\/export\.csv\?link=[A-Za-z0-9_.-]+)/.exec(text);
  if (found?.[1] === undefined) throw new Error(`no export link in ${text}`);
  return `${bot.url}${found[1]}`;
}

async function sandboxCount(from: string, to: string): Promise<number> {
  const query = new URLSearchParams({ from: `${from}T00:00:00.000+07:00`, to: `${to}T23:59:59.999+07:00`, limit: "1" });
  const res = await fetch(`${bot.slipUrl}/api/slip-history?${query.toString()}`, { headers: { authorization: `Bearer ${bot.apiSecret}` } });
  return ((await res.json()) as { data: { pagination: { total: number } } }).data.pagination.total;
}

describe("export in the chat", () => {
  it("answers staff with a link that downloads yesterday's checks once", async () => {
    const link = linkIn(await say(OWNER, "export yesterday"));
    const first = await fetch(link);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-disposition")).toContain("2026-11-19-2026-11-19");
    const rows = (await first.text()).split("\r\n").filter((line) => line !== "");
    expect(rows).toHaveLength((await sandboxCount("2026-11-19", "2026-11-19")) + 1);
    expect((await fetch(link)).status).toBe(410);
  });

  it("says in lines which days the file holds, and adds the all-English file for accounting software", async () => {
    const sent = await say(OWNER, "export yesterday");
    const text = shownText(sent.flatMap((s) => s.messages)).replace(/https:\/\/bot\.example\.com\/app\/api\/export\.csv\?link=[A-Za-z0-9_.-]+/g, "<link>");
    expect(text).toBe(
      [
        "The slip checks file for yesterday (19 Nov 2026) is ready.",
        "Tap the link below to download it; it opens in Excel.",
        "<link>",
        "The same file with the service's own fields only, for accounting software:",
        "<link>",
        "The link works once, within 10 minutes, for you only.",
      ].join("\n"),
    );
    const links = [...shownText(sent.flatMap((s) => s.messages)).matchAll(/https:\/\/bot\.example\.com(\/app\/api\/export\.csv\?link=[A-Za-z0-9_.-]+)/g)].map(
      (m) => `${bot.url}${m[1] ?? ""}`,
    );
    const readable = await fetch(links[0] ?? "");
    expect((await readable.text()).split("\r\n")[0]).toMatch(/^Checked at,Transferred at,Status,Amount,/);
    const raw = await fetch(links[1] ?? "");
    expect(raw.headers.get("content-disposition")).toContain("2026-11-19-2026-11-19-raw.csv");
    expect((await raw.text()).split("\r\n")[0]).toBe(
      "createdAt,createdAtLocal,transDate,transDateLocal,status,amount,transRef,senderName,receiverName,receiverAccount,source,tokensCharged,code",
    );
  });

  it("names only the days a cut file holds", async () => {
    const text = shownText((await say(OWNER, "export 2026-09-01..2026-11-20")).flatMap((s) => s.messages));
    expect(text).toContain("The slip checks file for 21 Oct – 20 Nov 2026 is ready.\nA file holds at most 31 days, so it starts on 21 Oct 2026.");
  });

  it("refuses the link after 10 minutes", async () => {
    const link = linkIn(await say(OWNER, "ส่งออก วันนี้"));
    clock += 10 * 60_000 + 1_000;
    try {
      const res = await fetch(link);
      expect(res.status).toBe(410);
      expect(((await res.json()) as { error: string }).error).toBe("link_expired");
    } finally {
      clock = START;
    }
  });

  it("refuses a link altered to another user", async () => {
    const link = linkIn(await say(OWNER, "export today"));
    const url = new URL(link);
    const [body = "", signature = ""] = (url.searchParams.get("link") ?? "").split(".");
    const grant = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
    url.searchParams.set("link", `${Buffer.from(JSON.stringify({ ...grant, userId: CUSTOMER })).toString("base64url")}.${signature}`);
    expect((await fetch(url)).status).toBe(403);
    // The original, unaltered, still works for its user.
    expect((await fetch(link)).status).toBe(200);
  });

  it("gives a customer no link", async () => {
    const sent = await say(CUSTOMER, "export today");
    expect(shownText(sent.flatMap((s) => s.messages))).not.toContain("export.csv");
  });

  it("says what to set without PUBLIC_URL", async () => {
    const plain = await startBotHarness({ settings: { staffUserIds: new Set([OWNER]), defaultLang: "en" } });
    try {
      const sent = await say(OWNER, "export", plain);
      expect(shownText(sent.flatMap((s) => s.messages))).toContain("PUBLIC_URL");
    } finally {
      await plain.close();
    }
  });
});
