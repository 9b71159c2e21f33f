// The sandbox's demo data, as a user of the sandbox sees it: three shops with their secrets, names and
// packages, the names their customers pay under, and each shop's profile, which shapes the checks that
// demo-stream.ts draws day after day (so the demo looks alive whenever the sandbox starts).
import { DEMO_SHOP_NAME } from "../../../src/demo-shop.js";
import { addCalendarDays, dayOf, startOfDay } from "../../../src/time/calendar.js";
import { SANDBOX_TIME_ZONE } from "./params.js";
import { pick, type Rng } from "./random.js";

/** Public demo secrets: printed by `npm run sandbox` and documented in docs/sandbox.md, never real ones. */
export const DEMO_SECRETS = {
  shop: "demo-shop-secret",
  expired: "demo-expired-secret",
  other: "demo-other-secret",
} as const;

/** The demo shop's PromptPay id (a phone number), used by `qr 150` in the demo. */
export const DEMO_PROMPTPAY_ID = "0812345678";

export const DEMO_STORE_NAMES = {
  shop: DEMO_SHOP_NAME,
  expired: "Expired Demo",
  other: "Second Shop",
} as const;

/** How far back the demo data reaches: the stream is never filled in further back than this. */
export const DEMO_HISTORY_DAYS = 90;

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

// ---------------------------------------------------------------------------------------------
// Shops

/** One demo shop: what it sells, how busy it is, its package; the seed makes its checks the same everywhere. */
export interface ShopProfile {
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
    expiresAtMs: packageExpiresAt(p, nowMs),
  }));
}

export function demoShopId(key: DemoShopKey): number {
  return PROFILES.findIndex((p) => p.key === key) + 1;
}

export function demoProfile(key: DemoShopKey): ShopProfile {
  const profile = PROFILES.find((p) => p.key === key);
  if (profile === undefined) throw new Error(`no demo profile ${key}`);
  return profile;
}

/** The instant the profile's package expires, counted in Bangkok days from the day of `nowMs`. */
export function packageExpiresAt(profile: ShopProfile, nowMs: number): number {
  return startOfDay(addCalendarDays(dayOf(nowMs, SANDBOX_TIME_ZONE), profile.expiresInDays), SANDBOX_TIME_ZONE).getTime();
}

// ---------------------------------------------------------------------------------------------
// Names

/** Thai first names with the titles that go with them: นาย for a man, นาง or น.ส. for a woman. */
export const MALE_NAMES = ["สมชาย", "วิชัย", "ประเสริฐ", "อนุชา", "ธนากร", "ณัฐพล", "กิตติพงษ์", "จักรพันธ์", "วรวุฒิ", "ชัยวัฒน์", "ธีรภัทร", "พงศกร", "อภิชาติ", "ศุภชัย", "ปรีชา"] as const;
export const FEMALE_NAMES = ["สมหญิง", "สุดา", "มาลี", "กมลวรรณ", "พิมพ์ชนก", "ศิริพร", "อรอุมา", "ปิยะนุช", "สุภาพร", "รัตนา", "นภัสสร", "จิราพร", "เบญจมาศ", "ชนิดา", "ลัดดา"] as const;
const FEMALE_TITLES = ["นาง", "น.ส."] as const;
const LAST_NAMES = [
  "ใจดี",
  "รักไทย",
  "ศรีสุข",
  "แก้วมณี",
  "บุญมา",
  "ทองดี",
  "สายสุวรรณ",
  "วงศ์ใหญ่",
  "พรหมมา",
  "จันทร์เพ็ญ",
  "สุขสวัสดิ์",
  "มั่นคง",
  "เจริญผล",
  "ศรีวงศ์",
  "ประเสริฐศักดิ์",
  "อินทร์แก้ว",
  "คำภา",
  "ชัยมงคล",
  "ทองคำ",
  "นาคสวัสดิ์",
] as const;

/** A customer's name as a bank slip shows it: title, first name, last name. */
export function drawSenderName(rng: Rng): string {
  const first = rng() < 0.5 ? `นาย ${pick(rng, MALE_NAMES)}` : `${pick(rng, FEMALE_TITLES)} ${pick(rng, FEMALE_NAMES)}`;
  return `${first} ${pick(rng, LAST_NAMES)}`;
}
