// The three LINE calls on every event's path (reply, push, loading animation) over one keep-alive undici
// pool, with the SDK's types for the bodies. The SDK's client sends them through global fetch, whose web
// streams, abort signals and Response objects cost about as much CPU per call as the rest of the call
// together (bench/RESULTS.md); the rare calls (the look, quota, each user's menu) are in rare-calls.ts.
//
// A failed call throws LineHttpError (the fields of the SDK client's HTTPFetchError, so the sender reads both
// alike: line-http.ts) with LINE's status, headers and body for an HTTP answer that is not 2xx; undici's own error (its `code`:
// ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT...) when no answer came. A 2xx body is not read: nothing in it is used.
import type { messagingApi } from "@line/bot-sdk";
import { Pool } from "undici";
import type { Dispatcher } from "undici";
import type { HttpTimeouts } from "./http-timeouts.js";
import { LINE_USER_AGENT, lineErrorFrom } from "../line-http.js";
import { DEFAULT_HTTP_TIMEOUTS } from "./http-timeouts.js";

/** What the sender needs from LINE's answer to a call that went through. */
export interface LineAnswer {
  /** LINE's x-line-request-id, for the log (null when LINE sent none). */
  readonly requestId: string | null;
}

/** The calls the sender makes. */
export interface LineApi {
  reply(request: messagingApi.ReplyMessageRequest): Promise<LineAnswer>;
  /** `retryKey` goes in X-Line-Retry-Key: LINE answers 409 instead of sending the same push twice. */
  push(request: messagingApi.PushMessageRequest, retryKey: string): Promise<LineAnswer>;
  showLoading(request: messagingApi.ShowLoadingAnimationRequest): Promise<LineAnswer>;
  /** Marks a 1:1 chat read up to the message the token came with. */
  markAsRead(request: messagingApi.MarkMessagesAsReadByTokenRequest): Promise<LineAnswer>;
}

export interface LineHttpApi extends LineApi {
  /** Closes the connections once the calls in flight are done. */
  close(): Promise<void>;
}

export interface LineHttpApiOptions {
  /** LINE's API origin, e.g. https://api.line.me (a path in it is ignored, as the SDK does). */
  baseUrl: string;
  channelAccessToken: string;
  /** Connections kept to LINE; calls beyond them wait for one. Default 64 (the events handled at once). */
  connections?: number;
  /**
   * Connections shared with the deployment's other shops (compose/connections.ts), closed by their owner: a
   * thousand shops keep a few dozen sockets to LINE, not a few each. Each call carries its own shop's token.
   */
  shared?: Dispatcher | undefined;
  timeouts?: HttpTimeouts;
}

function headerValue(headers: Dispatcher.ResponseData["headers"], name: string): string | null {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

export function createLineHttpApi(options: LineHttpApiOptions): LineHttpApi {
  const timeouts = options.timeouts ?? DEFAULT_HTTP_TIMEOUTS;
  const origin = new URL(options.baseUrl).origin;
  // Made at the first call: a deployment of a thousand shops, most of them quiet at any moment, would
  // otherwise hold a thousand pools (20 KiB each) from the start.
  let pool: Pool | undefined;
  const poolNow = (): Dispatcher =>
    options.shared ??
    (pool ??= new Pool(origin, {
      connections: options.connections ?? 64,
      connectTimeout: timeouts.connectTimeoutMs,
      headersTimeout: timeouts.headersTimeoutMs,
      bodyTimeout: timeouts.bodyTimeoutMs,
    }));
  const authorization = `Bearer ${options.channelAccessToken}`;

  async function post(path: string, body: unknown, retryKey?: string): Promise<LineAnswer> {
    const headers: Record<string, string> = { authorization, "content-type": "application/json", "user-agent": LINE_USER_AGENT };
    if (retryKey !== undefined) headers["x-line-retry-key"] = retryKey;
    const response = await poolNow().request({
      origin,
      method: "POST",
      path,
      headers,
      body: JSON.stringify(body),
      headersTimeout: timeouts.headersTimeoutMs,
      bodyTimeout: timeouts.bodyTimeoutMs,
    });
    if (response.statusCode >= 200 && response.statusCode < 300) {
      await response.body.dump();
      return { requestId: headerValue(response.headers, "x-line-request-id") };
    }
    throw lineErrorFrom(response.statusCode, response.headers, await response.body.text());
  }

  return {
    reply: (request) => post("/v2/bot/message/reply", request),
    push: (request, retryKey) => post("/v2/bot/message/push", request, retryKey),
    showLoading: (request) => post("/v2/bot/chat/loading/start", request),
    markAsRead: (request) => post("/v2/bot/chat/markAsRead", request),
    close: () => pool?.close() ?? Promise.resolve(),
  };
}
