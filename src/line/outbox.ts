// The send boundary: everything the bot sends to LINE passes here, answers to events and scheduled pushes
// alike, and here alone is decided what may go where. A staff answer goes only to a staff place (a listed
// staff user's 1:1 chat, a listed staff group or room), judged at send time by the destination against the
// staff lists of that moment. Anywhere else it is not sent: the answer's public fallback goes instead, or
// nothing, with a `privacy_blocked` log line and a count. That is a bug to fix: handlers decide by the
// place, and tests fail on any block.
//
// Delivery, once and honestly: the first batch of an event's answer uses its reply token, later batches
// and answers whose token is gone are pushed with an X-Line-Retry-Key made from the event id and batch,
// so a repeated push (a rerun after a crash, another instance) is answered 409 instead of sent twice. With
// shared state, a journal records which replies were tried.
import { randomUUID } from "node:crypto";
import { v5 as uuidv5 } from "uuid";
import type { messagingApi } from "@line/bot-sdk";
import type { Logger } from "pino";
import { isPublic, messagesOf } from "../privacy/answer.js";
import type { Answer, PublicAnswer, StaffAnswer } from "../privacy/answer.js";
import { isStaffPlace } from "../roles/audience.js";
import type { Chat, StaffLists } from "../roles/audience.js";
import type { BatchState, DeliveryJournal } from "../stores/delivery-journal.js";
import { createLineCalls } from "./calls.js";
import type { Delivery, LineCallOptions, PushReason } from "./calls.js";

export type { Delivery, LineEndpoint, LineObserver, NotDeliveredReason, PushReason } from "./calls.js";

/** What the boundary tells the metrics: a staff answer stopped on its way to a place that is not a staff place. */
export interface PrivacyObserver {
  blocked(kind: string, chatType: string): void;
}

export interface OutboxOptions extends LineCallOptions {
  log: Logger;
  /** The staff lists of this moment (they may change while the bot runs). */
  staff: () => StaffLists;
  /**
   * The loading animation starts only if the answer is not sent within this time. LINE hides it at the
   * bot's next message anyway, so a quick answer needs none, and skipping it saves a LINE call. Default 300.
   */
  loadingDelayMs?: number;
  /** Tests pin retry keys with this; by default a key comes from the event id and the batch. */
  newRetryKey?: () => string;
  /** Where an event's progress is kept for a run after a crash; default none (one process, no reruns). */
  journal?: DeliveryJournal;
  privacy?: PrivacyObserver;
}

/** One event's outlet: the first batch uses the reply token, later batches are pushed. */
export interface EventOutlet {
  send(answer: Answer): Promise<void>;
  showLoading(): void;
  /** Marks the 1:1 chat read up to the event's message; never fails the event. */
  markAsRead(markAsReadToken: string): void;
  /** What happened to each batch, in order, for the event's log line. */
  readonly deliveries: readonly Delivery[];
}

export interface DeliveryTarget {
  replyToken: string | undefined;
  chat: Chat;
  /** LINE's webhookEventId: the source of retry keys, and the journal's key. */
  eventId?: string | undefined;
  /**
   * An earlier run of this event may have used its reply token, and no journal says so (it was taken up
   * again after a crash, or stored again after Redis lost its data). The token is still within its life,
   * so "Invalid reply token" can only mean that run's reply went out: it counts as sent, not as a reason
   * to push a second copy.
   */
  replyMayHaveBeenUsed?: boolean;
  /** False when this is surely the event's first run (the shared queue says so): no journal to read. Default: read it. */
  mayHaveRunBefore?: boolean;
  /**
   * False when a rerun would surely come within the reply token's minute, where "Invalid reply token"
   * already says the reply went out (see `replyMayHaveBeenUsed`): the reply attempt need not be journalled.
   * Default: journal it.
   */
  journalReply?: boolean;
}

/** A reply token must be used within a minute of its event (LINE's Messaging API reference). */
export const REPLY_TOKEN_LIFE_MS = 60_000;

