// Delivery to LINE, honestly: every answer once, never twice, and the truth about what happened.
//
// The rules:
// - A reply is retried with the same reply token after a 5xx, a network error or a timeout. A reply token
//   works once, so a retry can never make a second copy: it delivers the only one, or LINE answers
//   "Invalid reply token" because an earlier attempt did get through (then the event counts as answered).
// - "Invalid reply token" on the first attempt means the token expired (the answer took too long) or was
//   used before: the answer is pushed instead, with an X-Line-Retry-Key, so a repeated push is answered
//   409 and sent once.
// - When every reply attempt failed and LINE said so (5xx) or never got the request (connection refused),
//   the answer is pushed: nobody is left without an answer that LINE said it did not deliver. When LINE
//   took a request and never answered, nothing more is sent: it may have arrived, and a possible silence
//   is preferred to a possible duplicate only when LINE itself gave no answer. The log says which.
// - 429 "rate limit" waits (Retry-After when LINE gives one, up to a bound) and tries the same call
//   again; it never turns a free reply into a paid push. 429 "monthly limit" and other 4xx are final.
// - When an event is run again after a crash (with shared state), its journal says which batches went out
//   and which replies were attempted; a push's retry key comes from the event id and the batch, so the
//   same push repeated by another instance is answered 409 instead of sent twice.
import { randomUUID } from "node:crypto";
import { v5 as uuidv5 } from "uuid";
import { HTTPFetchError } from "@line/bot-sdk";
import type { messagingApi } from "@line/bot-sdk";
import type { Logger } from "pino";
import { parseRetryAfterMs, retryDelayMs } from "../retry.js";
import type { RetryPolicy } from "../retry.js";
import type { LineApi } from "./api.js";

/** What an earlier run of an event did, batch by batch: written before a reply is tried and when a batch is done. */
export interface DeliveryJournal {
  read(eventId: string): Promise<ReadonlyMap<number, BatchState>>;
  write(eventId: string, batch: number, state: BatchState): Promise<void>;
}

export type BatchState = "reply_attempted" | "done";

/** What the sender tells its watcher (the metrics): one API call and LINE's answer (`200`, `429`, `network`...). */
export interface LineObserver {
  call(endpoint: "reply" | "push" | "loading", status: string): void;
}

export interface LineSenderOptions {
  api: LineApi;
  log: Logger;
  /** Attempts per call, the first included. Default 4. */
  attempts?: number;
  /** Backoff between attempts: full jitter below base * 2^(n-1), capped. Defaults 250 ms and 4,000 ms. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** The longest Retry-After honoured on a 429; longer ones are cut to it. Default 10,000. */
  maxRetryAfterMs?: number;
  /** How long the loading animation may run (5..60, a multiple of 5). Default 10. */
  loadingSeconds?: number;
  /**
   * The animation starts only if the answer is not sent within this time. LINE hides it at the bot's
   * next message anyway, so a quick answer needs none, and skipping it saves a LINE call. Default 300.
   */
  loadingDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** Tests pin retry keys with this; by default a key comes from the event id and the batch. */
  newRetryKey?: () => string;
  observer?: LineObserver;
  /** Where an event's progress is kept for a run after a crash; default none (one process, no reruns). */
  journal?: DeliveryJournal;
}

/** How one batch of messages reached the chat, or why it did not. */
export type Delivery =
  | { via: "reply" }
  /** Sent by an earlier run of the same event, before a crash. */
  | { via: "earlier" }
  | { via: "push"; retryKey: string; attempts: number; reason: PushReason }
  | { via: "none"; reason: NotDeliveredReason };

export type PushReason = "no_reply_token" | "invalid_reply_token" | "reply_failed" | "second_batch";

/**
 * `monthly_limit`: the channel's monthly push quota is used up. `rate_limited`: LINE kept answering 429.
 * `rejected`: LINE refused the request (a 4xx). `line_down`: LINE failed or could not be reached on every
 * attempt. `line_unknown`: LINE took the request but never answered; it may have arrived. `empty`: no messages.
 */
export type NotDeliveredReason = "monthly_limit" | "rate_limited" | "rejected" | "line_down" | "line_unknown" | "empty";

/** One event's outlet: the first batch uses the reply token, later batches are pushed. */
export interface EventOutlet {
  send(messages: messagingApi.Message[]): Promise<void>;
  showLoading(): void;
  /** What happened to each batch, in order, for the event's log line. */
  readonly deliveries: readonly Delivery[];
}

export interface DeliveryTarget {
  replyToken: string | undefined;
  chatId: string;
  chatType: "user" | "group" | "room";
  /** LINE's webhookEventId: the source of retry keys, and the journal's key. */
  eventId?: string | undefined;
}

export interface LineSender {
  forEvent(target: DeliveryTarget, log?: Logger): EventOutlet;
}

