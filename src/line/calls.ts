// The two ways a message reaches LINE, reply and push, on one retry policy, each telling honestly what
// happened. Only the send boundary (outbox.ts) uses them: test/architecture.test.ts holds that.
//
// The rules:
// - A reply is retried with the same reply token after a 5xx, a network error or a timeout. A reply token
//   works once, so a retry can never make a second copy: it delivers the only one, or LINE answers
//   "Invalid reply token" because an earlier attempt did get through (then the event counts as answered).
// - "Invalid reply token" on the first attempt means the token expired (the answer took too long) or was
//   used before: the caller pushes instead, with an X-Line-Retry-Key, so a repeated push is answered 409
//   and sent once.
// - When every reply attempt failed and LINE said so (5xx) or never got the request (connection refused),
//   the caller pushes: nobody is left without an answer that LINE said it did not deliver. When LINE took
//   a request and never answered, nothing more is sent: it may have arrived, and a possible silence is
//   preferred to a possible duplicate only when LINE itself gave no answer. The log says which.
// - 429 "rate limit" waits (Retry-After when LINE gives one, up to a bound) and tries the same call
//   again; it never turns a free reply into a paid push. 429 "monthly limit" and other 4xx are final.
import type { messagingApi } from "@line/bot-sdk";
import type { Logger } from "pino";
import { parseRetryAfterMs, retryDelayMs } from "../retry.js";
import type { RetryPolicy } from "../retry.js";
import type { LineApi } from "./api.js";
import { lineHttpFailure } from "../line-http.js";

/** What the calls tell their watcher (the metrics): one API call and LINE's answer (`200`, `429`, `network`...). */
export interface LineObserver {
  call(endpoint: LineEndpoint, status: string): void;
}

export type LineEndpoint = "reply" | "push" | "loading" | "mark_as_read";

export interface LineCallOptions {
  api: LineApi;
  /** Attempts per call, the first included. Default 4. */
  attempts?: number;
  /** Backoff between attempts: full jitter below base * 2^(n-1), capped. Defaults 250 ms and 4,000 ms. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** The longest Retry-After honoured on a 429; longer ones are cut to it. Default 10,000. */
  maxRetryAfterMs?: number;
  /** How long the loading animation may run (5..60, a multiple of 5). Default 10. */
  loadingSeconds?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  observer?: LineObserver;
}

/** How one batch of messages reached the chat, or why it did not. */
export type Delivery =
  | { via: "reply" }
  /** Sent by an earlier run of the same event, before a crash. */
  | { via: "earlier" }
  | { via: "push"; retryKey: string; attempts: number; reason: PushReason }
  | { via: "none"; reason: NotDeliveredReason };

/** `public_instead`: a staff answer's public fallback, its place having stopped being a staff place meanwhile. */
export type PushReason = "no_reply_token" | "invalid_reply_token" | "reply_failed" | "second_batch" | "scheduled" | "public_instead";

/**
 * `monthly_limit`: the channel's monthly push quota is used up. `rate_limited`: LINE kept answering 429.
 * `rejected`: LINE refused the request (a 4xx). `line_down`: LINE failed or could not be reached on every
 * attempt. `line_unknown`: LINE took the request but never answered; it may have arrived. `empty`: no
 * messages. `privacy`: a staff answer whose destination is not a staff place, with nothing public instead.
 */
export type NotDeliveredReason = "monthly_limit" | "rate_limited" | "rejected" | "line_down" | "line_unknown" | "empty" | "privacy";

/**
 * A reply's end: delivered (now or by an earlier run), definitely not, or "push it instead", and why.
 * `none`/`privacy`: stopped before an attempt because the chat is no longer a place for these messages.
 */
export type ReplyResult = Delivery | { via: "push_instead"; reason: "invalid_reply_token" | "reply_failed" };

/**
 * Asked before every attempt of a reply or push (the first and each retry): whether the messages may still
 * go to their chat. The staff lists may change while a call waits to be tried again.
 */
export type StillAllowed = () => boolean;

export interface LineCalls {
  /** `triedBefore`: an earlier run of the event tried this reply, so it may have delivered. */
  reply(replyToken: string, messages: messagingApi.Message[], triedBefore: boolean, log: Logger, allowed?: StillAllowed): Promise<ReplyResult>;
  /** `retryKey` is the same on every attempt (and every instance): LINE answers 409 instead of sending twice. */
  push(to: string, messages: messagingApi.Message[], reason: PushReason, retryKey: string, log: Logger, allowed?: StillAllowed): Promise<Delivery>;
  /** LINE's loading animation in a 1:1 chat; a refusal is logged, never thrown. */
  showLoading(chatId: string, log: Logger): void;
  /**
   * Marks a 1:1 chat read up to a message; never affects the answer. A failure is logged once per cause
   * (LINE refuses it while the OA's Chat is off, and would on every message).
   */
  markAsRead(markAsReadToken: string, log: Logger): void;
}

/** LINE's answer to a failed call, reduced to what decides the next step and what belongs in the log. */
type CallFailure =
  | { kind: "http"; status: number; lineMessage: string | undefined; requestId: string | null; retryAfter: string | undefined; details: unknown }
  /** `sent`: whether the request may have reached LINE (a timeout after sending) or surely did not (refused). */
  | { kind: "network"; code: string | undefined; message: string; sent: boolean };

