// The console's HTTP side without a browser: the page files, input checks, the event stream, and bot failures.
import { afterEach, describe, expect, it } from "vitest";
import type { AddressInfo } from "node:net";
import { request, type Server } from "node:http";
import express from "express";
import { startLinePlatform } from "@slipline/line-stand-in";
import type { LinePlatform } from "@slipline/line-stand-in";
import { shopViewOf, startConsole } from "../src/console.js";
import { DEMO_GROUPS, DEMO_PEOPLE } from "@slipline/line-stand-in";
import type { ChatConsole, ConsoleEntry } from "../src/console.js";
import { simulatePaymentAt } from "@slipline/slip-sandbox";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import { startSandbox } from "@slipline/slip-sandbox";

const me = DEMO_PEOPLE[2]!.userId;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A bot webhook that answers with a fixed status. */
async function fakeBot(status: number): Promise<string> {
  const app = express();
  app.post("/webhook", (_req, res) => res.status(status).end());
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
}

async function setup(botWebhookUrl: string): Promise<{ platform: LinePlatform; chat: ChatConsole }> {
  const platform = await startLinePlatform();
  cleanups.push(() => platform.close());
  const chat = await startConsole({ platform, botWebhookUrl, channelSecret: "s", webhookTimeoutMs: 2000 });
  cleanups.push(() => chat.close());
  return { platform, chat };
}

