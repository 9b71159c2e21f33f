// Partitions owned: each instance says it lives and claims partitions up to its share (partitions / live
// instances) at every tick, gives back what it holds over its share once idle there, and takes a silent
// instance for dead when its lease runs out, or sooner when its named connection is gone from Redis.
import { GROUP, isNamedInstance, queueConnectionName } from "./keys.js";
import { unblockReader } from "./state.js";
import type { QueueState } from "./state.js";

/** A lease key outlives its owner this long at most (it only clears leases nobody gave back). */
const LEASE_TTL_MS = 60_000;
/** The ticks between two pushes of this instance's lease expiries. */
const LEASE_REFRESH_TICKS = 40;

export async function ensureGroups(state: QueueState, list: readonly number[]): Promise<void> {
  if (list.length === 0) return;
  const pipeline = state.workers.pipeline();
  // From the start of the stream: entries stored before the group existed are read too.
  for (const p of list) pipeline.xgroup("CREATE", state.keys.stream(p), GROUP, "0", "MKSTREAM");
  await pipeline.exec(); // BUSYGROUP (it exists) is the usual answer
}

export async function tick(state: QueueState): Promise<void> {
  const forgotten = await tickOnce(state);
  // An instance found dead: its partitions are free now, not when its lease runs out.
  if (forgotten && state.running) await tickOnce(state);
}

/** One tick; says whether an instance was found dead (its partitions free at the next). */
async function tickOnce(state: QueueState): Promise<boolean> {
  const { owned, keys, log } = state;
  const mine = [...owned.keys()];
  state.ticks += 1;
  const [share, lost, claimed, suspects] = await state.workers.queueTick(
    keys.instances,
    state.me,
    String(Date.now()),
    String(state.leaseMs),
    String(state.partitions),
    keys.leasePrefix,
    String(Math.floor(Math.random() * state.partitions)),
    String(LEASE_TTL_MS),
    state.ticks % LEASE_REFRESH_TICKS === 0 ? "1" : "0",
    String(state.suspectMs),
    String(mine.length),
    ...mine.map(String),
  );
  for (const p of lost) {
    const ownership = owned.get(p);
    disown(state, p);
    if (ownership !== undefined && ownership.inHand > 0)
      log.warn({ partition: p, inHand: ownership.inHand }, "partition lease lost while items were in hand (this instance was too slow); another instance takes it up");
  }
  if (!state.running) return false;
  await ensureGroups(state, claimed);
  for (const p of claimed) owned.set(p, { inHand: 0, unreadHistory: "claimed", releasing: false });
  // Over the share (an instance joined): give back the partitions with least in hand, once they are idle.
  const staying = [...owned].filter(([, ownership]) => !ownership.releasing);
  const excess = staying.length - share;
  if (excess > 0) {
    for (const [, ownership] of staying.sort((a, b) => a[1].inHand - b[1].inHand).slice(0, excess)) ownership.releasing = true;
  }
  await releaseIdle(state);
  // The blocking read waits on the partitions it had: it starts again at once with those it has now.
  if (claimed.length > 0 || excess > 0 || lost.length > 0) unblockReader(state);
  return suspects.length > 0 && (await forgetDead(state, suspects));
}

/**
 * The silent instances (member, last tick, ...) that are named and have no connection to Redis left: a
 * killed process. Forgotten, so that their partitions are free; says whether any was.
 */
async function forgetDead(state: QueueState, suspects: readonly string[]): Promise<boolean> {
  const named: { member: string; lastTick: string }[] = [];
  for (let i = 0; i + 1 < suspects.length; i += 2) {
    const member = suspects[i] as string;
    if (member !== state.me && isNamedInstance(member)) named.push({ member, lastTick: suspects[i + 1] as string });
  }
  if (named.length === 0 || !state.canListConnections) return false;
  let connections: string;
  try {
    connections = String(await state.workers.call("CLIENT", "LIST", "TYPE", "normal"));
  } catch (err) {
    state.canListConnections = false;
    state.log.info({ error: err instanceof Error ? err.message : String(err) }, "redis refuses CLIENT LIST: a stopped instance's partitions wait for its lease to run out");
    return false;
  }
  const names = new Set(connections.split("\n").map((line) => / name=(\S*)/.exec(line)?.[1]));
  let forgotten = 0;
  for (const { member, lastTick } of named) {
    if (names.has(queueConnectionName(member))) continue;
    if ((await state.workers.queueForget(state.keys.instances, member, lastTick)) === 0) continue;
    forgotten += 1;
    state.log.warn({ instance: member }, "an instance stopped without giving its partitions back (no connection left): its partitions are free");
  }
  return forgotten > 0;
}

/** Gives back the partitions with nothing in hand: those over the share, or with `all`, every one. */
export async function releaseIdle(state: QueueState, all = false): Promise<void> {
  const idle = [...state.owned].filter(([, ownership]) => (all || ownership.releasing) && ownership.inHand === 0).map(([p]) => p);
  if (idle.length === 0) return;
  for (const p of idle) disown(state, p);
  await state.workers.queueRelease(state.me, state.keys.leasePrefix, ...idle.map(String));
}

export function startClaiming(state: QueueState): void {
  state.claimTimer = setInterval(() => {
    if (state.ticking) return;
    state.ticking = true;
    tick(state)
      .catch((err: unknown) => state.log.warn({ error: err instanceof Error ? err.message : String(err) }, "partition leases not renewed"))
      .finally(() => (state.ticking = false));
  }, state.claimEveryMs);
}

/** The partition is no longer this instance's: what it finished there and could not acknowledge, its next owner redoes. */
function disown(state: QueueState, p: number): void {
  state.owned.delete(p);
  for (const [key, entry] of state.held) if (entry.partition === p && entry.finished) state.held.delete(key);
}
