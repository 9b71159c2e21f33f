// Acknowledgements go out together: every item finished within a short window, in one round trip, or
// sooner with the next items this instance stores (one round trip, one wake-up, for both).
import { GROUP } from "./keys.js";
import type { AckBatch, QueueState } from "./state.js";

/** Acknowledgements wait this long to go out together. */
const ACK_WINDOW_MS = 100;

/** Acknowledges (and deletes) an entry with the next batch; settles once Redis has the batch. */
export function acknowledge(state: QueueState, stream: string, entryId: string): Promise<void> {
  state.acks ??= newAckBatch(state);
  const list = state.acks.ids.get(stream);
  if (list === undefined) state.acks.ids.set(stream, [entryId]);
  else list.push(entryId);
  return state.acks.done;
}

function newAckBatch(state: QueueState): AckBatch {
  let settle: AckBatch["settle"] = () => undefined;
  const done = new Promise<void>(
    (resolve, reject) => (settle = (err) => (err === undefined ? resolve() : reject(err instanceof Error ? err : new Error("acknowledgements not taken", { cause: err })))),
  );
  return { ids: new Map(), done, settle, timer: setTimeout(() => void sendAcks(state, takeAcks(state)), ACK_WINDOW_MS) };
}

/** The acknowledgements waiting, taken out to be sent now. */
export function takeAcks(state: QueueState): AckBatch | undefined {
  const batch = state.acks;
  state.acks = undefined;
  clearTimeout(batch?.timer);
  return batch;
}

export async function sendAcks(state: QueueState, batch: AckBatch | undefined): Promise<void> {
  if (batch === undefined) return;
  const streams = [...batch.ids.keys()];
  try {
    await state.workers.queueAck(streams.length, ...streams, GROUP, ...[...batch.ids.values()].flatMap((ids) => [String(ids.length), ...ids]));
    batch.settle();
  } catch (err) {
    batch.settle(err);
  }
}
