// A durable queue of items in Redis, shared by every instance: Redis Streams with claimed partitions. Items
// are opaque: an id, an ordering key and a payload JSON can carry; the queue never looks inside.
//
// What it promises:
// - Order per key: items with one ordering key are handled one at a time, in the order they were stored,
//   whichever instance stored them; items of different keys run side by side.
// - Once: an item is handled once, and again only after a crash or a loss of Redis's data, then with
//   `mayHaveRunBefore` set. An id marked in the last day (`onceKey`) is not stored again (`duplicate`).
// - Stored means kept: `store` resolves true only once Redis has every item; an instance killed (SIGKILL)
//   after that loses nothing (short of Redis losing its data too): what it had in hand is pending in
//   Redis, and taken up by the next owner.
// - Takeover: an instance that stops renewing its leases is counted out after `leaseMs`; a killed one
//   whose connection is named (`instanceId`) sooner, once Redis holds no connection of its name. Another
//   instance claims its partitions and reads their pending entries before any new one.
// - Redis back empty (restarted without persistence, or a failover to a replica that lagged): each
//   instance keeps in memory what it stored until it sees it handled, and stores again what Redis lost.
// - Bounds: at most `inHand` handlers run at once per instance, and at most four times that many items
//   are read and waiting in their keys' chains; the partitions are shared out evenly, so capacity grows
//   with the instances. Nothing of an item stays in Redis once it is handled (acknowledged and deleted).
// - Groups share fairly (`groupOf`, `inHandPerGroup`): one group's items hold at most its share of the
//   handler slots, free slots go to the groups in rotation, and a group's items count against the bound on
//   reading only up to four times its share, so the reader reads on past a busy group's backlog (up to
//   sixteen times `inHand` in all, `readAhead`) to reach another group's items behind it. Past that it reads
//   nothing until some are handled: the user keeps a group's stored backlog below that (the queue cannot
//   skip entries of a stream without holding them).
//
// How. Ordering keys are hashed onto a fixed number of partitions, each a Redis stream with one consumer
// group (keys.ts). A partition is claimed by one instance at a time (a lease key, renewed while the
// instance lives), and the instances share the partitions out evenly: each claims at most its share
// (partitions / live instances) and gives back what it holds over it, once it has nothing of that
// partition in hand (leases.ts). The owner reads new entries in blocks (reader.ts) and runs them through
// one chain per ordering key (chains.ts). An entry stays in the consumer group's pending list until it is
// handled, then it is acknowledged and deleted (acks.ts). An instance that dies stops renewing its leases:
// they expire, the others' share grows, they claim its partitions and read the pending entries first
// (every instance reads as the same consumer name, so a partition's pending list follows its lease). A
// killed process is noticed sooner: its queue connection, named after it, is gone from Redis's list of
// clients as soon as it has been silent for two ticks, and the others take it for dead then. A read that
// Redis answered as the reading connection dropped leaves its entries pending, never received: once that
// connection is back, the owner reads its partitions' pending entries again and takes up those it does
// not have in hand. Each instance keeps what it stored (store.ts) and stores again what it still keeps
// when it notices a loss (keeper.ts): the marker key it wrote is missing or another, or Redis's run id
// changed. The parts share one state (state.ts); the Lua scripts are in scripts.ts.
import type { DurableEventQueue, DurableEventQueueOptions, QueueItem } from "./api.js";
import { startKeeper } from "./keeper.js";
import { GROUP, partitionOf } from "./keys.js";
import { releaseIdle, startClaiming, tick } from "./leases.js";
import { HARD_FACTOR, openReader, readForever } from "./reader.js";
import { createQueueState, unblockReader } from "./state.js";
import { add, keep } from "./store.js";

export type { DurableEventQueue, DurableEventQueueOptions, EventQueueObserver, ItemHandler, QueueItem, QueueStats, TakenItem } from "./api.js";
export { namedInstanceId, PARTITIONS, partitionOf, queueConnectionName, queueKeys } from "./keys.js";

