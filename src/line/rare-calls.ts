// The calls a shop makes rarely, none of them a message: the start-up look at the channel, the message
// quota, and each user's rich menu. Over the process's shared agent (its timeouts are main's), with the SDK's
// types for the answers but not its client: the SDK's index is some 375 modules, about 27 MB resident and
// 7 MB of heap, and its fetch left web-stream garbage in the old generation (a thousand shops' start-up
// looks, some 25 MiB). Throws LineHttpError for an answer that is not 2xx, as the SDK's client would.
import type { messagingApi } from "@line/bot-sdk";
import { request } from "undici";
import { LINE_USER_AGENT, lineErrorFrom } from "../line-http.js";

/** The two reads of the start-up look at a channel (self-check.ts). */
export type LineChannelReads = Pick<messagingApi.MessagingApiClient, "getBotInfo" | "getWebhookEndpoint">;

/** The quota reads and each user's menu (schedules/quota.ts, rich-menu/links.ts). */
export type RareLineCalls = LineChannelReads &
  Pick<
    messagingApi.MessagingApiClient,
    "getMessageQuota" | "getMessageQuotaConsumption" | "getRichMenuAlias" | "getRichMenuIdOfUser" | "linkRichMenuIdToUser" | "unlinkRichMenuIdFromUser"
  >;

export interface RareCallOptions {
  /** LINE's API origin, e.g. https://api.line.me (a path in it is ignored). */
  baseUrl: string;
  channelAccessToken: string;
}

export function rareLineCalls(options: RareCallOptions): RareLineCalls {
  const origin = new URL(options.baseUrl).origin;
  const authorization = `Bearer ${options.channelAccessToken}`;
  /** One call; LINE's JSON answer (`{}` for an empty one, as the link and unlink calls give). */
  async function call<T>(method: "GET" | "POST" | "DELETE", path: string): Promise<T> {
    const response = await request(`${origin}${path}`, { method, headers: { authorization, "user-agent": LINE_USER_AGENT } });
    const text = await response.body.text();
    if (response.statusCode >= 200 && response.statusCode < 300) return JSON.parse(text === "" ? "{}" : text) as T;
    throw lineErrorFrom(response.statusCode, response.headers, text);
  }
  const segment = encodeURIComponent;
  return {
    getBotInfo: () => call("GET", "/v2/bot/info"),
    getWebhookEndpoint: () => call("GET", "/v2/bot/channel/webhook/endpoint"),
    getMessageQuota: () => call("GET", "/v2/bot/message/quota"),
    getMessageQuotaConsumption: () => call("GET", "/v2/bot/message/quota/consumption"),
    getRichMenuAlias: (aliasId) => call("GET", `/v2/bot/richmenu/alias/${segment(aliasId)}`),
    getRichMenuIdOfUser: (userId) => call("GET", `/v2/bot/user/${segment(userId)}/richmenu`),
    linkRichMenuIdToUser: (userId, richMenuId) => call("POST", `/v2/bot/user/${segment(userId)}/richmenu/${segment(richMenuId)}`),
    unlinkRichMenuIdFromUser: (userId) => call("DELETE", `/v2/bot/user/${segment(userId)}/richmenu`),
  };
}
