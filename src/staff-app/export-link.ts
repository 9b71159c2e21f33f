// The chat's `export` link: a CSV download signed for one user, one shop and one range, good for 10 minutes
// and once. The key is derived from the shop's channel secret (which every deployment has), so nothing new
// must be set and one shop's links never open another's.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { formatIsoDate } from "../time/calendar.js";
import type { CalendarDate } from "../time/calendar.js";
import type { SlipStatus } from "../slip/types.js";
import type { CsvFormat } from "./csv.js";

export const EXPORT_LINK_TTL_MS = 10 * 60_000;

export interface ExportGrant {
  shopId: string;
  userId: string;
  from: string;
  to: string;
  status?: SlipStatus | undefined;
  /** The app's channel filter and search, when the link was made from the app. */
  source?: string | undefined;
  q?: string | undefined;
  /** `raw` for the all-English file; absent for the shop's words (links made before it are that file). */
  format?: "raw" | undefined;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** Makes each link its own, so that using one leaves the others good. */
  nonce: string;
}

function keyOf(channelSecret: string): Buffer {
  return createHmac("sha256", channelSecret).update("slipline staff app export link v1").digest();
}

function sign(body: string, channelSecret: string): string {
  return createHmac("sha256", keyOf(channelSecret)).update(body).digest("base64url");
}

/** A signed link token for `grant`'s user, shop and days. */
export function signExportLink(
  grant: {
    shopId: string;
    userId: string;
    fromDate: CalendarDate;
    toDate: CalendarDate;
    status?: SlipStatus | undefined;
    source?: string | undefined;
    q?: string | undefined;
    format?: CsvFormat | undefined;
  },
  channelSecret: string,
  now: number,
): string {
  const body: ExportGrant = {
    shopId: grant.shopId,
    userId: grant.userId,
    from: formatIsoDate(grant.fromDate),
    to: formatIsoDate(grant.toDate),
    ...(grant.status === undefined ? {} : { status: grant.status }),
    ...(grant.source === undefined ? {} : { source: grant.source }),
    ...(grant.q === undefined ? {} : { q: grant.q }),
    ...(grant.format === "raw" ? { format: "raw" as const } : {}),
    expiresAt: now + EXPORT_LINK_TTL_MS,
    nonce: randomBytes(9).toString("base64url"),
  };
  const text = Buffer.from(JSON.stringify(body)).toString("base64url");
  return `${text}.${sign(text, channelSecret)}`;
}

export type LinkCheck = { ok: true; grant: ExportGrant } | { ok: false; reason: "altered" | "expired" | "used" | "other_shop" };

/** Checks a link token: its signature, its shop, its time. Does not mark it used. */
export function readExportLink(token: string, shopId: string, channelSecret: string, now: number): LinkCheck {
  const [text, signature, ...rest] = token.split(".");
  if (text === undefined || signature === undefined || rest.length > 0 || token.length > 1024) return { ok: false, reason: "altered" };
  const wanted = Buffer.from(sign(text, channelSecret));
  const given = Buffer.from(signature);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return { ok: false, reason: "altered" };
  let grant: ExportGrant;
  try {
    grant = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as ExportGrant;
  } catch {
    return { ok: false, reason: "altered" };
  }
  if (grant.shopId !== shopId) return { ok: false, reason: "other_shop" };
  if (typeof grant.expiresAt !== "number" || grant.expiresAt <= now) return { ok: false, reason: "expired" };
  return { ok: true, grant };
}

/** The mark that a link was used: its nonce, kept until the link would have expired anyway. */
export function usedLinkMark(grant: ExportGrant, now: number): { key: string; ttlMs: number } {
  return { key: `export-link:${grant.nonce}`, ttlMs: Math.max(1, grant.expiresAt - now) };
}
