// The in-process intake: a webhook's verified events are handled in this process after the 200, one chat's
// events one after another and chats side by side, a bounded number running and waiting, shared fairly
// between shops (fair-turns.ts: each shop has its own bound on events running and on events waiting, so a
// busy shop's webhook is refused before another shop's is), and a drain that finishes every accepted event
// on shutdown, or has it abandoned (its chat told to send again).
import { performance } from "node:perf_hooks";
import type { Logger } from "pino";
import { abandonEvent, handleEvent } from "../event/handle-event.js";
import type { AbandonedEvent, EventShop, EventTurn } from "../event/handle-event.js";
import { createFairTurns } from "./fair-turns.js";
import { chatKeyOf } from "./stored-items.js";

/** Events handled at once when MAX_RUNNING_EVENTS is not set. */
export const DEFAULT_RUNNING_EVENTS = 64;
/** Events that may wait when MAX_QUEUED_EVENTS is not set. */
export const DEFAULT_QUEUED_EVENTS = 1_000;

/** A shop whose events in hand are counted (a retired shop closes once none are left). */
export interface IntakeShop extends EventShop {
  readonly eventsInHand: EventsInHand;
}

/** The events of one shop being handled or waiting now; only the intakes move it. */
export interface EventsInHand {
  count: number;
}

/** Runs `work` counted as `shop`'s. */
export async function counted<T>(shop: IntakeShop, work: () => Promise<T>): Promise<T> {
  shop.eventsInHand.count += 1;
  try {
    return await work();
  } finally {
    shop.eventsInHand.count -= 1;
  }
}

export interface InProcessIntakeOptions {
  /** The process's logger, for what belongs to no shop. */
  log: Logger;
  /** Events handled at once; the rest wait their turn in arrival order. Default 64. */
  maxConcurrentEvents?: number | undefined;
  /** Events of one shop handled at once. Default half of `maxConcurrentEvents`. */
  maxConcurrentEventsPerShop?: number | undefined;
  /**
   * Events that may wait for a turn, all shops together. Past it, a shop with at least its fair share
   * waiting (this bound over the shops with events waiting) is refused: its webhook answers 503. Default 1,000.
   */
  maxQueuedEvents?: number | undefined;
  /** Events of one shop that may wait for a turn; past it that shop's webhook answers 503. Default `maxQueuedEvents` (the fair share decides). */
  maxQueuedEventsPerShop?: number | undefined;
}

/** Webhooks admitted whose bodies are still being read: in all, and of the shop asking. */
export interface Arriving {
  readonly total: number;
  readonly ofShop: number;
}

/**
 * Where a webhook's verified events go, chosen once by the composition root: in-process (this module), or
 * durable on Redis (durable.ts). The webhook answers 200 once `take` resolves.
 */
export interface Intake {
  /**
   * Whether another webhook of `shop` may be accepted: false once that shop's waiting events, with its
   * `arriving` webhooks whose bodies are still being read, reach its bound, or once every shop's together
   * reach the total and this shop has its fair share of them waiting. One shop's load never refuses another's.
   */
  hasRoom(shop: string, arriving?: Arriving): boolean;
  /** Accepts one webhook's events (of one shop). Never rejects. */
  take(shop: IntakeShop, events: readonly unknown[]): Promise<void>;
  /** Events waiting for a turn in this process (all shops, and one), and events being handled. */
  readonly waiting: number;
  waitingOf(shop: string): number;
  readonly running: number;
  /**
   * Waits up to `graceMs` for every accepted event to finish. An in-process one still unfinished then is
   * abandoned: its chat gets a short "please send again" (unless something was already sent), it is logged
   * with its id and chat, and reported; nothing sent for it afterwards goes out. `leftForOthers`: stored
   * events left locked for another instance.
   */
  drain(graceMs?: number): Promise<{ abandoned: AbandonedEvent[]; leftForOthers: number }>;
}

/** One accepted event, from acceptance to its log line. */
interface Accepted {
  shop: IntakeShop;
  raw: unknown;
  turn: EventTurn;
  /** Resolves when the event is handled (or abandoned). */
  done: Promise<void>;
  finish: () => void;
}

