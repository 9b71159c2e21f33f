// Bulk checks for load tests (`npm run sandbox -- --seed N`): any number of extra checks for one demo shop,
// spread over its whole history with the demo's daily shape.
import { addCalendarDays, dayOf, startOfDay } from "../../../src/time/calendar.js";
import { DEMO_HISTORY_DAYS, demoProfile, type DemoShopKey } from "./demo.js";
import { HOUR_MS, draftCheck, timeInDay, withIds, type CheckDraft, type CheckRecord } from "./demo-checks.js";
import { SANDBOX_TIME_ZONE } from "./params.js";
import { createRng, pick, type Rng } from "./random.js";

/**
 * `count` sorted check times in the last DEMO_HISTORY_DAYS Bangkok days up to `nowMs`, with
 * business-hour peaks.
 */
function checkTimes(rng: Rng, count: number, nowMs: number): Float64Array {
  const today = dayOf(nowMs, SANDBOX_TIME_ZONE);
  const dayStarts: number[] = [];
  for (let d = DEMO_HISTORY_DAYS - 1; d >= 0; d--) dayStarts.push(startOfDay(addCalendarDays(today, -d), SANDBOX_TIME_ZONE).getTime());
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    let t = nowMs;
    // Times after now (later today) are drawn again; a bounded number of tries, then a time just before now.
    for (let attempt = 0; attempt < 8; attempt++) {
      const candidate = timeInDay(rng, pick(rng, dayStarts));
      if (candidate <= nowMs) {
        t = candidate;
        break;
      }
      t = nowMs - Math.floor(rng() * HOUR_MS);
    }
    times[i] = t;
  }
  return times.sort();
}

export interface BulkOptions {
  shop: DemoShopKey;
  count: number;
  /** Id of the first check; ids are global, which keeps transRefs unique across shops. */
  firstId: number;
  nowMs: number;
  seed: number;
}

/**
 * `count` extra checks for one demo shop spread over the last DEMO_HISTORY_DAYS days, oldest first with
 * ascending ids. A generator, so a million rows never sit in memory at once.
 */
export function bulkChecks(options: BulkOptions): Generator<CheckRecord> {
  const profile = demoProfile(options.shop);
  const rng = createRng(options.seed);
  const times = checkTimes(rng, options.count, options.nowMs);
  function* drafts(): Generator<CheckDraft> {
    for (const at of times) yield draftCheck(rng, profile, at);
  }
  return withIds(drafts(), options.firstId);
}
