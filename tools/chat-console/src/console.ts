// The chat console: serves the page, turns what a person types or taps into signed webhooks for the bot,
// and streams everything the LINE stand-in accepts or rejects back to the page (server-sent events).
// In a 1:1 chat it also shows the rich menu the LINE app would show that person, and runs its taps.
// `npm start` mounts it on the bot's own port; `startConsole` gives it a server of its own (tests).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import type { Express, Request, Response } from "express";
import type { messagingApi, webhook } from "@line/bot-sdk";
import type { LinePlatform, RecordedLoading, RecordedRejection, RecordedSend, RichMenuChange } from "@slipline/line-stand-in";
import {
  DEMO_BOT,
  DEMO_GROUPS,
  DEMO_PEOPLE,
  chatIdOf,
  greetingEvent,
  memberJoinedEvent,
  messageEditedEvent,
  postbackEvent,
  signedWebhook,
  textMessageEvent,
  imageMessageEvent,
} from "@slipline/line-stand-in";
import type { ConsoleSource, DemoGroup, DemoPerson, MessageEditedEvent } from "@slipline/line-stand-in";
import { isLoopbackHostHeader } from "../../../src/loopback.js";
import { MAX_AMOUNT_SATANG } from "../../../src/promptpay/amount.js";

/** One shop's OA as the console plays it: a channel of the stand-in, and where its webhooks go. */
export interface ConsoleShop {
  /** The shop's id (what the page's requests name). */
  id: string;
  /** The OA's name, shown in the shop picker. */
  name: string;
  /** Its channel on the LINE stand-in. */
  channel: string;
  /** Where the bot receives this shop's webhooks, e.g. `http://127.0.0.1:3000/webhook/cafe` (asked when needed: the bot's port may be known only later). */
  webhookUrl: string | (() => string);
  /** The channel secret the bot verifies this shop's signatures with. */
  channelSecret: string;
  /** Local mode with the sandbox: a customer pays this shop now (the page's "simulate a payment"). */
  simulatePayment?: (amountSatang: number) => Promise<{ senderName: string }>;
  /** The shop's staff web app: its page's path and the LINE Login channel the stand-in issues ID tokens for. */
  staffApp?: { path: string; loginChannelId: string };
  /**
   * Who is staff of this shop (its settings' lists). The console then names each person with their role
   * in this shop and offers only this shop's staff groups, so the labels say what the chat will answer;
   * without it, the people and groups as given.
   */
  staff?: { users: readonly string[]; groups: readonly string[] };
  /** Local mode with the sandbox: a slip photo to send (of the newest check, one never checked, one without its QR). */
  slipPhoto?: (choice: SlipPhotoChoice) => Promise<{ png: Uint8Array; caption: string }>;
}

/** The console's people and groups as one shop sees them. */
export interface ShopView {
  people: DemoPerson[];
  groups: DemoGroup[];
}

/** Names each person with their role in the shop, and keeps the groups where that role holds. */
export function shopViewOf(shop: Pick<ConsoleShop, "staff">, people: readonly DemoPerson[], groups: readonly DemoGroup[]): ShopView {
  const staff = shop.staff;
  if (staff === undefined) return { people: [...people], groups: [...groups] };
  return {
    people: people.map((person): DemoPerson => {
      const listed = staff.users.includes(person.userId);
      const name = listed ? `${person.firstName} (staff)` : person.role === "customer" ? person.name : `${person.firstName} (a customer here)`;
      return { ...person, name, role: listed ? "staff" : "customer" };
    }),
    // A group meant for staff that this shop does not list would answer as a group with customers: the
    // console leaves it out rather than call it a staff group.
    groups: groups.filter((group) => !group.staff || staff.groups.includes(group.groupId)).map((group) => ({ ...group, staff: staff.groups.includes(group.groupId) })),
  };
}

/** The photos the page offers a persona to send. */
export const SLIP_PHOTO_CHOICES = ["checked", "unchecked", "no_qr"] as const;
export type SlipPhotoChoice = (typeof SLIP_PHOTO_CHOICES)[number];

