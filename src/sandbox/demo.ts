// The sandbox's demo data: three shops, and for each a deterministic stream of slip checks that goes on
// day after day, so the demo looks alive whenever the sandbox starts.
import type { ListedSource, SlipStatus } from "../slip/types.js";
import { DAY_MS, wallTimeToInstant, zoneOffsetMs } from "../time/calendar.js";
import { SANDBOX_TIME_ZONE } from "./params.js";
import { createRng, mixSeeds, pick, weighted, type Rng } from "./random.js";

/** Public demo secrets: printed by `npm run sandbox` and documented in the README, never real ones. */
export const DEMO_SECRETS = {
  shop: "demo-shop-secret",
  expired: "demo-expired-secret",
  other: "demo-other-secret",
} as const;

/** The demo shop's PromptPay id (a phone number), used by `qr 150` in the demo. */
export const DEMO_PROMPTPAY_ID = "0812345678";

export const DEMO_STORE_NAMES = {
  shop: "ร้านกาแฟดีใจ",
  expired: "Expired Demo",
  other: "Second Shop",
} as const;

/** How far back the demo data reaches: the stream is never filled in further back than this. */
const DEMO_HISTORY_DAYS = 90;

export type DemoShopKey = keyof typeof DEMO_SECRETS;

/** One shop as stored; times are epoch milliseconds. */
export interface ShopRecord {
  id: number;
  name: string;
  secret: string;
  packageName: string;
  tokens: number;
  credits: number;
  rateChat: number;
  rateApi: number;
  expiresAtMs: number;
}

/** One slip check as stored. Amounts in satang; times in epoch milliseconds. Ids are global and increase with insertion. */
export interface CheckRecord {
  id: number;
  shopId: number;
  status: SlipStatus;
  amountSatang: number | null;
  transRef: string;
  transDateMs: number | null;
  senderName: string | null;
  receiverName: string | null;
  receiverAccount: string | null;
  source: string;
  tokensCharged: number;
  createdAtMs: number;
}

// ---------------------------------------------------------------------------------------------
// Shops

interface ShopProfile {
  key: DemoShopKey;
  seed: number;
  /** Average checks on an ordinary day; weekends are busier. */
  checksPerDay: number;
  /**
   * Checks "today" always holds at start-up, whatever the hour: just after midnight the stream alone
   * has almost none, and the demo's history paging needs a few pages.
   */
  todayAtLeast: number;
  receiverName: string;
  receiverAccounts: readonly string[];
  /** Prices in satang a customer of this shop typically pays. */
  prices: readonly number[];
  packageName: string;
  tokens: number;
  credits: number;
  rateChat: number;
  rateApi: number;
  /** Package expiry relative to the start of the current day in Bangkok; checks stop at an expiry in the past. */
  expiresInDays: number;
}

const PROFILES: readonly ShopProfile[] = [
  {
    key: "shop",
    seed: 0x5eed01,
    checksPerDay: 60,
    todayAtLeast: 25,
    receiverName: "น.ส. ดีใจ มีสุข",
    receiverAccounts: ["xxx-x-x5678-x", "xxx-x-x9012-x"],
    prices: [4500, 5500, 6000, 6500, 7500, 8500, 9500, 12000, 13000, 15000, 18000, 21000, 25000, 32000, 45000, 89000],
    packageName: "Pro",
    tokens: 4218.25,
    credits: 250,
    rateChat: 1,
    rateApi: 0.75,
    expiresInDays: 181,
  },
  {
    key: "expired",
    seed: 0x5eed02,
    checksPerDay: 1,
    todayAtLeast: 0,
    receiverName: "นาย หมดอายุ ทดลองใช้",
    receiverAccounts: ["xxx-x-x4321-x"],
    prices: [10000, 20000, 35000, 50000],
    packageName: "Basic",
    tokens: 12.5,
    credits: 0,
    rateChat: 1,
    rateApi: 1,
    expiresInDays: -3,
  },
  {
    key: "other",
    seed: 0x5eed03,
    checksPerDay: 5,
    todayAtLeast: 0,
    receiverName: "SECOND SHOP CO., LTD.",
    receiverAccounts: ["xxx-x-x7777-x"],
    prices: [29000, 49000, 99000, 159000, 259000, 499000, 1290000],
    packageName: "Starter",
    tokens: 180,
    credits: 20,
    rateChat: 1.5,
    rateApi: 1,
    expiresInDays: 61,
  },
];

export const DEMO_SHOP_KEYS: readonly DemoShopKey[] = PROFILES.map((p) => p.key);

