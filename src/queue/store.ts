// Storing: items added to their partitions' streams in one step (each once a day by its id's mark), and
// kept in memory until seen handled, against a Redis that comes back without them.
import { sendAcks, takeAcks } from "./acks.js";
import type { QueueItem } from "./api.js";
import { GROUP } from "./keys.js";
import { keepKey } from "./state.js";
import type { QueueState } from "./state.js";
import { countKept } from "./turns.js";

/** An id's mark lasts a day: well past the time a sender redelivers an item (minutes as a rule). */
const ONCE_TTL_S = 24 * 60 * 60;

/** An item and the partition of its ordering key. */
export interface Placed {
  item: QueueItem;
  partition: number;
}

export function keep(state: QueueState, item: QueueItem, partition: number, entryId: string): void {
  if (state.kept.size >= state.maxKept) {
    if (!state.keptFull) state.log.warn({ kept: state.kept.size }, "too many stored items not yet handled: new ones are not kept against a loss of Redis's data");
    state.keptFull = true;
    return;
  }
  state.keptFull = false;
  const key = keepKey(partition, entryId);
  if (state.kept.has(key)) return;
  state.kept.set(key, { item, partition, entryId });
  countKept(state, state.groupOf(item.orderingKey), 1);
}

/**
 * Adds the items in one step; each one's entry id, or "" when its id was stored before. With
 * `acksAlong`, the acknowledgements waiting go along, settled with this step.
 */
export function add(state: QueueState, placed: readonly Placed[], restored: boolean, acksAlong = false): Promise<string[]> {
  const keyList: string[] = [];
  const args: string[] = [String(ONCE_TTL_S), String(placed.length)];
  for (const { item, partition } of placed) {
    keyList.push(state.keys.stream(partition), state.onceKey(item));
    args.push(item.id, item.orderingKey, JSON.stringify(item.payload), restored ? "1" : "0");
  }
  // Taken only once the items' arguments are made (a payload that cannot be written leaves them waiting).
  const riding = acksAlong ? takeAcks(state) : undefined;
  if (riding !== undefined) {
    args.push(GROUP);
    for (const [stream, ids] of riding.ids) {
      keyList.push(stream);
      args.push(String(ids.length), ...ids);
    }
  }
  const stored = state.storeItems([...keyList, ...args], keyList.length);
  // Not taken with the items (Redis away): they go the workers' way, which waits for Redis.
  if (riding !== undefined)
    stored.then(
      () => riding.settle(),
      () => void sendAcks(state, riding),
    );
  return stored;
}
