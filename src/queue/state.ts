// The one state the queue's parts share: its settings, resolved once from the options, and everything that
// changes as it runs (what it keeps, the partitions it owns, what it has in hand, its reader, its
// acknowledgements), with the two signals every part may send the reader.
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { DurableEventQueueOptions, EventQueueObserver, ItemHandler, QueueItem } from "./api.js";
import { defaultOnceKey, PARTITIONS, queueKeys, unnamedInstanceId } from "./keys.js";
import type { QueueKeys } from "./keys.js";
import { storeScript, withScripts } from "./scripts.js";
import type { ScriptedRedis, StoreCall } from "./scripts.js";

/** A partition this instance owns. */
export interface Owned {
  /** Items of this partition in hand. */
  inHand: number;
  /**
   * Its pending entries have not been read yet: left by an earlier owner (`claimed`), or handed to this
   * instance by a read whose answer the connection lost when it dropped (`reconnected`).
   */
  unreadHistory: false | "claimed" | "reconnected";
  /** Over this instance's share: no more reads; the lease goes back once nothing is in hand. */
  releasing: boolean;
}

/** An item this instance stored and has not yet seen handled. */
export interface Kept {
  item: QueueItem;
  partition: number;
  entryId: string;
}

/** An entry read and not yet seen acknowledged; `finished` once handled (its acknowledgement failed). */
export interface Held {
  partition: number;
  finished: boolean;
}

/** One group's items here: with their handler running, read and not finished, stored and not seen handled, waiting for a slot. */
export interface GroupInHand {
  active: number;
  inHand: number;
  kept: number;
  readonly waiting: (() => void)[];
}

export type StreamReply = [key: string, entries: [id: string, fields: string[] | null][]][] | null;

/** Acknowledgements waiting to go out: entry ids by stream; `done` settles once Redis has them. */
export interface AckBatch {
  ids: Map<string, string[]>;
  done: Promise<void>;
  settle(err?: unknown): void;
  timer: NodeJS.Timeout;
}

export interface QueueState {
  // --- settings, fixed at creation ---
  readonly log: Logger;
  /** Storing and the keeper's checks: fails at once when Redis is away. */
  readonly commands: ScriptedRedis;
  /** Leases, acknowledgements and (duplicated) the reads: they wait for Redis to come back. */
  readonly workers: ScriptedRedis;
  readonly storeItems: StoreCall;
  readonly keys: QueueKeys;
  readonly onceKey: (item: QueueItem) => string;
  /** Items handled at once, at most (the option `inHand`). */
  readonly inHandMax: number;
  /** Items of one group handled at once, at most (the option `inHandPerGroup`). */
  readonly inHandPerGroup: number;
  /** The group of an ordering key (the option `groupOf`; one group for all without it). */
  readonly groupOf: (orderingKey: string) => string;
  readonly partitions: number;
  readonly leaseMs: number;
  readonly claimEveryMs: number;
  readonly keepCheckMs: number;
  readonly maxKept: number;
  /** This instance's id: a named one's says so, and the others look for its connection only then. */
  readonly me: string;
  readonly suspectMs: number;
  readonly streamPartition: ReadonlyMap<string, number>;
  readonly observer: EventQueueObserver | undefined;

  // --- storing, and keeping what was stored until it is seen handled (store.ts, keeper.ts) ---
  /** By `keepKey`. */
  readonly kept: Map<string, Kept>;
  /** `maxKept` reached (said once in the log until there is room again). */
  keptFull: boolean;
  /** The marker this instance knows Redis by; undefined until the keeper's first look. */
  marker: string | undefined;
  /** Redis's run id (changes at every start of the server, and with a failover). */
  runId: string | undefined;
  keeperTimer: NodeJS.Timeout | undefined;
  keeperBusy: boolean;
  /** Items to store again, taken out of `kept` until Redis has them again. */
  readonly toRestore: Kept[];
  /** Items being stored again now: still this instance's to keep (the metrics count them). */
  restoring: number;

  // --- partitions owned (leases.ts) ---
  readonly owned: Map<number, Owned>;
  /** Whether Redis lets us list its connections (some hosted ones refuse CLIENT LIST): then the lease alone tells. */
  canListConnections: boolean;
  claimTimer: NodeJS.Timeout | undefined;
  ticking: boolean;
  ticks: number;