export interface ConsoleOptions {
  platform: LinePlatform;
  /** The shops (OAs) to play; or one, given by `botWebhookUrl` and `channelSecret` (the stand-in's `default` channel). */
  shops?: readonly ConsoleShop[];
  /** Where the bot receives webhooks, e.g. `http://127.0.0.1:3000/webhook`. */
  botWebhookUrl?: string;
  /** The channel secret the bot verifies signatures with. */
  channelSecret?: string;
  port?: number;
  host?: string;
  people?: readonly DemoPerson[];
  groups?: readonly DemoGroup[];
  /** The name a group message mentions the bot by (`@slipline`). */
  botName?: string;
  /** How long to wait for the bot to answer a webhook. */
  webhookTimeoutMs?: number;
  /** The zone the page shows message times in (the bot's business zone); default Asia/Bangkok. */
  timeZone?: string;
  /** With one shop: a customer pays it now (the page's "simulate a payment"). */
  simulatePayment?: (amountSatang: number) => Promise<{ senderName: string }>;
}

export interface ConsoleApp {
  /** The page at `/` and its API under `/api/`; anything else falls through to what is mounted after it. */
  readonly app: Express;
  /** Stops listening to the stand-in and ends the pages' event streams. */
  close(): void;
}

export interface ChatConsole {
  /** The page, e.g. `http://127.0.0.1:43211/`. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** One line of the conversation log, as the page receives it. */
export type ConsoleEntry =
  | {
      seq: number;
      at: number;
      shop: string;
      type: "user";
      chatId: string;
      userId: string;
      text: string;
      via: "typed" | "quick-reply" | "postback" | "rich-menu" | "photo";
      /** LINE's id of a typed text (what an edit names). */
      messageId?: string;
    }
  /** A person edited a text they sent (groups only): the page shows the new text in its place. */
  | { seq: number; at: number; shop: string; type: "edit"; chatId: string; userId: string; messageId: string; text: string }
  | { seq: number; at: number; shop: string; type: "bot"; chatId: string; kind: RecordedSend["kind"]; messages: messagingApi.Message[] }
  | { seq: number; at: number; shop: string; type: "rejected"; chatId: string | undefined; path: string; status: number; message: string; details: RecordedRejection["details"] }
  | { seq: number; at: number; shop: string; type: "loading"; chatId: string; seconds: number }
  | { seq: number; at: number; shop: string; type: "notice"; chatId: string; text: string }
  | { seq: number; at: number; shop: string; type: "system"; chatId: string; text: string };

type NewEntry = ConsoleEntry extends infer E ? (E extends ConsoleEntry ? Omit<E, "seq" | "at"> : never) : never;

const MAX_LOG = 1000;
const MAX_TEXT = 5000;
const MAX_POSTBACK = 300;

/** One server-sent event; its id lets the page drop an entry it already has. */
function sseFrame(entry: ConsoleEntry): string {
  return `id: ${entry.seq}\ndata: ${JSON.stringify(entry)}\n\n`;
}

/**
 * A rich menu change, as a named event outside the conversation log: the page asks for the menu again
 * (GET /api/rich-menu), so a page that reconnects simply asks once more instead of replaying changes.
 */
function richMenuFrame(change: RichMenuChange & { shop: string }): string {
  return `event: richmenu\ndata: ${JSON.stringify(change)}\n\n`;
}

/** What GET /api/rich-menu answers: the menu a person sees in the 1:1 chat, with where its image is. */
export type ConsoleRichMenu = messagingApi.RichMenuResponse & { source: "linked" | "default"; imageUrl: string };

/** The page's files: next to this module in src/, or in src/ when this module runs bundled from dist/. */
function findPageDir(): string {
  const candidates = [new URL("./page/", import.meta.url), new URL("../src/page/", import.meta.url)];
  for (const candidate of candidates) {
    const dir = fileURLToPath(candidate);
    if (existsSync(`${dir}index.html`)) return dir;
  }
  throw new Error("chat console: page files not found next to console module or in ../src/page");
}

export function createConsoleApp(options: Omit<ConsoleOptions, "port" | "host">): ConsoleApp {
  const { platform } = options;
  const shops: readonly ConsoleShop[] =
    options.shops ??
    (options.botWebhookUrl !== undefined && options.channelSecret !== undefined
      ? [
          {
            id: "default",
            name: "the shop",
            channel: "default",
            webhookUrl: options.botWebhookUrl,
            channelSecret: options.channelSecret,
            ...(options.simulatePayment === undefined ? {} : { simulatePayment: options.simulatePayment }),
          },
        ]
      : []);
  const [firstShop] = shops;
  if (firstShop === undefined) throw new Error("the console needs a shop: shops, or botWebhookUrl and channelSecret");
  /** The shop a request names (its `shop`), or the first; undefined for a shop the console does not play. */
  const shopNamed = (id: unknown): ConsoleShop | undefined => (id === undefined || id === "" ? firstShop : shops.find((s) => s.id === id));
  const shopOfChannel = (channel: string | undefined): string => shops.find((s) => s.channel === channel)?.id ?? firstShop.id;
  const people = options.people ?? DEMO_PEOPLE;
  const allGroups = options.groups ?? DEMO_GROUPS;
  const views = new Map(shops.map((shop) => [shop.id, shopViewOf(shop, people, allGroups)]));
  /** The groups of the shop a request names: a group that shop does not have is not a chat there. */
  const groupsOf = (shop: ConsoleShop | undefined): readonly DemoGroup[] => (shop === undefined ? [] : (views.get(shop.id)?.groups ?? allGroups));
  const botName = options.botName ?? DEMO_BOT.name;
  const webhookTimeoutMs = options.webhookTimeoutMs ?? 10_000;
  const timeZone = options.timeZone ?? "Asia/Bangkok";
  const pageDir = findPageDir();

  const log: ConsoleEntry[] = [];
  const clients = new Set<Response>();
  let seq = 0;

  const publish = (entry: NewEntry): ConsoleEntry => {
    seq += 1;
    const full = { ...entry, seq, at: Date.now() };
    log.push(full);
    if (log.length > MAX_LOG) log.splice(0, log.length - MAX_LOG);
    const frame = sseFrame(full);
    for (const client of clients) client.write(frame);
    return full;
  };

  const onSent = (send: RecordedSend): void => {
    publish({ shop: shopOfChannel(send.channel), type: "bot", chatId: send.chatId, kind: send.kind, messages: send.messages });
  };
  const onRejected = (rejection: RecordedRejection): void => {
    publish({
      shop: shopOfChannel(rejection.channel),
      type: "rejected",
      chatId: rejection.chatId,
      path: rejection.path,
      status: rejection.status,
      message: rejection.message,
      details: rejection.details,
    });
  };
  const onLoading = (loading: RecordedLoading): void => {
    publish({ shop: shopOfChannel(loading.channel), type: "loading", chatId: loading.chatId, seconds: loading.loadingSeconds });
  };
  const onRichMenu = (change: RichMenuChange): void => {
    const frame = richMenuFrame({ ...change, shop: shopOfChannel(change.channel) });
    for (const client of clients) client.write(frame);
  };
  platform.on("sent", onSent);
  platform.on("rejected", onRejected);
  platform.on("loading", onLoading);
  platform.on("richmenu", onRichMenu);

  /** Resolves who is talking and where, from ids the page sent; undefined when they are not ours. */
  /** Texts sent in groups, by message id, so their authors can edit them; bounded like the log. */
  const groupMessages = new Map<string, { messageId: string; shop: string; chatId: string; userId: string }>();
  const rememberMessage = (messageId: string, shop: string, chatId: string, userId: string): void => {
    groupMessages.set(messageId, { messageId, shop, chatId, userId });
    if (groupMessages.size > MAX_LOG) groupMessages.delete(groupMessages.keys().next().value ?? "");
  };

  /** Who is talking, where, and to which shop's OA, from ids the page sent; undefined when they are not ours. */
  const resolveSource = (body: unknown): (ConsoleSource & { shop: ConsoleShop }) | undefined => {
    const b = (typeof body === "object" && body !== null ? body : {}) as { userId?: unknown; chatId?: unknown; shop?: unknown };
    const shop = shopNamed(b.shop);
    const person = people.find((p) => p.userId === b.userId);
    if (person === undefined || shop === undefined) return undefined;
    if (b.chatId === person.userId) return { type: "user", userId: person.userId, shop };
    const group = groupsOf(shop).find((g) => g.groupId === b.chatId);
    return group === undefined ? undefined : { type: "group", groupId: group.groupId, userId: person.userId, shop };
  };

  /** Signs and delivers one event; a failure shows in the chat instead of disappearing. */
  const deliver = async (source: ConsoleSource & { shop: ConsoleShop }, event: webhook.Event | MessageEditedEvent): Promise<{ status: number }> => {
    const { body, headers } = signedWebhook([event], source.shop.channelSecret, DEMO_BOT.userId);
    const chatId = chatIdOf(source);
    const shop = source.shop.id;
    try {
      const url = typeof source.shop.webhookUrl === "string" ? source.shop.webhookUrl : source.shop.webhookUrl();
      const response = await fetch(url, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(webhookTimeoutMs),
      });
      await response.arrayBuffer();
      if (response.status !== 200) {
        publish({ shop, type: "notice", chatId, text: `The bot answered the webhook with HTTP ${response.status} (LINE expects 200).` });
      }
      return { status: response.status };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      publish({ shop, type: "notice", chatId, text: `The bot's webhook could not be reached (${reason}).` });
      return { status: 0 };
    }
  };

