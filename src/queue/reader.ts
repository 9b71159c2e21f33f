// The reader: one connection of its own that reads the partitions owned, pending entries first (an earlier
// owner's, or those a dropped connection lost), then new ones in blocks as handler slots come free.
import type { Redis } from "ioredis";
import { acknowledge } from "./acks.js";
import { take } from "./chains.js";
import { CONSUMER, GROUP, READER_CONNECTION_NAME } from "./keys.js";
import { ensureGroups } from "./leases.js";
import { heldKey } from "./state.js";
import { inHandCounted, startableWaiting } from "./turns.js";
import type { QueueState, StreamReply } from "./state.js";

/** An entry handed out this many times without being finished is given up. */
const MAX_DELIVERIES = 5;
/** Items read and waiting in their key's chain: up to this many times the handlers' bound (each group's counted up to this many times its own). */
const CHAIN_FACTOR = 4;
/**
 * Items in hand in all, at most this many times the handlers' bound: the reader reads on past a busy group's
 * items (so another group's wait behind them in a stream), up to this.
 */
export const HARD_FACTOR = 16;
/** How long a blocking read waits before it looks at the partitions owned again. */
const BLOCK_MS = 1_000;

/** Opens the reader's connection (a duplicate of `workers`) and follows its drops and its client id. */
export function openReader(state: QueueState): Redis {
  const { log } = state;
  const reader = state.workers.duplicate({ connectionName: READER_CONNECTION_NAME, enableAutoPipelining: false });
  state.reader = reader;
  const learnReaderId = (): void => {
    void state.reader?.client("ID").then(
      (id) => (state.readerId = Number(id)),
      () => (state.readerId = undefined),
    );
  };
  let readyBefore = false;
  reader.on("close", () => (state.readerDrops += 1));
  // Its failures are the workers connection's too, logged there ("redis error"); not printed again by ioredis.
  reader.on("error", (err: Error) => log.debug({ error: err.message }, "event queue reader connection failed"));
  reader.on("ready", () => {
    learnReaderId();
    // A read Redis answered as the connection dropped left its entries pending in this instance's name,
    // never received: the partitions' pending entries are read again (those in hand here are skipped).
    if (readyBefore) for (const ownership of state.owned.values()) ownership.unreadHistory ||= "reconnected";
    readyBefore = true;
  });
  learnReaderId();
  return reader;
}

/**
 * An entry handed out MAX_DELIVERIES times and never finished has taken its instance down each time (a
 * handler's own errors are caught): it is given up, with an error line, so it cannot stop a partition.
 */
async function giveUpPoison(state: QueueState, list: readonly number[]): Promise<void> {
  const { keys } = state;
  const pipeline = state.workers.pipeline();
  for (const p of list) pipeline.xpending(keys.stream(p), GROUP, "-", "+", 10_000);
  const results = (await pipeline.exec()) ?? [];
  const givenUp: Promise<void>[] = [];
  for (const [index, [err, pending]] of results.entries()) {
    const p = list[index];
    if (err !== null || p === undefined || !Array.isArray(pending)) continue;
    for (const entry of pending as [string, string, number, number][]) {
      const [entryId, , , deliveries] = entry;
      // One in hand here (the partition lost and claimed again meanwhile) is not given up.
      if (deliveries < MAX_DELIVERIES || state.held.has(heldKey(keys.stream(p), entryId))) continue;
      state.log.error({ partition: p, entryId, deliveries }, "stored event given up: every instance that took it stopped before it was finished");
      givenUp.push(acknowledge(state, keys.stream(p), entryId).catch(() => undefined));
    }
  }
  await Promise.all(givenUp); // before the pending entries are read
}

