// The demo's daily stream: every Bangkok day has its own checks, drawn from the shop's seed and the day's
// number, so the checks between two instants are the same whenever (and however often) they are generated.
import { addCalendarDays, dayOf, epochDay, startOfDay, weekdayOf, type CalendarDate } from "../../../src/time/calendar.js";
import { DEMO_HISTORY_DAYS, demoProfile, packageExpiresAt, type DemoShopKey, type ShopProfile } from "./demo.js";
import { HOUR_MS, HOUR_WEIGHTS, draftCheck, timeInDay, type CheckDraft } from "./demo-checks.js";
import { SANDBOX_TIME_ZONE } from "./params.js";
import { createRng, mixSeeds, weighted } from "./random.js";

/** Relative busyness of each weekday, Sunday first: a café is busiest at the weekend. */
const WEEKDAY_WEIGHTS = [1.3, 0.85, 0.9, 0.95, 1, 1.15, 1.35] as const;

/** The checks `profile` made on the Bangkok day `day`, in time order. */
function checksOfDay(profile: ShopProfile, day: CalendarDate): CheckDraft[] {
  const dayNumber = epochDay(day);
  const rng = createRng(mixSeeds(profile.seed, dayNumber));
  const weekday = weekdayOf(day);
  const count = Math.round(profile.checksPerDay * (WEEKDAY_WEIGHTS[weekday] ?? 1) * (0.8 + 0.4 * rng()));
  const dayStart = startOfDay(day, SANDBOX_TIME_ZONE).getTime();
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(timeInDay(rng, dayStart));
  times.sort((a, b) => a - b);
  return times.map((at) => draftCheck(rng, profile, at));
}

/** The shop's checks made after `afterMs` and at or before `untilMs`, in time order. */
function streamBetween(profile: ShopProfile, afterMs: number, untilMs: number): CheckDraft[] {
  const drafts: CheckDraft[] = [];
  if (untilMs <= afterMs) return drafts;
  for (let day = dayOf(afterMs, SANDBOX_TIME_ZONE); startOfDay(day, SANDBOX_TIME_ZONE).getTime() <= untilMs; day = addCalendarDays(day, 1)) {
    for (const check of checksOfDay(profile, day)) {
      if (check.createdAtMs > afterMs && check.createdAtMs <= untilMs) drafts.push(check);
    }
  }
  return drafts;
}

/** What the store knows of one demo shop's checks. */
export interface DemoShopState {
  /** createdAt of its newest check; undefined when it has none. */
  newestMs: number | undefined;
  /** How many of its checks were made from `fromMs` to `toMs`, both included. */
  countBetween(fromMs: number, toMs: number): number;
}

/**
 * The checks a demo shop lacks at `nowMs`, in time order: its stream from its newest check (at most
 * DEMO_HISTORY_DAYS back) up to now, stopping at an expiry in the past, and then, if today still holds
 * fewer than the profile's `todayAtLeast`, that many more spread over the part of today gone by.
 */
export function missingDemoChecks(key: DemoShopKey, state: DemoShopState, nowMs: number): CheckDraft[] {
  const profile = demoProfile(key);
  const today = dayOf(nowMs, SANDBOX_TIME_ZONE);
  const windowStart = startOfDay(addCalendarDays(today, -(DEMO_HISTORY_DAYS - 1)), SANDBOX_TIME_ZONE).getTime();
  const afterMs = Math.max(state.newestMs ?? -Infinity, windowStart - 1);
  const untilMs = Math.min(nowMs, packageExpiresAt(profile, nowMs));
  const drafts = streamBetween(profile, afterMs, untilMs);

  const todayStart = startOfDay(today, SANDBOX_TIME_ZONE).getTime();
  const todayCount = state.countBetween(todayStart, nowMs) + drafts.filter((d) => d.createdAtMs >= todayStart).length;
  const short = profile.todayAtLeast - todayCount;
  if (short <= 0) return drafts;
  // Seeded by the day: the same morning gets the same extra checks on every machine. They keep the shape of a
  // day, drawn from the hours gone by with their weights; the hour under way ends now.
  const rng = createRng(mixSeeds(profile.seed, epochDay(today), 0x7f100d));
  const hourNow = Math.floor((nowMs - todayStart) / HOUR_MS);
  // The hour under way counts for the part of it gone by, so a start at 09:00:05 does not crowd 09:00.
  const hourNowGone = (nowMs - todayStart - hourNow * HOUR_MS) / HOUR_MS;
  const pickPastHour = weighted(HOUR_WEIGHTS.slice(0, hourNow + 1).map((w, h) => [h, h === hourNow ? w * hourNowGone : w] as const));
  const extra: CheckDraft[] = [];
  for (let i = 0; i < short; i++) {
    const hourStart = todayStart + pickPastHour(rng) * HOUR_MS;
    const span = Math.min(HOUR_MS, nowMs - hourStart + 1);
    extra.push(draftCheck(rng, profile, hourStart + Math.floor(rng() * span)));
  }
  return [...drafts, ...extra].sort((a, b) => a.createdAtMs - b.createdAtMs);
}
