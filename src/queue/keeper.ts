// The keeper: looks now and then at what this instance stored and has not yet seen handled, notices a Redis
// that lost its data (the marker key it wrote missing or another, or Redis's run id changed), and stores
// again what Redis lost.
import { randomBytes } from "node:crypto";
import { add, keep } from "./store.js";
import { forgetKept, keepKey } from "./state.js";
import type { Kept, QueueState } from "./state.js";

/** The marker lives a day without a look (every instance that stores renews it at each check). */
const MARKER_TTL_MS = 24 * 60 * 60 * 1000;

/** Redis's run id (changes at every start of the server, and with a failover). */
async function readRunId(state: QueueState): Promise<string | undefined> {
  const info = await state.commands.info("server");
  return /run_id:([0-9a-f]+)/.exec(info)?.[1];
}

/** Learns the marker and run id, writing the marker if there is none. */
async function learnMarker(state: QueueState): Promise<void> {
  const fresh = randomBytes(8).toString("hex");
  const [results, id] = await Promise.all([state.commands.multi().set(state.keys.marker, fresh, "PX", MARKER_TTL_MS, "NX").get(state.keys.marker).exec(), readRunId(state)]);
  const current = results?.[1]?.[1];
  state.marker = typeof current === "string" ? current : fresh;
  state.runId = id;
}

/** Stores again what Redis lost (or may have): the items given, or everything kept. */
async function restoreKept(state: QueueState, reason: string, lost: readonly Kept[] = [...state.kept.values()]): Promise<void> {
  for (const entry of lost) {
    forgetKept(state, keepKey(entry.partition, entry.entryId));
    state.toRestore.push(entry);
  }
  if (state.toRestore.length > 0) state.log.warn({ reason, items: state.toRestore.length }, "redis lost stored items: stored again what this instance still kept");
  await learnMarker(state);
  await flushRestore(state);
}

/** Stores the items waiting to be stored again; on failure they wait for the next look. */
async function flushRestore(state: QueueState): Promise<void> {
  if (state.toRestore.length === 0) return;
  const batch = state.toRestore.splice(0);
  let entryIds: string[];
  state.restoring += batch.length;
  try {
    entryIds = await add(state, batch, true);
  } catch (err) {
    state.toRestore.unshift(...batch);
    throw err;
  } finally {
    state.restoring -= batch.length;
  }
  batch.forEach((entry, index) => keep(state, entry.item, entry.partition, entryIds[index] ?? ""));
  state.observer?.restored?.(batch.length);
}

/**
 * One look: did Redis lose its data? Which kept items are handled (gone from their stream)? The marker
 * gone or another: everything kept is stored again. Only the run id changed (a restart that kept the
 * data, or a failover to a replica that may have lagged): the kept items missing from their streams are
 * stored again; those were handled or lost, and a handled one runs again told `mayHaveRunBefore` (its
 * handler tells "already done" from "failed").
 */
async function checkKept(state: QueueState): Promise<void> {
  if (state.marker === undefined) {
    await learnMarker(state);
    return;
  }
  await flushRestore(state);
  const entries = [...state.kept.values()];
  const [answer, id] = await Promise.all([
    state.commands.queueKeep(state.keys.marker, state.marker, String(MARKER_TTL_MS), ...entries.flatMap(({ partition, entryId }) => [state.keys.stream(partition), entryId])),
    readRunId(state),
  ]);
  if (answer[0] !== 1) {
    const current = await state.commands.get(state.keys.marker);
    await restoreKept(state, current === null ? "marker_missing" : "marker_changed");
    return;
  }
  // Checked in the same step as the entries: with the marker there, the data is, and an entry gone is an
  // entry handled (or, after a restart that kept the data or a failover, maybe lost).
  const gone = answer.slice(1).flatMap((index) => entries[index - 1] ?? []);
  if (id !== state.runId) {
    state.runId = id;
    await restoreKept(state, "run_id_changed", gone);
    return;
  }
  for (const { partition, entryId } of gone) forgetKept(state, keepKey(partition, entryId));
}

function checkNow(state: QueueState): void {
  if (state.keeperBusy) return;
  state.keeperBusy = true;
  checkKept(state)
    .catch((err: unknown) => state.log.debug({ error: err instanceof Error ? err.message : String(err) }, "stored items not checked (redis away)"))
    .finally(() => (state.keeperBusy = false));
}

/** Starts the keeper's looks (once: later calls do nothing), the first one now. */
export function startKeeper(state: QueueState): void {
  if (state.keeperTimer !== undefined) return;
  state.keeperTimer = setInterval(() => checkNow(state), state.keepCheckMs);
  state.keeperTimer.unref();
  checkNow(state);
}
