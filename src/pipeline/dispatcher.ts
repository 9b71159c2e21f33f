// The event pipeline on one instance: each webhook event once, to the right handler, inside its own error
// boundary, with one log line; a bounded number running and waiting; and a drain that finishes every
// accepted event on shutdown, or apologises to its chat and says so in the log.
import { performance } from "node:perf_hooks";
import PQueue from "p-queue";
import type { Logger } from "pino";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../handlers/context.js";
import { handleEditedText, handleGreeting, handleMemberJoined, handleNonText, handlePostback, handleText } from "../handlers/index.js";
import { readEvent } from "../line/incoming.js";
import type { IncomingEvent } from "../line/incoming.js";
import { REPLY_TOKEN_LIFE_MS } from "../line/outbox.js";
import type { Delivery, EventOutlet, Outbox } from "../line/outbox.js";
import type { Answer } from "../privacy/answer.js";
import { renderApology, renderRestarting } from "../render/errors.js";
import { audienceOf } from "../roles/audience.js";
import type { EventLedger } from "../stores/ledger.js";

export interface EventHandlers {
  handleText: typeof handleText;
  handleNonText: typeof handleNonText;
  handlePostback: typeof handlePostback;
  handleGreeting: typeof handleGreeting;
  handleMemberJoined: typeof handleMemberJoined;
  handleEditedText: typeof handleEditedText;
}

export const REAL_HANDLERS: EventHandlers = { handleText, handleEditedText, handleNonText, handlePostback, handleGreeting, handleMemberJoined };

/** What the pipeline tells the metrics about; every hook is optional. */
export interface PipelineObserver {
  eventHandled?(eventType: string, outcome: string, seconds: number): void;
  duplicate?(): void;
  redelivery?(): void;
  abandoned?(): void;
}

/**
 * The shop an event belongs to, as the pipeline needs it: each event is handled only with its own shop's
 * send boundary, handlers' parts (settings, slip service, stores) and ledger.
 */
export interface ShopPipeline {
  readonly id: string;
  /** The send boundary: every answer goes out through it. */
  readonly outbox: Outbox;
  readonly handlerDeps: HandlerDeps;
  /** The shop's logger (`shop` bound). */
  readonly log: Logger;
  /** Which of the shop's events were answered. */
  readonly ledger: EventLedger;
  readonly observer?: PipelineObserver | undefined;
  /** Told who sent each event handled (the rich menus keep each user's menu current); must not throw. */
  readonly onSender?: ((userId: string) => void) | undefined;
  /** MARK_AS_READ: after a command in a 1:1 chat, mark the chat read up to it (only with the OA's Chat on). */
  readonly markAsRead?: boolean | undefined;
}

/** Events handled at once when MAX_RUNNING_EVENTS is not set. */
export const DEFAULT_RUNNING_EVENTS = 64;

export interface EventDispatcherOptions {
  /** The process's logger, for what belongs to no shop. */
  log: Logger;
  /** Default: the real handlers. */
  handlers?: EventHandlers;
  now?: () => Date;
  /** Events handled at once; the rest wait their turn in arrival order. Default 64. */
  maxConcurrentEvents?: number;
  /** Events that may wait for a turn; past it `hasRoom()` says no and the webhook answers 503. Default 1,000. */
  maxQueuedEvents?: number;
}

/** An event that did not finish within the grace period at shutdown. */
export interface AbandonedEvent {
  shop: string;
  eventId: string | undefined;
  chatId: string | undefined;
  /** Whether its chat was told to send again. */
  apologised: boolean;
}

export interface DrainReport {
  abandoned: AbandonedEvent[];
}

