// Pure validation of the sandbox's outside input (query strings and JSON bodies), with the exact 400 messages.
import { DAY_MS, epochDay, isRealDate, wallTimeToInstant } from "../../../src/time/calendar.js";
import { isSlipStatus, SLIP_STATUSES, type SlipStatus } from "../../../src/slip/types.js";
import { MAX_AMOUNT_SATANG } from "../../../src/promptpay/amount.js";
import { promptPayTargetOf, type PromptPayTarget } from "./emvco.js";

export const SANDBOX_TIME_ZONE = "Asia/Bangkok";
const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 20;
const MAX_PAGE = 1_000_000_000;
const DEFAULT_QR_SIZE = 512;
const MIN_QR_SIZE = 128;
const MAX_QR_SIZE = 1024;
const MAX_QR_DATA_LENGTH = 512;
const MAX_TRANS_REF_LENGTH = 100;

export const MESSAGES = {
  page: `page must be an integer from 1 to ${MAX_PAGE}`,
  limit: "limit must be an integer of at least 1",
  status: `status must be one of ${SLIP_STATUSES.join(", ")}`,
  transRef: `transRef must be 1 to ${MAX_TRANS_REF_LENGTH} characters`,
  from: "from must be an ISO 8601 date or date-time",
  to: "to must be an ISO 8601 date or date-time",
  fromAfterTo: "from must not be after to",
  repeated: (name: string) => `${name} must be given at most once`,
  body: "body must be a JSON object with a payload object",
  accountNumber: "accountNumber must be a 10-digit phone, 13-digit ID, or 15-digit e-wallet id",
  amount: "amount must be a number greater than 0 with at most 2 decimals",
  size: `size must be an integer from ${MIN_QR_SIZE} to ${MAX_QR_SIZE}`,
  qrData: `data must be 1 to ${MAX_QR_DATA_LENGTH} characters`,
  malformedJson: "body must be valid JSON",
} as const;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(message: string): Parsed<T> => ({ ok: false, message });

// ---------------------------------------------------------------------------------------------
// Query parameters

/** The single value of a parameter, undefined when absent, or a failure when it is repeated. */
function single(params: URLSearchParams, name: string): Parsed<string | undefined> {
  const all = params.getAll(name);
  if (all.length > 1) return fail(MESSAGES.repeated(name));
  return ok(all[0]);
}

/** A decimal integer of digits only (leading zeros allowed); undefined for anything else. */
function decimalInteger(text: string): number | undefined {
  if (!/^[0-9]+$/.test(text)) return undefined;
  const digits = text.replace(/^0+(?=.)/, "");
  // Beyond 15 digits a number is past every bound we check, and still parses as a large number.
  return digits.length > 15 ? Number.MAX_SAFE_INTEGER : Number(digits);
}

export interface HistoryFilter {
  page: number;
  /** Already capped at MAX_LIMIT. */
  limit: number;
  status?: SlipStatus;
  transRef?: string;
  /** Inclusive bounds on createdAt, epoch milliseconds. */
  fromMs?: number;
  toMs?: number;
}

export function parseHistoryQuery(params: URLSearchParams): Parsed<HistoryFilter> {
  const filter: HistoryFilter = { page: 1, limit: DEFAULT_LIMIT };

  const page = single(params, "page");
  if (!page.ok) return page;
  if (page.value !== undefined) {
    const n = decimalInteger(page.value);
    if (n === undefined || n < 1 || n > MAX_PAGE) return fail(MESSAGES.page);
    filter.page = n;
  }

  const limit = single(params, "limit");
  if (!limit.ok) return limit;
  if (limit.value !== undefined) {
    const n = decimalInteger(limit.value);
    if (n === undefined || n < 1) return fail(MESSAGES.limit);
    filter.limit = Math.min(n, MAX_LIMIT);
  }

  const status = single(params, "status");
  if (!status.ok) return status;
  if (status.value !== undefined) {
    if (!isSlipStatus(status.value)) return fail(MESSAGES.status);
    filter.status = status.value;
  }

  const transRef = single(params, "transRef");
  if (!transRef.ok) return transRef;
  if (transRef.value !== undefined) {
    if (transRef.value.length < 1 || transRef.value.length > MAX_TRANS_REF_LENGTH) return fail(MESSAGES.transRef);
    filter.transRef = transRef.value;
  }

  const from = single(params, "from");
  if (!from.ok) return from;
  if (from.value !== undefined) {
    const ms = parseDateBound(from.value, "from", SANDBOX_TIME_ZONE);
    if (ms === undefined) return fail(MESSAGES.from);
    filter.fromMs = ms;
  }

  const to = single(params, "to");
  if (!to.ok) return to;
  if (to.value !== undefined) {
    const ms = parseDateBound(to.value, "to", SANDBOX_TIME_ZONE);
    if (ms === undefined) return fail(MESSAGES.to);
    filter.toMs = ms;
  }

  if (filter.fromMs !== undefined && filter.toMs !== undefined && filter.fromMs > filter.toMs) {
    return fail(MESSAGES.fromAfterTo);
  }
  return ok(filter);
}

// ---------------------------------------------------------------------------------------------
// Dates (docs/sandbox.md §4)

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Reads a history date bound. A date alone is the start of that day in `timeZone` as `from` and its
 * last millisecond as `to`; a date-time without a zone is read in `timeZone`. Returns epoch
 * milliseconds, or undefined when the text is not one of the accepted forms or names an impossible time.
 */