/** The demo shops with ids 1..3 in PROFILES order, their packages dated from the Bangkok day of `nowMs`. */
export function demoShops(nowMs: number): ShopRecord[] {
  return PROFILES.map((p) => ({
    id: demoShopId(p.key),
    name: DEMO_STORE_NAMES[p.key],
    secret: DEMO_SECRETS[p.key],
    packageName: p.packageName,
    tokens: p.tokens,
    credits: p.credits,
    rateChat: p.rateChat,
    rateApi: p.rateApi,
    expiresAtMs: expiresAt(p, nowMs),
  }));
}

export function demoShopId(key: DemoShopKey): number {
  return PROFILES.findIndex((p) => p.key === key) + 1;
}

function profileOf(key: DemoShopKey): ShopProfile {
  const profile = PROFILES.find((p) => p.key === key);
  if (profile === undefined) throw new Error(`no demo profile ${key}`);
  return profile;
}

function expiresAt(profile: ShopProfile, nowMs: number): number {
  return dayStartAfter(bangkokDayStartWall(nowMs), profile.expiresInDays);
}

// ---------------------------------------------------------------------------------------------
// Time: Bangkok calendar days

const HOUR_MS = 3_600_000;

/** Bangkok's offset from UTC around `ms`. It has no DST, but the zone data says so rather than us assuming +07:00. */
function bangkokOffsetMs(ms: number): number {
  return zoneOffsetMs(ms, SANDBOX_TIME_ZONE);
}

/** Start of the Bangkok day holding `ms`, as wall-clock time (the local fields counted as UTC). */
function bangkokDayStartWall(ms: number): number {
  return Math.floor((ms + bangkokOffsetMs(ms)) / DAY_MS) * DAY_MS;
}

/** The instant the Bangkok day `days` after the day starting at `dayStartWall` begins. */
function dayStartAfter(dayStartWall: number, days: number): number {
  return wallTimeToInstant(dayStartWall + days * DAY_MS, SANDBOX_TIME_ZONE);
}

const HOUR_WEIGHTS = [1, 0, 0, 0, 0, 1, 3, 10, 14, 12, 10, 11, 14, 12, 9, 8, 9, 10, 9, 7, 5, 3, 2, 1];
const pickHour = weighted(HOUR_WEIGHTS.map((w, h) => [h, w] as const));

/** Relative busyness of each weekday, Sunday first: a café is busiest at the weekend. */
const WEEKDAY_WEIGHTS = [1.3, 0.85, 0.9, 0.95, 1, 1.15, 1.35] as const;

// ---------------------------------------------------------------------------------------------
// Checks

const pickStatus = weighted<SlipStatus>([
  ["valid", 80],
  ["duplicate", 6],
  ["invalid", 4],
  ["not_found", 4],
  ["fraud", 3],
  ["error", 3],
]);

const pickSource = weighted<ListedSource>([
  ["line_oa_merchant", 30],
  ["line_group", 20],
  ["api", 15],
  ["line_oa_system", 12],
  ["dashboard", 10],
  ["line_partner", 8],
  ["facebook_page", 5],
]);

/** Thai first names with the titles that go with them: นาย for a man, นาง or น.ส. for a woman. */
export const MALE_NAMES = [
  "สมชาย", "วิชัย", "ประเสริฐ", "อนุชา", "ธนากร", "ณัฐพล", "กิตติพงษ์", "จักรพันธ์", "วรวุฒิ", "ชัยวัฒน์",
  "ธีรภัทร", "พงศกร", "อภิชาติ", "ศุภชัย", "ปรีชา",
] as const;
export const FEMALE_NAMES = [
  "สมหญิง", "สุดา", "มาลี", "กมลวรรณ", "พิมพ์ชนก", "ศิริพร", "อรอุมา", "ปิยะนุช", "สุภาพร", "รัตนา",
  "นภัสสร", "จิราพร", "เบญจมาศ", "ชนิดา", "ลัดดา",
] as const;
const FEMALE_TITLES = ["นาง", "น.ส."] as const;
const LAST_NAMES = [
  "ใจดี", "รักไทย", "ศรีสุข", "แก้วมณี", "บุญมา", "ทองดี", "สายสุวรรณ", "วงศ์ใหญ่", "พรหมมา", "จันทร์เพ็ญ",
  "สุขสวัสดิ์", "มั่นคง", "เจริญผล", "ศรีวงศ์", "ประเสริฐศักดิ์", "อินทร์แก้ว", "คำภา", "ชัยมงคล", "ทองคำ", "นาคสวัสดิ์",
] as const;