export interface EventDispatcher {
  /**
   * Whether another webhook's events may be accepted: false once the waiting events, with `arriving`
   * webhooks already admitted whose bodies are still being read, reach the bound.
   */
  hasRoom(arriving?: number): boolean;
  /** Accepts one webhook's events (of one shop) at once and handles them: in order within a chat, chats side by side. Never rejects. */
  dispatchAll(shop: ShopPipeline, events: readonly unknown[]): Promise<void>;
  /**
   * Handles one event now, outside the in-process queue: the shared queue has given it its turn (and owns
   * the event until this resolves). The queue stores an event id once (its mark is the ledger's), so the
   * ledger is not asked. `mayHaveRunBefore`: an earlier run may have answered it (taken up again after a
   * crash, or stored again after Redis lost it). Never rejects.
   */
  handleNow(shop: ShopPipeline, event: unknown, taken?: { mayHaveRunBefore: boolean }): Promise<void>;
  /** Events waiting for a turn in this process, and events being handled (queued here or given by a worker). */
  readonly waiting: number;
  readonly running: number;
  /**
   * Waits up to `graceMs` for every accepted event to finish. Any still unfinished then is abandoned:
   * its chat gets a short "please send again" (unless something was already sent), it is logged with its
   * id and chat, and reported. Nothing sent for it afterwards goes out.
   */
  drain(graceMs?: number): Promise<DrainReport>;
}

/** The log line's `outcome`: a handler's, what the dispatcher decided without one, or what delivery made of it. */
type Outcome = HandlerOutcome["outcome"] | "duplicate" | "standby" | "failed" | "answered_by_push" | "not_delivered" | "abandoned";

/** One accepted event, from arrival to its log line. */
interface Tracked {
  shop: ShopPipeline;
  event: IncomingEvent;
  outlet: EventOutlet | undefined;
  /** A send is under way: abandoning now could cross it, so no apology is added. */
  sending: boolean;
  abandoned: boolean;
  /** Resolves when the event's log line is written (or it is abandoned). */
  done: Promise<void>;
  finish: () => void;
  /** The event's logger (its id bound), made once. */
  log?: Logger;
  /** An earlier run may have answered it (see `handleNow`). */
  mayHaveRunBefore?: boolean;
  /** From the shared queue, which stores an event id once: no ledger to ask or tell. */
  storedOnce?: boolean;
}

/** LINE's event timestamps and this host's clock may differ by this much. */
const CLOCK_MARGIN_MS = 10_000;

/**
 * A stored event younger than this at its first run has its reply attempt unjournalled: a rerun replies
 * within the token's minute (a crash found in 2 s, the service's retries under 20 s).
 */
const UNJOURNALLED_AGE_MS = 20_000;

/** Apologies at shutdown must not hold the exit up: each gets this long. */
export const APOLOGY_TIMEOUT_MS = 3_000;

