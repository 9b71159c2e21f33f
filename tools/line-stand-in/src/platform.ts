// The loopback stand-in for the LINE Messaging API endpoints the bot calls: reply, push, loading animation,
// mark as read, the quota, the bot's info and webhook endpoint, rich menus (menus, images, default,
// per-user links, aliases; see rich-menus.ts), and, as LINE's data host does, the content of the photos
// people sent (GET /v2/bot/message/{messageId}/content).
// It answers like LINE (status codes, bodies, x-line-request-id), checks every body against LINE's limits,
// and records what was accepted and what was rejected for tests and the chat console.
import { EventEmitter } from "node:events";
import { randomBytes, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import type { Request, Response, NextFunction } from "express";
import type { messagingApi } from "@line/bot-sdk";
import { isUserId, summarize, validatePushBody, validateReplyBody } from "./validate.js";
import type { ValidationDetail } from "./validate.js";
import { newMessageId } from "./webhook-events.js";
import { RichMenuStore, richMenuRouter } from "./rich-menus.js";
import { createLoginStandIn } from "./login.js";
import type { RichMenuChange, RichMenuImage, RichMenuSwitchStatus, ShownRichMenu } from "./rich-menus.js";

export type { RichMenu, RichMenuChange, RichMenuImage, RichMenuSwitchStatus, ShownRichMenu } from "./rich-menus.js";

export interface RecordedSend {
  /** The channel (the OA) that sent it: the name its access token was registered under. */
  channel: string;
  kind: "reply" | "push";
  chatId: string;
  messages: messagingApi.Message[];
  retryKey?: string;
  /** The x-line-request-id the stand-in answered with. */
  requestId: string;
  /** Milliseconds since the epoch (from the `now` option). */
  at: number;
}

/** A chat marked read by the bot, up to the message its token came with. */
export interface RecordedRead {
  channel: string;
  chatId: string;
  at: number;
}

/** What GET /v2/bot/info answers: the OA as the LINE Official Account Manager set it up. */
export interface BotInfo {
  userId: string;
  basicId: string;
  displayName: string;
  /** `chat`: the OA's Chat is on (people may answer by hand; mark as read works); `bot`: off. */
  chatMode: "chat" | "bot";
  markAsReadMode: "auto" | "manual";
}

export interface RecordedLoading {
  channel: string;
  chatId: string;
  loadingSeconds: number;
  at: number;
}

export interface RecordedRejection {
  /** The channel whose token made the request (undefined when the token was refused). */
  channel: string | undefined;
  path: string;
  status: number;
  message: string;
  details?: ValidationDetail[];
  /** The chat the rejected request was meant for, when the stand-in can tell (push `to`, a known reply token). */
  chatId?: string;
  requestId: string;
  at: number;
}

/** A push repeated with an already accepted X-Line-Retry-Key (answered 409, not sent again). */
export interface RecordedDuplicate {
  retryKey: string;
  chatId: string;
  acceptedRequestId: string;
  at: number;
}

export interface LinePlatformOptions {
  port?: number;
  host?: string;
  /** How long a reply token stays good; LINE says one minute. */
  replyTokenTtlMs?: number;
  /** Accept only this channel access token (one channel named `default`); default: any non-empty bearer token. */
  channelAccessToken?: string;
  /**
   * Several channels (several OAs, as one deployment serving many shops has): each access token is one
   * channel, with its own reply tokens, rich menus, bot info and webhook. Only these tokens are accepted.
   */
  channels?: readonly { name: string; accessToken: string; botInfo?: Partial<BotInfo> }[];
  /** Accept http image urls on loopback hosts (the sandbox's QR links in local mode). Default true. */
  allowHttpLoopbackImages?: boolean;
  /** The clock, for reply-token expiry. */
  now?: () => number;
  /** The channel's monthly push quota; default none (unlimited, as LINE's `type: none`). */
  monthlyQuota?: number;
  /** The OA's info; default a demo OA with Chat on. */
  botInfo?: Partial<BotInfo>;
  /** The webhook URL set in the console, and whether "Use webhook" is on. Default none, off. */
  webhook?: { endpoint: string; active: boolean };
  /** Who is in which group or room (GET /v2/bot/group/{groupId}/member/{userId}); default nobody. */
  groupMembers?: Readonly<Record<string, readonly string[]>>;
}

export interface LinePlatformEvents {
  sent: [RecordedSend];
  rejected: [RecordedRejection];
  loading: [RecordedLoading];
  duplicate: [RecordedDuplicate];
  /** A rich menu, its image, the default, a user's link or an alias changed. */
  richmenu: [RichMenuChange];
}

export interface LinePlatform {
  /** Base URL for LINE_API_BASE_URL / the SDK's baseURL, e.g. `http://127.0.0.1:43210`. */
  readonly url: string;
  readonly port: number;
  /** A fresh reply token for an event in `chatId` of a channel (what LINE puts in a webhook event). */
  issueReplyToken(chatId: string, channel?: string): string;
  /** A mark-as-read token for a message a user sent in their 1:1 chat (what LINE puts in its message event). */
  issueMarkAsReadToken(userId: string, channel?: string): string;
  /** Chats the bot marked read. */
  readonly reads: RecordedRead[];
  /** Sets a channel's webhook URL and its switch, as the LINE Developers Console does. */
  setWebhook(webhook: { endpoint: string; active: boolean }, channel?: string): void;
  readonly sent: RecordedSend[];
  readonly loadings: RecordedLoading[];
  readonly rejected: RecordedRejection[];
  /** Pushes answered 409 because their retry key was already accepted. */
  readonly duplicates: RecordedDuplicate[];
  /** Sets (or, with undefined, lifts) the monthly push quota; each accepted push counts one. */
  setMonthlyQuota(quota: number | undefined): void;
  /** Pushes counted against the quota this "month" (since the stand-in started). */
  readonly pushUsage: number;
  /** Resolves once at least `count` sends were accepted (all of them, in order); rejects after `timeoutMs` (5000). */
  waitForSent(count: number, timeoutMs?: number): Promise<RecordedSend[]>;
  /** The rich menu the LINE app would show this user in the 1:1 chat with a channel's OA: their linked menu, else the default, else none. */
  richMenuFor(userId: string, channel?: string): ShownRichMenu | undefined;
  /** A rich menu's uploaded image, if it has one. */
  richMenuImage(richMenuId: string, channel?: string): RichMenuImage | undefined;
  /** What a `richmenuswitch` tap does in LINE: links the alias's menu to the user, and reports how it went. */
  switchRichMenu(userId: string, richMenuAliasId: string, channel?: string): RichMenuSwitchStatus;
  /** LINE Login: an ID token of a user for a LINE Login channel, as `liff.getIDToken()` gives it. */
  issueIdToken(userId: string, loginChannelId: string, options?: { name?: string; ttlMs?: number }): string;
  /** Sets who is in a group or room. */
  setGroupMembers(groupId: string, userIds: readonly string[]): void;
  /**
   * A photo someone sent to a channel's OA: LINE keeps its bytes under the message's id, which the webhook's
   * image event carries; the channel's token downloads them from the content endpoint. Returns the id.
   */
  addMessageContent(bytes: Uint8Array, contentType: "image/jpeg" | "image/png", channel?: string): string;
  /** Makes the content endpoint answer this status (a LINE outage) until lifted with undefined. */
  failContent(status: number | undefined): void;
  /** Content downloads asked for, in order: the channel and message id (and the status answered). */
  readonly contentRequests: readonly { channel: string; messageId: string; status: number }[];
  on<K extends keyof LinePlatformEvents>(event: K, listener: (...args: LinePlatformEvents[K]) => void): void;
  off<K extends keyof LinePlatformEvents>(event: K, listener: (...args: LinePlatformEvents[K]) => void): void;
  close(): Promise<void>;
}

/** One channel (one OA): what LINE keeps for it apart from every other. */
interface ChannelState {
  readonly name: string;
  readonly replyTokens: Map<string, TokenState>;
  readonly readTokens: Map<string, string>;
  readonly richMenus: RichMenuStore;
  /** The photos people sent to this OA, by message id. */
  readonly contents: Map<string, { bytes: Uint8Array; contentType: string }>;
  readonly botInfo: BotInfo;
  webhook: { endpoint: string; active: boolean };
}

/** Requests carry their channel, found from the access token. */
type ChannelRequest = Request & { lineChannel?: ChannelState };

interface TokenState {
  chatId: string;
  issuedAt: number;
  used: boolean;
}

interface AcceptedPush {
  requestId: string;
  sentMessages: { id: string }[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Bounds so a long-running local session cannot grow without limit.
const MAX_TOKENS = 10_000;
const MAX_RETRY_KEYS = 10_000;
/** Photos kept per channel; the oldest go first (LINE keeps content for a while, then answers 404). */
const MAX_CONTENTS = 500;
const RETRY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** A LINE-like opaque request id: 36 hex-ish characters. */
function newRequestId(): string {
  return randomUUID();
}

/** A top-level field of a parsed body that may not be an object at all. */
function field(body: unknown, key: string): unknown {
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>)[key] : undefined;
}

function stringField(body: unknown, key: string): string | undefined {
  const value = field(body, key);
  return typeof value === "string" ? value : undefined;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body["message"]));
  }
}

