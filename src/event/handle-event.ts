// One event, one way: handleEvent reads it (defensively), skips what the shop's ledger has seen, builds the
// chat context, routes it to its handler inside its own error boundary and writes its one log line. Both
// intakes (in-process and durable) end here; abandonEvent is the shutdown's word for an event in hand.
import { performance } from "node:perf_hooks";
import type { Logger } from "pino";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../handlers/context.js";
import { handleEditedText, handleGreeting, handleMemberJoined, handleNonText, handlePostback, handleText } from "../handlers/index.js";
import { readEvent } from "../line/incoming.js";
import { handleImage } from "../slip-photo/handle.js";
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
  handleImage: typeof handleImage;
}

export const REAL_HANDLERS: EventHandlers = { handleText, handleEditedText, handleNonText, handlePostback, handleGreeting, handleMemberJoined, handleImage };

/** What the event path tells the metrics about; every hook is optional. */
export interface PipelineObserver {
  eventHandled?(eventType: string, outcome: string, seconds: number): void;
  duplicate?(): void;
  redelivery?(): void;
  abandoned?(): void;
}

/**
 * A shop as its events need it, built by the composition root before its first event: each event is
 * handled only with its own shop's send boundary, handlers' parts (settings, slip service, stores), ledger,
 * handlers and clock.
 */
export interface EventShop {
  readonly id: string;
  /** The send boundary: every answer goes out through it. */
  readonly outbox: Outbox;
  readonly handlerDeps: HandlerDeps;
  readonly handlers: EventHandlers;
  readonly now: () => Date;
  /** The shop's logger (`shop` bound). */
  readonly log: Logger;
  /** Which of the shop's events were answered. */
  readonly ledger: EventLedger;
  readonly observer?: PipelineObserver | undefined;
  /** Told who sent each event handled (the rich menus keep each user's menu current); must not throw. */
  readonly onSender?: ((userId: string) => void) | undefined;
  /** MARK_AS_READ: after a command in a 1:1 chat, mark the chat read up to it (only with the OA's Chat on). */
  readonly markAsRead: boolean;
}

/**
 * Where an event came from. `webhook`: handled in this process after the 200 (`waitedMs` for a turn;
 * `turn` lets the drain abandon it). `queue`: the shared queue gave it its turn; it stores an event id once
 * (its mark is the ledger's), so the ledger is not asked; `mayHaveRunBefore`: an earlier run may have
 * answered it (taken up again after a crash, or stored again after Redis lost it).
 */
export type Provenance =
  { readonly via: "webhook"; readonly waitedMs: number; readonly turn?: EventTurn | undefined } | { readonly via: "queue"; readonly mayHaveRunBefore: boolean };

/** An in-process event in hand, as the drain sees it. */
export interface EventTurn {
  /** Set at the end of the grace period: its line is written, nothing more is sent for it. */
  abandoned: boolean;
  /** A send is under way: abandoning now could cross it, so no apology is added. */
  sending: boolean;
  outlet: EventOutlet | undefined;
}

/** An event that did not finish within the grace period at shutdown. */
export interface AbandonedEvent {
  shop: string;
  eventId: string | undefined;
  chatId: string | undefined;
  /** Whether its chat was told to send again. */
  apologised: boolean;
}

/** The log line's `outcome`: a handler's, what the path decided without one, or what delivery made of it. */
type Outcome = HandlerOutcome["outcome"] | "duplicate" | "standby" | "failed" | "answered_by_push" | "not_delivered" | "abandoned";

/** LINE's event timestamps and this host's clock may differ by this much. */
const CLOCK_MARGIN_MS = 10_000;

/**
 * A stored event younger than this at its first run has its reply attempt unjournalled: a rerun replies
 * within the token's minute (a crash found in 2 s, the service's retries under 20 s).
 */
const UNJOURNALLED_AGE_MS = 20_000;

/** Apologies at shutdown must not hold the exit up: each gets this long. */
export const APOLOGY_TIMEOUT_MS = 3_000;

/** Handles one event of `shop`. Never rejects: a bug in the path itself is logged, and the other events go on. */
export async function handleEvent(shop: EventShop, raw: unknown, provenance: Provenance): Promise<void> {
  const started = performance.now();
  const event = readEvent(raw);
  const turn: EventTurn = (provenance.via === "webhook" ? provenance.turn : undefined) ?? { abandoned: false, sending: false, outlet: undefined };
  try {
    await handle(shop, event, provenance, turn, started);
  } catch (err) {
    shop.log.error({ err }, "event dispatch failed");
  }
}