export function createDurableEventQueue(options: DurableEventQueueOptions): DurableEventQueue {
  const state = createQueueState(options);
  const { log, keys } = state;

  return {
    async store(items, timeoutMs) {
      if (items.length === 0) return true;
      const placed = items.map((item) => ({ item, partition: partitionOf(item.orderingKey, state.partitions) }));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => (timer = setTimeout(resolve, timeoutMs, "late")));
      try {
        const entryIds = await Promise.race([add(state, placed, false, true), late]);
        if (entryIds === "late") return false;
        const seenBefore: QueueItem[] = [];
        placed.forEach(({ item, partition }, index) => {
          const entryId = entryIds[index];
          if (typeof entryId === "string" && entryId !== "") keep(state, item, partition, entryId);
          else {
            seenBefore.push(item);
            log.info({ itemId: item.id }, "event stored or answered before; not stored again");
          }
        });
        if (seenBefore.length > 0) state.observer?.duplicate?.(seenBefore);
        startKeeper(state);
        return true;
      } catch (err) {
        log.warn({ error: err instanceof Error ? err.message : String(err) }, "redis did not take the events");
        return false;
      } finally {
        clearTimeout(timer);
      }
    },

    async startWorkers(handle) {
      state.handler = handle;
      state.running = true;
      // Start-up waits for Redis (the workers' connection waits for it).
      await state.workers.ping();
      const reader = openReader(state);
      await tick(state);
      startClaiming(state);
      state.readLoop = readForever(state, reader);
    },

    async waiting() {
      const pipeline = state.commands.pipeline();
      for (let p = 0; p < state.partitions; p++) pipeline.xlen(keys.stream(p)).xpending(keys.stream(p), GROUP);
      const results = (await pipeline.exec()) ?? [];
      let total = 0;
      for (let p = 0; p < state.partitions; p++) {
        const [lengthErr, length] = results[2 * p] ?? [];
        const [, pending] = results[2 * p + 1] ?? [];
        if (lengthErr) throw lengthErr;
        const pendingCount = Array.isArray(pending) ? Number(pending[0]) : 0;
        total += Number(length) - pendingCount;
      }
      return total;
    },

    get stats() {
      return { running: state.active, inHand: state.inHand, partitionsOwned: state.owned.size, kept: state.kept.size + state.toRestore.length + state.restoring };
    },

    readAhead: HARD_FACTOR * state.inHandMax,

    keptByGroup() {
      const kept = new Map<string, number>();
      for (const [name, group] of state.groups) if (group.kept > 0) kept.set(name, group.kept);
      return kept;
    },

    async stopWorkers(graceMs) {
      const deadline = Date.now() + graceMs;
      const untilDeadline = (promise: Promise<unknown>): Promise<unknown> =>
        Promise.race([promise, new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref())]);
      state.running = false;
      clearInterval(state.claimTimer);
      unblockReader(state);
      await untilDeadline(state.readLoop ?? Promise.resolve());
      if (state.inHand > 0) await untilDeadline(new Promise<void>((resolve) => state.idleWaiters.push(resolve)));
      const left = state.inHand;
      // The partitions finished go back at once (the others take them up without waiting for the leases to
      // expire); those with items still in hand keep their lease until it expires.
      await state.workers.zrem(keys.instances, state.me).catch(() => undefined);
      await releaseIdle(state, true).catch(() => undefined);
      // What this instance stored is kept until it is seen handled somewhere, while the grace lasts.
      while (state.kept.size + state.toRestore.length > 0 && state.keeperTimer !== undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(state.keepCheckMs, Math.max(0, deadline - Date.now()))));
      }
      return left;
    },

    async close() {
      state.running = false;
      clearInterval(state.claimTimer);
      clearInterval(state.keeperTimer);
      state.keeperTimer = undefined;
      state.idleWaiters = [];
      state.reader?.disconnect();
      await Promise.resolve();
    },
  };
}
