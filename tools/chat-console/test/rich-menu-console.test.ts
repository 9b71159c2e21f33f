// The console's rich menu API without a browser: which menu a person sees, its image from the console's
// own origin, taps (postback, message, richmenuswitch) turned into what LINE sends the bot, refusals, and
// the `richmenu` event on the page's stream.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { request } from "node:http";
import { messagingApi } from "@line/bot-sdk";
import type { webhook } from "@line/bot-sdk";
import { startLinePlatform } from "@slipline/line-stand-in";
import type { LinePlatform } from "@slipline/line-stand-in";
import { startConsole } from "../src/console.js";
import type { ChatConsole, ConsoleEntry, ConsoleRichMenu } from "../src/console.js";
import { DEMO_GROUPS, DEMO_PEOPLE } from "@slipline/line-stand-in";
import { startStandInBot } from "./stand-in-bot.js";
import type { StandInBot } from "./stand-in-bot.js";
import { menuPng, menuRequest, pngBlob } from "../../line-stand-in/test/rich-menu-fixtures.js";

const SECRET = "rich-menu-console-secret";
const TOKEN = "rich-menu-console-token";
const somchai = DEMO_PEOPLE[0]!.userId;
const nok = DEMO_PEOPLE[2]!.userId;
const group = DEMO_GROUPS[1]!.groupId;
const PNG = menuPng(800, 270);

let platform: LinePlatform;
let bot: StandInBot;
let chat: ChatConsole;
let api: messagingApi.MessagingApiClient;
let blob: messagingApi.MessagingApiBlobClient;

beforeEach(async () => {
  // Any token: the stand-in bot answers with its own.
  platform = await startLinePlatform();
  bot = await startStandInBot({ platformUrl: platform.url, channelSecret: SECRET });
  chat = await startConsole({ platform, botWebhookUrl: bot.webhookUrl, channelSecret: SECRET });
  api = new messagingApi.MessagingApiClient({ channelAccessToken: TOKEN, baseURL: platform.url });
  blob = new messagingApi.MessagingApiBlobClient({ channelAccessToken: TOKEN, baseURL: platform.url });
});

afterEach(async () => {
  await chat.close();
  await bot.close();
  await platform.close();
});

async function readyMenu(actions: messagingApi.Action[], selected = true): Promise<string> {
  const { richMenuId } = await api.createRichMenu(menuRequest(actions, { selected }));
  await blob.setRichMenuImage(richMenuId, pngBlob(PNG));
  return richMenuId;
}