export function parseDateBound(text: string, bound: "from" | "to", timeZone: string): number | undefined {
  const m = DATE_PATTERN.exec(text);
  if (m === null) return undefined;
  const [, ys, mos, ds, hs, mis, ss, frac, zone] = m;
  const year = Number(ys);
  const month = Number(mos);
  const day = Number(ds);
  if (!isRealDate({ year, month, day })) return undefined;
  const dayStartWall = epochDay({ year, month, day }) * DAY_MS;

  if (hs === undefined || mis === undefined) {
    if (bound === "from") return wallTimeToInstant(dayStartWall, timeZone);
    return wallTimeToInstant(dayStartWall + DAY_MS, timeZone) - 1;
  }

  const hour = Number(hs);
  const minute = Number(mis);
  const second = ss === undefined ? 0 : Number(ss);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  // Milliseconds only: further digits are dropped, which keeps an inclusive bound inclusive.
  const millis = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, "0"));
  const wall = dayStartWall + ((hour * 60 + minute) * 60 + second) * 1000 + millis;

  if (zone === undefined) return wallTimeToInstant(wall, timeZone);
  if (zone === "Z") return wall;
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const offHours = Number(digits.slice(0, 2));
  const offMinutes = Number(digits.slice(2, 4));
  if (offHours > 23 || offMinutes > 59) return undefined;
  return wall - sign * (offHours * 60 + offMinutes) * 60_000;
}

// ---------------------------------------------------------------------------------------------
// QR bodies (docs/sandbox.md §8, §10)

export interface QrRequest {
  target: PromptPayTarget;
  /** Undefined when the QR lets the payer enter the amount. */
  amountSatang?: number;
  /** The amount as the caller sent it, echoed back. */
  amount: number | null;
  size: number;
}

/** The target of an `accountNumber` as sent, spaces and dashes between digit groups allowed. */
export function parsePromptPayTarget(accountNumber: unknown): PromptPayTarget | undefined {
  if (typeof accountNumber !== "string") return undefined;
  return promptPayTargetOf(accountNumber.replace(/[\s-]/g, ""));
}

/** Satang of a JSON amount: a number > 0, at most 2 decimals, at most 9999999999.99. */
export function amountToSatang(amount: unknown): number | undefined {
  if (typeof amount !== "number" || !Number.isFinite(amount) || amount <= 0) return undefined;
  // The shortest decimal text of the double is what the caller wrote (or an exponent form we refuse).
  const text = String(amount);
  const m = /^([0-9]+)(?:\.([0-9]{1,2}))?$/.exec(text);
  if (m === null) return undefined;
  const satang = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  if (!Number.isSafeInteger(satang) || satang > MAX_AMOUNT_SATANG) return undefined;
  return satang;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A simulated payment (`POST /dev/payments`, local mode only): `{ "amount": 150, "senderName"?: "...", "source"?: "..." }`. */
export interface PaymentRequest {
  /** The demo shop paid (default the coffee shop). */
  shop?: "shop" | "other";
  amountSatang: number;
  senderName?: string;
  source?: string;
}

export function parsePaymentBody(body: unknown): Parsed<PaymentRequest> {
  if (!isPlainObject(body)) return fail("body must be a JSON object with an amount");
  const satang = amountToSatang(body.amount);
  if (satang === undefined) return fail(MESSAGES.amount);
  const request: PaymentRequest = { amountSatang: satang };
  if (body.shop !== undefined) {
    if (body.shop !== "shop" && body.shop !== "other") return fail('shop must be "shop" or "other"');
    request.shop = body.shop;
  }
  for (const key of ["senderName", "source"] as const) {
    const value = body[key];
    if (value === undefined) continue;
    if (typeof value !== "string" || value.trim() === "" || value.length > 100) return fail(`${key} must be a text of 1 to 100 characters`);
    request[key] = value.trim();
  }
  return ok(request);
}

/** Validates the body of POST /api/promptpay-qr (`withSize` false) or /api/promptpay-qr-url (true). */
export function parseQrBody(body: unknown, withSize: boolean): Parsed<QrRequest> {
  if (!isPlainObject(body) || !isPlainObject(body.payload)) return fail(MESSAGES.body);
  const payload = body.payload;
  const target = parsePromptPayTarget(payload.accountNumber);
  if (target === undefined) return fail(MESSAGES.accountNumber);

  const request: QrRequest = { target, amount: null, size: DEFAULT_QR_SIZE };
  if ("amount" in payload && payload.amount !== undefined) {
    const satang = amountToSatang(payload.amount);
    if (satang === undefined) return fail(MESSAGES.amount);
    request.amountSatang = satang;
    request.amount = satang / 100;
  }
  if (withSize && "size" in payload && payload.size !== undefined) {
    const size = payload.size;
    if (typeof size !== "number" || !Number.isInteger(size) || size < MIN_QR_SIZE || size > MAX_QR_SIZE) {
      return fail(MESSAGES.size);
    }
    request.size = size;
  }
  return ok(request);
}

// ---------------------------------------------------------------------------------------------
// GET /api/qr-image (docs/sandbox.md §11)

export interface QrImageRequest {
  data: string;
  size: number;
}

export function parseQrImageQuery(params: URLSearchParams): Parsed<QrImageRequest> {
  const data = single(params, "data");
  if (!data.ok) return data;
  if (data.value === undefined || data.value.length < 1 || data.value.length > MAX_QR_DATA_LENGTH) {
    return fail(MESSAGES.qrData);
  }
  const sizeText = single(params, "size");
  if (!sizeText.ok) return sizeText;
  let size = DEFAULT_QR_SIZE;
  if (sizeText.value !== undefined) {
    const n = decimalInteger(sizeText.value);
    if (n === undefined || n < MIN_QR_SIZE || n > MAX_QR_SIZE) return fail(MESSAGES.size);
    size = n;
  }
  return ok({ data: data.value, size });
}