function senderName(rng: Rng): string {
  const first = rng() < 0.5 ? `นาย ${pick(rng, MALE_NAMES)}` : `${pick(rng, FEMALE_TITLES)} ${pick(rng, FEMALE_NAMES)}`;
  return `${first} ${pick(rng, LAST_NAMES)}`;
}

/** A check before it is stored: its id, and the transRef that carries the id, come at insertion. */
export type CheckDraft = Omit<CheckRecord, "id" | "transRef">;

function draftCheck(rng: Rng, profile: ShopProfile, createdAtMs: number): CheckDraft {
  const status = pickStatus(rng);
  const source = pickSource(rng);
  const readable = status !== "not_found" && status !== "error";
  // The transfer happened between 20 seconds and 20 minutes before the slip was checked.
  const transDateMs = createdAtMs - 20_000 - Math.floor(rng() * 1_180_000);
  const cents = rng() < 0.1 ? pick(rng, [25, 50, 75]) : 0;
  const amountSatang = pick(rng, profile.prices) * (rng() < 0.15 ? 2 : 1) + cents;
  const rate = source === "api" ? profile.rateApi : profile.rateChat;
  return {
    shopId: demoShopId(profile.key),
    status,
    amountSatang: readable ? amountSatang : null,
    transDateMs: readable ? transDateMs : null,
    senderName: readable ? senderName(rng) : null,
    receiverName: readable ? profile.receiverName : null,
    receiverAccount: readable ? pick(rng, profile.receiverAccounts) : null,
    source,
    // A check that failed on the service's side is not charged.
    tokensCharged: status === "error" ? 0 : rate,
    createdAtMs,
  };
}

/** A customer paying the demo shop now: one valid check, as a newcomer simulates it to try "has it arrived?". */
export interface SimulatedPayment {
  amountSatang: number;
  /** Default a name drawn from the demo's names. */
  senderName?: string | undefined;
  /** Default `line_oa_merchant`. */
  source?: string | undefined;
  atMs: number;
}

