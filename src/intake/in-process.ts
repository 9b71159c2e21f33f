// The in-process intake: a webhook's verified events are handled in this process after the 200, one chat's
// events one after another and chats side by side, a bounded number running and waiting, and a drain that
// finishes every accepted event on shutdown, or has it abandoned (its chat told to send again).
import { performance } from "node:perf_hooks";
import PQueue from "p-queue";
import type { Logger } from "pino";
import { abandonEvent, handleEvent } from "../event/handle-event.js";
import type { AbandonedEvent, EventShop, EventTurn } from "../event/handle-event.js";
import { chatKeyOf } from "./stored-items.js";

/** Events handled at once when MAX_RUNNING_EVENTS is not set. */
export const DEFAULT_RUNNING_EVENTS = 64;

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
  /** Events that may wait for a turn; past it `hasRoom()` says no and the webhook answers 503. Default 1,000. */
  maxQueuedEvents?: number | undefined;
}

/**
 * Where a webhook's verified events go, chosen once by the composition root: in-process (this module), or
 * durable on Redis (durable.ts). The webhook answers 200 once `take` resolves.
 */
export interface Intake {
  /**
   * Whether another webhook's events may be accepted: false once the waiting events, with `arriving`
   * webhooks already admitted whose bodies are still being read, reach the bound.
   */
  hasRoom(arriving?: number): boolean;
  /** Accepts one webhook's events (of one shop). Never rejects. */
  take(shop: IntakeShop, events: readonly unknown[]): Promise<void>;
  /** Events waiting for a turn in this process, and events being handled. */
  readonly waiting: number;
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
  const maxQueued = options.maxQueuedEvents ?? 1_000;
  const concurrency = options.maxConcurrentEvents ?? DEFAULT_RUNNING_EVENTS;
  const queue = new PQueue({ concurrency });
  const unfinished = new Set<Accepted>();
  // Accepted events whose turn has not come: counted from the moment they are accepted, not from when they
  // join the queue a turn of the event loop later (or behind their chat's earlier event). A burst read in
  // one go, while the loop was busy, would otherwise pass the bound before the first one is queued.
  let notStarted = 0;
  const waitingNow = (): number => Math.max(0, notStarted - (concurrency - queue.pending));

  function accept(shop: IntakeShop, raw: unknown): Accepted {
    let finish = (): void => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const accepted: Accepted = { shop, raw, turn: { abandoned: false, sending: false, outlet: undefined }, done, finish };
    unfinished.add(accepted);
    notStarted += 1;
    return accepted;
  }

  async function run(accepted: Accepted): Promise<void> {
    let turnCame = false;
    try {
      // The wait for a turn is logged apart from the event's own handling.
      const queued = performance.now();
      await queue.add(() => {
        turnCame = true;
        notStarted -= 1;
        if (accepted.turn.abandoned) return Promise.resolve();
        return handleEvent(accepted.shop, accepted.raw, { via: "webhook", waitedMs: performance.now() - queued, turn: accepted.turn });
      });
    } catch (err) {
      // Only a bug in the intake itself gets here; one event must never stop the others.
      log.error({ err }, "event dispatch failed");
    } finally {
      if (!turnCame) notStarted -= 1;
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
    hasRoom(arriving = 0) {
      return waitingNow() + arriving < maxQueued;
    },
    get waiting() {
      return waitingNow();
    },
    get running() {
      return queue.pending;
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
      queue.clear();
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
