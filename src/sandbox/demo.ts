// Deterministic demo data for the sandbox (design 6.15): the three shops and their generated slip checks.
import type { ListedSource, SlipStatus } from "../slip/types.js";
import { SANDBOX_TIME_ZONE, zonedWallTimeToInstant } from "./params.js";

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

/** One slip check as stored. Amounts in satang; times in epoch milliseconds. */
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
// A small seeded PRNG (sfc32): same seed, same demo data, on every machine.

type Rng = () => number;

function createRng(seed: number): Rng {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88 ^ Math.imul(seed, 0x85ebca6b);
  let c = 0xb7e15162 ^ Math.imul(seed, 0xc2b2ae35);
  let d = 1;
  const next = (): number => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  };
  // Warm up so nearby seeds diverge.
  for (let i = 0; i < 16; i++) next();
  return next;
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

/** Cumulative weights for a weighted pick. */
function weighted<T>(entries: readonly (readonly [T, number])[]): (rng: Rng) => T {
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  return (rng) => {
    let r = rng() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (last === undefined) throw new Error("weighted pick from an empty list");
    return last[0];
  };
}

// ---------------------------------------------------------------------------------------------
// Shops

interface ShopProfile {
  key: DemoShopKey;
  seed: number;
  /** Checks made at the first seed. */
  checkCount: number;
  receiverName: string;
  receiverAccounts: readonly string[];
  /** Prices in satang a customer of this shop typically pays. */
  prices: readonly number[];
  packageName: string;
  tokens: number;
  credits: number;
  rateChat: number;
  rateApi: number;
  /** Package expiry relative to the start of the seeding day in Bangkok. */
  expiresInDays: number;
}

const PROFILES: readonly ShopProfile[] = [
  {
    key: "shop",
    seed: 0x5eed01,
    checkCount: 3000,
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
    checkCount: 60,
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
    checkCount: 400,
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

/** The demo shops with ids 1..3 in PROFILES order, their packages dated from `nowMs`. */
export function demoShops(nowMs: number): ShopRecord[] {
  const today = bangkokDayStartWall(nowMs);
  return PROFILES.map((p) => ({
    id: demoShopId(p.key),
    name: DEMO_STORE_NAMES[p.key],
    secret: DEMO_SECRETS[p.key],
    packageName: p.packageName,
    tokens: p.tokens,
    credits: p.credits,
    rateChat: p.rateChat,
    rateApi: p.rateApi,
    expiresAtMs: dayStartAfter(today, p.expiresInDays),
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

// ---------------------------------------------------------------------------------------------
// Time: Bangkok calendar days

const DAY_MS = 86_400_000;

/** Bangkok's offset from UTC around `ms`. It has no DST, but the zone data says so rather than us assuming +07:00. */
function bangkokOffsetMs(ms: number): number {
  return ms - zonedWallTimeToInstant(ms, SANDBOX_TIME_ZONE);
}

/** Start of the Bangkok day holding `ms`, as wall-clock time (the local fields counted as UTC). */
function bangkokDayStartWall(ms: number): number {
  return Math.floor((ms + bangkokOffsetMs(ms)) / DAY_MS) * DAY_MS;
}

/** The instant the Bangkok day `days` after the day starting at `dayStartWall` begins. */
function dayStartAfter(dayStartWall: number, days: number): number {
  return zonedWallTimeToInstant(dayStartWall + days * DAY_MS, SANDBOX_TIME_ZONE);
}

/** Relative busyness of each Bangkok hour for a shop open 7:00-21:00 that also takes a few late orders. */
const HOUR_WEIGHTS = [1, 0, 0, 0, 0, 1, 3, 10, 14, 12, 10, 11, 14, 12, 9, 8, 9, 10, 9, 7, 5, 3, 2, 1];
const pickHour = weighted(HOUR_WEIGHTS.map((w, h) => [h, w] as const));

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
      const candidate = start + pickHour(rng) * 3_600_000 + Math.floor(rng() * 3_600_000);
      if (candidate <= nowMs) {
        t = candidate;
        break;
      }
      t = nowMs - Math.floor(rng() * 3_600_000);
    }
    times[i] = t;
  }
  return times.sort();
}

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

const TITLES = ["นาย", "นาง", "น.ส."] as const;
const FIRST_NAMES = [
  "สมชาย", "สมหญิง", "วิชัย", "สุดา", "ประเสริฐ", "มาลี", "อนุชา", "กมลวรรณ", "ธนากร", "พิมพ์ชนก",
  "ณัฐพล", "ศิริพร", "กิตติพงษ์", "อรอุมา", "จักรพันธ์", "ปิยะนุช", "วรวุฒิ", "สุภาพร", "ชัยวัฒน์", "รัตนา",
  "ธีรภัทร", "นภัสสร", "พงศกร", "จิราพร", "อภิชาติ", "เบญจมาศ", "ศุภชัย", "ชนิดา", "ปรีชา", "ลัดดา",
] as const;
const LAST_NAMES = [
  "ใจดี", "รักไทย", "ศรีสุข", "แก้วมณี", "บุญมา", "ทองดี", "สายสุวรรณ", "วงศ์ใหญ่", "พรหมมา", "จันทร์เพ็ญ",
  "สุขสวัสดิ์", "มั่นคง", "เจริญผล", "ศรีวงศ์", "ประเสริฐศักดิ์", "อินทร์แก้ว", "คำภา", "ชัยมงคล", "ทองคำ", "นาคสวัสดิ์",
] as const;

function senderName(rng: Rng): string {
  return `${pick(rng, TITLES)} ${pick(rng, FIRST_NAMES)} ${pick(rng, LAST_NAMES)}`;
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

export interface GenerateOptions {
  shop: DemoShopKey;
  count: number;
  /** Id of the first check; ids are global, which keeps transRefs unique across shops. */
  firstId: number;
  nowMs: number;
  seed: number;
}

/**
 * The checks of one demo shop, oldest first with ascending ids (so newest-first order and id order
 * agree). A generator, so a million rows never sit in memory at once.
 */
export function* generateChecks(options: GenerateOptions): Generator<CheckRecord> {
  const profile = profileOf(options.shop);
  const shopId = demoShopId(options.shop);
  const rng = createRng(options.seed);
  const times = checkTimes(rng, options.count, options.nowMs);
  const transRefFor = transRefFormatter(bangkokOffsetMs(options.nowMs));
  for (let i = 0; i < options.count; i++) {
    const createdAtMs = times[i] ?? options.nowMs;
    const id = options.firstId + i;
    const status = pickStatus(rng);
    const source = pickSource(rng);
    const readable = status !== "not_found" && status !== "error";
    // The transfer happened between 20 seconds and 20 minutes before the slip was checked.
    const transDateMs = createdAtMs - 20_000 - Math.floor(rng() * 1_180_000);
    const cents = rng() < 0.1 ? pick(rng, [25, 50, 75]) : 0;
    const amountSatang = pick(rng, profile.prices) * (rng() < 0.15 ? 2 : 1) + cents;
    const rate = source === "api" ? profile.rateApi : profile.rateChat;
    yield {
      id,
      shopId,
      status,
      amountSatang: readable ? amountSatang : null,
      transRef: transRefFor(readable ? transDateMs : createdAtMs, id),
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
}

/** The first seed: every shop's checks, ids from 1 in shop order. */
export function* generateDemoChecks(nowMs: number): Generator<CheckRecord> {
  let firstId = 1;
  for (const profile of PROFILES) {
    yield* generateChecks({ shop: profile.key, count: profile.checkCount, firstId, nowMs, seed: profile.seed });
    firstId += profile.checkCount;
  }
}