/** What to do after a failed call. */
type Verdict = "retry" | "rate_limited" | "monthly_limit" | "rejected";

/** Network errors that happen before a request can reach LINE: nothing was sent. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "EHOSTUNREACH", "ENETUNREACH"]);

export function createLineCalls(options: LineCallOptions): LineCalls {
  const attempts = Math.max(1, options.attempts ?? 4);
  const policy: RetryPolicy = {
    retries: attempts - 1,
    backoffBaseMs: options.backoffBaseMs ?? 250,
    maxDelayMs: options.backoffMaxMs ?? 4_000,
  };
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
  const loadingSeconds = options.loadingSeconds ?? 10;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const { api, observer } = options;

  /** Causes of mark-as-read failures already logged. */
  const markAsReadFailures = new Set<string>();

  const report = (endpoint: LineEndpoint, outcome: CallFailure | "200"): void => {
    if (observer === undefined) return;
    if (outcome === "200") observer.call(endpoint, "200");
    else observer.call(endpoint, outcome.kind === "http" ? String(outcome.status) : outcome.sent ? "timeout" : "network");
  };

  /**
   * The one retry loop: `call` until it succeeds, `decide` gives a final result for a failure, or the
   * attempts run out (then the last failure comes back). Waits LINE's Retry-After on a 429 (bounded),
   * else jittered backoff.
   */
  async function withRetries<T>(
    endpoint: "reply" | "push",
    call: (attempt: number) => Promise<T>,
    decide: (failure: CallFailure, attempt: number) => T | undefined,
    onRetry: (failure: CallFailure, attempt: number) => void,
    allowed: StillAllowed | undefined,
  ): Promise<{ done: T } | { exhausted: CallFailure } | { stopped: number }> {
    let last: CallFailure | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      // Judged again before each attempt: a retry after a wait goes only where it may go now.
      if (allowed !== undefined && !allowed()) return { stopped: attempt };
      try {
        const value = await call(attempt);
        report(endpoint, "200");
        return { done: value };
      } catch (err) {
        const failure = describeFailure(err);
        report(endpoint, failure);
        const decided = decide(failure, attempt);
        if (decided !== undefined) return { done: decided };
        last = failure;
        if (attempt === attempts) break;
        onRetry(failure, attempt);
        const retryAfterMs = failure.kind === "http" && failure.status === 429 ? parseRetryAfterMs(failure.retryAfter, now()) : undefined;
        await sleep(retryAfterMs !== undefined ? Math.min(retryAfterMs, maxRetryAfterMs) : retryDelayMs(attempt, policy, undefined, random));
      }
    }
    if (last === undefined) throw new Error("no attempt was made");
    return { exhausted: last };
  }

  return {
    async push(to, messages, reason, retryKey, log, allowed) {
      const fields = { op: "push", reason, retryKey };
      const result = await withRetries<Delivery>(
        "push",
        async (attempt) => {
          const { requestId } = await api.push({ to, messages }, retryKey);
          log.info({ ...fields, attempt, requestId }, reason === "scheduled" ? "pushed" : "pushed instead of replying");
          return { via: "push", retryKey, attempts: attempt, reason };
        },
        (failure, attempt) => {
          if (failure.kind === "http" && failure.status === 409) {
            log.info({ ...fields, attempt, requestId: failure.requestId }, "push already accepted under this retry key");
            return { via: "push", retryKey, attempts: attempt, reason };
          }
          const verdict = judge(failure);
          if (verdict !== "monthly_limit" && verdict !== "rejected") return undefined;
          log.error(
            { ...fields, attempt, ...failureFields(failure) },
            verdict === "monthly_limit" ? "LINE monthly message limit reached; push not sent" : "LINE rejected the push; not retried",
          );
          return { via: "none", reason: verdict };
        },
        (failure, attempt) => log.warn({ ...fields, attempt, ...failureFields(failure) }, "push failed; retrying with the same retry key"),
        allowed,
      );
      if ("done" in result) return result.done;
      if ("stopped" in result) return { via: "none", reason: "privacy" };
      log.error({ ...fields, attempts, ...failureFields(result.exhausted) }, "push failed on every attempt; not delivered");
      return { via: "none", reason: judge(result.exhausted) === "rate_limited" ? "rate_limited" : "line_down" };
    },

    async reply(replyToken, messages, triedBefore, log, allowed) {
      /** An earlier attempt may have reached LINE without an answer: it may have delivered. */
      let mayHaveArrived = triedBefore;
      const result = await withRetries<ReplyResult>(
        "reply",
        async (attempt) => {
          const { requestId } = await api.reply({ replyToken, messages });
          log.debug({ op: "reply", attempt, requestId }, "replied");
          return { via: "reply" };
        },
        (failure, attempt) => {
          if (failure.kind === "http" && failure.status === 400 && isInvalidReplyToken(failure.lineMessage)) {
            if (attempt > 1 || triedBefore) {
              log.info({ op: "reply", attempt, ...failureFields(failure) }, "reply token already used by an earlier attempt: that reply was delivered");
              return triedBefore && attempt === 1 ? { via: "earlier" } : { via: "reply" };
            }
            log.info({ op: "reply", ...failureFields(failure) }, "reply token expired or used; pushing instead");
            return { via: "push_instead", reason: "invalid_reply_token" };
          }
          const verdict = judge(failure);
          if (verdict === "monthly_limit" || verdict === "rejected") {
            log.error(
              { op: "reply", ...failureFields(failure) },
              verdict === "monthly_limit" ? "LINE monthly message limit reached; nothing sent" : "LINE rejected the reply; nothing sent",
            );
            return { via: "none", reason: verdict };
          }
          if (failure.kind === "network" && failure.sent) mayHaveArrived = true;
          return undefined;
        },
        (failure, attempt) => log.warn({ op: "reply", attempt, ...failureFields(failure) }, "reply failed; retrying with the same reply token (it cannot deliver twice)"),
        allowed,
      );
      if ("done" in result) return result.done;
      if ("stopped" in result) return { via: "none", reason: "privacy" };
      const last = result.exhausted;
      if (judge(last) === "rate_limited") {
        log.error({ op: "reply", attempts, ...failureFields(last) }, "LINE kept answering 429; reply not sent (no paid push for a rate limit)");
        return { via: "none", reason: "rate_limited" };
      }
      if (mayHaveArrived) {
        log.error({ op: "reply", attempts, ...failureFields(last) }, "LINE never answered the reply; it may have arrived, so nothing more is sent");
        return { via: "none", reason: "line_unknown" };
      }
      log.warn({ op: "reply", attempts, ...failureFields(last) }, "LINE said the reply failed on every attempt; pushing instead");
      return { via: "push_instead", reason: "reply_failed" };
    },

    markAsRead(markAsReadToken, log) {
      api.markAsRead({ markAsReadToken }).then(
        () => report("mark_as_read", "200"),
        (err: unknown) => {
          const failure = describeFailure(err);
          report("mark_as_read", failure);
          const cause = failure.kind === "http" ? `${failure.status} ${failure.lineMessage ?? ""}` : (failure.code ?? failure.message);
          if (markAsReadFailures.has(cause)) return;
          markAsReadFailures.add(cause);
          log.warn({ op: "mark_as_read", ...failureFields(failure) }, "LINE did not mark the chat read (logged once per cause; the answer is not affected)");
        },
      );
    },

    showLoading(chatId, log) {
      api.showLoading({ chatId, loadingSeconds }).then(
        () => report("loading", "200"),
        (err: unknown) => {
          const failure = describeFailure(err);
          report("loading", failure);
          log.warn({ op: "loading", ...failureFields(failure) }, "loading animation refused");
        },
      );
    },
  };
}

