// The queue's public types: an item, what its handler is told, the hooks, the options and the queue itself.
import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** One item to keep until handled. */
export interface QueueItem {
  /** The item's own id: its mark against storing it twice, and logs name it. */
  id: string;
  /** Items with the same key are handled one at a time, in the order stored. */
  orderingKey: string;
  /** Anything JSON can carry; the queue does not look inside. */
  payload: unknown;
}

/** What the handler is told besides the payload. */
export interface TakenItem {
  id: string;
  /**
   * An earlier run may have handled it, or part of it: the item was taken up again after its instance
   * stopped, or stored again after Redis lost it. Handlers use it to tell "already done" from "failed".
   */
  mayHaveRunBefore: boolean;
}

export type ItemHandler = (payload: unknown, taken: TakenItem) => Promise<void>;

/** What the queue tells the metrics; every hook is optional and must not throw. */
export interface EventQueueObserver {
  /** Items taken up again from a partition's pending list: its owner stopped, or a read's answer was lost as the connection dropped. */
  recovered?(count: number): void;
  /** Items stored again because Redis lost them. */
  restored?(count: number): void;
  /** Items not stored because their id was marked (stored, or marked by the user) in the last day. */
  duplicate?(items: readonly QueueItem[]): void;
}

export interface DurableEventQueue {
  /**
   * Stores items, each in its key's partition, in order; resolves true once Redis has them all, false when
   * it could not within `timeoutMs` (the caller then handles them itself).
   */
  store(items: readonly QueueItem[], timeoutMs: number): Promise<boolean>;
  /** Starts claiming partitions and handling their items; `handle` resolves when the item is finished. Resolves once Redis is reachable. */
  startWorkers(handle: ItemHandler): Promise<void>;
  /** Items waiting in Redis, over all partitions (not counting those in some instance's hands). */
  waiting(): Promise<number>;
  /** This instance's figures now, for the metrics. */
  readonly stats: QueueStats;
  /** Items of each group (`groupOf`) this instance stored and has not yet seen handled; only groups with some. */
  keptByGroup(): ReadonlyMap<string, number>;
  /**
   * Items one instance's reader holds in hand at most, reading past a busy group's backlog to reach another
   * group's items behind it in a stream. Past that it reads nothing until some are handled: a group whose
   * stored backlog outgrows it hides every other group's items behind it (a user bounds what it stores).
   */
  readonly readAhead: number;
  /**
   * Stops taking items and waits up to `graceMs` for those in hand (and for the items this instance stored
   * to be handled somewhere); gives back the partitions it has finished. What is still running then stays
   * pending: the next owner takes it up once the lease expires. Returns how many were left that way.
   */
  stopWorkers(graceMs: number): Promise<number>;
  close(): Promise<void>;
}

export interface QueueStats {
  /** Items this instance is handling now (handlers running). */
  running: number;
  /** Items this instance has read and not finished: running, or waiting in their key's chain. */
  inHand: number;
  /** Partitions this instance owns now. */
  partitionsOwned: number;
  /** Items this instance stored and has not yet seen handled (kept against a Redis that comes back empty). */
  kept: number;
}

export interface DurableEventQueueOptions {
  /** Storing and the keeper's checks: fails at once when Redis is away. */
  commands: Redis;
  /** Leases, acknowledgements and (duplicated) the blocking reads: they wait for Redis to come back. */
  workers: Redis;
  log: Logger;
  /** The start of every key (no colon at the end): one Redis may hold several deployments. */
  keyPrefix: string;
  /**
   * Items one instance handles at once, at most (their handlers running). Items of a key whose earlier
   * item is running wait in its chain, up to four times this many in all (one more per partition owned at
   * most, when a wait for new items brings several partitions' at once). Default 64.
   */
  inHand?: number;
  /**
   * The group of an ordering key (an opaque name: the user's, say the tenant whose items they are). Groups
   * share the handler slots fairly: each holds at most `inHandPerGroup`, a slot that comes free goes to the
   * groups with items waiting in rotation, and the reading goes on past one group's items while another's
   * may be behind them. Default: one group for every key.
   */
  groupOf?: (orderingKey: string) => string;
  /** Items of one group handled at once, at most. Default `inHand` (no bound of its own). */
  inHandPerGroup?: number;
  /** Partitions; every instance must use the same number. Default PARTITIONS. */
  partitions?: number;
  /** An instance silent this long is taken for dead and its partitions for free. Default 2,000 ms. */
  leaseMs?: number;
  /**
   * This instance's id, when its `workers` connection is named `queueConnectionName(instanceId)`: then the
   * others take it for dead as soon as it is silent `suspectMs` and Redis holds no connection of that name
   * (a killed process's sockets close with it), not only once its lease runs out. Default: an id of its own,
   * and only the lease tells.
   */
  instanceId?: string;
  /** How long a named instance is silent before the others look for its connection. Default 2 claim ticks. */
  suspectMs?: number;
  /** How often leases are renewed and free partitions claimed. Default 250 ms. */
  claimEveryMs?: number;
  /** How often the keeper looks for items handled, and for a Redis that lost its data. Default 1,000 ms. */
  keepCheckMs?: number;
  /**
   * The key that marks an item as stored for a day: an item seen before is not stored again. Default
   * `<keyPrefix>:queue:seen:<id>`; a user that marks items done under keys of its own passes that key, so
   * one mark serves both (an item done before it could be stored is not stored after).
   */
  onceKey?: (item: QueueItem) => string;
  /** Items kept in memory at most; past it new items are stored but not kept (and the log says so). Default 20,000. */
  maxKept?: number;
  observer?: EventQueueObserver;
}
