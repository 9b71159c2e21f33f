// Handler slots shared between the items' groups (an opaque name the user gives each ordering key): a group
// holds at most `inHandPerGroup` slots, and a slot that comes free goes to the groups with items waiting in
// rotation, one item each, so one group's backlog never stands before another group's next item. With one
// group (no `groupOf`), this is the first come, first served of before.
import type { GroupInHand, QueueState } from "./state.js";

function groupNamed(state: QueueState, name: string): GroupInHand {
  let group = state.groups.get(name);
  if (group === undefined) {
    group = { active: 0, inHand: 0, kept: 0, waiting: [] };
    state.groups.set(name, group);
  }
  return group;
}

/** Forgets a group with nothing left of it here. */
function forget(state: QueueState, name: string, group: GroupInHand): void {
  if (group.active === 0 && group.inHand === 0 && group.kept === 0 && group.waiting.length === 0) state.groups.delete(name);
}

/** Counts an item of `name` read and in hand (`by` 1), or finished (-1). */
export function countInHand(state: QueueState, name: string, by: 1 | -1): void {
  const group = groupNamed(state, name);
  group.inHand += by;
  forget(state, name, group);
}

/** Counts an item of `name` stored by this instance and not yet seen handled (`by` 1), or seen handled (-1). */
export function countKept(state: QueueState, name: string, by: 1 | -1): void {
  const group = groupNamed(state, name);
  group.kept += by;
  forget(state, name, group);
}

/** Resolves once a handler slot is this item's. */
export function takeSlot(state: QueueState, name: string): Promise<void> {
  const group = groupNamed(state, name);
  if (state.active < state.inHandMax && group.active < state.inHandPerGroup && group.waiting.length === 0) {
    state.active += 1;
    group.active += 1;
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    group.waiting.push(resolve);
    if (!state.turnOrder.has(name)) state.turnOrder.set(name, group);
  });
}

/** Gives the slot back; it goes straight to the next group's waiting item, so nothing started meanwhile can take it too. */
export function releaseSlot(state: QueueState, name: string): void {
  const group = groupNamed(state, name);
  group.active -= 1;
  state.active -= 1;
  while (state.active < state.inHandMax && state.turnOrder.size > 0) {
    let started = false;
    for (const [waitingName, waiting] of state.turnOrder) {
      if (state.active >= state.inHandMax) break;
      if (waiting.active >= state.inHandPerGroup) continue;
      const go = waiting.waiting.shift();
      state.turnOrder.delete(waitingName);
      if (go === undefined) continue;
      // To the end of the rotation while it has more waiting.
      if (waiting.waiting.length > 0) state.turnOrder.set(waitingName, waiting);
      waiting.active += 1;
      state.active += 1;
      started = true;
      go();
    }
    if (!started) break;
  }
  forget(state, name, group);
}

/** Items waiting for a slot that could start as soon as one is free (their group is below its share). */
export function startableWaiting(state: QueueState): number {
  let count = 0;
  for (const group of state.turnOrder.values()) count += Math.min(group.waiting.length, Math.max(0, state.inHandPerGroup - group.active));
  return count;
}

/** Items in hand counted against the bound on reading: each group's only up to its own share of it. */
export function inHandCounted(state: QueueState, perGroup: number): number {
  let count = 0;
  for (const group of state.groups.values()) count += Math.min(group.inHand, perGroup);
  return count;
}