/** A fixed namespace for retry keys: UUID v5 of `<eventId>:<batch>`, the same on every instance. */
const RETRY_KEY_NAMESPACE = "9b4b2d6e-7c1f-5a3e-8d2b-4f6a1c0e9d37";

/** The push retry key of one batch of one event; random for an event without an id. */
export function retryKeyFor(eventId: string | undefined, batch: number): string {
  return eventId === undefined ? randomUUID() : uuidv5(`${eventId}:${batch}`, RETRY_KEY_NAMESPACE);
}

/** LINE's answer to a failed call, reduced to what decides the next step and what belongs in the log. */
type CallFailure =
  | { kind: "http"; status: number; lineMessage: string | undefined; requestId: string | null; retryAfter: string | undefined; details: unknown }
  /** `sent`: whether the request may have reached LINE (a timeout after sending) or surely did not (refused). */
  | { kind: "network"; code: string | undefined; message: string; sent: boolean };

/** What to do after a failed call. */
type Verdict = "retry" | "rate_limited" | "monthly_limit" | "rejected";

const MESSAGES_PER_REQUEST = 5;

/** Network errors that happen before a request can reach LINE: nothing was sent. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "EHOSTUNREACH", "ENETUNREACH"]);

export function createLineSender(options: LineSenderOptions): LineSender {
  const attempts = Math.max(1, options.attempts ?? 4);
  const policy: RetryPolicy = {
    retries: attempts - 1,
    backoffBaseMs: options.backoffBaseMs ?? 250,
    maxDelayMs: options.backoffMaxMs ?? 4_000,
  };
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
  const loadingSeconds = options.loadingSeconds ?? 10;
  const loadingDelayMs = options.loadingDelayMs ?? 300;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const { api, observer, journal } = options;

  /** The wait before attempt `attempt + 1`: LINE's Retry-After on a 429 (bounded), else jittered backoff. */
  const waitBefore = (attempt: number, failure: CallFailure): number => {
    const retryAfterMs = failure.kind === "http" && failure.status === 429 ? parseRetryAfterMs(failure.retryAfter, now()) : undefined;
    if (retryAfterMs !== undefined) return Math.min(retryAfterMs, maxRetryAfterMs);
    return retryDelayMs(attempt, policy, undefined, random);
  };

  const report = (endpoint: "reply" | "push" | "loading", outcome: CallFailure | "200"): void => {
    if (observer === undefined) return;
    if (outcome === "200") observer.call(endpoint, "200");
    else observer.call(endpoint, outcome.kind === "http" ? String(outcome.status) : outcome.sent ? "timeout" : "network");
  };

  async function push(to: string, messages: messagingApi.Message[], reason: PushReason, retryKey: string, log: Logger): Promise<Delivery> {
    // One key for every attempt (and every instance): LINE answers 409 instead of sending a second copy.
    let lastFailure: CallFailure | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const { requestId } = await api.push({ to, messages }, retryKey);
        report("push", "200");
        log.info({ op: "push", reason, attempt, retryKey, requestId }, "pushed instead of replying");
        return { via: "push", retryKey, attempts: attempt, reason };
      } catch (err) {
        const failure = describeFailure(err);
        report("push", failure);
        if (failure.kind === "http" && failure.status === 409) {
          log.info({ op: "push", reason, attempt, retryKey, requestId: failure.requestId }, "push already accepted under this retry key");
          return { via: "push", retryKey, attempts: attempt, reason };
        }
        lastFailure = failure;
        const verdict = judge(failure);
        if (verdict === "monthly_limit" || verdict === "rejected") {
          log.error({ op: "push", reason, attempt, retryKey, ...failureFields(failure) }, verdict === "monthly_limit" ? "LINE monthly message limit reached; push not sent" : "LINE rejected the push; not retried");
          return { via: "none", reason: verdict };
        }
        if (attempt === attempts) break;
        log.warn({ op: "push", reason, attempt, retryKey, ...failureFields(failure) }, "push failed; retrying with the same retry key");
        await sleep(waitBefore(attempt, failure));
      }
    }
    const gaveUp: NotDeliveredReason = lastFailure !== undefined && judge(lastFailure) === "rate_limited" ? "rate_limited" : "line_down";
    log.error({ op: "push", reason, attempts, retryKey, ...(lastFailure === undefined ? {} : failureFields(lastFailure)) }, "push failed on every attempt; not delivered");
    return { via: "none", reason: gaveUp };
  }

  /**
   * Replies, retrying with the same token where that is safe (see the rules at the top). `triedBefore`:
   * an earlier run of the event tried this reply, so it may have delivered.
   */
  async function reply(
    replyToken: string,
    to: string,
    messages: messagingApi.Message[],
    pushKey: () => string,
    triedBefore: boolean,
    log: Logger,
  ): Promise<Delivery> {
    /** An earlier attempt may have reached LINE without an answer: it may have delivered. */
    let mayHaveArrived = triedBefore;
    let lastFailure: CallFailure | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const { requestId } = await api.reply({ replyToken, messages });
        report("reply", "200");
        log.debug({ op: "reply", attempt, requestId }, "replied");
        return { via: "reply" };
      } catch (err) {
        const failure = describeFailure(err);
        report("reply", failure);
        lastFailure = failure;
        if (failure.kind === "http" && failure.status === 400 && isInvalidReplyToken(failure.lineMessage)) {
          if (attempt > 1 || triedBefore) {
            log.info({ op: "reply", attempt, ...failureFields(failure) }, "reply token already used by an earlier attempt: that reply was delivered");
            return triedBefore && attempt === 1 ? { via: "earlier" } : { via: "reply" };
          }
          log.info({ op: "reply", ...failureFields(failure) }, "reply token expired or used; pushing instead");
          return push(to, messages, "invalid_reply_token", pushKey(), log);
        }
        const verdict = judge(failure);
        if (verdict === "monthly_limit" || verdict === "rejected") {
          log.error({ op: "reply", ...failureFields(failure) }, verdict === "monthly_limit" ? "LINE monthly message limit reached; nothing sent" : "LINE rejected the reply; nothing sent");
          return { via: "none", reason: verdict };
        }
        if (failure.kind === "network" && failure.sent) mayHaveArrived = true;
        if (attempt === attempts) break;
        log.warn({ op: "reply", attempt, ...failureFields(failure) }, "reply failed; retrying with the same reply token (it cannot deliver twice)");
        await sleep(waitBefore(attempt, failure));
      }
    }
    if (lastFailure !== undefined && judge(lastFailure) === "rate_limited") {
      log.error({ op: "reply", attempts, ...failureFields(lastFailure) }, "LINE kept answering 429; reply not sent (no paid push for a rate limit)");
      return { via: "none", reason: "rate_limited" };
    }
    if (mayHaveArrived) {
      log.error({ op: "reply", attempts, ...(lastFailure === undefined ? {} : failureFields(lastFailure)) }, "LINE never answered the reply; it may have arrived, so nothing more is sent");
      return { via: "none", reason: "line_unknown" };
    }
    log.warn({ op: "reply", attempts, ...(lastFailure === undefined ? {} : failureFields(lastFailure)) }, "LINE said the reply failed on every attempt; pushing instead");
    return push(to, messages, "reply_failed", pushKey(), log);
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
        api.showLoading({ chatId: target.chatId, loadingSeconds }).then(
          () => report("loading", "200"),
          (err: unknown) => {
            const failure = describeFailure(err);
            report("loading", failure);
            log.warn({ op: "loading", ...failureFields(failure) }, "loading animation refused");
          },
        );
      };
      const { eventId } = target;
      let batchNumber = 0;
      let earlier: Promise<ReadonlyMap<number, BatchState>> | undefined;
      const earlierRun = (): Promise<ReadonlyMap<number, BatchState>> => {
        if (journal === undefined || eventId === undefined) return Promise.resolve(new Map());
        earlier ??= journal.read(eventId).catch((err: unknown) => {
          log.warn({ err }, "could not read the event's delivery journal; sending as if first");
          return new Map();
        });
        return earlier;
      };
      const note = async (batch: number, state: BatchState): Promise<void> => {
        if (journal === undefined || eventId === undefined) return;
        try {
          await journal.write(eventId, batch, state);
        } catch (err) {
          log.warn({ err, batch, state }, "could not write the event's delivery journal");
        }
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
          const before = await earlierRun();
          for (let start = 0; start < messages.length; start += MESSAGES_PER_REQUEST) {
            const batch = messages.slice(start, start + MESSAGES_PER_REQUEST);
            const number = batchNumber++;
            const token = replyToken;
            replyToken = undefined; // one reply per event, whatever the outcome
            if (before.get(number) === "done") {
              log.info({ batch: number }, "batch already sent by an earlier run of this event; not sent again");
              deliveries.push({ via: "earlier" });
              continue;
            }
            // Made only when a push needs it (a UUID v5 is a SHA-1): most batches go by reply.
            const pushKey = () => options.newRetryKey?.() ?? retryKeyFor(eventId, number);
            let delivery: Delivery;
            if (token === undefined) {
              delivery = await push(target.chatId, batch, deliveries.length === 0 ? "no_reply_token" : "second_batch", pushKey(), log);
            } else {
              const triedBefore = before.get(number) === "reply_attempted";
              await note(number, "reply_attempted");
              delivery = await reply(token, target.chatId, batch, pushKey, triedBefore, log);
            }
            await note(number, "done");
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
    return {
      kind: "http",
      status: err.status,
      lineMessage,
      requestId: err.headers.get("x-line-request-id"),
      retryAfter: err.headers.get("retry-after") ?? undefined,
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
