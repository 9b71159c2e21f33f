// Handling what was read: each entry goes to its ordering key's chain (one item of a key at a time, in
// stream order; different keys side by side), runs within the handlers' bound, and once finished is
// acknowledged and counted out of hand.
import { acknowledge } from "./acks.js";
import type { TakenItem } from "./api.js";
import { forgetKept, heldKey, keepKey, wakeReader } from "./state.js";
import { countInHand, releaseSlot, takeSlot } from "./turns.js";
import type { Owned, QueueState, StreamReply } from "./state.js";

/** Hands the entries read to their chains; `fromHistory`: pending entries read again, maybe run before. */
export function take(state: QueueState, reply: StreamReply, fromHistory: boolean): void {
  const { held, log } = state;
  let recovered = 0;
  for (const [stream, entries] of reply ?? []) {
    const partition = state.streamPartition.get(stream);
    if (partition === undefined) continue;
    const why = state.owned.get(partition)?.unreadHistory;
    for (const [entryId, fields] of entries) {
      const mine = held.get(heldKey(stream, entryId));
      if (mine !== undefined) {
        if (mine.finished)
          void acknowledge(state, stream, entryId).then(
            () => held.delete(heldKey(stream, entryId)),
            () => undefined,
          );
        continue;
      }
      if (fields === null) {
        // Deleted while pending (handled, then the acknowledgement was lost): only the acknowledgement is left to do.
        void acknowledge(state, stream, entryId).catch(() => undefined);
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
        void finish(state, stream, partition, entryId, false);
        continue;
      }
      if (fromHistory) {
        recovered += 1;
        if (why === "reconnected") log.warn({ itemId: id, partition }, "event read by this instance as its connection to redis dropped, never received; taken up again");
        else log.warn({ itemId: id, partition }, "event found in the hands of an instance that stopped; taken up again");
      }
      const mayHaveRunBefore = fromHistory || field("r") === "1";
      held.set(heldKey(stream, entryId), { partition, finished: false });
      const group = state.groupOf(orderingKey);
      state.inHand += 1;
      countInHand(state, group, 1);
      const ownership = state.owned.get(partition);
      if (ownership !== undefined) ownership.inHand += 1;
      // Counted against the partition as owned now: if it is lost and claimed again meanwhile, the new
      // ownership starts from nothing in hand.
      run(state, orderingKey, () => handleOne(state, group, payload, { id, mayHaveRunBefore }).finally(() => finish(state, stream, partition, entryId, ownership ?? true, group)));
    }
  }
  if (recovered > 0) state.observer?.recovered?.(recovered);
}

async function handleOne(state: QueueState, group: string, payload: unknown, taken: TakenItem): Promise<void> {
  // A blocking read may hand over more than the free slots (one entry of each partition that got one):
  // the handlers' bound, and each group's, hold here, whatever was read.
  await takeSlot(state, group);
  try {
    await state.handler?.(payload, taken);
  } catch (err) {
    state.log.error({ err, itemId: taken.id }, "stored item handler failed");
  } finally {
    releaseSlot(state, group);
  }
}

/** Runs `work` after everything before it with the same key. */
function run(state: QueueState, orderingKey: string, work: () => Promise<void>): void {
  const { chains } = state;
  const before = chains.get(orderingKey);
  const next = (before === undefined ? work() : before.then(work)).then(() => {
    if (chains.get(orderingKey) === next) chains.delete(orderingKey);
  });
  chains.set(orderingKey, next);
}

/** `counted`: the item was counted in hand (and against this ownership of its partition, when given). */
async function finish(state: QueueState, stream: string, partition: number, entryId: string, counted: Owned | boolean, group = ""): Promise<void> {
  const key = heldKey(stream, entryId);
  try {
    await acknowledge(state, stream, entryId);
    state.held.delete(key);
  } catch (err) {
    // Acknowledged again when its partition's pending entries are read again; by the next owner if it is gone.
    const mine = state.held.get(key);
    if (mine !== undefined && state.owned.has(partition)) mine.finished = true;
    else state.held.delete(key);
    state.log.warn({ error: err instanceof Error ? err.message : String(err), partition }, "handled item not acknowledged; it may be handled again");
  }
  forgetKept(state, keepKey(partition, entryId));
  if (counted === false) return;
  state.inHand -= 1;
  countInHand(state, group, -1);
  if (counted !== true) counted.inHand -= 1;
  wakeReader(state);
  if (state.inHand === 0) for (const idle of state.idleWaiters.splice(0)) idle();
}