/** Events are handled from the next turn of the event loop, so the webhook's 200 goes out first. */
export function createInProcessIntake(options: InProcessIntakeOptions): Intake {
  const { log } = options;
  const maxQueued = Math.max(1, options.maxQueuedEvents ?? DEFAULT_QUEUED_EVENTS);
  const maxQueuedPerShop = Math.max(1, Math.min(maxQueued, options.maxQueuedEventsPerShop ?? maxQueued));
  const turns = createFairTurns({ running: options.maxConcurrentEvents ?? DEFAULT_RUNNING_EVENTS, runningPerShop: options.maxConcurrentEventsPerShop });
  const unfinished = new Set<Accepted>();
  // Accepted events whose turn has not come, by shop: counted from the moment they are accepted, not from
  // when they ask for a turn a turn of the event loop later (or behind their chat's earlier event). A burst
  // read in one go, while the loop was busy, would otherwise pass the bound before the first one asks.
  const notStarted = new Map<string, number>();
  let notStartedTotal = 0;
  const move = (shop: string, by: number): void => {
    const now = (notStarted.get(shop) ?? 0) + by;
    if (now === 0) notStarted.delete(shop);
    else notStarted.set(shop, now);
    notStartedTotal += by;
  };
  // Those that will start as soon as they ask (a turn is free for them) are not waiting.
  const waitingOf = (shop: string): number => Math.max(0, (notStarted.get(shop) ?? 0) - turns.freeFor(shop));
  const waitingNow = (): number => {
    let startAtOnce = 0;
    for (const [shop, count] of notStarted) startAtOnce += Math.min(count, turns.freeFor(shop));
    return Math.max(0, notStartedTotal - Math.min(startAtOnce, turns.free));
  };

  function accept(shop: IntakeShop, raw: unknown): Accepted {
    let finish = (): void => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const accepted: Accepted = { shop, raw, turn: { abandoned: false, sending: false, outlet: undefined }, done, finish };
    unfinished.add(accepted);
    move(shop.id, 1);
    return accepted;
  }

  async function run(accepted: Accepted): Promise<void> {
    let turnCame = false;
    try {
      // The wait for a turn is logged apart from the event's own handling.
      const queued = performance.now();
      await turns.take(accepted.shop.id, () => {
        turnCame = true;
        move(accepted.shop.id, -1);
        if (accepted.turn.abandoned) return Promise.resolve();
        return handleEvent(accepted.shop, accepted.raw, { via: "webhook", waitedMs: performance.now() - queued, turn: accepted.turn });
      });
    } catch (err) {
      // Only a bug in the intake itself gets here; one event must never stop the others.
      log.error({ err }, "event dispatch failed");
    } finally {
      if (!turnCame) move(accepted.shop.id, -1);
      unfinished.delete(accepted);
      accepted.finish();
    }
  }

  async function handleAll(chains: readonly Accepted[][]): Promise<void> {
    // Handled from the next turn of the event loop, so the webhook's 200 goes out first: LINE counts
    // anything over 2 s as a timeout.
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all(
      chains.map(async (chain) => {
        for (const accepted of chain) await run(accepted);
      }),
    );
  }

  return {
    hasRoom(shop, arriving = { total: 0, ofShop: 0 }) {
      const own = waitingOf(shop) + arriving.ofShop;
      if (own >= maxQueuedPerShop) return false;
      if (waitingNow() + arriving.total < maxQueued) return true;
      // Full: only a shop below its fair share of the waiting may still come in (a bounded overshoot).
      return own < maxQueued / Math.max(1, notStarted.size);
    },
    get waiting() {
      return waitingNow();
    },
    waitingOf,
    get running() {
      return turns.running;
    },
    take(shop, events) {
      const byChat = new Map<string, Accepted[]>();
      for (const raw of events) {
        // Known (and so drained) from the moment they are accepted.
        const accepted = accept(shop, raw);
        const key = chatKeyOf(raw);
        const chain = byChat.get(key);
        if (chain === undefined) byChat.set(key, [accepted]);
        else chain.push(accepted);
      }
      void counted(shop, () => handleAll([...byChat.values()]));
      return Promise.resolve();
    },
    async drain(graceMs) {
      // Events accepted while waiting join the wait: a round ends when every event known at its start is done.
      const everything = (async (): Promise<"done"> => {
        while (unfinished.size > 0) await Promise.all([...unfinished].map((a) => a.done));
        return "done";
      })();
      let timer: NodeJS.Timeout | undefined;
      const deadline = graceMs === undefined ? new Promise<never>(() => undefined) : new Promise<"late">((resolve) => (timer = setTimeout(resolve, graceMs, "late")));
      const result = await Promise.race([everything, deadline]);
      clearTimeout(timer);
      if (result === "done") return { abandoned: [], leftForOthers: 0 };
      // Events still waiting will not start now; those running get no more sends.
      turns.dropWaiting();
      const left = [...unfinished];
      unfinished.clear();
      return {
        leftForOthers: 0,
        abandoned: await Promise.all(
          left.map(async (accepted) => {
            try {
              return await abandonEvent(accepted.shop, accepted.raw, accepted.turn);
            } finally {
              accepted.finish();
            }
          }),
        ),
      };
    },
  };
}
