// Hand-written checks that turn the service's JSON into the typed data of types.ts, or name the first field that breaks the documented shape.
import type { AccountInfo, HistoryItem, HistoryPage, Pagination, PromptPayQr, PromptPayQrUrl } from "./types.js";

/** The result of a guard: the typed value, or where and why the body breaks the documented shape. */
export type Guarded<T> = { ok: true; value: T } | { ok: false; problem: string };

export interface Envelope {
  code: string;
  message: string;
  /** Left unchecked here: its shape depends on the operation, and error envelopes may omit it. */
  data: unknown;
}

export const SUCCESS_CODE = "200001";

// Guards throw this internally and `guard` turns it into `{ ok: false }`, so each check stays one line.
class ShapeViolation extends Error {}

function fail(path: string, expected: string, value: unknown): never {
  throw new ShapeViolation(`${path}: expected ${expected}, got ${describe(value)}`);
}

/** Names the type of a wrong value without echoing it (a body is outside input and may be large). */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function guard<T>(read: () => T): Guarded<T> {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof ShapeViolation) return { ok: false, problem: error.message };
    throw error;
  }
}

type Fields = Record<string, unknown>;

function object(value: unknown, path: string): Fields {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(path, "an object", value);
  return value as Fields;
}

function string(value: unknown, path: string): string {
  if (typeof value !== "string") fail(path, "a string", value);
  return value;
}

function number(value: unknown, path: string): number {
  // JSON.parse never yields NaN or Infinity, but the check keeps the guard honest for any input.
  if (typeof value !== "number" || !Number.isFinite(value)) fail(path, "a number", value);
  return value;
}

function count(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) fail(path, "an integer >= 0", value);
  return value;
}

function dateTime(value: unknown, path: string): string {
  if (typeof value !== "string" || Number.isNaN(Date.parse(value))) fail(path, "an ISO 8601 date-time string", value);
  return value;
}

// Item fields may be absent or null for any status (the service's API leaves it open): both become null.
function optional<T>(read: (value: unknown, path: string) => T, value: unknown, path: string): T | null {
  return value === undefined || value === null ? null : read(value, path);
}

/** The envelope of every answer: `code` and `message` strings. */
export function readEnvelope(body: unknown): Guarded<Envelope> {
  return guard(() => {
    const fields = object(body, "body");
    return { code: string(fields.code, "code"), message: string(fields.message, "message"), data: fields.data };
  });
}

function readItem(value: unknown, path: string): HistoryItem {
  const item = object(value, path);
  return {
    code: optional(number, item.code, `${path}.code`),
    // Unknown statuses and sources pass through: the service's API calls its source list examples.
    status: optional(string, item.status, `${path}.status`),
    amount: optional(number, item.amount, `${path}.amount`),
    transRef: optional(string, item.transRef, `${path}.transRef`),
    transDate: optional(dateTime, item.transDate, `${path}.transDate`),
    senderName: optional(string, item.senderName, `${path}.senderName`),
    receiverName: optional(string, item.receiverName, `${path}.receiverName`),
    receiverAccount: optional(string, item.receiverAccount, `${path}.receiverAccount`),
    source: optional(string, item.source, `${path}.source`),
    tokensCharged: optional(number, item.tokensCharged, `${path}.tokensCharged`),
    createdAt: optional(dateTime, item.createdAt, `${path}.createdAt`),
  };
}

function readPagination(value: unknown, path: string): Pagination {
  const pagination = object(value, path);
  return {
    page: count(pagination.page, `${path}.page`),
    limit: count(pagination.limit, `${path}.limit`),
    total: count(pagination.total, `${path}.total`),
    pages: count(pagination.pages, `${path}.pages`),
  };
}

/** `data` of GET /api/slip-history. */
export function readHistoryPage(data: unknown): Guarded<HistoryPage> {
  return guard(() => {
    const fields = object(data, "data");
    const items = fields.items;
    if (!Array.isArray(items)) fail("data.items", "an array", items);
    return {
      items: items.map((item: unknown, index) => readItem(item, `data.items[${index}]`)),
      pagination: readPagination(fields.pagination, "data.pagination"),
    };
  });
}

/** `data` of POST /api/promptpay-qr. An absent or null amount means "payer enters it". */
export function readPromptPayQr(data: unknown): Guarded<PromptPayQr> {
  return guard(() => {
    const fields = object(data, "data");
    return {
      qrCode: string(fields.qrCode, "data.qrCode"),
      targetType: string(fields.targetType, "data.targetType"),
      amount: optional(number, fields.amount, "data.amount"),
    };
  });
}

/** `data` of POST /api/promptpay-qr-url; `url` must be an absolute http(s) link. */
export function readPromptPayQrUrl(data: unknown): Guarded<PromptPayQrUrl> {
  return guard(() => {
    const fields = object(data, "data");
    const url = string(fields.url, "data.url");
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) fail("data.url", "an absolute http(s) URL", url);
    return {
      qrCode: string(fields.qrCode, "data.qrCode"),
      url,
      amount: optional(number, fields.amount, "data.amount"),
    };
  });
}

function readPerChannel(value: unknown, path: string): { chat: number; api: number } {
  const fields = object(value, path);
  return { chat: number(fields.chat, `${path}.chat`), api: number(fields.api, `${path}.api`) };
}

/** `data` of GET /api/account/info: every field required. */
export function readAccountInfo(data: unknown): Guarded<AccountInfo> {
  return guard(() => {
    const fields = object(data, "data");
    return {
      storeName: string(fields.storeName, "data.storeName"),
      packageName: string(fields.packageName, "data.packageName"),
      tokens: number(fields.tokens, "data.tokens"),
      credits: number(fields.credits, "data.credits"),
      rate: readPerChannel(fields.rate, "data.rate"),
      estimatedSlips: readPerChannel(fields.estimatedSlips, "data.estimatedSlips"),
      expiresAt: dateTime(fields.expiresAt, "data.expiresAt"),
    };
  });
}