  const app = express();
  app.disable("x-powered-by");
  // Only pages on this machine, asked for by a loopback name: a page elsewhere whose name someone points
  // at 127.0.0.1 (DNS rebinding) carries its own name in Host and is turned away.
  app.use((req, res, next) => {
    if (isLoopbackHostHeader(req.headers.host ?? "")) {
      next();
      return;
    }
    res.status(403).type("text/plain").send("The chat console answers only at http://127.0.0.1 or http://localhost.\n");
  });
  // JSON bodies for the console's own calls only: the bot's webhook, mounted beside it, needs the raw bytes.
  const json = express.json({ limit: "64kb" });

  app.get("/api/config", (_req, res) => {
    res.json({
      botName,
      people,
      groups: allGroups,
      timeZone,
      // Each shop's own view: who is staff there, and its groups.
      shops: shops.map((shop) => ({
        id: shop.id,
        name: shop.name,
        canSimulatePayment: shop.simulatePayment !== undefined,
        hasStaffApp: shop.staffApp !== undefined,
        ...(shop.staff === undefined ? {} : views.get(shop.id)),
        canSendPhotos: shop.slipPhoto !== undefined,
      })),
      canSimulatePayment: firstShop.simulatePayment !== undefined,
    });
  });

  // "Open the staff app": LINE Login as the stand-in plays it, for the persona chosen; the page reads the
  // token after the # (never sent to a server) and then sends it only in its Authorization header.
  app.post("/api/staff-app", json, (req, res) => {
    const body = (typeof req.body === "object" && req.body !== null ? req.body : {}) as { userId?: unknown; shop?: unknown };
    const shop = shopNamed(body.shop);
    const person = people.find((p) => p.userId === body.userId);
    if (shop?.staffApp === undefined || person === undefined) {
      res.status(404).json({ error: "no staff app for this shop, or not one of the console's people" });
      return;
    }
    const token = platform.issueIdToken(person.userId, shop.staffApp.loginChannelId, { name: person.name });
    res.json({ url: `${shop.staffApp.path}#id_token=${encodeURIComponent(token)}` });
  });

