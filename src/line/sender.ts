// Delivery to LINE: reply first, push (with a retry key) when the reply token is no good, bounded retries.
import { randomUUID } from "node:crypto";
import { HTTPFetchError } from "@line/bot-sdk";
import type { messagingApi } from "@line/bot-sdk";
import type { Logger } from "pino";

/** The three calls the sender makes; a real MessagingApiClient fits, so does a test double. */
export type LineApi = Pick<
  messagingApi.MessagingApiClient,
  "replyMessageWithHttpInfo" | "pushMessageWithHttpInfo" | "showLoadingAnimationWithHttpInfo"
>;

export interface LineSenderOptions {
  api: LineApi;
  log: Logger;
  /** Push attempts in all, the first included (5xx, network errors and rate limits are retried). Default 4. */
  pushAttempts?: number;
  /** Reply attempts while LINE answers "rate limit exceeded" (nothing was sent, so a retry is safe). Default 3. */
  replyAttempts?: number;
  /** Backoff between attempts: base * 2^(n-1), capped, with jitter. Defaults 250 ms and 4,000 ms. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How long the loading animation may run (5..60, a multiple of 5). Default 10. */
  loadingSeconds?: number;
  /**
   * The animation starts only if the answer is not sent within this time. LINE hides it at the bot's
   * next message anyway, so a quick answer needs none, and skipping it saves a LINE call. Default 300.
   */
  loadingDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  newRetryKey?: () => string;
}

/** How one batch of messages reached the chat, or why it did not. */
export type Delivery =
  | { via: "reply" }
  | { via: "push"; retryKey: string; attempts: number; reason: PushReason }
  | { via: "none"; reason: "monthly_limit" | "rejected" | "gave_up" | "empty" };

export type PushReason = "no_reply_token" | "invalid_reply_token" | "reply_failed" | "reply_rate_limited" | "second_batch";

/** One event's outlet: the first batch uses the reply token, later batches are pushed. */
export interface EventOutlet {
  send(messages: messagingApi.Message[]): Promise<void>;
  showLoading(): void;
  /** What happened to each batch, in order, for the event's log line. */
  readonly deliveries: readonly Delivery[];
}

export interface LineSender {
  forEvent(target: { replyToken: string | undefined; chatId: string; chatType: "user" | "group" | "room" }, log?: Logger): EventOutlet;
}

/** LINE's answer to a failed call, reduced to what decides the next step and what belongs in the log. */
type CallFailure =
  | { kind: "http"; status: number; lineMessage: string | undefined; requestId: string | null; details: unknown }
  | { kind: "network"; code: string | undefined; message: string };

const MESSAGES_PER_REQUEST = 5;

