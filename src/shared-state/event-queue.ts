// Items kept in Redis until handled, shared by every instance: Redis Streams with claimed partitions.
//
// What the queue promises: items with one ordering key are handled one at a time and in the order they
// were stored, whichever instance stored them; an item is handled once, and again only after a crash,
// with `mayHaveRunBefore` set; capacity grows with the instances, each holding at most `inHand` items.
//
// How. Ordering keys are hashed onto a fixed number of partitions, each a Redis stream with one consumer
// group. A partition is claimed by one instance at a time (a lease key, renewed while the instance lives),
// and the instances share the partitions out evenly: each claims at most its share (partitions / live
// instances) and gives back what it holds over it, once it has nothing of that partition in hand. The
// owner reads new entries in blocks and runs them through one chain per ordering key, so items of
// different keys in one partition run side by side and items of one key in stream order. An entry stays
// in the consumer group's pending list until it is handled, then it is acknowledged and deleted: nothing
// of an item is kept once it is handled. An instance that dies stops renewing its leases: they expire,
// the others' share grows, they claim its partitions and read the pending entries first (every instance
// reads as the same consumer name, so a partition's pending list follows its lease). A killed process is
// noticed sooner: its queue connection, named after it, is gone from Redis's list of clients as soon as it
// has been silent for two ticks, and the others take it for dead then. A read that Redis answered as the
// reading connection dropped leaves its entries pending, never received: once that connection is back, the
// owner reads its partitions' pending entries again and takes up those it does not have in hand.
//
// Redis that comes back empty (restarted without persistence, or a failover to a replica that lagged):
// each instance keeps in memory what it stored until it sees the entry gone from its stream (handled),
// and stores again what it still keeps when it notices the loss: the marker key it wrote is missing or
// another, or Redis's run id changed. Items stored again are handled with `mayHaveRunBefore`.
import { createHash, randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** One item to keep until handled. */
export interface QueueItem {
  /** The item's own id (a webhook event's id): logs name it. */
  id: string;
  /** Items with the same key are handled one at a time, in the order stored (a chat). */
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
  /** Items not stored because their id was stored (or answered) in the last day. */
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
   * The key that marks an item as stored (or answered) for a day: an item seen before is not stored again.
   * Default `<keyPrefix>:queue:seen:<id>`; the bot passes its ledger's key for answered events (under the
   * shop's namespace), so one mark serves both.
   */
  onceKey?: (item: QueueItem) => string;
  /** Items kept in memory at most; past it new items are stored but not kept (and the log says so). Default 20,000. */
  maxKept?: number;
  observer?: EventQueueObserver;
}

/** Partitions by default: at most this many instances share the work; every instance must use the same number. */
export const PARTITIONS = 64;

/** An id's mark lasts a day: LINE redelivers for about 20 minutes. */
const ONCE_TTL_S = 24 * 60 * 60;
/** An entry handed out this many times without being finished is given up. */
const MAX_DELIVERIES = 5;
/** Acknowledgements wait this long to go out together. */
const ACK_WINDOW_MS = 100;

/** Every instance reads as this one consumer, so a partition's pending entries go with its lease. */
const CONSUMER = "owner";
const GROUP = "handlers";
/** Items read and waiting in their key's chain: up to this many times the handlers' bound. */
const CHAIN_FACTOR = 4;
/** How long a blocking read waits before it looks at the partitions owned again. */
const BLOCK_MS = 1_000;
/** The marker lives a day without a look (every instance that stores renews it at each check). */
const MARKER_TTL_MS = 24 * 60 * 60 * 1000;

/** The partition of an ordering key: the same on every instance. */
export function partitionOf(orderingKey: string, partitions: number): number {
  return createHash("sha1").update(orderingKey).digest().readUInt32BE(0) % partitions;
}

/** The Redis keys of a queue under `keyPrefix`; tests name them from here. */
export function queueKeys(keyPrefix: string) {
  const base = `${keyPrefix}:queue`;
  return {
    stream: (partition: number): string => `${base}:p:${partition}`,
    lease: (partition: number): string => `${base}:lease:${partition}`,
    leasePrefix: `${base}:lease:`,
    instances: `${base}:instances`,
    marker: `${base}:marker`,
  };
}

// One round trip per tick: the instance says it lives (a sorted set of instances by their last tick; one
// silent for `stale` ms is dropped), and claims partitions up to its share: a partition is free when its
// lease names no instance that lives. Its own leases are checked only when it may have lost them (it was
// silent too long itself) and their expiry pushed back now and then (the expiry only clears leases left
// behind). Returns the share, the partitions lost, those claimed now, and the instances silent for a while
// (each with its last tick), whose connections are then looked for.
const TICK_SCRIPT = `
local me = ARGV[1]
local now = tonumber(ARGV[2])
local stale = tonumber(ARGV[3])
local partitions = tonumber(ARGV[4])
local leasePrefix = ARGV[5]
local start = tonumber(ARGV[6])
local leaseTtl = tonumber(ARGV[7])
local refresh = ARGV[8] == '1'
local suspectBefore = now - tonumber(ARGV[9])
local owned = tonumber(ARGV[10])
local last = redis.call('ZSCORE', KEYS[1], me)
local wasAlive = last and tonumber(last) >= now - stale
redis.call('ZADD', KEYS[1], now, me)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - stale)
redis.call('PEXPIRE', KEYS[1], stale * 10)
local share = math.ceil(partitions / redis.call('ZCARD', KEYS[1]))
local held = owned
local lost = {}
if (not wasAlive) or refresh then
  held = 0
  for i = 1, owned do
    local p = ARGV[10 + i]
    local key = leasePrefix .. p
    if redis.call('GET', key) == me then
      redis.call('PEXPIRE', key, leaseTtl)
      held = held + 1
    else
      table.insert(lost, tonumber(p))
    end
  end
end
local claimed = {}
local j = 0
while held < share and j < partitions do
  local p = (start + j) % partitions
  local key = leasePrefix .. p
  local owner = redis.call('GET', key)
  if owner ~= me and ((not owner) or (not redis.call('ZSCORE', KEYS[1], owner))) then
    redis.call('SET', key, me, 'PX', leaseTtl)
    table.insert(claimed, p)
    held = held + 1
  end
  j = j + 1
end
local suspects = {}
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. suspectBefore, 'WITHSCORES')) do
  table.insert(suspects, member)
end
return {share, lost, claimed, suspects}`;

/** Forgets an instance taken for dead, unless it said it lives since (its last tick still the one seen). */
const FORGET_SCRIPT = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0`;

/** Gives leases back, only those still this instance's. */
const RELEASE_SCRIPT = `
local released = 0
for i = 2, #ARGV do
  local key = ARGV[1] .. ARGV[i]
  if redis.call('GET', key) == KEYS[1] then
    redis.call('DEL', key)
    released = released + 1
  end
end
return released`;

// Acknowledges handled entries and deletes them, stream by stream: `streams` the keys, ARGV from `at` for
// each stream the count of its ids, then the ids (in chunks: Lua's unpack takes a few thousand at most).
const ACK_LUA = `
local function acknowledge(streams, group, at)
  for _, stream in ipairs(streams) do
    local count = tonumber(ARGV[at])
    for from = 1, count, 1000 do
      local ids = {}
      for j = from, math.min(count, from + 999) do ids[#ids + 1] = ARGV[at + j] end
      redis.call('XACK', stream, group, unpack(ids))
      redis.call('XDEL', stream, unpack(ids))
    end
    at = at + count + 1
  end
end`;

// Stores items: each is added to its partition's stream only if its id was not stored (or answered) in
// the last day, the id's mark set in the same step. Items stored again after a loss of Redis's data are
// added whatever the mark says. Returns each item's entry id, or "" for an id seen before. KEYS: each
// item's stream and mark, then the streams of the acknowledgements that ride along; ARGV: the mark's
// expiry, the item count, four per item, then as ACK_SCRIPT's ARGV. The acknowledgements go first: should
// they fail, nothing is stored (a script's writes are not undone), and the caller handles the items itself.
const STORE_SCRIPT = `${ACK_LUA}
local ttl = ARGV[1]
local n = tonumber(ARGV[2])
local ackStreams = {}
for k = 2 * n + 1, #KEYS do ackStreams[#ackStreams + 1] = KEYS[k] end
acknowledge(ackStreams, ARGV[3 + n * 4], 4 + n * 4)
local out = {}
for i = 1, n do
  local base = 2 + (i - 1) * 4
  local restored = ARGV[base + 4] == '1'
  local fresh = redis.call('SET', KEYS[2 * i], '1', 'NX', 'EX', ttl)
  if fresh or restored then
    if restored then
      out[i] = redis.call('XADD', KEYS[2 * i - 1], '*', 'i', ARGV[base + 1], 'k', ARGV[base + 2], 'p', ARGV[base + 3], 'r', '1')
    else
      out[i] = redis.call('XADD', KEYS[2 * i - 1], '*', 'i', ARGV[base + 1], 'k', ARGV[base + 2], 'p', ARGV[base + 3])
    end
  else
    out[i] = ''
  end
end
return out`;

// The keeper's look, in one step: whether the marker is still the one this instance knows (renewing it),
// and which of the entries it keeps are gone from their streams. Returns {0} when the marker is not, else
// {1, indexes of the entries gone...}.
const KEEP_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {0} end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local out = {1}
for i = 3, #ARGV, 2 do
  if #redis.call('XRANGE', ARGV[i], ARGV[i + 1], ARGV[i + 1]) == 0 then table.insert(out, (i - 1) / 2) end
end
return out`;

// Acknowledges handled entries and deletes them: KEYS are the streams, ARGV the group, then for each
// stream the count of its ids and the ids.
const ACK_SCRIPT = `${ACK_LUA}
acknowledge(KEYS, ARGV[1], 2)
return 1`;

/** A lease key outlives its owner this long at most (it only clears leases nobody gave back). */
const LEASE_TTL_MS = 60_000;
/** The ticks between two pushes of this instance's lease expiries. */
const LEASE_REFRESH_TICKS = 40;

const NAMED_INSTANCE = "named:";

/** A new instance id whose queue connection is named after it (see `instanceId`). */
export function namedInstanceId(): string {
  return `${NAMED_INSTANCE}${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

function isNamedInstance(id: string): boolean {
  return id.startsWith(NAMED_INSTANCE);
}

/** The name of the `workers` connection of the instance `instanceId` (CLIENT SETNAME: no spaces). */
export function queueConnectionName(instanceId: string): string {
  return `slipline-queue:${instanceId}`;
}

/** The scripts, sent once and then called by their hash. */
interface QueueScripts {
  queueTick(instances: string, ...args: string[]): Promise<[number, number[], number[], string[]]>;
  queueForget(instances: string, member: string, score: string): Promise<number>;
  queueRelease(me: string, ...args: string[]): Promise<number>;
  queueKeep(marker: string, ...args: string[]): Promise<number[]>;
  queueAck(streamCount: number, ...keysAndArgs: string[]): Promise<number>;
}

function withScripts(redis: Redis): Redis & QueueScripts {
  const scripted = redis as Redis & Partial<QueueScripts>;
  if (scripted.queueTick === undefined) redis.defineCommand("queueTick", { numberOfKeys: 1, lua: TICK_SCRIPT });
  if (scripted.queueRelease === undefined) redis.defineCommand("queueRelease", { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  if (scripted.queueForget === undefined) redis.defineCommand("queueForget", { numberOfKeys: 1, lua: FORGET_SCRIPT });
  if (scripted.queueKeep === undefined) redis.defineCommand("queueKeep", { numberOfKeys: 1, lua: KEEP_SCRIPT });
  if (scripted.queueAck === undefined) redis.defineCommand("queueAck", { lua: ACK_SCRIPT });
  return redis as Redis & QueueScripts;
}

/** The store script's call: its keys depend on the items. */
function storeScript(redis: Redis): (keysAndArgs: string[], keyCount: number) => Promise<string[]> {
  const scripted = redis as Redis & { queueStore?: (count: number, ...keysAndArgs: string[]) => Promise<string[]> };
  if (scripted.queueStore === undefined) redis.defineCommand("queueStore", { lua: STORE_SCRIPT });
  return (keysAndArgs, keyCount) => (scripted as Required<typeof scripted>).queueStore(keyCount, ...keysAndArgs);
}

interface Owned {
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

interface Kept {
  item: QueueItem;
  partition: number;
  entryId: string;
}

type StreamReply = [key: string, entries: [id: string, fields: string[] | null][]][] | null;

/** Acknowledgements waiting to go out: entry ids by stream; `done` settles once Redis has them. */
interface AckBatch {
  ids: Map<string, string[]>;
  done: Promise<void>;
  settle(err?: unknown): void;
  timer: NodeJS.Timeout;
}

export function createDurableEventQueue(options: DurableEventQueueOptions): DurableEventQueue {
  const { log } = options;
  const workers = withScripts(options.workers);
  const commands = withScripts(options.commands);
  const storeItems = storeScript(options.commands);
  const onceKey = options.onceKey ?? ((item: QueueItem): string => `${options.keyPrefix}:queue:seen:${item.id}`);
  const inHandMax = options.inHand ?? 64;
  const partitions = options.partitions ?? PARTITIONS;
  const leaseMs = options.leaseMs ?? 2_000;
  const claimEveryMs = options.claimEveryMs ?? 250;
  const keepCheckMs = options.keepCheckMs ?? 1_000;
  const maxKept = options.maxKept ?? 20_000;
  const keys = queueKeys(options.keyPrefix);
  // A named instance's id says so: the others look for its connection only then (an instance of an older
  // version, or one whose connection is not named, is taken for dead by its lease alone).
  const me = options.instanceId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const suspectMs = options.suspectMs ?? 2 * claimEveryMs;
  /** Whether Redis lets us list its connections (some hosted ones refuse CLIENT LIST): then the lease alone tells. */
  let canListConnections = true;
  const streamPartition = new Map<string, number>(Array.from({ length: partitions }, (_, p) => [keys.stream(p), p]));

  // --- storing, and keeping what was stored until it is seen handled ---
  const kept = new Map<string, Kept>();
  let keptFull = false;
  let marker: string | undefined;
  let runId: string | undefined;
  let keeperTimer: NodeJS.Timeout | undefined;
  let keeperBusy = false;

  const keepKey = (partition: number, entryId: string): string => `${partition}/${entryId}`;

  function keep(item: QueueItem, partition: number, entryId: string): void {
    if (kept.size >= maxKept) {
      if (!keptFull) log.warn({ kept: kept.size }, "too many stored items not yet handled: new ones are not kept against a loss of Redis's data");
      keptFull = true;
      return;
    }
    keptFull = false;
    kept.set(keepKey(partition, entryId), { item, partition, entryId });
  }

  /**
   * Adds the items in one step; each one's entry id, or "" when its id was stored before. With
   * `acksAlong`, the acknowledgements waiting go along, settled with this step.
   */
  function add(placed: readonly { item: QueueItem; partition: number }[], restored: boolean, acksAlong = false): Promise<string[]> {
    const keyList: string[] = [];
    const args: string[] = [String(ONCE_TTL_S), String(placed.length)];
    for (const { item, partition } of placed) {
      keyList.push(keys.stream(partition), onceKey(item));
      args.push(item.id, item.orderingKey, JSON.stringify(item.payload), restored ? "1" : "0");
    }
    // Taken only once the items' arguments are made (a payload that cannot be written leaves them waiting).
    const riding = acksAlong ? takeAcks() : undefined;
    if (riding !== undefined) {
      args.push(GROUP);
      for (const [stream, ids] of riding.ids) {
        keyList.push(stream);
        args.push(String(ids.length), ...ids);
      }
    }
    const stored = storeItems([...keyList, ...args], keyList.length);
    // Not taken with the items (Redis away): they go the workers' way, which waits for Redis.
    if (riding !== undefined) stored.then(() => riding.settle(), () => void sendAcks(riding));
    return stored;
  }

  /** Redis's run id (changes at every start of the server, and with a failover). */
  async function readRunId(): Promise<string | undefined> {
    const info = await commands.info("server");
    return /run_id:([0-9a-f]+)/.exec(info)?.[1];
  }

  /** Learns the marker and run id, writing the marker if there is none. */
  async function learnMarker(): Promise<void> {
    const fresh = randomBytes(8).toString("hex");
    const [results, id] = await Promise.all([commands.multi().set(keys.marker, fresh, "PX", MARKER_TTL_MS, "NX").get(keys.marker).exec(), readRunId()]);
    const current = results?.[1]?.[1];
    marker = typeof current === "string" ? current : fresh;
    runId = id;
  }

  /** Items to store again, taken out of `kept` until Redis has them again. */
  const toRestore: Kept[] = [];

  /** Stores again what Redis lost (or may have): the items given, or everything kept. */
  async function restoreKept(reason: string, lost: readonly Kept[] = [...kept.values()]): Promise<void> {
    for (const entry of lost) {
      kept.delete(keepKey(entry.partition, entry.entryId));
      toRestore.push(entry);
    }
    if (toRestore.length > 0) log.warn({ reason, items: toRestore.length }, "redis lost stored items: stored again what this instance still kept");
    await learnMarker();
    await flushRestore();
  }

  /** Items being stored again now: still this instance's to keep (the metrics count them). */
  let restoring = 0;

  /** Stores the items waiting to be stored again; on failure they wait for the next look. */
  async function flushRestore(): Promise<void> {
    if (toRestore.length === 0) return;
    const batch = toRestore.splice(0);
    let entryIds: string[];
    restoring += batch.length;
    try {
      entryIds = await add(batch, true);
    } catch (err) {
      toRestore.unshift(...batch);
      throw err;
    } finally {
      restoring -= batch.length;
    }
    batch.forEach((entry, index) => keep(entry.item, entry.partition, entryIds[index] ?? ""));
    options.observer?.restored?.(batch.length);
  }

  /**
   * One look: did Redis lose its data? Which kept items are handled (gone from their stream)? The marker
   * gone or another: everything kept is stored again. Only the run id changed (a restart that kept the
   * data, or a failover to a replica that may have lagged): the kept items missing from their streams are
   * stored again; those were handled or lost, and a handled one's second run sends nothing (it is handed
   * over as possibly answered: its reply token is spent, its pushes' retry keys answered 409).
   */
  async function checkKept(): Promise<void> {
    if (marker === undefined) {
      await learnMarker();
      return;
    }
    await flushRestore();
    const entries = [...kept.values()];
    const [answer, id] = await Promise.all([
      commands.queueKeep(keys.marker, marker, String(MARKER_TTL_MS), ...entries.flatMap(({ partition, entryId }) => [keys.stream(partition), entryId])),
      readRunId(),
    ]);
    if (answer[0] !== 1) {
      const current = await commands.get(keys.marker);
      await restoreKept(current === null ? "marker_missing" : "marker_changed");
      return;
    }
    // Checked in the same step as the entries: with the marker there, the data is, and an entry gone is an
    // entry handled (or, after a restart that kept the data or a failover, maybe lost).
    const gone = answer.slice(1).flatMap((index) => entries[index - 1] ?? []);
    if (id !== runId) {
      runId = id;
      await restoreKept("run_id_changed", gone);
      return;
    }
    for (const { partition, entryId } of gone) kept.delete(keepKey(partition, entryId));
  }

  function checkNow(): void {
    if (keeperBusy) return;
    keeperBusy = true;
    checkKept()
      .catch((err: unknown) => log.debug({ error: err instanceof Error ? err.message : String(err) }, "stored items not checked (redis away)"))
      .finally(() => (keeperBusy = false));
  }

  function startKeeper(): void {
    if (keeperTimer !== undefined) return;
    keeperTimer = setInterval(checkNow, keepCheckMs);
    keeperTimer.unref();
    checkNow();
  }

  // --- handling: claiming partitions, reading them, one chain per ordering key ---
  const owned = new Map<number, Owned>();
  const chains = new Map<string, Promise<void>>();
  /** Read and not finished; and of those, with their handler running. */
  let inHand = 0;
  let active = 0;
  let running = false;
  let handler: ItemHandler | undefined;
  let reader: Redis | undefined;
  let claimTimer: NodeJS.Timeout | undefined;
  let readLoop: Promise<void> | undefined;
  let slotWaiter: (() => void) | undefined;
  let idleWaiters: (() => void)[] = [];
  let rotation = 0;
  let ticking = false;
  let ticks = 0;
  /** Times the reader's connection closed: a read's answer that spans one is not taken (see readOnce). */
  let readerDrops = 0;
  /** The reader connection's client id, for CLIENT UNBLOCK. */
  let readerId: number | undefined;

  /** Times the reader was asked to look at its partitions again (see readOnce). */
  let unblocks = 0;

  function unblockReader(): void {
    unblocks += 1;
    wakeReader();
    if (readerId !== undefined) void workers.client("UNBLOCK", readerId).catch(() => undefined); // not allowed on some hosted Redis: the block then ends by itself
  }

  const wakeReader = (): void => {
    const wake = slotWaiter;
    slotWaiter = undefined;
    wake?.();
  };

  async function ensureGroups(list: readonly number[]): Promise<void> {
    if (list.length === 0) return;
    const pipeline = workers.pipeline();
    // From the start of the stream: entries stored before the group existed are read too.
    for (const p of list) pipeline.xgroup("CREATE", keys.stream(p), GROUP, "0", "MKSTREAM");
    await pipeline.exec(); // BUSYGROUP (it exists) is the usual answer
  }

  async function tick(): Promise<void> {
    const forgotten = await tickOnce();
    // An instance found dead: its partitions are free now, not when its lease runs out.
    if (forgotten && running) await tickOnce();
  }

  /** One tick; says whether an instance was found dead (its partitions free at the next). */
  async function tickOnce(): Promise<boolean> {
    const mine = [...owned.keys()];
    ticks += 1;
    const [share, lost, claimed, suspects] = await workers.queueTick(
      keys.instances,
      me,
      String(Date.now()),
      String(leaseMs),
      String(partitions),
      keys.leasePrefix,
      String(Math.floor(Math.random() * partitions)),
      String(LEASE_TTL_MS),
      ticks % LEASE_REFRESH_TICKS === 0 ? "1" : "0",
      String(suspectMs),
      String(mine.length),
      ...mine.map(String),
    );
    for (const p of lost) {
      const state = owned.get(p);
      disown(p);
      if (state !== undefined && state.inHand > 0) log.warn({ partition: p, inHand: state.inHand }, "partition lease lost while items were in hand (this instance was too slow); another instance takes it up");
    }
    if (!running) return false;
    await ensureGroups(claimed);
    for (const p of claimed) owned.set(p, { inHand: 0, unreadHistory: "claimed", releasing: false });
    // Over the share (an instance joined): give back the partitions with least in hand, once they are idle.
    const active = [...owned].filter(([, state]) => !state.releasing);
    const excess = active.length - share;
    if (excess > 0) {
      for (const [, state] of active.sort((a, b) => a[1].inHand - b[1].inHand).slice(0, excess)) state.releasing = true;
    }
    await releaseIdle();
    // The blocking read waits on the partitions it had: it starts again at once with those it has now.
    if (claimed.length > 0 || excess > 0 || lost.length > 0) unblockReader();
    return suspects.length > 0 && (await forgetDead(suspects));
  }

  /**
   * The silent instances (member, last tick, ...) that are named and have no connection to Redis left: a
   * killed process. Forgotten, so that their partitions are free; says whether any was.
   */
  async function forgetDead(suspects: readonly string[]): Promise<boolean> {
    const named: { member: string; lastTick: string }[] = [];
    for (let i = 0; i + 1 < suspects.length; i += 2) {
      const member = suspects[i] as string;
      if (member !== me && isNamedInstance(member)) named.push({ member, lastTick: suspects[i + 1] as string });
    }
    if (named.length === 0 || !canListConnections) return false;
    let connections: string;
    try {
      connections = String(await workers.call("CLIENT", "LIST", "TYPE", "normal"));
    } catch (err) {
      canListConnections = false;
      log.info({ error: err instanceof Error ? err.message : String(err) }, "redis refuses CLIENT LIST: a stopped instance's partitions wait for its lease to run out");
      return false;
    }
    const names = new Set(connections.split("\n").map((line) => / name=(\S*)/.exec(line)?.[1]));
    let forgotten = 0;
    for (const { member, lastTick } of named) {
      if (names.has(queueConnectionName(member))) continue;
      if ((await workers.queueForget(keys.instances, member, lastTick)) === 0) continue;
      forgotten += 1;
      log.warn({ instance: member }, "an instance stopped without giving its partitions back (no connection left): its partitions are free");
    }
    return forgotten > 0;
  }

  async function releaseIdle(all = false): Promise<void> {
    const idle = [...owned].filter(([, state]) => (all || state.releasing) && state.inHand === 0).map(([p]) => p);
    if (idle.length === 0) return;
    for (const p of idle) disown(p);
    await workers.queueRelease(me, keys.leasePrefix, ...idle.map(String));
  }

  function startClaiming(): void {
    claimTimer = setInterval(() => {
      if (ticking) return;
      ticking = true;
      tick()
        .catch((err: unknown) => log.warn({ error: err instanceof Error ? err.message : String(err) }, "partition leases not renewed"))
        .finally(() => (ticking = false));
    }, claimEveryMs);
  }

  /**
   * Entries this instance read and has not yet seen acknowledged, by `heldKey`: read again (the pending
   * entries, after the reader's connection dropped), one still in hand is not handed out a second time, and
   * one finished whose acknowledgement failed is only acknowledged again.
   */
  const held = new Map<string, { partition: number; finished: boolean }>();
  const heldKey = (stream: string, entryId: string): string => `${stream} ${entryId}`;

  /** The partition is no longer this instance's: what it finished there and could not acknowledge, its next owner redoes. */
  function disown(p: number): void {
    owned.delete(p);
    for (const [key, entry] of held) if (entry.partition === p && entry.finished) held.delete(key);
  }

  function take(reply: StreamReply, fromHistory: boolean): void {
    let recovered = 0;
    for (const [stream, entries] of reply ?? []) {
      const partition = streamPartition.get(stream);
      if (partition === undefined) continue;
      const why = owned.get(partition)?.unreadHistory;
      for (const [entryId, fields] of entries) {
        const mine = held.get(heldKey(stream, entryId));
        if (mine !== undefined) {
          if (mine.finished) void acknowledge(stream, entryId).then(() => held.delete(heldKey(stream, entryId)), () => undefined);
          continue;
        }
        if (fields === null) {
          // Deleted while pending (handled, then the acknowledgement was lost): only the acknowledgement is left to do.
          void acknowledge(stream, entryId).catch(() => undefined);
          continue;
        }
        const field = (name: string): string | undefined => {
          const at = fields.indexOf(name);
          return at >= 0 && at % 2 === 0 ? fields[at + 1] : undefined;
        };
        const id = field("i") ?? entryId;
        const orderingKey = field("k") ?? id;
        let payload: unknown;
        try {
          payload = JSON.parse(field("p") ?? "null");
        } catch {
          log.error({ itemId: id, partition }, "stored item is not JSON; dropped");
          void finish(stream, partition, entryId, false);
          continue;
        }
        if (fromHistory) {
          recovered += 1;
          if (why === "reconnected") log.warn({ itemId: id, partition }, "event read by this instance as its connection to redis dropped, never received; taken up again");
          else log.warn({ itemId: id, partition }, "event found in the hands of an instance that stopped; taken up again");
        }
        const mayHaveRunBefore = fromHistory || field("r") === "1";
        held.set(heldKey(stream, entryId), { partition, finished: false });
        inHand += 1;
        const state = owned.get(partition);
        if (state !== undefined) state.inHand += 1;
        // Counted against the partition as owned now: if it is lost and claimed again meanwhile, the new
        // ownership starts from nothing in hand.
        run(orderingKey, () => handleOne(payload, { id, mayHaveRunBefore }).finally(() => finish(stream, partition, entryId, state ?? true)));
      }
    }
    if (recovered > 0) options.observer?.recovered?.(recovered);
  }

  /** Items whose turn in their chain came while every handler slot was taken, first come first served. */
  const slotQueue: (() => void)[] = [];

  async function handleOne(payload: unknown, taken: TakenItem): Promise<void> {
    // A blocking read may hand over more than the free slots (one entry of each partition that got one):
    // the handlers' bound holds here, whatever was read.
    if (active >= inHandMax) await new Promise<void>((resolve) => slotQueue.push(resolve));
    else active += 1;
    try {
      await handler?.(payload, taken);
    } catch (err) {
      log.error({ err, itemId: taken.id }, "stored item handler failed");
    } finally {
      // The slot goes straight to the next waiting item, so nothing started meanwhile can take it too.
      const next = slotQueue.shift();
      if (next === undefined) active -= 1;
      else next();
    }
  }

  /** Runs `work` after everything before it with the same key. */
  function run(orderingKey: string, work: () => Promise<void>): void {
    const before = chains.get(orderingKey);
    const next = (before === undefined ? work() : before.then(work)).then(() => {
      if (chains.get(orderingKey) === next) chains.delete(orderingKey);
    });
    chains.set(orderingKey, next);
  }

  // Acknowledgements go out together: every item finished within a short window, in one round trip, or
  // sooner with the next items this instance stores (one round trip, one wake-up, for both).
  let acks: AckBatch | undefined;

  function acknowledge(stream: string, entryId: string): Promise<void> {
    acks ??= newAckBatch();
    const list = acks.ids.get(stream);
    if (list === undefined) acks.ids.set(stream, [entryId]);
    else list.push(entryId);
    return acks.done;
  }

  function newAckBatch(): AckBatch {
    let settle: AckBatch["settle"] = () => undefined;
    const done = new Promise<void>((resolve, reject) => (settle = (err) => (err === undefined ? resolve() : reject(err instanceof Error ? err : new Error("acknowledgements not taken", { cause: err })))));
    return { ids: new Map(), done, settle, timer: setTimeout(() => void sendAcks(takeAcks()), ACK_WINDOW_MS) };
  }

  /** The acknowledgements waiting, taken out to be sent now. */
  function takeAcks(): AckBatch | undefined {
    const batch = acks;
    acks = undefined;
    clearTimeout(batch?.timer);
    return batch;
  }

  async function sendAcks(batch: AckBatch | undefined): Promise<void> {
    if (batch === undefined) return;
    const streams = [...batch.ids.keys()];
    try {
      await workers.queueAck(streams.length, ...streams, GROUP, ...[...batch.ids.values()].flatMap((ids) => [String(ids.length), ...ids]));
      batch.settle();
    } catch (err) {
      batch.settle(err);
    }
  }

  /** `counted`: the item was counted in hand (and against this ownership of its partition, when given). */
  async function finish(stream: string, partition: number, entryId: string, counted: Owned | boolean): Promise<void> {
    const key = heldKey(stream, entryId);
    try {
      await acknowledge(stream, entryId);
      held.delete(key);
    } catch (err) {
      // Acknowledged again when its partition's pending entries are read again; by the next owner if it is gone.
      const mine = held.get(key);
      if (mine !== undefined && owned.has(partition)) mine.finished = true;
      else held.delete(key);
      log.warn({ error: err instanceof Error ? err.message : String(err), partition }, "handled item not acknowledged; it may be handled again");
    }
    kept.delete(keepKey(partition, entryId));
    if (counted === false) return;
    inHand -= 1;
    if (counted !== true) counted.inHand -= 1;
    wakeReader();
    if (inHand === 0) for (const idle of idleWaiters.splice(0)) idle();
  }

  /**
   * An entry handed out MAX_DELIVERIES times and never finished has taken its instance down each time (a
   * handler's own errors are caught): it is given up, with an error line, so it cannot stop a partition.
   */
  async function giveUpPoison(list: readonly number[]): Promise<void> {
    const pipeline = workers.pipeline();
    for (const p of list) pipeline.xpending(keys.stream(p), GROUP, "-", "+", 10_000);
    const results = (await pipeline.exec()) ?? [];
    const givenUp: Promise<void>[] = [];
    for (const [index, [err, pending]] of results.entries()) {
      const p = list[index];
      if (err !== null || p === undefined || !Array.isArray(pending)) continue;
      for (const entry of pending as [string, string, number, number][]) {
        const [entryId, , , deliveries] = entry;
        // One in hand here (the partition lost and claimed again meanwhile) is not given up.
        if (deliveries < MAX_DELIVERIES || held.has(heldKey(keys.stream(p), entryId))) continue;
        log.error({ partition: p, entryId, deliveries }, "stored event given up: every instance that took it stopped before it was finished");
        givenUp.push(acknowledge(keys.stream(p), entryId).catch(() => undefined));
      }
    }
    await Promise.all(givenUp); // before the pending entries are read
  }

  async function readOnce(connection: Redis): Promise<void> {
    const readable = [...owned].filter(([, state]) => !state.releasing);
    const history = readable.filter(([, state]) => state.unreadHistory).map(([p]) => p);
    if (history.length > 0) {
      const claimed = history.filter((p) => owned.get(p)?.unreadHistory === "claimed");
      const reconnected = history.filter((p) => owned.get(p)?.unreadHistory === "reconnected");
      if (claimed.length > 0) {
        await giveUpPoison(claimed);
        // Entries an earlier owner read and never acknowledged: before any new one of the same partitions.
        take((await connection.xreadgroup("GROUP", GROUP, CONSUMER, "COUNT", 10_000, "STREAMS", ...claimed.map(keys.stream), ...claimed.map(() => "0"))) as StreamReply, true);
      }
      if (reconnected.length > 0) take(await pendingNotHeld(connection, reconnected), true);
      // Marked read only once read: a read that failed (Redis away) is tried again, not skipped for good.
      for (const p of history) {
        const state = owned.get(p);
        if (state !== undefined) state.unreadHistory = false;
      }
      return;
    }
    const free = Math.min(inHandMax - active - slotQueue.length, CHAIN_FACTOR * inHandMax - inHand);
    if (readable.length === 0 || free <= 0) {
      await new Promise<void>((resolve) => {
        slotWaiter = resolve;
        setTimeout(resolve, BLOCK_MS).unref();
      });
      return;
    }
    const drops = readerDrops;
    const asked = unblocks;
    const all = readable.map(([p]) => p);
    let reply: StreamReply;
    if (free >= all.length) {
      reply = await readNew(connection, all, Math.floor(free / all.length), true);
    } else {
      // Fewer free slots than partitions: a look without waiting at some of them, the next look at the
      // others, so that none is left behind. When they had nothing, a wait on all of them, one entry each at
      // most (a wake-up brings one as a rule; any more wait for a handler slot), rather than looking again at
      // once: that turned into a loop of reads for as long as a handler ran.
      rotation = (rotation + 1) % all.length;
      const picked = [...all.slice(rotation), ...all.slice(0, rotation)].slice(0, free);
      reply = await readNew(connection, picked, 1, false);
      // Not when the partitions changed (or the workers stop) meanwhile: a CLIENT UNBLOCK sent during the
      // look would miss the wait, which would then last its second on the old partitions.
      if (reply === null && drops === readerDrops && asked === unblocks && running) reply = await readNew(connection, all, 1, true);
    }
    // The connection dropped meanwhile: this answer may be that of the read sent again after it, with entries
    // newer than some handed out just before the drop. All are pending now, and are read again in the order
    // they were stored (see spannedDrop).
    if (drops !== readerDrops) {
      spannedDrop(reply);
      return;
    }
    take(reply, false);
  }

  /**
   * An answer that spans a drop of the reader's connection, not taken as it came. Its partitions still owned
   * have their pending entries read again, in stream order; the reconnection asked that only of those owned
   * when it came back, and a partition claimed since may have had its pending entries read already. Those of
   * partitions no longer owned (the read was sent again with the partitions of before) are taken here: the
   * new owner may have read its pending entries before these were handed out, and would never see them.
   */
  function spannedDrop(reply: StreamReply): void {
    const elsewhere: NonNullable<StreamReply> = [];
    for (const [stream, entries] of reply ?? []) {
      const partition = streamPartition.get(stream);
      const state = partition === undefined ? undefined : owned.get(partition);
      if (state !== undefined) state.unreadHistory ||= "reconnected";
      else elsewhere.push([stream, entries]);
    }
    if (elsewhere.length > 0) take(elsewhere, false);
  }

  /** New entries of `list`, at most `count` of each; with `block`, waits up to BLOCK_MS for the first. */
  async function readNew(connection: Redis, list: readonly number[], count: number, block: boolean): Promise<StreamReply> {
    const streams = list.map(keys.stream);
    const ids = list.map(() => ">");
    return (await (block
      ? connection.xreadgroup("GROUP", GROUP, CONSUMER, "COUNT", count, "BLOCK", BLOCK_MS, "STREAMS", ...streams, ...ids)
      : connection.xreadgroup("GROUP", GROUP, CONSUMER, "COUNT", count, "STREAMS", ...streams, ...ids))) as StreamReply;
  }

  /**
   * The partitions' pending entries this instance does not hold (and those it finished and could not
   * acknowledge), in stream order, read without counting a delivery: XREADGROUP would count one for each
   * pending entry, those in hand too, and five deliveries make an entry poison for the next owner.
   */
  async function pendingNotHeld(connection: Redis, list: readonly number[]): Promise<StreamReply> {
    const listing = connection.pipeline();
    for (const p of list) listing.xpending(keys.stream(p), GROUP, "-", "+", 10_000, CONSUMER);
    const wanted: { stream: string; entryId: string }[] = [];
    for (const [index, [err, rows]] of ((await listing.exec()) ?? []).entries()) {
      if (err) throw err;
      const stream = keys.stream(list[index] as number);
      for (const [entryId] of rows as [string, string, number, number][]) {
        if (held.get(heldKey(stream, entryId))?.finished !== false) wanted.push({ stream, entryId });
      }
    }
    if (wanted.length === 0) return null;
    const reading = connection.pipeline();
    for (const { stream, entryId } of wanted) reading.xrange(stream, entryId, entryId);
    const byStream = new Map<string, [string, string[] | null][]>();
    for (const [index, [err, entries]] of ((await reading.exec()) ?? []).entries()) {
      if (err) throw err;
      const { stream, entryId } = wanted[index] as { stream: string; entryId: string };
      const [entry] = entries as [string, string[]][];
      const list = byStream.get(stream) ?? [];
      byStream.set(stream, list);
      // Gone from the stream while pending (handled, the acknowledgement lost): only that is left to do.
      list.push([entryId, entry?.[1] ?? null]);
    }
    return [...byStream];
  }

  async function readForever(connection: Redis): Promise<void> {
    while (running) {
      try {
        await readOnce(connection);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (/NOGROUP/.test(message)) {
          // Redis lost the groups (restarted empty): make them again, and read the partitions afresh.
          await ensureGroups([...owned.keys()]).catch(() => undefined);
        } else {
          log.warn({ error: message }, "event queue read failed");
          await new Promise((resolve) => setTimeout(resolve, BLOCK_MS));
        }
      }
    }
  }

  return {
    async store(items, timeoutMs) {
      if (items.length === 0) return true;
      const placed = items.map((item) => ({ item, partition: partitionOf(item.orderingKey, partitions) }));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => (timer = setTimeout(resolve, timeoutMs, "late")));
      try {
        const entryIds = await Promise.race([add(placed, false, true), late]);
        if (entryIds === "late") return false;
        const seenBefore: QueueItem[] = [];
        placed.forEach(({ item, partition }, index) => {
          const entryId = entryIds[index];
          if (typeof entryId === "string" && entryId !== "") keep(item, partition, entryId);
          else {
            seenBefore.push(item);
            log.info({ itemId: item.id }, "event stored or answered before; not stored again");
          }
        });
        if (seenBefore.length > 0) options.observer?.duplicate?.(seenBefore);
        startKeeper();
        return true;
      } catch (err) {
        log.warn({ error: err instanceof Error ? err.message : String(err) }, "redis did not take the events");
        return false;
      } finally {
        clearTimeout(timer);
      }
    },

    async startWorkers(handle) {
      handler = handle;
      running = true;
      // Start-up waits for Redis (the workers' connection waits for it).
      await workers.ping();
      reader = workers.duplicate({ connectionName: "slipline-queue-reader", enableAutoPipelining: false });
      const learnReaderId = (): void => {
        void reader?.client("ID").then((id) => (readerId = Number(id)), () => (readerId = undefined));
      };
      let readyBefore = false;
      reader.on("close", () => (readerDrops += 1));
      // Its failures are the workers connection's too, logged there ("redis error"); not printed again by ioredis.
      reader.on("error", (err: Error) => log.debug({ error: err.message }, "event queue reader connection failed"));
      reader.on("ready", () => {
        learnReaderId();
        // A read Redis answered as the connection dropped left its entries pending in this instance's name,
        // never received: the partitions' pending entries are read again (those in hand here are skipped).
        if (readyBefore) for (const state of owned.values()) state.unreadHistory ||= "reconnected";
        readyBefore = true;
      });
      learnReaderId();
      await tick();
      startClaiming();
      readLoop = readForever(reader);
    },

    async waiting() {
      const pipeline = commands.pipeline();
      for (let p = 0; p < partitions; p++) pipeline.xlen(keys.stream(p)).xpending(keys.stream(p), GROUP);
      const results = (await pipeline.exec()) ?? [];
      let total = 0;
      for (let p = 0; p < partitions; p++) {
        const [lengthErr, length] = results[2 * p] ?? [];
        const [, pending] = results[2 * p + 1] ?? [];
        if (lengthErr) throw lengthErr;
        const pendingCount = Array.isArray(pending) ? Number(pending[0]) : 0;
        total += Number(length) - pendingCount;
      }
      return total;
    },

    get stats() {
      return { running: active, inHand, partitionsOwned: owned.size, kept: kept.size + toRestore.length + restoring };
    },

    async stopWorkers(graceMs) {
      const deadline = Date.now() + graceMs;
      const untilDeadline = (promise: Promise<unknown>): Promise<unknown> =>
        Promise.race([promise, new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref())]);
      running = false;
      clearInterval(claimTimer);
      unblockReader();
      await untilDeadline(readLoop ?? Promise.resolve());
      if (inHand > 0) await untilDeadline(new Promise<void>((resolve) => idleWaiters.push(resolve)));
      const left = inHand;
      // The partitions finished go back at once (the others take them up without waiting for the leases to
      // expire); those with items still in hand keep their lease until it expires.
      await workers.zrem(keys.instances, me).catch(() => undefined);
      await releaseIdle(true).catch(() => undefined);
      // What this instance stored is kept until it is seen handled somewhere, while the grace lasts.
      while (kept.size + toRestore.length > 0 && keeperTimer !== undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(keepCheckMs, Math.max(0, deadline - Date.now()))));
      }
      return left;
    },

    async close() {
      running = false;
      clearInterval(claimTimer);
      clearInterval(keeperTimer);
      keeperTimer = undefined;
      idleWaiters = [];
      reader?.disconnect();
      await Promise.resolve();
    },
  };
}
