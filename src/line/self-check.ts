// The start-up look at the LINE channel, in LINE mode: does the token work (the bot's name and basic id),
// is the webhook on, and does it point at this deployment. It never stops the start (LINE may be down or
// slow); what it found is logged once, and /readyz and a metric report it.
import type { messagingApi } from "@line/bot-sdk";
import type { Logger } from "pino";
import { lineHttpFailure } from "../line-http.js";

/** What the channel looked like at start-up. */
export type LineCheck =
  | { state: "checking" }
  | {
      state: "ok";
      displayName: string;
      basicId: string;
      /** Things the operator should fix, each logged once: webhook off, pointing elsewhere, mark-as-read without Chat. */
      warnings: LineCheckWarning[];
    }
  /** LINE refused the access token (401 or 403): nothing the bot sends will arrive. */
  | { state: "token_rejected"; status: number }
  /** LINE could not be asked (down, slow, or out of reach): the bot starts anyway. */
  | { state: "unreachable"; reason: string };

export type LineCheckWarning = "webhook_off" | "webhook_elsewhere" | "mark_as_read_without_chat";

export interface LineCheckOptions {
  /** The calls used (rare-calls.ts, or the SDK's client). */
  api: Pick<messagingApi.MessagingApiClient, "getBotInfo" | "getWebhookEndpoint">;
  /** The webhook URL this deployment expects LINE to use (PUBLIC_URL + the webhook path), when known. */
  expectedWebhook: string | undefined;
  /** MARK_AS_READ is on: LINE honours it only while the OA's Chat is on. */
  markAsRead: boolean;
  log: Logger;
}

export async function checkLine(options: LineCheckOptions): Promise<LineCheck> {
  const { api, log } = options;
  let info: messagingApi.BotInfoResponse;
  let endpoint: messagingApi.GetWebhookEndpointResponse;
  try {
    [info, endpoint] = await Promise.all([api.getBotInfo(), api.getWebhookEndpoint()]);
  } catch (err) {
    const http = lineHttpFailure(err);
    if (http !== undefined && (http.status === 401 || http.status === 403)) {
      log.error({ status: http.status }, "LINE refused the channel access token: check LINE_CHANNEL_ACCESS_TOKEN (nothing the bot sends will arrive)");
      return { state: "token_rejected", status: http.status };
    }
    const reason = http !== undefined ? `HTTP ${http.status}` : err instanceof Error ? (codeOf(err) ?? codeOf(err.cause) ?? err.message) : String(err);
    log.warn({ reason }, "could not ask LINE about the channel at start-up; starting anyway");
    return { state: "unreachable", reason };
  }
  const warnings: LineCheckWarning[] = [];
  log.info({ displayName: info.displayName, basicId: info.basicId, chatMode: info.chatMode, markAsReadMode: info.markAsReadMode }, "LINE channel checked: the token works");
  if (!endpoint.active) {
    warnings.push("webhook_off");
    log.warn({ endpoint: endpoint.endpoint }, 'the channel\'s webhook is off: turn on "Use webhook" in the LINE Developers Console, or LINE sends the bot nothing');
  }
  if (options.expectedWebhook !== undefined && endpoint.endpoint !== options.expectedWebhook) {
    warnings.push("webhook_elsewhere");
    log.warn(
      { endpoint: endpoint.endpoint, expected: options.expectedWebhook },
      "the channel's webhook URL is not this deployment's (PUBLIC_URL): set it in the LINE Developers Console",
    );
  }
  if (options.markAsRead && info.chatMode !== "chat") {
    warnings.push("mark_as_read_without_chat");
    log.warn({ chatMode: info.chatMode }, "MARK_AS_READ is set but the OA's Chat is off: LINE marks messages read by itself then, and refuses the bot's marks");
  }
  return { state: "ok", displayName: info.displayName, basicId: info.basicId, warnings };
}

function codeOf(value: unknown): string | undefined {
  return typeof value === "object" && value !== null && "code" in value && typeof value.code === "string" ? value.code : undefined;
}