function judge(failure: CallFailure): Verdict {
  if (failure.kind === "network") return "retry";
  if (failure.status === 429) return isMonthlyLimit(failure.lineMessage) ? "monthly_limit" : "rate_limited";
  if (failure.status >= 500) return "retry";
  return "rejected";
}

function isInvalidReplyToken(message: string | undefined): boolean {
  return message !== undefined && /invalid reply token/i.test(message);
}

function isMonthlyLimit(message: string | undefined): boolean {
  return message !== undefined && /monthly limit/i.test(message);
}

function describeFailure(err: unknown): CallFailure {
  const http = lineHttpFailure(err);
  if (http !== undefined) {
    let lineMessage: string | undefined;
    let details: unknown;
    try {
      const parsed: unknown = JSON.parse(http.body);
      if (typeof parsed === "object" && parsed !== null) {
        const record = parsed as Record<string, unknown>;
        if (typeof record.message === "string") lineMessage = record.message;
        details = record.details;
      }
    } catch {
      lineMessage = http.body.slice(0, 200) || undefined;
    }
    return {
      kind: "http",
      status: http.status,
      lineMessage,
      requestId: http.headers.get("x-line-request-id"),
      retryAfter: http.headers.get("retry-after") ?? undefined,
      details,
    };
  }
  // fetch throws "fetch failed" with the socket's error as its cause; some layers throw that error itself.
  const code = codeOf(err instanceof Error ? err.cause : undefined) ?? codeOf(err);
  const message = err instanceof Error ? err.message : typeof err === "object" && err !== null && "message" in err ? String(err.message) : String(err);
  return { kind: "network", code, message, sent: code === undefined || !NOT_SENT_CODES.has(code) };
}

function codeOf(value: unknown): string | undefined {
  return typeof value === "object" && value !== null && "code" in value && typeof value.code === "string" ? value.code : undefined;
}

function failureFields(failure: CallFailure): Record<string, unknown> {
  return failure.kind === "http"
    ? {
        status: failure.status,
        lineMessage: failure.lineMessage,
        requestId: failure.requestId,
        ...(failure.retryAfter === undefined ? {} : { retryAfter: failure.retryAfter }),
        ...(failure.details === undefined ? {} : { details: failure.details }),
      }
    : { networkError: failure.code ?? failure.message, maybeSent: failure.sent };
}
