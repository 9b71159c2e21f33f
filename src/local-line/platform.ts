// The loopback stand-in for the LINE Messaging API endpoints the bot calls: reply, push, loading animation,
// mark as read, the quota, the bot's info and webhook endpoint, and rich menus (menus, images, default,
// per-user links, aliases; see rich-menus.ts).
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
import type { RichMenuChange, RichMenuImage, RichMenuSwitchStatus, ShownRichMenu } from "./rich-menus.js";

export type { RichMenu, RichMenuChange, RichMenuImage, RichMenuSwitchStatus, ShownRichMenu } from "./rich-menus.js";

export interface RecordedSend {
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
  chatId: string;
  loadingSeconds: number;
  at: number;
}

export interface RecordedRejection {
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
  /** Accept only this channel access token; default: any non-empty bearer token. */
  channelAccessToken?: string;
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
  /** A fresh reply token for an event in `chatId` (what LINE puts in a webhook event). */
  issueReplyToken(chatId: string): string;
  /** A mark-as-read token for a message a user sent in their 1:1 chat (what LINE puts in its message event). */
  issueMarkAsReadToken(userId: string): string;
  /** Chats the bot marked read. */
  readonly reads: RecordedRead[];
  /** Sets the webhook URL and its switch, as the LINE Developers Console does. */
  setWebhook(webhook: { endpoint: string; active: boolean }): void;
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
  /** The rich menu the LINE app would show this user in the 1:1 chat: their linked menu, else the default, else none. */
  richMenuFor(userId: string): ShownRichMenu | undefined;
  /** A rich menu's uploaded image, if it has one. */
  richMenuImage(richMenuId: string): RichMenuImage | undefined;
  /** What a `richmenuswitch` tap does in LINE: links the alias's menu to the user, and reports how it went. */
  switchRichMenu(userId: string, richMenuAliasId: string): RichMenuSwitchStatus;
  on<K extends keyof LinePlatformEvents>(event: K, listener: (...args: LinePlatformEvents[K]) => void): void;
  off<K extends keyof LinePlatformEvents>(event: K, listener: (...args: LinePlatformEvents[K]) => void): void;
  close(): Promise<void>;
}

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
  const tokens = new Map<string, TokenState>();
  const retryKeys = new Map<string, AcceptedPush & { at: number }>();
  const sent: RecordedSend[] = [];
  const loadings: RecordedLoading[] = [];
  const reads: RecordedRead[] = [];
  const readTokens = new Map<string, string>();
  const botInfo: BotInfo = {
    userId: "U0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c",
    basicId: "@slipline",
    displayName: "slipline",
    chatMode: "chat",
    markAsReadMode: "manual",
    ...options.botInfo,
  };
  let webhook = options.webhook ?? { endpoint: "", active: false };
  const rejected: RecordedRejection[] = [];
  const duplicates: RecordedDuplicate[] = [];
  let monthlyQuota = options.monthlyQuota;
  let pushUsage = 0;

  const record = (send: RecordedSend): void => {
    sent.push(send);
    emitter.emit("sent", send);
  };

  const reject = (req: Request, res: Response, error: HttpError, chatId: string | undefined): void => {
    const requestId = String(res.getHeader("x-line-request-id"));
    const details = Array.isArray(error.body["details"]) ? (error.body["details"] as ValidationDetail[]) : undefined;
    const rejection: RecordedRejection = {
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

  const badBody = (details: ValidationDetail[]): HttpError =>
    new HttpError(400, { message: summarize(details), details });

  const richMenus = new RichMenuStore(now, (change) => emitter.emit("richmenu", change));

  const app = express();
  app.disable("x-powered-by");

  app.use((_req, res, next) => {
    res.setHeader("x-line-request-id", newRequestId());
    next();
  });

  app.use("/v2", (req, res, next) => {
    const header = req.get("authorization");
    if (header === undefined || header.trim() === "") {
      reject(
        req,
        res,
        new HttpError(401, { message: "Authorization header required. Must follow the scheme, 'Authorization: Bearer <ACCESS TOKEN>'" }),
        undefined,
      );
      return;
    }
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    const token = match?.[1];
    if (token === undefined || (options.channelAccessToken !== undefined && token !== options.channelAccessToken)) {
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
    next();
  });

  // Rich menus parse their own bodies (an image upload is not JSON), so they come before the JSON parser.
  app.use(
    richMenuRouter(richMenus, {
      fail(req, res, error, record) {
        if (record) reject(req, res, new HttpError(error.status, error.body), error.chatId);
        else res.status(error.status).json(error.body);
      },
    }),
  );

  app.use(express.json({ limit: "2mb", type: () => true }));

  app.post("/v2/bot/message/reply", (req, res) => {
    const body: unknown = req.body;
    const token = stringField(body, "replyToken");
    const state = token !== undefined ? tokens.get(token) : undefined;
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
    record({ kind: "reply", chatId: state.chatId, messages, requestId: String(res.getHeader("x-line-request-id")), at: now() });
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
    const loading: RecordedLoading = { chatId, loadingSeconds, at: now() };
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
    const chatId = readTokens.get(token);
    if (chatId === undefined) {
      reject(req, res, new HttpError(400, { message: "Invalid markAsReadToken" }), undefined);
      return;
    }
    if (botInfo.chatMode !== "chat") {
      reject(req, res, new HttpError(400, { message: "The chat feature is not enabled for this bot" }), chatId);
      return;
    }
    const read: RecordedRead = { chatId, at: now() };
    reads.push(read);
    res.status(200).json({});
  });

  app.get("/v2/bot/info", (_req, res) => {
    res.status(200).json(botInfo);
  });
  app.get("/v2/bot/channel/webhook/endpoint", (_req, res) => {
    res.status(200).json(webhook);
  });
  app.put("/v2/bot/channel/webhook/endpoint", (req, res) => {
    const endpoint = stringField(req.body, "endpoint");
    if (endpoint === undefined || !/^https:\/\//.test(endpoint) || endpoint.length > 500) {
      reject(req, res, badBody([{ message: "must be an https URL of at most 500 characters", property: "endpoint" }]), undefined);
      return;
    }
    webhook = { endpoint, active: webhook.active };
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

  const issueReplyToken = (chatId: string): string => {
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

  const issueMarkAsReadToken = (userId: string): string => {
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
        rejectWait(
          new Error(
            `waited ${timeoutMs} ms for ${count} accepted send(s), have ${sent.length}` +
              (seen.length > 0 ? `; rejected: ${seen.join("; ")}` : ""),
          ),
        );
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
    setWebhook(next) {
      webhook = { ...next };
    },
    sent,
    loadings,
    rejected,
    duplicates,
    waitForSent,
    richMenuFor: (userId) => richMenus.shownTo(userId),
    richMenuImage: (richMenuId) => richMenus.image(richMenuId),
    switchRichMenu: (userId, richMenuAliasId) => richMenus.switchTo(userId, richMenuAliasId),
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