export function createLineSender(options: LineSenderOptions): LineSender {
  const pushAttempts = Math.max(1, options.pushAttempts ?? 4);
  const replyAttempts = Math.max(1, options.replyAttempts ?? 3);
  const baseMs = options.backoffBaseMs ?? 250;
  const maxMs = options.backoffMaxMs ?? 4_000;
  const loadingSeconds = options.loadingSeconds ?? 10;
  const loadingDelayMs = options.loadingDelayMs ?? 300;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const newRetryKey = options.newRetryKey ?? randomUUID;
  const { api } = options;

  const backoff = (attempt: number): number => {
    const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  };

  async function push(
    to: string,
    messages: messagingApi.Message[],
    reason: PushReason,
    log: Logger,
  ): Promise<Delivery> {
    // One key for every attempt: LINE answers 409 instead of sending a second copy.
    const retryKey = newRetryKey();
    for (let attempt = 1; attempt <= pushAttempts; attempt++) {
      try {
        const { httpResponse } = await api.pushMessageWithHttpInfo({ to, messages }, retryKey);
        log.info({ op: "push", reason, attempt, retryKey, requestId: httpResponse.headers.get("x-line-request-id") }, "pushed instead of replying");
        return { via: "push", retryKey, attempts: attempt, reason };
      } catch (err) {
        if (err instanceof SyntaxError) {
          // LINE accepted the push (2xx) but its body did not parse; the messages went out.
          return { via: "push", retryKey, attempts: attempt, reason };
        }
        const failure = describeFailure(err);
        if (failure.kind === "http" && failure.status === 409) {
          log.info({ op: "push", reason, attempt, retryKey, requestId: failure.requestId }, "push already accepted under this retry key");
          return { via: "push", retryKey, attempts: attempt, reason };
        }
        const verdict = judge(failure);
        const last = attempt === pushAttempts || verdict !== "retry";
        log[last ? "error" : "warn"]({ op: "push", reason, attempt, retryKey, ...failureFields(failure) }, pushFailureText(verdict, last));
        if (verdict === "monthly_limit") return { via: "none", reason: "monthly_limit" };
        if (verdict === "stop") return { via: "none", reason: "rejected" };
        if (last) return { via: "none", reason: "gave_up" };
        await sleep(backoff(attempt));
      }
    }
    return { via: "none", reason: "gave_up" };
  }

  /** Replies once; a retry happens only after a rate-limit answer, when LINE provably sent nothing. */
  async function reply(
    replyToken: string,
    to: string,
    messages: messagingApi.Message[],
    log: Logger,
  ): Promise<Delivery> {
    for (let attempt = 1; attempt <= replyAttempts; attempt++) {
      try {
        const { httpResponse } = await api.replyMessageWithHttpInfo({ replyToken, messages });
        log.debug({ op: "reply", attempt, requestId: httpResponse.headers.get("x-line-request-id") }, "replied");
        return { via: "reply" };
      } catch (err) {
        if (err instanceof SyntaxError) return { via: "reply" }; // 2xx with an unreadable body: sent
        const failure = describeFailure(err);
        if (failure.kind === "http" && failure.status === 400 && isInvalidReplyToken(failure.lineMessage)) {
          log.info({ op: "reply", ...failureFields(failure) }, "reply token expired or used; pushing instead");
          return push(to, messages, "invalid_reply_token", log);
        }
        const verdict = judge(failure);
        if (verdict === "monthly_limit") {
          log.error({ op: "reply", ...failureFields(failure) }, "LINE monthly message limit reached; nothing sent");
          return { via: "none", reason: "monthly_limit" };
        }
        if (verdict === "stop") {
          log.error({ op: "reply", ...failureFields(failure) }, "LINE rejected the reply; nothing sent");
          return { via: "none", reason: "rejected" };
        }
        if (failure.kind === "http" && failure.status === 429) {
          if (attempt < replyAttempts) {
            log.warn({ op: "reply", attempt, ...failureFields(failure) }, "reply rate limited; retrying");
            await sleep(backoff(attempt));
            continue;
          }
          log.warn({ op: "reply", attempt, ...failureFields(failure) }, "reply still rate limited; pushing instead");
          return push(to, messages, "reply_rate_limited", log);
        }
        // A 5xx or a network error: LINE may or may not have taken the reply. Never send the reply a
        // second time; push with a retry key instead, because silence confuses staff more than a rare
        // duplicate does.
        log.warn({ op: "reply", attempt, ...failureFields(failure) }, "reply failed; pushing instead (a duplicate is possible)");
        return push(to, messages, "reply_failed", log);
      }
    }
    return push(to, messages, "reply_rate_limited", log);
  }

  return {
    forEvent(target, eventLog) {
      const log = eventLog ?? options.log;
      let replyToken = target.replyToken;
      const deliveries: Delivery[] = [];
      let answered = false;
      let loadingTimer: NodeJS.Timeout | undefined;
      const startLoading = (): void => {
        loadingTimer = undefined;
        if (answered) return;
        api.showLoadingAnimationWithHttpInfo({ chatId: target.chatId, loadingSeconds }).then(
          () => undefined,
          (err: unknown) => {
            const failure = describeFailure(err);
            log.warn({ op: "loading", ...failureFields(failure) }, "loading animation refused");
          },
        );
      };
      return {
        deliveries,
        async send(messages) {
          answered = true;
          clearTimeout(loadingTimer);
          if (messages.length === 0) {
            deliveries.push({ via: "none", reason: "empty" });
            return;
          }
          for (let start = 0; start < messages.length; start += MESSAGES_PER_REQUEST) {
            const batch = messages.slice(start, start + MESSAGES_PER_REQUEST);
            const token = replyToken;
            replyToken = undefined; // single use, whatever the outcome
            const delivery =
              token === undefined
                ? await push(target.chatId, batch, deliveries.length === 0 ? "no_reply_token" : "second_batch", log)
                : await reply(token, target.chatId, batch, log);
            deliveries.push(delivery);
          }
        },
        showLoading() {
          // LINE shows the animation in 1:1 chats only, and answers 400 for a group or room id.
          if (target.chatType !== "user" || answered || loadingTimer !== undefined) return;
          loadingTimer = setTimeout(startLoading, loadingDelayMs);
          loadingTimer.unref();
        },
      };
    },
  };
}

type Verdict = "retry" | "stop" | "monthly_limit";

function judge(failure: CallFailure): Verdict {
  if (failure.kind === "network") return "retry";
  if (failure.status === 429) return isMonthlyLimit(failure.lineMessage) ? "monthly_limit" : "retry";
  if (failure.status >= 500) return "retry";
  return "stop";
}

function pushFailureText(verdict: Verdict, last: boolean): string {
  if (verdict === "monthly_limit") return "LINE monthly message limit reached; push not sent";
  if (verdict === "stop") return "LINE rejected the push; not retried";
  return last ? "push failed; giving up" : "push failed; retrying";
}

function isInvalidReplyToken(message: string | undefined): boolean {
  return message !== undefined && /invalid reply token/i.test(message);
}

function isMonthlyLimit(message: string | undefined): boolean {
  return message !== undefined && /monthly limit/i.test(message);
}

function describeFailure(err: unknown): CallFailure {
  if (err instanceof HTTPFetchError) {
    let lineMessage: string | undefined;
    let details: unknown;
    try {
      const parsed: unknown = JSON.parse(err.body);
      if (typeof parsed === "object" && parsed !== null) {
        const record = parsed as Record<string, unknown>;
        if (typeof record.message === "string") lineMessage = record.message;
        details = record.details;
      }
    } catch {
      lineMessage = err.body.slice(0, 200) || undefined;
    }
    return { kind: "http", status: err.status, lineMessage, requestId: err.headers.get("x-line-request-id"), details };
  }
  const cause = err instanceof Error ? err.cause : undefined;
  const code =
    typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : undefined;
  return { kind: "network", code, message: err instanceof Error ? err.message : String(err) };
}

function failureFields(failure: CallFailure): Record<string, unknown> {
  return failure.kind === "http"
    ? {
        status: failure.status,
        lineMessage: failure.lineMessage,
        requestId: failure.requestId,
        ...(failure.details === undefined ? {} : { details: failure.details }),
      }
    : { networkError: failure.code ?? failure.message };
}