async function readOnce(state: QueueState, connection: Redis): Promise<void> {
  const { owned, keys } = state;
  const readable = [...owned].filter(([, ownership]) => !ownership.releasing);
  const history = readable.filter(([, ownership]) => ownership.unreadHistory).map(([p]) => p);
  if (history.length > 0) {
    const claimed = history.filter((p) => owned.get(p)?.unreadHistory === "claimed");
    const reconnected = history.filter((p) => owned.get(p)?.unreadHistory === "reconnected");
    if (claimed.length > 0) {
      await giveUpPoison(state, claimed);
      // Entries an earlier owner read and never acknowledged: before any new one of the same partitions.
      take(state, (await connection.xreadgroup("GROUP", GROUP, CONSUMER, "COUNT", 10_000, "STREAMS", ...claimed.map(keys.stream), ...claimed.map(() => "0"))) as StreamReply, true);
    }
    if (reconnected.length > 0) take(state, await pendingNotHeld(state, connection, reconnected), true);
    // Marked read only once read: a read that failed (Redis away) is tried again, not skipped for good.
    for (const p of history) {
      const ownership = owned.get(p);
      if (ownership !== undefined) ownership.unreadHistory = false;
    }
    return;
  }
  // Slots a new item could take now (a busy group's items waiting at its share do not hold them), and room
  // in hand, where a group's items count only up to its share: a busy group cannot stop the reading.
  const free = Math.min(
    state.inHandMax - state.active - startableWaiting(state),
    CHAIN_FACTOR * state.inHandMax - inHandCounted(state, CHAIN_FACTOR * state.inHandPerGroup),
    HARD_FACTOR * state.inHandMax - state.inHand,
  );
  if (readable.length === 0 || free <= 0) {
    await new Promise<void>((resolve) => {
      state.slotWaiter = resolve;
      setTimeout(resolve, BLOCK_MS).unref();
    });
    return;
  }
  const drops = state.readerDrops;
  const asked = state.unblocks;
  const all = readable.map(([p]) => p);
  let reply: StreamReply;
  if (free >= all.length) {
    reply = await readNew(state, connection, all, Math.floor(free / all.length), true);
  } else {
    // Fewer free slots than partitions: a look without waiting at some of them, the next look at the
    // others, so that none is left behind. When they had nothing, a wait on all of them, one entry each at
    // most (a wake-up brings one as a rule; any more wait for a handler slot), rather than looking again at
    // once: that turned into a loop of reads for as long as a handler ran.
    state.rotation = (state.rotation + 1) % all.length;
    const picked = [...all.slice(state.rotation), ...all.slice(0, state.rotation)].slice(0, free);
    reply = await readNew(state, connection, picked, 1, false);
    // Not when the partitions changed (or the workers stop) meanwhile: a CLIENT UNBLOCK sent during the
    // look would miss the wait, which would then last its second on the old partitions.
    if (reply === null && drops === state.readerDrops && asked === state.unblocks && state.running) reply = await readNew(state, connection, all, 1, true);
  }
  // The connection dropped meanwhile: this answer may be that of the read sent again after it, with entries
  // newer than some handed out just before the drop. All are pending now, and are read again in the order
  // they were stored (see spannedDrop).
  if (drops !== state.readerDrops) {
    spannedDrop(state, reply);
    return;
  }
  take(state, reply, false);
}

/**
 * An answer that spans a drop of the reader's connection, not taken as it came. Its partitions still owned
 * have their pending entries read again, in stream order; the reconnection asked that only of those owned
 * when it came back, and a partition claimed since may have had its pending entries read already. Those of
 * partitions no longer owned (the read was sent again with the partitions of before) are taken here: the
 * new owner may have read its pending entries before these were handed out, and would never see them.
 */
function spannedDrop(state: QueueState, reply: StreamReply): void {
  const elsewhere: NonNullable<StreamReply> = [];
  for (const [stream, entries] of reply ?? []) {
    const partition = state.streamPartition.get(stream);
    const ownership = partition === undefined ? undefined : state.owned.get(partition);
    if (ownership !== undefined) ownership.unreadHistory ||= "reconnected";
    else elsewhere.push([stream, entries]);
  }
  if (elsewhere.length > 0) take(state, elsewhere, false);
}

/** New entries of `list`, at most `count` of each; with `block`, waits up to BLOCK_MS for the first. */
async function readNew(state: QueueState, connection: Redis, list: readonly number[], count: number, block: boolean): Promise<StreamReply> {
  const streams = list.map(state.keys.stream);
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
async function pendingNotHeld(state: QueueState, connection: Redis, list: readonly number[]): Promise<StreamReply> {
  const listing = connection.pipeline();
  for (const p of list) listing.xpending(state.keys.stream(p), GROUP, "-", "+", 10_000, CONSUMER);
  const wanted: { stream: string; entryId: string }[] = [];
  for (const [index, [err, rows]] of ((await listing.exec()) ?? []).entries()) {
    if (err) throw err;
    const stream = state.keys.stream(list[index] as number);
    for (const [entryId] of rows as [string, string, number, number][]) {
      if (state.held.get(heldKey(stream, entryId))?.finished !== false) wanted.push({ stream, entryId });
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

/** Reads until the workers stop; a failed read is tried again (after a second, or at once once the groups are made again). */
export async function readForever(state: QueueState, connection: Redis): Promise<void> {
  while (state.running) {
    try {
      await readOnce(state, connection);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/NOGROUP/.test(message)) {
        // Redis lost the groups (restarted empty): make them again, and read the partitions afresh.
        await ensureGroups(state, [...state.owned.keys()]).catch(() => undefined);
      } else {
        state.log.warn({ error: message }, "event queue read failed");
        await new Promise((resolve) => setTimeout(resolve, BLOCK_MS));
      }
    }
  }
}