export function createEventDispatcher(options: EventDispatcherOptions): EventDispatcher {
  const handlers = options.handlers ?? REAL_HANDLERS;
  const now = options.now ?? (() => new Date());
  const { log } = options;
  const maxQueued = options.maxQueuedEvents ?? 1_000;
  const concurrency = options.maxConcurrentEvents ?? DEFAULT_RUNNING_EVENTS;
  const queue = new PQueue({ concurrency });
  const unfinished = new Set<Tracked>();
  // Accepted events whose turn has not come: counted from the moment they are accepted, not from when they
  // join the queue a turn of the event loop later (or behind their chat's earlier event). A burst read in
  // one go, while the loop was busy, would otherwise pass the bound before the first one is queued.
  let notStarted = 0;
  const waitingNow = (): number => Math.max(0, notStarted - (concurrency - queue.pending));
  /** Events a shared-queue worker handed over, being handled now. */
  let runningNow = 0;

  const eventLogOf = (tracked: Tracked): Logger => (tracked.log ??= tracked.shop.log.child({ eventId: tracked.event.eventId }));

  function outletFor(tracked: Tracked): EventOutlet | undefined {
    const { event } = tracked;
    if (event.chat === undefined) return undefined;
    // Within the token's life (less a margin for clocks), another run's reply is the only way its token can
    // be spent already: for a stored event, an earlier run (a crash, Redis lost it) or this instance's own
    // in-process run while Redis answered the store too late.
    const replyMayHaveBeenUsed =
      (tracked.mayHaveRunBefore === true || tracked.storedOnce === true) &&
      event.timestamp !== undefined &&
      now().getTime() - event.timestamp < REPLY_TOKEN_LIFE_MS - CLOCK_MARGIN_MS;
    // From the shared queue, an event not marked as maybe run before has no earlier run to look up. And a
    // young one needs no journal of its reply: a rerun after a crash comes within seconds (the queue's
    // lease) and, even after the slip service's retries, replies within the token's minute, where a spent
    // token says the first reply went out.
    const firstRun = tracked.storedOnce === true && tracked.mayHaveRunBefore !== true;
    const young = event.timestamp !== undefined && now().getTime() - event.timestamp < UNJOURNALLED_AGE_MS;
    tracked.outlet ??= tracked.shop.outbox.forEvent(
      {
        replyToken: event.replyToken,
        chat: event.chat,
        eventId: event.eventId,
        replyMayHaveBeenUsed,
        ...(firstRun ? { mayHaveRunBefore: false } : {}),
        ...(firstRun && young ? { journalReply: false } : {}),
      },
      eventLogOf(tracked),
    );
    return tracked.outlet;
  }

  async function dispatchOne(tracked: Tracked, started: number, waitedMs: number): Promise<void> {
    const { event, shop } = tracked;
    const { handlerDeps } = shop;
    const observer = shop.observer ?? {};
    const eventLog = eventLogOf(tracked);
    const line = {
      eventType: event.type,
      chatType: event.chat?.type,
      redelivery: event.isRedelivery,
    };
    const finish = (command: string, handled: Outcome, deliveries: readonly Delivery[] = [], level: "info" | "debug" = "info"): void => {
      if (tracked.abandoned) return; // its line was written when it was abandoned
      const { outcome, reason } = deliveryOutcome(handled, deliveries);
      const seconds = (performance.now() - started) / 1000;
      eventLog[outcome === "not_delivered" ? "warn" : level](
        {
          ...line,
          command,
          outcome,
          ...(reason === undefined ? {} : { reason }),
          delivery: deliveries.map(describeDelivery),
          durationMs: Math.round(seconds * 10_000) / 10,
          waitedMs: Math.round(waitedMs * 10) / 10,
        },
        "event handled",
      );
      observer.eventHandled?.(event.type, outcome, seconds);
    };

    if (event.isRedelivery) observer.redelivery?.();
    // Standby: another channel owns the chat right now; LINE gives no reply token and we send nothing.
    if (event.mode === "standby") return finish("none", "standby", [], "debug");
    if (event.eventId !== undefined && tracked.storedOnce !== true && !(await claim(shop, event.eventId))) {
      observer.duplicate?.();
      return finish("none", "duplicate");
    }

    if (event.userId !== undefined) shop.onSender?.(event.userId);
    const { action } = event;
    if (action.kind === "ignore") return finish("none", "ignored", [], "debug");
    const chat = event.chat;
    if (chat === undefined) {
      eventLog.warn(line, "event names no chat; ignored");
      return finish("none", "ignored");
    }
    // A photo or sticker in a group is never for the bot (a chatty bot annoys a group).
    if (action.kind === "non_text" && chat.type !== "user") return finish("none", "ignored", [], "debug");

    const outlet = outletFor(tracked);
    if (outlet === undefined) return finish("none", "ignored");
    const send = async (answer: Answer): Promise<void> => {
      if (tracked.abandoned) {
        eventLog.warn("answer ready after the event was abandoned at shutdown; not sent");
        return;
      }
      tracked.sending = true;
      try {
        await outlet.send(answer);
      } finally {
        tracked.sending = false;
      }
    };
    const ctx: ChatContext = {
      chat,
      userId: event.userId,
      audience: audienceOf(chat, event.userId, handlerDeps.settings),
      now: now(),
      send,
      showLoading: () => outlet.showLoading(),
    };
    const deps: HandlerDeps = { ...handlerDeps, log: eventLog };

    try {
      const result = await runHandler(event, ctx, deps);
      if (shop.markAsRead === true && action.kind === "text" && chat.type === "user" && result.command !== "none" && action.markAsReadToken !== undefined) {
        outlet.markAsRead(action.markAsReadToken);
      }
      await settle(tracked);
      finish(result.command, result.outcome, outlet.deliveries);
    } catch (err) {
      // A handler throws only on a bug. Log it, and say sorry in the chat (a group too) rather than leave it silent.
      eventLog.error({ err, ...line }, "handler failed");
      if (outlet.deliveries.length === 0) {
        try {
          await send(renderApology(handlerDeps.settings.defaultLang));
        } catch (sendErr) {
          eventLog.error({ err: sendErr }, "apology not sent");
        }
      }
      await settle(tracked);
      finish("unknown", "failed", outlet.deliveries);
    }
  }

  /** Whether to handle the event; when the ledger cannot be reached, a possible duplicate beats a lost answer. */
  async function claim(shop: ShopPipeline, eventId: string): Promise<boolean> {
    try {
      return await shop.ledger.claim(eventId);
    } catch (err) {
      shop.log.warn({ err, eventId }, "could not check whether the event was answered before; handling it");
      return true;
    }
  }

  /** Marks the event answered; a ledger that cannot be reached only risks a later duplicate, so it is logged, not thrown. */
  async function settle(tracked: Tracked): Promise<void> {
    const { event, shop } = tracked;
    if (event.eventId === undefined || tracked.storedOnce === true) return;
    try {
      await shop.ledger.settle(event.eventId);
    } catch (err) {
      shop.log.warn({ err, eventId: event.eventId }, "could not record the event as answered");
    }
  }

  async function runHandler(event: IncomingEvent, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
    const { action } = event;
    switch (action.kind) {
      case "text":
        return handlers.handleText({ text: action.text, mentionees: action.mentionees, messageId: action.messageId, timestamp: event.timestamp }, ctx, deps);
      case "edited_text":
        return handlers.handleEditedText({ text: action.text, mentionees: action.mentionees, messageId: action.messageId, timestamp: event.timestamp }, ctx, deps);
      case "postback":
        return handlers.handlePostback(action.data, ctx, deps);
      case "greeting":
        return handlers.handleGreeting(ctx, deps);
      case "member_joined":
        return handlers.handleMemberJoined(action.members, ctx, deps);
      case "non_text":
        return handlers.handleNonText(action.messageType, ctx, deps);
      case "ignore":
        return { command: "none", outcome: "ignored" };
    }
  }

  function track(shop: ShopPipeline, event: IncomingEvent): Tracked {
    let finish = (): void => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const tracked: Tracked = { shop, event, outlet: undefined, sending: false, abandoned: false, done, finish };
    unfinished.add(tracked);
    notStarted += 1;
    return tracked;
  }

  async function guarded(tracked: Tracked): Promise<void> {
    let turnCame = false;
    try {
      // Timed from when the event's turn comes, so the log shows this event's own handling, and apart
      // from the time it waited for a turn.
      const queued = performance.now();
      await queue.add(() => {
        turnCame = true;
        notStarted -= 1;
        const started = performance.now();
        if (tracked.abandoned) return Promise.resolve();
        return dispatchOne(tracked, started, started - queued);
      });
    } catch (err) {
      // Only a bug in the dispatcher itself gets here; one event must never stop the others.
      log.error({ err }, "event dispatch failed");
    } finally {
      if (!turnCame) notStarted -= 1;
      unfinished.delete(tracked);
      tracked.finish();
    }
  }

  /** At the deadline: a short apology where nothing was sent yet, a log line, and no later sends. */
  async function abandon(tracked: Tracked): Promise<AbandonedEvent> {
    tracked.abandoned = true;
    const { event, shop } = tracked;
    const outlet = outletFor(tracked);
    let apologised = false;
    if (outlet !== undefined && !tracked.sending && outlet.deliveries.length === 0) {
      const apology = outlet.send(renderRestarting(shop.handlerDeps.settings.defaultLang)).then(
        () => outlet.deliveries.some((d) => d.via !== "none"),
        () => false,
      );
      const late = new Promise<boolean>((resolve) => setTimeout(resolve, APOLOGY_TIMEOUT_MS, false).unref());
      apologised = await Promise.race([apology, late]);
    }
    shop.log.error(
      { eventId: event.eventId, chatId: event.chat?.id, chatType: event.chat?.type, eventType: event.type, outcome: "abandoned", apologised },
      "event unfinished at the end of the shutdown grace period",
    );
    shop.observer?.abandoned?.();
    tracked.finish();
    return { shop: shop.id, eventId: event.eventId, chatId: event.chat?.id, apologised };
  }

  return {
    hasRoom(arriving = 0) {
      return waitingNow() + arriving < maxQueued;
    },
    get waiting() {
      return waitingNow();
    },
    get running() {
      return queue.pending + runningNow;
    },
    async handleNow(shop, raw, taken) {
      const tracked: Tracked = {
        shop,
        event: readEvent(raw),
        outlet: undefined,
        sending: false,
        abandoned: false,
        done: Promise.resolve(),
        finish: () => undefined,
        mayHaveRunBefore: taken?.mayHaveRunBefore === true,
        storedOnce: true,
      };
      runningNow += 1;
      const started = performance.now();
      try {
        await dispatchOne(tracked, started, 0);
      } catch (err) {
        log.error({ err }, "event dispatch failed");
      } finally {
        runningNow -= 1;
      }
    },
    async dispatchAll(shop, events) {
      const byChat = new Map<string, Tracked[]>();
      for (const raw of events) {
        const tracked = track(shop, readEvent(raw));
        const chatKey = tracked.event.chat?.id ?? "(no chat)";
        const chain = byChat.get(chatKey);
        if (chain === undefined) byChat.set(chatKey, [tracked]);
        else chain.push(tracked);
      }
      // Known (and so drained) from the moment they are accepted, handled from the next turn of the event
      // loop, so the webhook's 200 goes out first: LINE counts anything over 2 s as a timeout.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all(
        [...byChat.values()].map(async (chain) => {
          for (const tracked of chain) await guarded(tracked);
        }),
      );
    },
    async drain(graceMs) {
      // Events accepted while waiting join the wait: a round ends when every event known at its start is done.
      const everything = (async (): Promise<"done"> => {
        while (unfinished.size > 0) await Promise.all([...unfinished].map((t) => t.done));
        return "done";
      })();
      let timer: NodeJS.Timeout | undefined;
      const deadline =
        graceMs === undefined ? new Promise<never>(() => undefined) : new Promise<"late">((resolve) => (timer = setTimeout(resolve, graceMs, "late")));
      const result = await Promise.race([everything, deadline]);
      clearTimeout(timer);
      if (result === "done") return { abandoned: [] };
      // Events still waiting will not start now; those running get no more sends.
      queue.clear();
      const left = [...unfinished];
      unfinished.clear();
      return { abandoned: await Promise.all(left.map(abandon)) };
    },
  };
}

/**
 * What the chat actually got: a handler's "answered" that went out by push is `answered_by_push`; any
 * reply that reached nobody is `not_delivered`, with LINE's reason.
 */
function deliveryOutcome(handled: Outcome, deliveries: readonly Delivery[]): { outcome: Outcome; reason?: string } {
  const failed = deliveries.find((d) => d.via === "none" && d.reason !== "empty");
  if (failed !== undefined && failed.via === "none") return { outcome: "not_delivered", reason: failed.reason };
  if (handled === "answered" && deliveries.some((d) => d.via === "push")) return { outcome: "answered_by_push" };
  return { outcome: handled };
}

function describeDelivery(delivery: Delivery): string {
  switch (delivery.via) {
    case "reply":
      return "reply";
    case "earlier":
      return "earlier_run";
    case "push":
      return `push:${delivery.reason}`;
    case "none":
      return `none:${delivery.reason}`;
  }
}
