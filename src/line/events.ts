// The dispatcher: each webhook event once, to the right handler, inside its own error boundary, with one log line.
import { performance } from "node:perf_hooks";
import type { Logger } from "pino";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../handlers/context.js";
import { handleGreeting, handleNonText, handlePostback, handleText } from "../handlers/index.js";
import { audienceOf } from "../roles/audience.js";
import { renderApology } from "../render/errors.js";
import { createEventDeduper } from "./dedupe.js";
import type { EventDeduper } from "./dedupe.js";
import { readEvent } from "./incoming.js";
import type { IncomingEvent } from "./incoming.js";
import type { Delivery, LineSender } from "./sender.js";
import { createWorkQueue } from "../work-queue.js";

export interface EventHandlers {
  handleText: typeof handleText;
  handleNonText: typeof handleNonText;
  handlePostback: typeof handlePostback;
  handleGreeting: typeof handleGreeting;
}

export const REAL_HANDLERS: EventHandlers = { handleText, handleNonText, handlePostback, handleGreeting };

export interface EventDispatcherOptions {
  sender: LineSender;
  handlerDeps: HandlerDeps;
  log: Logger;
  /** Default: the real handlers. */
  handlers?: EventHandlers;
  deduper?: EventDeduper;
  now?: () => Date;
  /** Events handled at once; the rest wait their turn in arrival order. Default 64. */
  maxConcurrentEvents?: number;
}

export interface EventDispatcher {
  /** Handles one webhook's events: in order within a chat, chats side by side. Never rejects. */
  dispatchAll(events: readonly unknown[]): Promise<void>;
}

/** The log line's `outcome`: a handler's, or what the dispatcher decided without one. */
type Outcome = HandlerOutcome["outcome"] | "duplicate" | "standby" | "failed";

export function createEventDispatcher(options: EventDispatcherOptions): EventDispatcher {
  const handlers = options.handlers ?? REAL_HANDLERS;
  const deduper = options.deduper ?? createEventDeduper();
  const now = options.now ?? (() => new Date());
  const { sender, handlerDeps, log } = options;
  const workQueue = createWorkQueue(options.maxConcurrentEvents ?? 64);

  async function dispatchOne(event: IncomingEvent, started: number, waitedMs: number): Promise<void> {
    const eventLog = log.child({ eventId: event.eventId });
    const line = {
      eventType: event.type,
      chatType: event.chat?.type,
      redelivery: event.isRedelivery,
    };
    const finish = (command: string, outcome: Outcome, deliveries: readonly Delivery[] = [], level: "info" | "debug" = "info"): void => {
      eventLog[level](
        {
          ...line,
          command,
          outcome,
          delivery: deliveries.map(describeDelivery),
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          waitedMs: Math.round(waitedMs * 10) / 10,
        },
        "event handled",
      );
    };

    // Standby: another channel owns the chat right now; LINE gives no reply token and we send nothing.
    if (event.mode === "standby") return finish("none", "standby", [], "debug");
    if (event.eventId !== undefined && !deduper.firstSeen(event.eventId)) return finish("none", "duplicate");

    const { action } = event;
    if (action.kind === "ignore") return finish("none", "ignored", [], "debug");
    const chat = event.chat;
    if (chat === undefined) {
      eventLog.warn(line, "event names no chat; ignored");
      return finish("none", "ignored");
    }
    // A photo or sticker in a group is never for the bot (a chatty bot annoys a group).
    if (action.kind === "non_text" && chat.type !== "user") return finish("none", "ignored", [], "debug");

    const outlet = sender.forEvent({ replyToken: event.replyToken, chatId: chat.id, chatType: chat.type }, eventLog);
    const ctx: ChatContext = {
      chat,
      userId: event.userId,
      audience: audienceOf(chat, event.userId, handlerDeps.settings),
      now: now(),
      send: (messages) => outlet.send(messages),
      showLoading: () => outlet.showLoading(),
    };
    const deps: HandlerDeps = { ...handlerDeps, log: eventLog };

    try {
      const result = await runHandler(event, ctx, deps);
      finish(result.command, result.outcome, outlet.deliveries);
    } catch (err) {
      // A handler throws only on a bug. Log it; in a 1:1 chat say sorry rather than leave staff waiting.
      eventLog.error({ err, ...line }, "handler failed");
      if (chat.type === "user") {
        try {
          await outlet.send(renderApology(handlerDeps.settings.defaultLang));
        } catch (sendErr) {
          eventLog.error({ err: sendErr }, "apology not sent");
        }
      }
      finish("unknown", "failed", outlet.deliveries);
    }
  }

  async function runHandler(event: IncomingEvent, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
    const { action } = event;
    switch (action.kind) {
      case "text":
        return handlers.handleText({ text: action.text, mentionees: action.mentionees }, ctx, deps);
      case "postback":
        return handlers.handlePostback(action.data, ctx, deps);
      case "greeting":
        return handlers.handleGreeting(ctx, deps);
      case "non_text":
        return handlers.handleNonText(action.messageType, ctx, deps);
      case "ignore":
        return { command: "none", outcome: "ignored" };
    }
  }

  async function guarded(event: IncomingEvent): Promise<void> {
    try {
      // Timed from when the event's turn comes, so the log shows this event's own handling, and apart
      // from the time it waited for a place in the work queue.
      const queued = performance.now();
      await workQueue.run(() => {
        const started = performance.now();
        return dispatchOne(event, started, started - queued);
      });
    } catch (err) {
      // Only a bug in the dispatcher itself gets here; one event must never stop the others.
      log.error({ err }, "event dispatch failed");
    }
  }

  return {
    async dispatchAll(events) {
      const byChat = new Map<string, IncomingEvent[]>();
      for (const raw of events) {
        const event = readEvent(raw);
        const chatKey = event.chat?.id ?? "(no chat)";
        const queue = byChat.get(chatKey);
        if (queue === undefined) byChat.set(chatKey, [event]);
        else queue.push(event);
      }
      await Promise.all(
        [...byChat.values()].map(async (queue) => {
          for (const event of queue) await guarded(event);
        }),
      );
    },
  };
}

function describeDelivery(delivery: Delivery): string {
  switch (delivery.via) {
    case "reply":
      return "reply";
    case "push":
      return `push:${delivery.reason}`;
    case "none":
      return `none:${delivery.reason}`;
  }
}