  app.post("/api/simulate-payment", json, async (req, res) => {
    const body = (typeof req.body === "object" && req.body !== null ? req.body : {}) as { amount?: unknown; chatId?: unknown; shop?: unknown };
    const shop = shopNamed(body.shop);
    const simulate = shop?.simulatePayment;
    if (shop === undefined || simulate === undefined) {
      res.status(404).json({ error: "simulating a payment needs the embedded sandbox" });
      return;
    }
    const { amount, chatId = "" } = body;
    if (typeof amount !== "number" || !Number.isFinite(amount) || amount <= 0 || Math.round(amount * 100) > MAX_AMOUNT_SATANG || Math.round(amount * 100) !== amount * 100) {
      res.status(400).json({ error: "amount must be baht above 0 with at most 2 decimals" });
      return;
    }
    // The chat the note shows in: one of the console's, or none.
    const known = chatId === "" || people.some((p) => p.userId === chatId) || groupsOf(shop).some((g) => g.groupId === chatId);
    if (typeof chatId !== "string" || !known) {
      res.status(400).json({ error: "chatId must be one of the console's chats" });
      return;
    }
    try {
      const { senderName } = await simulate(Math.round(amount * 100));
      publish({ shop: shop.id, type: "system", chatId, text: `${senderName} paid ${shop.name} ฿${amount.toFixed(2)} (a simulated transfer, now in the sandbox's history).` });
      res.json({ senderName });
    } catch (error) {
      res.status(502).json({ error: error instanceof Error ? error.message : String(error) });
    }
  });