export function paymentDraft(payment: SimulatedPayment): CheckDraft {
  const profile = profileOf("shop");
  const rng = createRng(mixSeeds(profile.seed, payment.atMs % 4_294_967_296, payment.amountSatang));
  const source = payment.source ?? "line_oa_merchant";
  return {
    shopId: demoShopId("shop"),
    status: "valid",
    amountSatang: payment.amountSatang,
    // The customer transferred a little before sending the slip.
    transDateMs: payment.atMs - 30_000,
    senderName: payment.senderName ?? senderName(rng),
    receiverName: profile.receiverName,
    receiverAccount: pick(rng, profile.receiverAccounts),
    source,
    tokensCharged: source === "api" ? profile.rateApi : profile.rateChat,
    createdAtMs: payment.atMs,
  };
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

/** A bank-style reference: the local transfer time (yyMMddHHmmss) and the globally unique row id. */
function transRefFormatter(offsetMs: number): (atMs: number, id: number) => string {
  // A million rows share about ninety days: format each day once, the time of day by arithmetic.
  const days = new Map<number, string>();
  return (atMs, id) => {
    const local = atMs + offsetMs;
    const day = Math.floor(local / DAY_MS);
    let date = days.get(day);
    if (date === undefined) {
      const iso = new Date(day * DAY_MS).toISOString(); // local fields, shifted so ISO prints them
      date = iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
      days.set(day, date);
    }
    const seconds = Math.floor((local - day * DAY_MS) / 1000);
    const time = pad(Math.floor(seconds / 3600), 2) + pad(Math.floor(seconds / 60) % 60, 2) + pad(seconds % 60, 2);
    return `${date}${time}${pad(id, 8)}`;
  };
}

/** Stored checks from drafts: ids from `firstId` on, in the drafts' order, each with its transRef. */
export function* withIds(drafts: Iterable<CheckDraft>, firstId: number): Generator<CheckRecord> {
  let transRefFor: ((atMs: number, id: number) => string) | undefined;
  let id = firstId;
  for (const draft of drafts) {
    // Bangkok keeps one offset all year: read it once, at the first check.
    transRefFor ??= transRefFormatter(bangkokOffsetMs(draft.createdAtMs));
    yield { ...draft, id, transRef: transRefFor(draft.transDateMs ?? draft.createdAtMs, id) };
    id++;
  }
}

// ---------------------------------------------------------------------------------------------
// The stream: every Bangkok day has its own checks, drawn from the shop's seed and the day's number, so
// the checks between two instants are the same whenever (and however often) they are generated.

/** The checks `profile` made on the Bangkok day starting at `dayStartWall`, in time order. */
function checksOfDay(profile: ShopProfile, dayStartWall: number): CheckDraft[] {
  const dayNumber = dayStartWall / DAY_MS;
  const rng = createRng(mixSeeds(profile.seed, dayNumber));
  const weekday = (((dayNumber + 4) % 7) + 7) % 7; // 1 January 1970 was a Thursday
  const count = Math.round(profile.checksPerDay * (WEEKDAY_WEIGHTS[weekday] ?? 1) * (0.8 + 0.4 * rng()));
  const dayStart = wallTimeToInstant(dayStartWall, SANDBOX_TIME_ZONE);
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(dayStart + pickHour(rng) * HOUR_MS + Math.floor(rng() * HOUR_MS));
  times.sort((a, b) => a - b);
  return times.map((at) => draftCheck(rng, profile, at));
}

/** The shop's checks made after `afterMs` and at or before `untilMs`, in time order. */
function streamBetween(profile: ShopProfile, afterMs: number, untilMs: number): CheckDraft[] {
  const drafts: CheckDraft[] = [];
  if (untilMs <= afterMs) return drafts;
  for (let day = bangkokDayStartWall(afterMs); wallTimeToInstant(day, SANDBOX_TIME_ZONE) <= untilMs; day += DAY_MS) {
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
  const profile = profileOf(key);
  const todayWall = bangkokDayStartWall(nowMs);
  const windowStart = dayStartAfter(todayWall, -(DEMO_HISTORY_DAYS - 1));
  const afterMs = Math.max(state.newestMs ?? -Infinity, windowStart - 1);
  const untilMs = Math.min(nowMs, expiresAt(profile, nowMs));
  const drafts = streamBetween(profile, afterMs, untilMs);

  const todayStart = dayStartAfter(todayWall, 0);
  const today = state.countBetween(todayStart, nowMs) + drafts.filter((d) => d.createdAtMs >= todayStart).length;
  const short = profile.todayAtLeast - today;
  if (short <= 0) return drafts;
  // Seeded by the day: the same morning gets the same extra checks on every machine. They keep the shape of a
  // day, drawn from the hours gone by with their weights; the hour under way ends now.
  const rng = createRng(mixSeeds(profile.seed, todayWall / DAY_MS, 0x7f100d));
  const hourNow = Math.floor((nowMs - todayStart) / HOUR_MS);
  // The hour under way counts for the part of it gone by, so a start at 09:00:05 does not crowd 09:00.
  const hourNowGone = (nowMs - todayStart - hourNow * HOUR_MS) / HOUR_MS;
  const pickPastHour = weighted(
    HOUR_WEIGHTS.slice(0, hourNow + 1).map((w, h) => [h, h === hourNow ? w * hourNowGone : w] as const),
  );
  const extra: CheckDraft[] = [];
  for (let i = 0; i < short; i++) {
    const hourStart = todayStart + pickPastHour(rng) * HOUR_MS;
    const span = Math.min(HOUR_MS, nowMs - hourStart + 1);
    extra.push(draftCheck(rng, profile, hourStart + Math.floor(rng() * span)));
  }
  return [...drafts, ...extra].sort((a, b) => a.createdAtMs - b.createdAtMs);
}

// ---------------------------------------------------------------------------------------------
// Bulk checks for load tests (`npm run sandbox -- --seed N`)

/**
 * `count` sorted check times in the last DEMO_HISTORY_DAYS Bangkok days up to `nowMs`, with
 * business-hour peaks.
 */
function checkTimes(rng: Rng, count: number, nowMs: number): Float64Array {
  const today = bangkokDayStartWall(nowMs);
  const dayStarts: number[] = [];
  for (let d = DEMO_HISTORY_DAYS - 1; d >= 0; d--) dayStarts.push(dayStartAfter(today, -d));
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    let t = nowMs;
    // Times after now (later today) are drawn again; a bounded number of tries, then a time just before now.
    for (let attempt = 0; attempt < 8; attempt++) {
      const start = pick(rng, dayStarts);
      const candidate = start + pickHour(rng) * HOUR_MS + Math.floor(rng() * HOUR_MS);
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
  const profile = profileOf(options.shop);
  const rng = createRng(options.seed);
  const times = checkTimes(rng, options.count, options.nowMs);
  function* drafts(): Generator<CheckDraft> {
    for (const at of times) yield draftCheck(rng, profile, at);
  }
  return withIds(drafts(), options.firstId);
}
