// Webhook events kept in Redis until answered, shared by every instance, on BullMQ.
//
// One chat's events must be handled one at a time and in LINE's order, whichever instance holds them.
// Open-source BullMQ has no per-group ordering, so the chats are hashed onto a fixed number of partition
// queues, each limited to one job at a time across all instances (BullMQ's global concurrency): a chat
// always lands on the same partition, and partitions run side by side. A job whose worker dies keeps its
// lock until the lock expires; then BullMQ's stalled-job check puts it back at the head of its partition
// and a worker of any instance takes it up again.
import { createHash } from "node:crypto";
import { Queue, Worker } from "bullmq";
import type { Job } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { whenUp } from "./redis.js";

/** Partitions: the most events handled at once across all instances. Every instance must use the same number. */
export const PARTITIONS = 32;
/** A dead worker's job is free again after this, and found by a check that runs this often. */
const LOCK_MS = 10_000;
const STALLED_CHECK_MS = 5_000;

export interface StoredEvent {
  /** The shop whose webhook it came to. */
  shop: string;
  /** The webhook event as LINE sent it (verified by its signature before it was stored). */
  event: unknown;
}

export interface EventQueueObserver {
  /** A job found stalled (its worker died) and put back for another worker. */
  recovered?(): void;
}

export interface DurableEventQueue {
  /**
   * Stores one webhook's events, each in its chat's partition, in order; resolves true once Redis has
   * them all, false when it could not within `timeoutMs` (the caller then handles them in-process).
   */
  store(shop: string, events: readonly unknown[], timeoutMs: number): Promise<boolean>;
  /** Starts taking events: `handle` runs one event and resolves when its answer has gone out or definitely failed. */
  startWorkers(handle: (stored: StoredEvent) => Promise<void>): Promise<void>;
  /** Events waiting in Redis, over all partitions. */
  waiting(): Promise<number>;
  /**
   * Stops taking events and waits up to `graceMs` for those in hand; what is still running then keeps
   * its lock, and another instance (or this one, restarted) finishes it once the lock expires. Returns
   * how many were left that way.
   */
  stopWorkers(graceMs: number): Promise<number>;
  close(): Promise<void>;
}

export interface DurableEventQueueOptions {
  /** For adding jobs and counting: fails at once when Redis is away. */
  commands: Redis;
  /** Shared by the workers (each duplicates it for its blocking reads). */
  workers: Redis;
  /** The deployment's key prefix (its queues are `<prefix>:events-NN`). */
  prefix: string;
  log: Logger;
  observer?: EventQueueObserver;
}

/** The partition of a chat: the same on every instance. */
export function partitionOf(chatId: string | undefined): number {
  if (chatId === undefined) return 0;
  return createHash("sha1").update(chatId).digest().readUInt32BE(0) % PARTITIONS;
}

function chatIdOf(event: unknown): string | undefined {
  if (typeof event !== "object" || event === null) return undefined;
  const source = (event as { source?: Record<string, unknown> }).source;
  const id = source?.groupId ?? source?.roomId ?? source?.userId;
  return typeof id === "string" ? id : undefined;
}

function eventIdOf(event: unknown): string | undefined {
  const id = typeof event === "object" && event !== null ? (event as { webhookEventId?: unknown }).webhookEventId : undefined;
  // BullMQ job ids may not contain ":"; LINE's ids are ULIDs.
  return typeof id === "string" && /^[0-9A-Za-z_-]{1,64}$/.test(id) ? id : undefined;
}

const queueName = (partition: number): string => `events-${String(partition).padStart(2, "0")}`;

export function createDurableEventQueue(options: DurableEventQueueOptions): DurableEventQueue {
  const { log } = options;
  const { prefix } = options;
  const queues = Array.from({ length: PARTITIONS }, (_, p) => new Queue<StoredEvent>(queueName(p), { connection: options.commands, prefix }));
  const queueOf = (p: number): Queue<StoredEvent> => {
    const queue = queues[p];
    if (queue === undefined) throw new RangeError(`no partition ${p}`);
    return queue;
  };
  let workers: Worker<StoredEvent>[] = [];
  /** Events this instance's workers are handling now. */
  let inHand = 0;

  return {
    async store(shop, events, timeoutMs) {
      const byPartition = new Map<number, unknown[]>();
      for (const event of events) {
        // A chat id seen by two shops is two chats: the partition is the shop's chat.
        const chat = chatIdOf(event);
        const p = partitionOf(chat === undefined ? undefined : `${shop}/${chat}`);
        byPartition.set(p, [...(byPartition.get(p) ?? []), event]);
      }
      const adds = [...byPartition].map(([p, list]) =>
        queueOf(p).addBulk(
          list.map((event) => {
            const eventId = eventIdOf(event);
            const jobId = eventId === undefined ? undefined : `${shop}-${eventId}`;
            return {
              name: "event",
              data: { shop, event },
              // The shop's and the event's ids as the job's: the same event stored twice while it waits (two
              // instances, a redelivery) is one job. An answered event's data is not kept: the ledger (ids only) stops a
              // later copy.
              opts: { ...(jobId === undefined ? {} : { jobId }), removeOnComplete: true, removeOnFail: { age: 86_400 } },
            };
          }),
        ),
      );
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)));
      try {
        return await Promise.race([Promise.all(adds).then(() => true), late]);
      } catch (err) {
        log.warn({ error: err instanceof Error ? err.message : String(err) }, "redis did not take the events");
        return false;
      } finally {
        clearTimeout(timer);
      }
    },

    async startWorkers(handle) {
      // One event at a time per partition, across every instance. Start-up waits for Redis.
      await whenUp(options.commands);
      await Promise.all(queues.map((q) => q.setGlobalConcurrency(1)));
      workers = queues.map((q) => {
        const process = async (job: Job<StoredEvent>): Promise<void> => {
          inHand += 1;
          try {
            await handle(job.data);
          } finally {
            inHand -= 1;
          }
        };
        const worker = new Worker<StoredEvent>(q.name, process, {
          connection: options.workers,
          prefix,
          concurrency: 1,
          lockDuration: LOCK_MS,
          stalledInterval: STALLED_CHECK_MS,
          maxStalledCount: 5,
        });
        worker.on("stalled", (jobId: string) => {
          log.warn({ jobId, partition: q.name }, "event found in the hands of a worker that stopped; taken up again");
          options.observer?.recovered?.();
        });
        worker.on("error", (err: Error) => log.warn({ error: err.message, partition: q.name }, "event queue worker error"));
        return worker;
      });
      await Promise.all(workers.map((w) => w.waitUntilReady()));
    },

    async waiting() {
      const counts = await Promise.all(queues.map((q) => q.getWaitingCount()));
      return counts.reduce((sum, n) => sum + n, 0);
    },

    async stopWorkers(graceMs) {
      const closing = Promise.all(workers.map((w) => w.close()));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => (timer = setTimeout(resolve, graceMs, "late")));
      const result = await Promise.race([closing.then(() => "done" as const), late]);
      clearTimeout(timer);
      if (result === "done") return 0;
      // Still busy: leave those events locked for another instance and stop now.
      const left = inHand;
      await Promise.all(workers.map((w) => w.close(true)));
      return left;
    },

    async close() {
      await Promise.all(queues.map((q) => q.close()));
    },
  };
}