async function handle(shop: EventShop, event: IncomingEvent, provenance: Provenance, turn: EventTurn, started: number): Promise<void> {
  const { handlerDeps } = shop;
  const observer = shop.observer ?? {};
  const eventLog = shop.log.child({ eventId: event.eventId });
  const storedOnce = provenance.via === "queue";
  const line = { eventType: event.type, chatType: event.chat?.type, redelivery: event.isRedelivery };
  const finish = (command: string, handled: Outcome, deliveries: readonly Delivery[] = [], level: "info" | "debug" = "info"): void => {
    if (turn.abandoned) return; // its line was written when it was abandoned
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
        waitedMs: provenance.via === "webhook" ? Math.round(provenance.waitedMs * 10) / 10 : 0,
      },
      "event handled",
    );
    observer.eventHandled?.(event.type, outcome, seconds);
  };

  if (event.isRedelivery) observer.redelivery?.();
  // Standby: another channel owns the chat right now; LINE gives no reply token and we send nothing.
  if (event.mode === "standby") return finish("none", "standby", [], "debug");
  if (event.eventId !== undefined && !storedOnce && !(await claim(shop, event.eventId))) {
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
  // A sticker or video in a group is never for the bot (a chatty bot annoys a group); a photo may be a slip.
  if (action.kind === "non_text" && chat.type !== "user") return finish("none", "ignored", [], "debug");

  const outlet = outletFor(shop, event, provenance, turn, eventLog);
  if (outlet === undefined) return finish("none", "ignored");
  const send = async (answer: Answer): Promise<void> => {
    if (turn.abandoned) {
      eventLog.warn("answer ready after the event was abandoned at shutdown; not sent");
      return;
    }
    turn.sending = true;
    try {
      await outlet.send(answer);
    } finally {
      turn.sending = false;
    }
  };
  const ctx: ChatContext = {
    chat,
    userId: event.userId,
    audience: audienceOf(chat, event.userId, handlerDeps.settings),
    now: shop.now(),
    send,
    showLoading: () => outlet.showLoading(),
  };
  const deps: HandlerDeps = { ...handlerDeps, log: eventLog };

  try {
    const result = await route(shop.handlers, event, ctx, deps);
    if (shop.markAsRead && action.kind === "text" && chat.type === "user" && result.command !== "none" && action.markAsReadToken !== undefined) {
      outlet.markAsRead(action.markAsReadToken);
    }
    await settle(shop, event, storedOnce);
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
    await settle(shop, event, storedOnce);
    finish("unknown", "failed", outlet.deliveries);
  }
}

/** The event's outlet on the shop's send boundary, made once per turn (the drain may need it too). */
function outletFor(shop: EventShop, event: IncomingEvent, provenance: Provenance, turn: EventTurn, log: Logger): EventOutlet | undefined {
  if (event.chat === undefined) return undefined;
  const queued = provenance.via === "queue";
  const mayHaveRunBefore = provenance.via === "queue" && provenance.mayHaveRunBefore;
  const age = event.timestamp === undefined ? undefined : shop.now().getTime() - event.timestamp;
  // Within the token's life (less a margin for clocks), another run's reply is the only way its token can
  // be spent already: for a stored event, an earlier run (a crash, Redis lost it) or this instance's own
  // in-process run while Redis answered the store too late.
  const replyMayHaveBeenUsed = queued && age !== undefined && age < REPLY_TOKEN_LIFE_MS - CLOCK_MARGIN_MS;
  // From the shared queue, an event not marked as maybe run before has no earlier run to look up. And a
  // young one needs no journal of its reply: a rerun after a crash comes within seconds (the queue's
  // lease) and, even after the slip service's retries, replies within the token's minute, where a spent
  // token says the first reply went out.
  const firstRun = queued && !mayHaveRunBefore;
  const young = age !== undefined && age < UNJOURNALLED_AGE_MS;
  turn.outlet ??= shop.outbox.forEvent(
    {
      replyToken: event.replyToken,
      chat: event.chat,
      eventId: event.eventId,
      replyMayHaveBeenUsed,
      ...(firstRun ? { mayHaveRunBefore: false } : {}),
      ...(firstRun && young ? { journalReply: false } : {}),
    },
    log,
  );
  return turn.outlet;
}

/** Whether to handle the event; when the ledger cannot be reached, a possible duplicate beats a lost answer. */
async function claim(shop: EventShop, eventId: string): Promise<boolean> {
  try {
    return await shop.ledger.claim(eventId);
  } catch (err) {
    shop.log.warn({ err, eventId }, "could not check whether the event was answered before; handling it");
    return true;
  }
}

/** Marks the event answered; a ledger that cannot be reached only risks a later duplicate, so it is logged, not thrown. */
async function settle(shop: EventShop, event: IncomingEvent, storedOnce: boolean): Promise<void> {
  if (event.eventId === undefined || storedOnce) return;
  try {
    await shop.ledger.settle(event.eventId);
  } catch (err) {
    shop.log.warn({ err, eventId: event.eventId }, "could not record the event as answered");
  }
}

function route(handlers: EventHandlers, event: IncomingEvent, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
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
    case "image":
      return handlers.handleImage({ messageId: action.messageId }, ctx, deps);
    case "ignore":
      return Promise.resolve({ command: "none", outcome: "ignored" });
  }
}

/**
 * At the end of the shutdown's grace period, for an in-process event still in hand (running, or waiting
 * for its turn): a short apology where nothing was sent yet, a log line, and no later sends.
 */
export async function abandonEvent(shop: EventShop, raw: unknown, turn: EventTurn): Promise<AbandonedEvent> {
  turn.abandoned = true;
  const event = readEvent(raw);
  const outlet = outletFor(shop, event, { via: "webhook", waitedMs: 0 }, turn, shop.log.child({ eventId: event.eventId }));
  let apologised = false;
  if (outlet !== undefined && !turn.sending && outlet.deliveries.length === 0) {
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
  return { shop: shop.id, eventId: event.eventId, chatId: event.chat?.id, apologised };
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