/** Reads server-sent events until `count` entries arrived. */
async function readEntries(url: string, count: number): Promise<ConsoleEntry[]> {
  const controller = new AbortController();
  const response = await fetch(`${url}api/events`, { signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const entries: ConsoleEntry[] = [];
  for (let reads = 0; entries.length < count && reads < 100; reads++) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const frames = buffer.split("\n\n");
    buffer = frames.pop() ?? "";
    for (const frame of frames) {
      const data = frame.split("\n").find((line) => line.startsWith("data: "));
      if (data) entries.push(JSON.parse(data.slice(6)) as ConsoleEntry);
    }
  }
  controller.abort();
  return entries;
}

async function postJson(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** A GET with a Host header of our choosing (fetch will not send one), as a page reached by DNS rebinding would. */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("each shop's view of the console's people and groups", () => {
  const [somchai, malee, nok] = DEMO_PEOPLE.map((p) => p.userId);
  const [staffGroup, customerGroup] = DEMO_GROUPS;
  it.each([
    {
      shop: "the coffee shop (Somchai, Malee and the staff group)",
      staff: { users: [somchai!, malee!], groups: [staffGroup!.groupId] },
      people: ["Somchai (staff)", "Malee (staff)", "Customer Nok"],
      groups: ["Staff group", "Shop and customers group"],
    },
    {
      shop: "the second shop (Malee alone)",
      staff: { users: [malee!], groups: [] },
      people: ["Somchai (a customer here)", "Malee (staff)", "Customer Nok"],
      groups: ["Shop and customers group"],
    },
    {
      shop: "a shop that lists Nok",
      staff: { users: [nok!], groups: [customerGroup!.groupId] },
      people: ["Somchai (a customer here)", "Malee (a customer here)", "Nok (staff)"],
      groups: ["Shop and customers group"],
    },
  ])("$shop", ({ staff, people, groups }) => {
    const view = shopViewOf({ staff }, DEMO_PEOPLE, DEMO_GROUPS);
    expect(view.people.map((p) => p.name)).toEqual(people);
    expect(view.groups.map((g) => g.name)).toEqual(groups);
  });
});

describe("console API", () => {
  it("answers only to loopback names in Host, so a rebound DNS name cannot reach it", async () => {
    const { chat } = await setup(await fakeBot(200));
    for (const host of [`127.0.0.1:${chat.port}`, `localhost:${chat.port}`, "localhost", `LOCALHOST:${chat.port}`]) {
      expect((await getWithHost(`${chat.url}api/config`, host)).status, host).toBe(200);
    }
    for (const host of [`evil.example:${chat.port}`, "127.0.0.1.evil.example", `localhost.:${chat.port}`, `[::1]x:${chat.port}`]) {
      const answer = await getWithHost(`${chat.url}api/config`, host);
      expect(answer.status, host).toBe(403);
      expect(answer.body).toMatch(/only at http:\/\/127\.0\.0\.1 or http:\/\/localhost/);
      expect(answer.body).not.toContain("Somchai");
    }
  });

  it("serves the page and the demo config", async () => {
    const { chat } = await setup(await fakeBot(200));
    const page = await fetch(chat.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script src="page.js"');
    expect((await fetch(`${chat.url}page.js`)).status).toBe(200);
    expect((await fetch(`${chat.url}page.css`)).status).toBe(200);
    // An icon, at the address browsers ask for and at the one the page links.
    for (const icon of ["favicon.ico", "favicon.svg"]) {
      const answer = await fetch(`${chat.url}${icon}`);
      expect([answer.status, answer.headers.get("content-type")?.split(";")[0]]).toEqual([200, "image/svg+xml"]);
    }
    const config = (await (await fetch(`${chat.url}api/config`)).json()) as { people: unknown[]; groups: unknown[]; botName: string };
    expect(config).toEqual({
      botName: "slipline",
      people: DEMO_PEOPLE,
      groups: DEMO_GROUPS,
      timeZone: "Asia/Bangkok",
      shops: [{ id: "default", name: "the shop", canSimulatePayment: false, hasStaffApp: false, canSendPhotos: false }],
      canSimulatePayment: false,
    });
  });

  it("simulates a customer paying the embedded sandbox, notes it in the chat, and refuses a bad amount or chat", async () => {
    const sandbox = await startSandbox({ devRoutes: true });
    cleanups.push(() => sandbox.close());
    const platform = await startLinePlatform();
    cleanups.push(() => platform.close());
    const chat = await startConsole({
      platform,
      botWebhookUrl: await fakeBot(200),
      channelSecret: "s",
      simulatePayment: simulatePaymentAt(sandbox.url),
    });
    cleanups.push(() => chat.close());
    const config = (await (await fetch(`${chat.url}api/config`)).json()) as { canSimulatePayment: boolean };
    expect(config.canSimulatePayment).toBe(true);

    for (const body of [{ amount: 0 }, { amount: -5 }, { amount: 1.234 }, { amount: "150" }, { amount: 150, chatId: "C-not-ours" }]) {
      expect((await postJson(`${chat.url}api/simulate-payment`, body)).status, JSON.stringify(body)).toBe(400);
    }
    const paid = await postJson(`${chat.url}api/simulate-payment`, { amount: 150, chatId: me });
    expect(paid.status).toBe(200);
    const payer = String(paid.json.senderName);
    expect(payer.length).toBeGreaterThan(0);

    const newest = (await (await fetch(`${sandbox.url}/api/slip-history?limit=1`, { headers: { Authorization: `Bearer ${DEMO_SECRETS.shop}` } })).json()) as {
      data: { items: { amount: number; senderName: string; status: string }[] };
    };
    expect(newest.data.items[0]).toMatchObject({ amount: 150, senderName: payer, status: "valid" });
    const [note] = await readEntries(chat.url, 1);
    expect(note).toMatchObject({ type: "system", chatId: me, text: `${payer} paid the shop ฿150.00 (a simulated transfer, now in the sandbox's history).` });
  });

  it("refuses people and chats it does not know, and empty text", async () => {
    const { chat } = await setup(await fakeBot(200));
    expect((await postJson(`${chat.url}api/send`, { userId: "U" + "0".repeat(32), chatId: me, text: "hi" })).status).toBe(400);
    expect((await postJson(`${chat.url}api/send`, { userId: me, chatId: DEMO_PEOPLE[0]!.userId, text: "hi" })).status).toBe(400);
    expect((await postJson(`${chat.url}api/send`, { userId: me, chatId: me, text: "  " })).status).toBe(400);
    expect((await postJson(`${chat.url}api/postback`, { userId: me, chatId: me, data: "x".repeat(301) })).status).toBe(400);
  });

  it("lets a person edit only a text they sent in a group, and sends LINE's messageEdited with the same message id", async () => {
    const received: { type: string; message?: { id?: string; text?: string }; source?: { groupId?: string } }[] = [];
    const app = express();
    app.post("/webhook", express.json(), (req, res) => {
      received.push(...(req.body as { events: typeof received }).events);
      res.status(200).end();
    });
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { chat } = await setup(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`);
    const group = DEMO_GROUPS[1]!.groupId;
    const other = DEMO_PEOPLE[0]!.userId;
    expect((await postJson(`${chat.url}api/send`, { userId: me, chatId: group, text: "qr 150" })).status).toBe(200);
    expect((await postJson(`${chat.url}api/send`, { userId: me, chatId: me, text: "qr 150" })).status).toBe(200);
    const [inGroup, inPrivate] = received;
    const messageId = inGroup?.message?.id ?? "";
    expect(messageId).toMatch(/^\d+$/);
    // Someone else's message, a 1:1 message, an unknown id, empty text: refused.
    expect((await postJson(`${chat.url}api/edit`, { userId: other, chatId: group, messageId, text: "qr 200" })).status).toBe(400);
    expect((await postJson(`${chat.url}api/edit`, { userId: me, chatId: me, messageId: inPrivate?.message?.id, text: "qr 200" })).status).toBe(400);
    expect((await postJson(`${chat.url}api/edit`, { userId: me, chatId: group, messageId: "123", text: "qr 200" })).status).toBe(400);
    expect((await postJson(`${chat.url}api/edit`, { userId: me, chatId: group, messageId, text: " " })).status).toBe(400);
    expect(received).toHaveLength(2);
    expect((await postJson(`${chat.url}api/edit`, { userId: me, chatId: group, messageId, text: "qr 200" })).status).toBe(200);
    expect(received[2]).toMatchObject({ type: "messageEdited", message: { type: "text", id: messageId, text: "qr 200" }, source: { groupId: group } });
    // LINE's 1:1 text events carry a mark-as-read token; an edit (groups only) does not.
    expect(inPrivate?.message).toHaveProperty("markAsReadToken");
    expect(received[2]?.message).not.toHaveProperty("markAsReadToken");
  });

  it("a webhook the bot refuses shows as a notice in that chat, after the message", async () => {
    const { chat } = await setup(await fakeBot(401));
    const sent = await postJson(`${chat.url}api/send`, { userId: me, chatId: me, text: "hi" });
    expect(sent).toEqual({ status: 200, json: { status: 401 } });
    const entries = await readEntries(chat.url, 2);
    expect(entries[0]).toMatchObject({ type: "user", chatId: me, userId: me, text: "hi", via: "typed" });
    expect(entries[1]).toMatchObject({ type: "notice", chatId: me });
    expect(entries[1]?.type === "notice" ? entries[1].text : "").toContain("HTTP 401");
  });

  it("an unreachable bot is a notice too", async () => {
    // A port that was just free: listen, note it, close.
    const closed: Server = await new Promise((resolve) => {
      const s = express().listen(0, "127.0.0.1", () => resolve(s));
    });
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { chat } = await setup(`http://127.0.0.1:${port}/webhook`);
    await postJson(`${chat.url}api/send`, { userId: me, chatId: me, text: "hi" });
    const entries = await readEntries(chat.url, 2);
    expect(entries[1]?.type === "notice" ? entries[1].text : "").toContain("could not be reached");
  });

  it("streams the platform's sends, refusals and loading to the page, backlog first", async () => {
    const { platform, chat } = await setup(await fakeBot(200));
    const push = (messages: unknown) =>
      fetch(`${platform.url}/v2/bot/message/push`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify({ to: me, messages }),
      });
    await push([{ type: "text", text: "hello" }]);
    await push([{ type: "text", text: "" }]);
    await fetch(`${platform.url}/v2/bot/chat/loading/start`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({ chatId: me, loadingSeconds: 5 }),
    });
    const entries = await readEntries(chat.url, 3);
    expect(entries).toMatchObject([
      { seq: 1, type: "bot", kind: "push", chatId: me, messages: [{ type: "text", text: "hello" }] },
      { seq: 2, type: "rejected", chatId: me, status: 400, details: [{ property: "messages[0].text", message: "May not be empty" }] },
      { seq: 3, type: "loading", chatId: me, seconds: 5 },
    ]);
  });

  it("a postback with displayText shows it as the person's message", async () => {
    const { chat } = await setup(await fakeBot(200));
    await postJson(`${chat.url}api/postback`, { userId: me, chatId: DEMO_GROUPS[1]!.groupId, data: "page=2", displayText: "Next page" });
    const entries = await readEntries(chat.url, 1);
    expect(entries[0]).toMatchObject({ type: "user", chatId: DEMO_GROUPS[1]!.groupId, text: "Next page", via: "postback" });
  });
});