export interface Outbox {
  forEvent(target: DeliveryTarget, log?: Logger): EventOutlet;
  /**
   * A push of the bot's own (a scheduled summary, an alert, a payment seen): `pushId` names it, so the same
   * push tried again (the next tick, another instance) has the same retry key and LINE sends it once. A
   * staff answer to a place that is not a staff place is not sent at all.
   */
  push(chat: Chat, answer: Answer, pushId: string, log?: Logger): Promise<Delivery[]>;
}

/** A fixed namespace for retry keys: UUID v5 of `<eventId>:<batch>`, the same on every instance. */
const RETRY_KEY_NAMESPACE = "9b4b2d6e-7c1f-5a3e-8d2b-4f6a1c0e9d37";

/** The push retry key of one batch of one event; random for an event without an id. */
export function retryKeyFor(eventId: string | undefined, batch: number): string {
  return eventId === undefined ? randomUUID() : uuidv5(`${eventId}:${batch}`, RETRY_KEY_NAMESPACE);
}

const MESSAGES_PER_REQUEST = 5;

export function createOutbox(options: OutboxOptions): Outbox {
  const calls = createLineCalls(options);
  const loadingDelayMs = options.loadingDelayMs ?? 300;
  const { journal, staff } = options;

  /**
   * The boundary's one rule. Returns what may go to `chat`: the answer itself, its public fallback, or
   * nothing; a staff answer stopped here is logged and counted.
   */
  function judge(answer: Answer, chat: Chat, log: Logger, withFallback: boolean): PublicAnswer | StaffAnswer | undefined {
    // Public only if really so (a public kind, sealed by privacy/answer.ts): a cast cannot relabel an answer.
    if (isPublic(answer) || isStaffPlace(chat, staff())) return answer;
    const instead = withFallback && answer.audience === "staff" && answer.fallback !== undefined && isPublic(answer.fallback) ? answer.fallback : undefined;
    log.error({ chatType: chat.type, kind: answer.kind, instead: instead?.kind ?? "nothing" }, "privacy_blocked");
    options.privacy?.blocked(answer.kind, chat.type);
    return instead;
  }

  /**
   * An answer that passed `judge`, judged again before every attempt (each retry, the push after a failed
   * reply, each batch): the staff lists may change while it waits for LINE.
   */
  const stillAllowed = (allowed: PublicAnswer | StaffAnswer, chat: Chat) => (): boolean => isPublic(allowed) || isStaffPlace(chat, staff());
  /** A send the boundary stopped because the place stopped being a staff place meanwhile. */
  const stoppedForPrivacy = (delivery: Delivery): boolean => delivery.via === "none" && delivery.reason === "privacy";

  const batchesOf = (messages: readonly messagingApi.Message[]): messagingApi.Message[][] => {
    const batches: messagingApi.Message[][] = [];
    for (let start = 0; start < messages.length; start += MESSAGES_PER_REQUEST) batches.push(messages.slice(start, start + MESSAGES_PER_REQUEST));
    return batches;
  };

  return {
    forEvent(target, eventLog) {
      const log = eventLog ?? options.log;
      let replyToken = target.replyToken;
      const deliveries: Delivery[] = [];
      let answered = false;
      let loadingTimer: NodeJS.Timeout | undefined;
      const { eventId, chat } = target;
      let batchNumber = 0;
      let earlier: Promise<ReadonlyMap<number, BatchState>> | undefined;
      const earlierRun = (): Promise<ReadonlyMap<number, BatchState>> => {
        if (journal === undefined || eventId === undefined || target.mayHaveRunBefore === false) return Promise.resolve(new Map());
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
        async send(answer) {
          answered = true;
          clearTimeout(loadingTimer);
          const allowed = judge(answer, chat, log, true);
          if (allowed === undefined) {
            deliveries.push({ via: "none", reason: "privacy" });
            return;
          }
          const messages = messagesOf(allowed);
          if (messages.length === 0) {
            deliveries.push({ via: "none", reason: "empty" });
            return;
          }
          const before = await earlierRun();
          const allowedNow = stillAllowed(allowed, chat);
          let sentOfThis = 0;
          for (const batch of batchesOf(messages)) {
            const number = batchNumber++;
            const token = replyToken;
            replyToken = undefined; // one reply per event, whatever the outcome
            if (before.get(number) === "done") {
              log.info({ batch: number }, "batch already sent by an earlier run of this event; not sent again");
              deliveries.push({ via: "earlier" });
              sentOfThis += 1;
              continue;
            }
            // Made only when a push needs it (a UUID v5 is a SHA-1): most batches go by reply.
            const pushKey = (): string => options.newRetryKey?.() ?? retryKeyFor(eventId, number);
            const push = (reason: PushReason): Promise<Delivery> => calls.push(chat.id, batch, reason, pushKey(), log, allowedNow);
            let delivery: Delivery;
            if (!allowedNow()) {
              delivery = { via: "none", reason: "privacy" };
            } else if (token === undefined) {
              delivery = await push(deliveries.length === 0 ? "no_reply_token" : "second_batch");
            } else {
              const triedBefore = before.get(number) === "reply_attempted" || (number === 0 && target.replyMayHaveBeenUsed === true);
              if (target.journalReply !== false) await note(number, "reply_attempted");
              const replied = await calls.reply(token, batch, triedBefore, log, allowedNow);
              delivery = replied.via === "push_instead" ? await push(replied.reason) : replied;
            }
            // No "done" mark: a rerun repeats nothing that LINE would take twice (the token is spent, the
            // push's retry key is answered 409), and one write fewer on every event is worth a refused call
            // on the rare rerun.
            deliveries.push(delivery);
            if (stoppedForPrivacy(delivery)) {
              // The place stopped being a staff place meanwhile: the rest of the answer stays unsent, and
              // when none of it went out, its public fallback goes instead (pushed: the reply token may be spent).
              const instead = judge(answer, chat, log, sentOfThis === 0);
              if (instead !== undefined) {
                for (const fallbackBatch of batchesOf(messagesOf(instead))) {
                  const fallbackNumber = batchNumber++;
                  const key = options.newRetryKey?.() ?? retryKeyFor(eventId, fallbackNumber);
                  deliveries.push(await calls.push(chat.id, fallbackBatch, "public_instead", key, log));
                }
              }
              return;
            }
            if (delivery.via !== "none") sentOfThis += 1;
          }
        },
        markAsRead(markAsReadToken) {
          calls.markAsRead(markAsReadToken, log);
        },
        showLoading() {
          // LINE shows the animation in 1:1 chats only, and answers 400 for a group or room id.
          if (chat.type !== "user" || answered || loadingTimer !== undefined) return;
          loadingTimer = setTimeout(() => {
            loadingTimer = undefined;
            if (!answered) calls.showLoading(chat.id, log);
          }, loadingDelayMs);
          loadingTimer.unref();
        },
      };
    },

    async push(chat, answer, pushId, pushLog) {
      const log = pushLog ?? options.log;
      const allowed = judge(answer, chat, log, false);
      if (allowed === undefined) return [{ via: "none", reason: "privacy" }];
      const deliveries: Delivery[] = [];
      let number = 0;
      const allowedNow = stillAllowed(allowed, chat);
      for (const batch of batchesOf(messagesOf(allowed))) {
        const retryKey = options.newRetryKey?.() ?? retryKeyFor(`${pushId}-${chat.id}`, number++);
        const delivery = await calls.push(chat.id, batch, "scheduled", retryKey, log, allowedNow);
        deliveries.push(delivery);
        if (stoppedForPrivacy(delivery)) {
          judge(answer, chat, log, false);
          break;
        }
      }
      return deliveries;
    },
  };
}