async function shownTo(userId: string): Promise<ConsoleRichMenu | null> {
  const response = await fetch(`${chat.url}api/rich-menu?userId=${userId}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { richMenu: ConsoleRichMenu | null }).richMenu;
}

async function tap(body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${chat.url}api/rich-menu/tap`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

interface Frame {
  event: string;
  data: unknown;
}

/** The page's event stream, frame by frame (named events too); `next` skips frames that do not match. */
async function openStream(): Promise<{ next(match: (frame: Frame) => boolean): Promise<Frame>; close(): void }> {
  const controller = new AbortController();
  const response = await fetch(`${chat.url}api/events`, { signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const pending: Frame[] = [];
  let buffer = "";
  return {
    async next(match) {
      for (;;) {
        for (let frame = pending.shift(); frame !== undefined; frame = pending.shift()) {
          if (match(frame)) return frame;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the event stream ended");
        buffer += decoder.decode(value, { stream: true });
        const texts = buffer.split("\n\n");
        buffer = texts.pop() ?? "";
        for (const text of texts) {
          const lines = text.split("\n");
          const data = lines.find((line) => line.startsWith("data: "));
          if (data === undefined) continue;
          const event = lines.find((line) => line.startsWith("event: "))?.slice(7) ?? "message";
          pending.push({ event, data: JSON.parse(data.slice(6)) as unknown });
        }
      }
    },
    close() {
      controller.abort();
    },
  };
}

function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("which menu a person sees", () => {
  it("none, then the default, then a person's own; a person it does not know is refused", async () => {
    expect(await shownTo(nok)).toBeNull();
    const general = await readyMenu([{ type: "message", text: "help", label: "Help" }], false);
    await api.setDefaultRichMenu(general);
    const staff = await readyMenu([{ type: "postback", data: "menu=sales", label: "Sales" }]);
    await api.linkRichMenuIdToUser(somchai, staff);

    expect(await shownTo(nok)).toEqual({
      ...(await api.getRichMenu(general)),
      source: "default",
      imageUrl: `/api/rich-menu/image/${general}?shop=default`,
    });
    expect(await shownTo(somchai)).toMatchObject({ richMenuId: staff, source: "linked", selected: true, chatBarText: "Menu" });

    for (const userId of ["U" + "0".repeat(32), group, ""]) {
      expect((await fetch(`${chat.url}api/rich-menu?userId=${userId}`)).status, userId).toBe(400);
    }
  });

  it("serves the image from the console's own origin, to loopback Host names only", async () => {
    const menu = await readyMenu([{ type: "message", text: "help" }]);
    await api.setDefaultRichMenu(menu);
    const { imageUrl } = (await shownTo(nok))!;
    const image = await fetch(new URL(imageUrl, chat.url));
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(`${chat.url}api/rich-menu/image/richmenu-${"0".repeat(32)}`)).status).toBe(404);
    expect(await getWithHost(new URL(imageUrl, chat.url).href, `evil.example:${chat.port}`)).toBe(403);
  });
});

describe("taps", () => {
  it("a postback area: its displayText as the person's message, the postback to the bot", async () => {
    const menu = await readyMenu([
      { type: "postback", data: "menu=sales", displayText: "Today's sales please", label: "Sales" },
      { type: "postback", data: "menu=qr", inputOption: "openKeyboard", fillInText: "qr " },
    ]);
    await api.linkRichMenuIdToUser(somchai, menu);
    const stream = await openStream();
    try {
      const tapped = await tap({ userId: somchai, chatId: somchai, richMenuId: menu, area: 0 });
      expect(tapped).toEqual({ status: 200, json: { type: "postback", status: 200 } });
      const shown = await stream.next((f) => f.event === "message" && (f.data as ConsoleEntry).type === "user");
      expect(shown.data).toMatchObject({ type: "user", chatId: somchai, userId: somchai, text: "Today's sales please", via: "rich-menu" });
      expect(bot.received.at(-1)).toMatchObject({ type: "postback", source: { type: "user", userId: somchai }, postback: { data: "menu=sales" } });
      expect((bot.received.at(-1) as webhook.PostbackEvent).postback.params).toBeUndefined();

      // No displayText: nothing shows as said; the bot still gets the postback.
      const entries = bot.received.length;
      await tap({ userId: somchai, chatId: somchai, richMenuId: menu, area: 1 });
      expect(bot.received).toHaveLength(entries + 1);
      expect(bot.received.at(-1)).toMatchObject({ type: "postback", postback: { data: "menu=qr" } });
      await platform.waitForSent(2);
      const answers = platform.sent.map((s) => (s.messages[0] as messagingApi.TextMessage).text);
      expect(answers.sort()).toEqual(["Postback menu=qr", "Postback menu=sales"]);
    } finally {
      stream.close();
    }
  });

  it("a message area sends its text as the person's message", async () => {
    const menu = await readyMenu([{ type: "message", text: "help", label: "Help" }]);
    await api.setDefaultRichMenu(menu);
    expect(await tap({ userId: nok, chatId: nok, richMenuId: menu, area: 0 })).toEqual({ status: 200, json: { type: "message", status: 200 } });
    expect(bot.received.at(-1)).toMatchObject({ type: "message", source: { type: "user", userId: nok }, message: { type: "text", text: "help" } });
    expect((bot.received.at(-1) as webhook.MessageEvent).replyToken).toMatch(/^[0-9a-f]{32}$/);
  });

  it("a richmenuswitch area switches the person's menu, and the bot gets the postback with params", async () => {
    const main = await readyMenu([
      { type: "richmenuswitch", richMenuAliasId: "more", data: "switch=more", label: "More" },
      { type: "richmenuswitch", richMenuAliasId: "nowhere", data: "switch=nowhere" },
    ]);
    const more = await readyMenu([{ type: "richmenuswitch", richMenuAliasId: "main", data: "switch=main", label: "Back" }]);
    await api.createRichMenuAlias({ richMenuAliasId: "more", richMenuId: more });
    await api.createRichMenuAlias({ richMenuAliasId: "main", richMenuId: main });
    await api.setDefaultRichMenu(main);

    const switched = await tap({ userId: nok, chatId: nok, richMenuId: main, area: 0 });
    expect(switched).toEqual({ status: 200, json: { type: "richmenuswitch", switchStatus: "SUCCESS", status: 200 } });
    expect(bot.received.at(-1)).toMatchObject({
      type: "postback",
      postback: { data: "switch=more", params: { newRichMenuAliasId: "more", status: "SUCCESS" } },
    });
    expect(await shownTo(nok)).toMatchObject({ richMenuId: more, source: "linked" });
    // Somchai still sees the default.
    expect(await shownTo(somchai)).toMatchObject({ richMenuId: main, source: "default" });

    await tap({ userId: nok, chatId: nok, richMenuId: more, area: 0 });
    expect(await shownTo(nok)).toMatchObject({ richMenuId: main, source: "linked" });

    // A switch that fails still reaches the bot, without newRichMenuAliasId.
    const failed = await tap({ userId: nok, chatId: nok, richMenuId: main, area: 1 });
    expect(failed.json).toMatchObject({ switchStatus: "RICHMENU_ALIAS_ID_NOTFOUND" });
    expect((bot.received.at(-1) as webhook.PostbackEvent).postback).toEqual({ data: "switch=nowhere", params: { status: "RICHMENU_ALIAS_ID_NOTFOUND" } });
    expect(await shownTo(nok)).toMatchObject({ richMenuId: main });
  });

  it("refuses a tap in a group, on a menu the person does not see, on an area that is not there, and on a uri area", async () => {
    const menu = await readyMenu([
      { type: "postback", data: "menu=1" },
      { type: "uri", uri: "https://example.com/shop" },
    ]);
    await api.setDefaultRichMenu(menu);
    const received = bot.received.length;
    expect((await tap({ userId: nok, chatId: group, richMenuId: menu, area: 0 })).status).toBe(400);
    expect((await tap({ userId: "U" + "0".repeat(32), chatId: "U" + "0".repeat(32), richMenuId: menu, area: 0 })).status).toBe(400);
    const stale = await tap({ userId: nok, chatId: nok, richMenuId: `richmenu-${"0".repeat(32)}`, area: 0 });
    expect(stale).toEqual({ status: 409, json: { error: "that rich menu is no longer the one this person sees", richMenuId: menu } });
    for (const area of [2, -1, 0.5, "0", undefined]) {
      expect((await tap({ userId: nok, chatId: nok, richMenuId: menu, area })).status, String(area)).toBe(400);
    }
    expect((await tap({ userId: nok, chatId: nok, richMenuId: menu, area: 1 })).status).toBe(400);
    expect(bot.received).toHaveLength(received);

    await api.cancelDefaultRichMenu();
    expect((await tap({ userId: nok, chatId: nok, richMenuId: menu, area: 0 })).json).toEqual({
      error: "that rich menu is no longer the one this person sees",
      richMenuId: null,
    });
  });
});

describe("the page's event stream", () => {
  it("says `richmenu` whenever a link, the default or a menu changes, outside the conversation log", async () => {
    const stream = await openStream();
    try {
      const menu = await readyMenu([{ type: "message", text: "help" }]);
      expect((await stream.next((f) => f.event === "richmenu")).data).toMatchObject({ kind: "created", richMenuId: menu });
      expect((await stream.next((f) => f.event === "richmenu")).data).toMatchObject({ kind: "image", richMenuId: menu });
      await api.linkRichMenuIdToUser(nok, menu);
      expect((await stream.next((f) => f.event === "richmenu")).data).toMatchObject({ kind: "linked", richMenuId: menu, userIds: [nok] });
      await api.setDefaultRichMenu(menu);
      expect((await stream.next((f) => f.event === "richmenu")).data).toMatchObject({ kind: "default", richMenuId: menu });
      await api.deleteRichMenu(menu);
      expect((await stream.next((f) => f.event === "richmenu")).data).toMatchObject({ kind: "deleted", richMenuId: menu });
    } finally {
      stream.close();
    }
    // A page that connects later gets no replay of them: it asks for the menu instead.
    const later = await openStream();
    try {
      await api.pushMessage({ to: nok, messages: [{ type: "text", text: "after" }] });
      const first = await later.next(() => true);
      expect(first).toMatchObject({ event: "message", data: { type: "bot", chatId: nok } });
    } finally {
      later.close();
    }
  });
});