  // --- handling (chains.ts) ---
  /** Workers started and not stopped. */
  running: boolean;
  handler: ItemHandler | undefined;
  /** The last item's work of each ordering key. */
  readonly chains: Map<string, Promise<void>>;
  /** Read and not finished. */
  inHand: number;
  /** Of those, with their handler running. */
  active: number;
  /** Each group's items here (turns.ts), while it has any. */
  readonly groups: Map<string, GroupInHand>;
  /** The groups with items waiting for a handler slot, in the order their turn comes. */
  readonly turnOrder: Map<string, GroupInHand>;
  /** Waiting for nothing to be in hand (a stop). */
  idleWaiters: (() => void)[];
  /**
   * Entries this instance read and has not yet seen acknowledged, by `heldKey`: read again (the pending
   * entries, after the reader's connection dropped), one still in hand is not handed out a second time, and
   * one finished whose acknowledgement failed is only acknowledged again.
   */
  readonly held: Map<string, Held>;

  // --- the reader (reader.ts) ---
  reader: Redis | undefined;
  readLoop: Promise<void> | undefined;
  /** The reader waiting for a free handler slot (or new partitions). */
  slotWaiter: (() => void) | undefined;
  /** Where the next look without waiting starts, when the free slots are fewer than the partitions. */
  rotation: number;
  /** Times the reader's connection closed: a read's answer that spans one is not taken (see readOnce). */
  readerDrops: number;
  /** The reader connection's client id, for CLIENT UNBLOCK. */
  readerId: number | undefined;
  /** Times the reader was asked to look at its partitions again (see readOnce). */
  unblocks: number;

  // --- acknowledgements (acks.ts) ---
  /** Those waiting to go out together. */
  acks: AckBatch | undefined;
}

export function createQueueState(options: DurableEventQueueOptions): QueueState {
  const workers = withScripts(options.workers);
  const commands = withScripts(options.commands);
  const storeItems = storeScript(options.commands);
  const partitions = options.partitions ?? PARTITIONS;
  const claimEveryMs = options.claimEveryMs ?? 250;
  const keys = queueKeys(options.keyPrefix);
  return {
    log: options.log,
    commands,
    workers,
    storeItems,
    keys,
    onceKey: options.onceKey ?? ((item: QueueItem): string => defaultOnceKey(options.keyPrefix, item.id)),
    inHandMax: options.inHand ?? 64,
    inHandPerGroup: Math.max(1, Math.min(options.inHand ?? 64, options.inHandPerGroup ?? options.inHand ?? 64)),
    groupOf: options.groupOf ?? ((): string => ""),
    partitions,
    leaseMs: options.leaseMs ?? 2_000,
    claimEveryMs,
    keepCheckMs: options.keepCheckMs ?? 1_000,
    maxKept: options.maxKept ?? 20_000,
    // An instance of an older version, or one whose connection is not named, is taken for dead by its lease alone.
    me: options.instanceId ?? unnamedInstanceId(),
    suspectMs: options.suspectMs ?? 2 * claimEveryMs,
    streamPartition: new Map<string, number>(Array.from({ length: partitions }, (_, p) => [keys.stream(p), p])),
    observer: options.observer,

    kept: new Map(),
    keptFull: false,
    marker: undefined,
    runId: undefined,
    keeperTimer: undefined,
    keeperBusy: false,
    toRestore: [],
    restoring: 0,

    owned: new Map(),
    canListConnections: true,
    claimTimer: undefined,
    ticking: false,
    ticks: 0,

    running: false,
    handler: undefined,
    chains: new Map(),
    inHand: 0,
    active: 0,
    groups: new Map(),
    turnOrder: new Map(),
    idleWaiters: [],
    held: new Map(),

    reader: undefined,
    readLoop: undefined,
    slotWaiter: undefined,
    rotation: 0,
    readerDrops: 0,
    readerId: undefined,
    unblocks: 0,

    acks: undefined,
  };
}

/** Forgets a kept item: seen handled, or taken out to be stored again. */
export function forgetKept(state: QueueState, key: string): void {
  const kept = state.kept.get(key);
  if (kept === undefined) return;
  state.kept.delete(key);
  const group = state.groups.get(state.groupOf(kept.item.orderingKey));
  if (group === undefined) return;
  group.kept -= 1;
  if (group.active === 0 && group.inHand === 0 && group.kept === 0 && group.waiting.length === 0) state.groups.delete(state.groupOf(kept.item.orderingKey));
}

export const keepKey = (partition: number, entryId: string): string => `${partition}/${entryId}`;
export const heldKey = (stream: string, entryId: string): string => `${stream} ${entryId}`;

/** A handler slot (or room in hand) came free: the reader waiting for one looks again. */
export function wakeReader(state: QueueState): void {
  const wake = state.slotWaiter;
  state.slotWaiter = undefined;
  wake?.();
}

/** The partitions changed, or the workers stop: the reader's blocking read ends now, not at its timeout. */
export function unblockReader(state: QueueState): void {
  state.unblocks += 1;
  wakeReader(state);
  if (state.readerId !== undefined) void state.workers.client("UNBLOCK", state.readerId).catch(() => undefined); // not allowed on some hosted Redis: the block then ends by itself
}