  app.get("/api/events", (req: Request, res: Response) => {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
    });
    res.write("retry: 1000\n\n");
    // The page dedupes by seq, so the whole backlog is sent on every (re)connect.
    for (const entry of log) res.write(sseFrame(entry));
    clients.add(res);
    const keepAlive = setInterval(() => res.write(": keep-alive\n\n"), 15_000);
    req.on("close", () => {
      clearInterval(keepAlive);
      clients.delete(res);
    });
  });

  app.post("/api/send", json, async (req, res) => {
    const source = resolveSource(req.body);
    const text = (req.body as { text?: unknown } | undefined)?.text;
    const via = (req.body as { via?: unknown } | undefined)?.via === "quick-reply" ? "quick-reply" : "typed";
    if (source === undefined || typeof text !== "string" || text.trim() === "" || text.length > MAX_TEXT) {
      res.status(400).json({ error: "need a known userId, a chatId that person can use, and text of 1 to 5000 characters" });
      return;
    }
    const chatId = chatIdOf(source);
    const { channel, id: shop } = source.shop;
    const markAsReadToken = source.type === "user" ? platform.issueMarkAsReadToken(source.userId, channel) : undefined;
    const event = textMessageEvent({ source, text, replyToken: platform.issueReplyToken(chatId, channel), botName, ...(markAsReadToken === undefined ? {} : { markAsReadToken }) });
    publish({ shop, type: "user", chatId, userId: source.userId, text, via, messageId: event.message.id });
    if (source.type === "group") rememberMessage(event.message.id, shop, chatId, source.userId);
    res.json(await deliver(source, event));
  });

  // A persona sends a photo: LINE keeps its bytes under the message's id (the stand-in's data host serves
  // them) and the webhook's image event names it, as LINE's does.
  app.post("/api/send-photo", json, async (req, res) => {
    const source = resolveSource(req.body);
    const choice = (req.body as { photo?: unknown } | undefined)?.photo;
    const photo = source?.shop.slipPhoto;
    if (source === undefined || photo === undefined || !SLIP_PHOTO_CHOICES.some((c) => c === choice)) {
      res.status(400).json({ error: `need a known userId, a chatId that person can use, a shop with the embedded sandbox, and photo: ${SLIP_PHOTO_CHOICES.join(", ")}` });
      return;
    }
    const chatId = chatIdOf(source);
    const { channel, id: shop } = source.shop;
    let made: { png: Uint8Array; caption: string };
    try {
      made = await photo(choice as SlipPhotoChoice);
    } catch (error) {
      res.status(502).json({ error: error instanceof Error ? error.message : String(error) });
      return;
    }
    const messageId = platform.addMessageContent(made.png, "image/png", channel);
    const event = imageMessageEvent({ source, messageId, replyToken: platform.issueReplyToken(chatId, channel) });
    publish({ shop, type: "user", chatId, userId: source.userId, text: made.caption, via: "photo", messageId });
    res.json(await deliver(source, event));
  });

  // A person edits a text they sent in a group: LINE sends `messageEdited` with the same message id.
  app.post("/api/edit", json, async (req, res) => {
    const source = resolveSource(req.body);
    const body = req.body as { messageId?: unknown; text?: unknown } | undefined;
    const { messageId, text } = body ?? {};
    const own = typeof messageId === "string" ? groupMessages.get(messageId) : undefined;
    if (source?.type !== "group" || own === undefined || own.shop !== source.shop.id || own.chatId !== source.groupId || own.userId !== source.userId) {
      res.status(400).json({ error: "only a text you sent in a group can be edited (LINE allows edits in groups only)" });
      return;
    }
    if (typeof text !== "string" || text.trim() === "" || text.length > MAX_TEXT) {
      res.status(400).json({ error: "need text of 1 to 5000 characters" });
      return;
    }
    publish({ shop: source.shop.id, type: "edit", chatId: source.groupId, userId: source.userId, messageId: own.messageId, text });
    const event = messageEditedEvent({ source, messageId: own.messageId, text, replyToken: platform.issueReplyToken(source.groupId, source.shop.channel), botName });
    res.json(await deliver(source, event));
  });

  app.post("/api/postback", json, async (req, res) => {
    const source = resolveSource(req.body);
    const body = req.body as { data?: unknown; displayText?: unknown } | undefined;
    const data = body?.data;
    const displayText = body?.displayText;
    if (source === undefined || typeof data !== "string" || data.length === 0 || data.length > MAX_POSTBACK) {
      res.status(400).json({ error: "need a known userId, a chatId that person can use, and data of 1 to 300 characters" });
      return;
    }
    const chatId = chatIdOf(source);
    // LINE shows displayText as if the person had sent it; the bot still gets only the postback.
    if (typeof displayText === "string" && displayText !== "") {
      publish({ shop: source.shop.id, type: "user", chatId, userId: source.userId, text: displayText, via: "postback" });
    }
    const event = postbackEvent({ source, data, replyToken: platform.issueReplyToken(chatId, source.shop.channel) });
    res.json(await deliver(source, event));
  });

  // Rich menus show in a 1:1 chat with the bot only, as in the LINE app.
  app.get("/api/rich-menu", (req, res) => {
    const person = people.find((p) => p.userId === req.query["userId"]);
    const shop = shopNamed(req.query["shop"]);
    if (person === undefined || shop === undefined) {
      res.status(400).json({ error: "need the userId of one of the console's people (and a shop it plays)" });
      return;
    }
    const shown = platform.richMenuFor(person.userId, shop.channel);
    const richMenu: ConsoleRichMenu | null =
      shown === undefined
        ? null
        : {
            ...shown.menu,
            source: shown.source,
            imageUrl: `/api/rich-menu/image/${encodeURIComponent(shown.menu.richMenuId)}?shop=${encodeURIComponent(shop.id)}`,
          };
    res.setHeader("cache-control", "no-store");
    res.json({ richMenu });
  });

  // The page takes menu images from here, so it never needs the stand-in's own port.
  app.get("/api/rich-menu/image/:richMenuId", (req, res) => {
    const shop = shopNamed(req.query["shop"]);
    const image = shop === undefined ? undefined : platform.richMenuImage(String(req.params["richMenuId"]), shop.channel);
    if (image === undefined) {
      res.status(404).json({ error: "no such rich menu image" });
      return;
    }
    // A menu's image can never change (LINE uploads it once), so the browser may keep it.
    res.setHeader("cache-control", "private, max-age=86400, immutable");
    res.type(image.contentType).send(image.bytes);
  });

  // A tap on an area of the menu the person sees. The page itself opens uri areas and handles inputOption;
  // here the bot gets what LINE would send it: a postback, a text message, or a switch and its postback.
  app.post("/api/rich-menu/tap", json, async (req, res) => {
    const source = resolveSource(req.body);
    const body = (typeof req.body === "object" && req.body !== null ? req.body : {}) as { richMenuId?: unknown; area?: unknown };
    if (source === undefined || source.type !== "user") {
      res.status(400).json({ error: "need a known userId in their 1:1 chat (LINE shows no rich menu in groups)" });
      return;
    }
    const { channel, id: shop } = source.shop;
    const shown = platform.richMenuFor(source.userId, channel);
    if (shown === undefined || shown.menu.richMenuId !== body.richMenuId) {
      res.status(409).json({ error: "that rich menu is no longer the one this person sees", richMenuId: shown?.menu.richMenuId ?? null });
      return;
    }
    const area = typeof body.area === "number" && Number.isInteger(body.area) ? shown.menu.areas[body.area] : undefined;
    const action = area?.action;
    if (action === undefined) {
      res.status(400).json({ error: `the menu has no area ${String(body.area)}` });
      return;
    }
    const chatId = chatIdOf(source);
    switch (action.type) {
      case "postback": {
        const { data = "", displayText, text } = action;
        const shownText = displayText ?? text;
        if (shownText !== undefined && shownText !== "") {
          publish({ shop, type: "user", chatId, userId: source.userId, text: shownText, via: "rich-menu" });
        }
        const event = postbackEvent({ source, data, replyToken: platform.issueReplyToken(chatId, channel) });
        res.json({ type: action.type, ...(await deliver(source, event)) });
        return;
      }
      case "message": {
        const { text = "" } = action;
        publish({ shop, type: "user", chatId, userId: source.userId, text, via: "rich-menu" });
        const event = textMessageEvent({ source, text, replyToken: platform.issueReplyToken(chatId, channel), botName });
        res.json({ type: action.type, ...(await deliver(source, event)) });
        return;
      }
      case "richmenuswitch": {
        const { data = "", richMenuAliasId = "" } = action;
        const switchStatus = platform.switchRichMenu(source.userId, richMenuAliasId, channel);
        // LINE leaves newRichMenuAliasId out when the switch failed.
        const params: Record<string, string> = switchStatus === "SUCCESS" ? { newRichMenuAliasId: richMenuAliasId, status: switchStatus } : { status: switchStatus };
        const event = postbackEvent({ source, data, params, replyToken: platform.issueReplyToken(chatId, channel) });
        res.json({ type: action.type, switchStatus, ...(await deliver(source, event)) });
        return;
      }
      default:
        res.status(400).json({ error: `a ${action.type} area sends the bot nothing from here (the page handles it)` });
    }
  });

  app.post("/api/greet", json, async (req, res) => {
    const source = resolveSource(req.body);
    if (source === undefined) {
      res.status(400).json({ error: "need a known userId and chatId" });
      return;
    }
    const chatId = chatIdOf(source);
    const person = views.get(source.shop.id)?.people.find((p) => p.userId === source.userId);
    publish({
      shop: source.shop.id,
      type: "system",
      chatId,
      text: source.type === "user" ? `${person?.name ?? "You"} added ${source.shop.name} as a friend.` : `${person?.name ?? "Someone"} invited ${source.shop.name} to the group.`,
    });
    const event = greetingEvent({ source, replyToken: platform.issueReplyToken(chatId, source.shop.channel) });
    res.json(await deliver(source, event));
  });

  // Someone (the persona) joins a group: LINE sends the bot `memberJoined`, naming the group and the newcomer.
  app.post("/api/member-joined", json, async (req, res) => {
    const source = resolveSource(req.body);
    if (source?.type !== "group") {
      res.status(400).json({ error: "need a known userId and one of the console's groups as chatId" });
      return;
    }
    const person = views.get(source.shop.id)?.people.find((p) => p.userId === source.userId);
    publish({ shop: source.shop.id, type: "system", chatId: source.groupId, text: `${person?.name ?? "Someone"} joined the group.` });
    const event = memberJoinedEvent({ groupId: source.groupId, memberId: source.userId, replyToken: platform.issueReplyToken(source.groupId, source.shop.channel) });
    res.json(await deliver(source, event));
  });

  // Browsers ask for /favicon.ico whatever the page links (the staff app's pages too): the console's icon.
  app.get("/favicon.ico", (_req, res) => {
    res.type("image/svg+xml").setHeader("cache-control", "max-age=86400");
    res.sendFile("favicon.svg", { root: pageDir });
  });

  app.use(
    express.static(pageDir, {
      index: "index.html",
      setHeaders: (res) => res.setHeader("cache-control", "no-cache"),
    }),
  );

  return {
    app,
    close() {
      platform.off("sent", onSent);
      platform.off("rejected", onRejected);
      platform.off("loading", onLoading);
      platform.off("richmenu", onRichMenu);
      for (const client of clients) client.end();
      clients.clear();
    },
  };
}

/** The console on a server of its own. */
export async function startConsole(options: ConsoleOptions): Promise<ChatConsole> {
  const chat = createConsoleApp(options);
  const server: Server = await new Promise((resolve, reject) => {
    const s = chat.app.listen(options.port ?? 0, options.host ?? "127.0.0.1", (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${hostForUrl}:${address.port}/`,
    port: address.port,
    close() {
      chat.close();
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