export async function startLinePlatform(options: LinePlatformOptions = {}): Promise<LinePlatform> {
  const host = options.host ?? "127.0.0.1";
  const ttlMs = options.replyTokenTtlMs ?? 60_000;
  const now = options.now ?? Date.now;
  const validateOptions = { allowHttpLoopback: options.allowHttpLoopbackImages ?? true };
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const retryKeys = new Map<string, AcceptedPush & { at: number }>();
  const sent: RecordedSend[] = [];
  const loadings: RecordedLoading[] = [];
  const reads: RecordedRead[] = [];
  const channels = new Map<string, ChannelState>();
  /** Access token to channel; empty when any token is accepted (as the `default` channel). */
  const channelOfToken = new Map<string, ChannelState>();
  const addChannel = (name: string, botInfo: Partial<BotInfo> | undefined): ChannelState => {
    const channel: ChannelState = {
      name,
      replyTokens: new Map(),
      readTokens: new Map(),
      contents: new Map(),
      richMenus: new RichMenuStore(now, (change) => emitter.emit("richmenu", { ...change, channel: name })),
      botInfo: {
        userId: "U0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c",
        basicId: `@${name === "default" ? "slipline" : name}`,
        displayName: "slipline",
        chatMode: "chat",
        markAsReadMode: "manual",
        ...options.botInfo,
        ...botInfo,
      },
      webhook: options.webhook ?? { endpoint: "", active: false },
    };
    channels.set(name, channel);
    return channel;
  };
  if (options.channels !== undefined) {
    for (const c of options.channels) channelOfToken.set(c.accessToken, addChannel(c.name, c.botInfo));
  } else {
    const only = addChannel("default", undefined);
    if (options.channelAccessToken !== undefined) channelOfToken.set(options.channelAccessToken, only);
  }
  const channelNamed = (name: string): ChannelState => {
    const channel = channels.get(name);
    if (channel === undefined) throw new Error(`the stand-in has no channel "${name}"`);
    return channel;
  };
  const channelOf = (req: Request): ChannelState => {
    const channel = (req as ChannelRequest).lineChannel;
    if (channel === undefined) throw new Error("a request reached a LINE endpoint without its channel");
    return channel;
  };
  const rejected: RecordedRejection[] = [];
  const duplicates: RecordedDuplicate[] = [];
  let monthlyQuota = options.monthlyQuota;
  let contentFault: number | undefined;
  const contentRequests: { channel: string; messageId: string; status: number }[] = [];
  let pushUsage = 0;

  const record = (send: RecordedSend): void => {
    sent.push(send);
    emitter.emit("sent", send);
  };

  const reject = (req: Request, res: Response, error: HttpError, chatId: string | undefined): void => {
    const requestId = String(res.getHeader("x-line-request-id"));
    const details = Array.isArray(error.body["details"]) ? (error.body["details"] as ValidationDetail[]) : undefined;
    const rejection: RecordedRejection = {
      channel: (req as ChannelRequest).lineChannel?.name,
      path: req.path,
      status: error.status,
      message: error.message,
      requestId,
      at: now(),
      ...(details !== undefined ? { details } : {}),
      ...(chatId !== undefined ? { chatId } : {}),
    };
    rejected.push(rejection);
    emitter.emit("rejected", rejection);
    res.status(error.status).json(error.body);
  };

  const badBody = (details: ValidationDetail[]): HttpError => new HttpError(400, { message: summarize(details), details });

  const app = express();
  app.disable("x-powered-by");

  app.use((_req, res, next) => {
    res.setHeader("x-line-request-id", newRequestId());
    next();
  });

  // LINE Login's verify endpoint takes a form, and no channel access token.
  const login = createLoginStandIn(now);
  app.use(login.router);
  const groupMembers = new Map<string, Set<string>>(Object.entries(options.groupMembers ?? {}).map(([id, users]) => [id, new Set(users)]));

  app.use("/v2", (req, res, next) => {
    const header = req.get("authorization");
    if (header === undefined || header.trim() === "") {
      reject(req, res, new HttpError(401, { message: "Authorization header required. Must follow the scheme, 'Authorization: Bearer <ACCESS TOKEN>'" }), undefined);
      return;
    }
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    const token = match?.[1];
    const channel = token === undefined ? undefined : channelOfToken.size === 0 ? channels.get("default") : channelOfToken.get(token);
    if (token === undefined || channel === undefined) {
      reject(
        req,
        res,
        new HttpError(401, {
          message: "Authentication failed due to the following reason: invalid token. Confirm that the access token in the authorization header is valid.",
        }),
        undefined,
      );
      return;
    }
    (req as ChannelRequest).lineChannel = channel;
    next();
  });

  // Rich menus parse their own bodies (an image upload is not JSON), so they come before the JSON parser.
  app.use(
    richMenuRouter((req) => channelOf(req).richMenus, {
      fail(req, res, error, record) {
        if (record) reject(req, res, new HttpError(error.status, error.body), error.chatId);
        else res.status(error.status).json(error.body);
      },
    }),
  );

  // LINE's data host: the bytes of a photo sent to this channel's OA, with its content type; 404 for an id
  // the channel does not have (another OA's, unknown, or no longer kept).
  app.get("/v2/bot/message/:messageId/content", (req, res) => {
    const channel = channelOf(req);
    const messageId = String(req.params["messageId"]);
    const content = channel.contents.get(messageId);
    const status = contentFault ?? (content === undefined ? 404 : 200);
    contentRequests.push({ channel: channel.name, messageId, status });
    if (status !== 200 || content === undefined) {
      res.status(status).json({ message: status === 404 ? "Not found" : "An error occurred" });
      return;
    }
    res.status(200).type(content.contentType).send(Buffer.from(content.bytes));
  });

  app.use(express.json({ limit: "2mb", type: () => true }));

  app.post("/v2/bot/message/reply", (req, res) => {
    const body: unknown = req.body;
    const token = stringField(body, "replyToken");
    const channel = channelOf(req);
    // A reply token is the channel's own: another OA's token is as good as none.
    const state = token !== undefined ? channel.replyTokens.get(token) : undefined;
    if (req.get("x-line-retry-key") !== undefined) {
      reject(req, res, new HttpError(400, { message: "The retry key cannot be used with this API (reply messages)" }), state?.chatId);
      return;
    }
    const details = validateReplyBody(body, validateOptions);
    if (details.length > 0) {
      reject(req, res, badBody(details), state?.chatId);
      return;
    }
    if (state === undefined || state.used || now() - state.issuedAt > ttlMs) {
      reject(req, res, new HttpError(400, { message: "Invalid reply token" }), state?.chatId);
      return;
    }
    state.used = true;
    const messages = (body as { messages: messagingApi.Message[] }).messages;
    const sentMessages = messages.map(() => ({ id: newMessageId() }));
    record({ channel: channel.name, kind: "reply", chatId: state.chatId, messages, requestId: String(res.getHeader("x-line-request-id")), at: now() });
    res.status(200).json({ sentMessages });
  });

  app.post("/v2/bot/message/push", (req, res) => {
    const body: unknown = req.body;
    const to = stringField(body, "to");
    const retryKey = req.get("x-line-retry-key");
    if (retryKey !== undefined && !UUID.test(retryKey)) {
      reject(req, res, new HttpError(400, { message: "The retry key must be a UUID (hexadecimal with hyphens)" }), to);
      return;
    }
    const details = validatePushBody(body, validateOptions);
    // `to` is undefined only when the details already say so; the second test narrows its type.
    if (details.length > 0 || to === undefined) {
      reject(req, res, badBody(details), to);
      return;
    }
    if (retryKey !== undefined) {
      const earlier = retryKeys.get(retryKey.toLowerCase());
      if (earlier !== undefined && now() - earlier.at <= RETRY_KEY_TTL_MS) {
        // A repeat of an accepted push: LINE answers 409 and sends nothing; senders count it as sent.
        res.setHeader("x-line-accepted-request-id", earlier.requestId);
        const duplicate: RecordedDuplicate = { retryKey, chatId: to, acceptedRequestId: earlier.requestId, at: now() };
        duplicates.push(duplicate);
        emitter.emit("duplicate", duplicate);
        res.status(409).json({ message: "The retry key is already accepted", sentMessages: earlier.sentMessages });
        return;
      }
    }
    // Replies are free; each accepted push counts against the monthly quota.
    if (monthlyQuota !== undefined && pushUsage >= monthlyQuota) {
      reject(req, res, new HttpError(429, { message: "You have reached your monthly limit." }), to);
      return;
    }
    pushUsage += 1;
    const messages = (body as { messages: messagingApi.Message[] }).messages;
    const sentMessages = messages.map(() => ({ id: newMessageId() }));
    const requestId = String(res.getHeader("x-line-request-id"));
    if (retryKey !== undefined) {
      if (retryKeys.size >= MAX_RETRY_KEYS) {
        const oldest = retryKeys.keys().next().value;
        if (oldest !== undefined) retryKeys.delete(oldest);
      }
      retryKeys.set(retryKey.toLowerCase(), { requestId, sentMessages, at: now() });
    }
    record({
      channel: channelOf(req).name,
      kind: "push",
      chatId: to,
      messages,
      requestId,
      at: now(),
      ...(retryKey !== undefined ? { retryKey } : {}),
    });
    res.status(200).json({ sentMessages });
  });

  // The quota the bot reads before its opt-in pushes.
  app.get("/v2/bot/message/quota", (_req, res) => {
    res.status(200).json(monthlyQuota === undefined ? { type: "none" } : { type: "limited", value: monthlyQuota });
  });
  app.get("/v2/bot/message/quota/consumption", (_req, res) => {
    res.status(200).json({ totalUsage: pushUsage });
  });

  app.post("/v2/bot/chat/loading/start", (req, res) => {
    const body: unknown = req.body;
    const chatId = field(body, "chatId");
    const seconds = field(body, "loadingSeconds");
    if (typeof chatId !== "string" || chatId === "") {
      reject(req, res, badBody([{ message: "must be specified", property: "chatId" }]), undefined);
      return;
    }
    if (!isUserId(chatId)) {
      reject(req, res, new HttpError(400, { message: "Only user id is acceptable" }), chatId);
      return;
    }
    const loadingSeconds = seconds === undefined ? 20 : seconds;
    if (typeof loadingSeconds !== "number" || !Number.isInteger(loadingSeconds) || loadingSeconds < 5 || loadingSeconds > 60 || loadingSeconds % 5 !== 0) {
      reject(req, res, badBody([{ message: "Must be a multiple of 5 between 5 and 60", property: "loadingSeconds" }]), chatId);
      return;
    }
    const loading: RecordedLoading = { channel: channelOf(req).name, chatId, loadingSeconds, at: now() };
    loadings.push(loading);
    emitter.emit("loading", loading);
    res.status(202).json({});
  });

  // Mark as read: only a token LINE issued for a message to this bot; only while the OA's Chat is on.
  app.post("/v2/bot/chat/markAsRead", (req, res) => {
    const token = stringField(req.body, "markAsReadToken");
    if (token === undefined || token === "") {
      reject(req, res, badBody([{ message: "must be specified", property: "markAsReadToken" }]), undefined);
      return;
    }
    const channel = channelOf(req);
    const chatId = channel.readTokens.get(token);
    if (chatId === undefined) {
      reject(req, res, new HttpError(400, { message: "Invalid markAsReadToken" }), undefined);
      return;
    }
    if (channel.botInfo.chatMode !== "chat") {
      reject(req, res, new HttpError(400, { message: "The chat feature is not enabled for this bot" }), chatId);
      return;
    }
    const read: RecordedRead = { channel: channel.name, chatId, at: now() };
    reads.push(read);
    res.status(200).json({});
  });

  // 200 with the member's profile, 404 for anyone else (the bot's own channel is not checked: any OA in the group may ask).
  app.get(["/v2/bot/group/:chatId/member/:userId", "/v2/bot/room/:chatId/member/:userId"], (req, res) => {
    const { chatId, userId } = req.params as { chatId: string; userId: string };
    if (groupMembers.get(chatId)?.has(userId) !== true) {
      res.status(404).json({ message: "Not found" });
      return;
    }
    res.status(200).json({ displayName: userId.slice(0, 8), userId });
  });

  app.get("/v2/bot/info", (req, res) => {
    res.status(200).json(channelOf(req).botInfo);
  });
  app.get("/v2/bot/channel/webhook/endpoint", (req, res) => {
    res.status(200).json(channelOf(req).webhook);
  });
  app.put("/v2/bot/channel/webhook/endpoint", (req, res) => {
    const endpoint = stringField(req.body, "endpoint");
    if (endpoint === undefined || !/^https:\/\//.test(endpoint) || endpoint.length > 500) {
      reject(req, res, badBody([{ message: "must be an https URL of at most 500 characters", property: "endpoint" }]), undefined);
      return;
    }
    const channel = channelOf(req);
    channel.webhook = { endpoint, active: channel.webhook.active };
    res.status(200).json({});
  });

  app.use((_req: Request, res: Response) => {
    res.status(404).json({ message: "Not found" });
  });

  // Body-parser failures (bad JSON, too large) answer like LINE and are shown as rejections.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = typeof (err as { status?: unknown }).status === "number" ? (err as { status: number }).status : 500;
    if (status === 413) {
      reject(req, res, new HttpError(413, { message: "Request entity too large" }), undefined);
    } else if (status === 400) {
      reject(req, res, new HttpError(400, { message: "The request body could not be parsed as JSON" }), undefined);
    } else {
      reject(req, res, new HttpError(500, { message: "An error occurred in the stand-in" }), undefined);
    }
  });

  const server: Server = await new Promise((resolve, reject_) => {
    const s = app.listen(options.port ?? 0, host, (error?: Error) => (error ? reject_(error) : resolve(s)));
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;

  const issueReplyToken = (chatId: string, channelName = "default"): string => {
    const tokens = channelNamed(channelName).replyTokens;
    if (tokens.size >= MAX_TOKENS) {
      // Drop the oldest tokens first; Map keeps insertion order.
      for (const key of tokens.keys()) {
        tokens.delete(key);
        if (tokens.size < MAX_TOKENS / 2) break;
      }
    }
    const token = randomBytes(16).toString("hex");
    tokens.set(token, { chatId, issuedAt: now(), used: false });
    return token;
  };

  const issueMarkAsReadToken = (userId: string, channelName = "default"): string => {
    const { readTokens } = channelNamed(channelName);
    if (readTokens.size >= MAX_TOKENS) readTokens.delete(readTokens.keys().next().value ?? "");
    const token = randomBytes(24).toString("base64url");
    readTokens.set(token, userId);
    return token;
  };

  const waitForSent = (count: number, timeoutMs = 5000): Promise<RecordedSend[]> => {
    if (sent.length >= count) return Promise.resolve(sent.slice());
    return new Promise((resolve, rejectWait) => {
      const onSent = (): void => {
        if (sent.length >= count) {
          cleanup();
          resolve(sent.slice());
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        const seen = rejected.map((r) => `${r.status} ${r.path}: ${r.message}${r.details ? ` ${JSON.stringify(r.details)}` : ""}`);
        rejectWait(new Error(`waited ${timeoutMs} ms for ${count} accepted send(s), have ${sent.length}` + (seen.length > 0 ? `; rejected: ${seen.join("; ")}` : "")));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        emitter.off("sent", onSent);
      };
      emitter.on("sent", onSent);
    });
  };

  return {
    url,
    port: address.port,
    issueReplyToken,
    issueMarkAsReadToken,
    reads,
    setWebhook(next, channelName = "default") {
      channelNamed(channelName).webhook = { ...next };
    },
    sent,
    loadings,
    rejected,
    duplicates,
    waitForSent,
    richMenuFor: (userId, channelName = "default") => channelNamed(channelName).richMenus.shownTo(userId),
    richMenuImage: (richMenuId, channelName = "default") => channelNamed(channelName).richMenus.image(richMenuId),
    switchRichMenu: (userId, richMenuAliasId, channelName = "default") => channelNamed(channelName).richMenus.switchTo(userId, richMenuAliasId),
    issueIdToken: (userId, loginChannelId, tokenOptions) => login.issueIdToken(userId, loginChannelId, tokenOptions),
    setGroupMembers(groupId, userIds) {
      groupMembers.set(groupId, new Set(userIds));
    },
    addMessageContent(bytes, contentType, channelName = "default") {
      const { contents } = channelNamed(channelName);
      if (contents.size >= MAX_CONTENTS) contents.delete(contents.keys().next().value ?? "");
      const messageId = newMessageId();
      contents.set(messageId, { bytes: Uint8Array.from(bytes), contentType });
      return messageId;
    },
    failContent(status) {
      contentFault = status;
    },
    contentRequests,
    setMonthlyQuota(quota) {
      monthlyQuota = quota;
    },
    get pushUsage() {
      return pushUsage;
    },
    on(event, listener) {
      emitter.on(event, listener as (...args: unknown[]) => void);
    },
    off(event, listener) {
      emitter.off(event, listener as (...args: unknown[]) => void);
    },
    close() {
      return new Promise<void>((resolve, rejectClose) => {
        server.close((error) => (error ? rejectClose(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
