// One demo check, drawn as a shop's profile shapes it (status, source, amount, sender, hour of the day); a
// customer's simulated payment; and the ids and transRefs checks get when they are stored.
import type { ListedSource, SlipStatus } from "../../../src/slip/types.js";
import { DAY_MS, dateOfEpochDay, formatIsoDate, zoneOffsetMs } from "../../../src/time/calendar.js";
import { demoProfile, demoShopId, drawSenderName, type ShopProfile } from "./demo.js";
import { SANDBOX_TIME_ZONE } from "./params.js";
import { createRng, mixSeeds, pick, weighted, type Rng } from "./random.js";

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

/** A check before it is stored: its id, and the transRef that carries the id, come at insertion. */
export type CheckDraft = Omit<CheckRecord, "id" | "transRef">;

export const HOUR_MS = 3_600_000;

/** Relative busyness of each hour of a Bangkok day, midnight first. */
export const HOUR_WEIGHTS = [1, 0, 0, 0, 0, 1, 3, 10, 14, 12, 10, 11, 14, 12, 9, 8, 9, 10, 9, 7, 5, 3, 2, 1];
const pickHour = weighted(HOUR_WEIGHTS.map((w, h) => [h, w] as const));

/** A time in the day starting at `dayStartMs`: an hour drawn by HOUR_WEIGHTS, then a moment in it. */
export function timeInDay(rng: Rng, dayStartMs: number): number {
  return dayStartMs + pickHour(rng) * HOUR_MS + Math.floor(rng() * HOUR_MS);
}

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

export function draftCheck(rng: Rng, profile: ShopProfile, createdAtMs: number): CheckDraft {
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
    senderName: readable ? drawSenderName(rng) : null,
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
  /** The demo shop paid: the coffee shop (default) or the second shop, each of a local mode's two OAs. */
  shop?: "shop" | "other" | undefined;
  amountSatang: number;
  /** Default a name drawn from the demo's names. */
  senderName?: string | undefined;
  /** Default `line_oa_merchant`. */
  source?: string | undefined;
  atMs: number;
}

export function paymentDraft(payment: SimulatedPayment): CheckDraft {
  const shop = payment.shop ?? "shop";
  const profile = demoProfile(shop);
  const rng = createRng(mixSeeds(profile.seed, payment.atMs % 4_294_967_296, payment.amountSatang));
  const source = payment.source ?? "line_oa_merchant";
  return {
    shopId: demoShopId(shop),
    status: "valid",
    amountSatang: payment.amountSatang,
    // The customer transferred a little before sending the slip.
    transDateMs: payment.atMs - 30_000,
    senderName: payment.senderName ?? drawSenderName(rng),
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
      date = formatIsoDate(dateOfEpochDay(day)).replaceAll("-", "").slice(2); // yyyy-MM-dd to yyMMdd
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
    transRefFor ??= transRefFormatter(zoneOffsetMs(draft.createdAtMs, SANDBOX_TIME_ZONE));
    yield { ...draft, id, transRef: transRefFor(draft.transDateMs ?? draft.createdAtMs, id) };
    id++;
  }
}
