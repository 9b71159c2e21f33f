// The sandbox's HTTP request handler: routing, auth, package check, bodies and the JSON envelope (docs/sandbox.md).
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import type { AccountInfo, HistoryItem, HistoryPage, PromptPayQr, PromptPayQrUrl } from "../../../src/slip/types.js";
import { ERRORS, ITEM_CODES, SUCCESS } from "./codes.js";
import type { CheckRecord } from "./demo-checks.js";
import { buildPromptPayPayload } from "./emvco.js";
import { MESSAGES, parseHistoryQuery, parsePaymentBody, parseQrBody, parseQrImageQuery } from "./params.js";
import type { QrImageCache } from "./qr-png.js";
import { renderSlipPng } from "./slip-png.js";
import type { SandboxStore, Shop } from "./store.js";

const MAX_BODY_BYTES = 16_384;
/** The local-mode route that simulates a customer paying the demo shop. */
export const DEV_PAYMENTS_PATH = "/dev/payments";
/** After a 413 we keep reading (and discarding) this much more so the client can read our answer. */
const DRAIN_AFTER_413_BYTES = 1_048_576;
const QR_IMAGE_CACHE_CONTROL = "public, max-age=31536000, immutable";

export interface SandboxAppOptions {
  store: SandboxStore;
  /** Base of the qr-image links, without a trailing slash. */
  publicUrl: string;
  now: () => Date;
  qrCache: QrImageCache;
  /** Told about unexpected failures (answered 500); never given request headers or bodies. */
  onError?: (error: unknown) => void;
  /** Added before every answer of the four operations, to try the bot against a slow service. Default 0. */
  latencyMs?: number;
  /**
   * Local mode only: `POST /dev/payments` adds a valid check to the demo shop now, so that a newcomer can
   * see "has it arrived?" and the payment watch answer. Never on a sandbox others can reach.
   */
  devRoutes?: boolean;
}

type ErrorSpec = { status: number; code: string };

class HttpProblem extends Error {
  constructor(
    readonly spec: ErrorSpec,
    message: string,
  ) {
    super(message);
  }
}

type Context = { req: IncomingMessage; res: ServerResponse; query: URLSearchParams; options: SandboxAppOptions };
/** An operation's `data`, or a promise of it. */
type Operation = (ctx: Context, shop: Shop) => unknown;

interface ApiRoute {
  kind: "api";
  method: "GET" | "POST";
  run: Operation;
}
interface ImageRoute {
  kind: "image";
}
/** The slip of one of the shop's checks, as a PNG: the sandbox's own, for trying slip photos (docs/sandbox.md). */
interface SlipRoute {
  kind: "slip";
}
type Route = ApiRoute | ImageRoute | SlipRoute;

const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ["/api/slip-history", { kind: "api", method: "GET", run: slipHistory }],
  ["/api/promptpay-qr", { kind: "api", method: "POST", run: (ctx) => promptPayQr(ctx, false) }],
  ["/api/promptpay-qr-url", { kind: "api", method: "POST", run: (ctx) => promptPayQr(ctx, true) }],
  ["/api/account/info", { kind: "api", method: "GET", run: accountInfo }],
  ["/api/qr-image", { kind: "image" }],
  ["/sandbox/slip-image", { kind: "slip" }],
]);

function allowedMethods(route: Route): string[] {
  const method = route.kind === "api" ? route.method : "GET";
  // HEAD is GET without a body (node:http drops the body for us).
  return method === "GET" ? ["GET", "HEAD"] : [method];
}

// ---------------------------------------------------------------------------------------------
// Responses

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, spec: ErrorSpec, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, spec.status, { code: spec.code, message }, headers);
}

// ---------------------------------------------------------------------------------------------
// Request pieces

function splitTarget(rawUrl: string): { path: string; query: URLSearchParams } | undefined {
  // Origin-form targets ("/path?q") are read as paths even when they start with "//"; an absolute-form
  // target ("http://host/path"), allowed by HTTP/1.1, keeps only its path and query.
  try {
    const url = rawUrl.startsWith("/") ? new URL(`http://sandbox.invalid${rawUrl}`) : new URL(rawUrl);
    return { path: url.pathname, query: url.searchParams };
  } catch {
    return undefined;
  }
}

/** The secret of an `Authorization: Bearer <secret>` header; the scheme is case-insensitive, one space. */
function bearerSecret(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const space = header.indexOf(" ");
  if (space === -1) return undefined;
  if (header.slice(0, space).toLowerCase() !== "bearer") return undefined;
  const secret = header.slice(space + 1);
  return secret.length > 0 ? secret : undefined;
}

function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [type = "", ...params] = header.split(";");
  if (type.trim().toLowerCase() !== "application/json") return false;
  // JSON is UTF-8 (RFC 8259); a body declared in another charset is refused.
  for (const param of params) {
    const [name = "", value = ""] = param.split("=");
    if (name.trim().toLowerCase() === "charset" && value.trim().replace(/^"|"$/g, "").toLowerCase() !== "utf-8") {
      return false;
    }
  }
  return true;
}

/** Reads at most MAX_BODY_BYTES, declared or chunked; a longer body is a 413. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = req.headers["content-length"];
    if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) {
      reject(new HttpProblem(ERRORS.payloadTooLarge, ERRORS.payloadTooLarge.message));
      return;
    }
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer): void => {
      length += chunk.length;
      if (length > MAX_BODY_BYTES) {
        req.off("data", onData);
        req.off("end", onEnd);
        reject(new HttpProblem(ERRORS.payloadTooLarge, ERRORS.payloadTooLarge.message));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => resolve(Buffer.concat(chunks, length));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", reject);
    // A client that hangs up mid-body gets no answer; this only settles the read.
    req.once("close", () => {
      if (!req.complete) reject(new HttpProblem(ERRORS.badRequest, MESSAGES.malformedJson));
    });
  });
}

/** After an early 413, read and drop the rest for a while so the client sees the answer, then hang up. */
function discardRest(req: IncomingMessage, res: ServerResponse): void {
  let dropped = 0;
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_AFTER_413_BYTES) req.socket.destroy();
  });
  req.resume();
  res.on("finish", () => {
    if (req.complete) return;
    req.once("end", () => req.socket.end());
  });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  if (!isJsonContentType(req.headers["content-type"])) {
    throw new HttpProblem(ERRORS.unsupportedMediaType, ERRORS.unsupportedMediaType.message);
  }
  const body = await readBody(req);
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body)) as unknown;
  } catch {
    throw new HttpProblem(ERRORS.badRequest, MESSAGES.malformedJson);
  }
}

// ---------------------------------------------------------------------------------------------
// Operations

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function toWireItem(check: CheckRecord): HistoryItem {
  return {
    code: ITEM_CODES[check.status],
    status: check.status,
    amount: check.amountSatang === null ? null : check.amountSatang / 100,
    transRef: check.transRef,
    transDate: iso(check.transDateMs),
    senderName: check.senderName,
    receiverName: check.receiverName,
    receiverAccount: check.receiverAccount,
    source: check.source,
    tokensCharged: check.tokensCharged,
    createdAt: new Date(check.createdAtMs).toISOString(),
  };
}

function slipHistory(ctx: Context, shop: Shop): HistoryPage {
  const parsed = parseHistoryQuery(ctx.query);
  if (!parsed.ok) throw new HttpProblem(ERRORS.badRequest, parsed.message);
  const filter = parsed.value;
  const { items, total } = ctx.options.store.history(shop.id, filter);
  return {
    items: items.map(toWireItem),
    pagination: { page: filter.page, limit: filter.limit, total, pages: Math.ceil(total / filter.limit) },
  };
}

async function promptPayQr(ctx: Context, withUrl: boolean): Promise<PromptPayQr | PromptPayQrUrl> {
  const body = await readJson(ctx.req);
  const parsed = parseQrBody(body, withUrl);
  if (!parsed.ok) throw new HttpProblem(ERRORS.badRequest, parsed.message);
  const request = parsed.value;
  const qrCode = buildPromptPayPayload(request.target, request.amountSatang);
  if (!withUrl) return { qrCode, targetType: request.target.type, amount: request.amount };
  const url = `${ctx.options.publicUrl}/api/qr-image?data=${encodeURIComponent(qrCode)}&size=${request.size}`;
  return { qrCode, url, amount: request.amount };
}

function accountInfo(_ctx: Context, shop: Shop): AccountInfo {
  const estimate = (rate: number): number => (rate > 0 ? Math.floor(shop.tokens / rate) : 0);
  return {
    storeName: shop.name,
    packageName: shop.packageName,
    tokens: shop.tokens,
    credits: shop.credits,
    rate: { chat: shop.rateChat, api: shop.rateApi },
    estimatedSlips: { chat: estimate(shop.rateChat), api: estimate(shop.rateApi) },
    expiresAt: new Date(shop.expiresAtMs).toISOString(),
  };
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  // If-None-Match uses the weak comparison: W/"x" matches "x".
  const bare = (tag: string): string => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}

function qrImage(ctx: Context): void {
  const parsed = parseQrImageQuery(ctx.query);
  if (!parsed.ok) {
    sendError(ctx.res, ERRORS.badRequest, parsed.message);
    return;
  }
  const image = ctx.options.qrCache.get(parsed.value.data, parsed.value.size);
  const headers = { ETag: image.etag, "Cache-Control": QR_IMAGE_CACHE_CONTROL };
  if (etagMatches(ctx.req.headers["if-none-match"], image.etag)) {
    ctx.res.writeHead(304, headers);
    ctx.res.end();
    return;
  }
  ctx.res.writeHead(200, { ...headers, "Content-Type": "image/png", "Content-Length": image.png.length });
  ctx.res.end(image.png);
}

/** The slip of the shop's check with `transRef`; 404 when the shop has no such check. Private: never cached. */
function slipImage(ctx: Context, shop: Shop): void {
  const transRefs = ctx.query.getAll("transRef");
  const transRef = transRefs[0];
  if (transRefs.length !== 1 || transRef === undefined || transRef.length < 1 || transRef.length > 99) {
    sendError(ctx.res, ERRORS.badRequest, "transRef must be given once, 1 to 99 characters (what a slip's QR carries)");
    return;
  }
  const check = ctx.options.store.history(shop.id, { page: 1, limit: 1, transRef }).items[0];
  if (check === undefined) {
    sendError(ctx.res, ERRORS.notFound, ERRORS.notFound.message);
    return;
  }
  const png = renderSlipPng(check);
  ctx.res.writeHead(200, { "Content-Type": "image/png", "Content-Length": png.length, "Cache-Control": "no-store" });
  ctx.res.end(png);
}

// ---------------------------------------------------------------------------------------------
// The handler

export function createSandboxHandler(options: SandboxAppOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const reportError = options.onError ?? ((error: unknown) => console.error("sandbox: unexpected error", error));
  const latencyMs = options.latencyMs ?? 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = splitTarget(req.url ?? "/");
    if (options.devRoutes === true && target?.path === DEV_PAYMENTS_PATH) {
      if (req.method !== "POST") {
        sendError(res, ERRORS.methodNotAllowed, ERRORS.methodNotAllowed.message, { Allow: "POST" });
        return;
      }
      const parsed = parsePaymentBody(await readJson(req));
      if (!parsed.ok) throw new HttpProblem(ERRORS.badRequest, parsed.message);
      const check = options.store.addPayment({ ...parsed.value, atMs: options.now().getTime() });
      sendJson(res, 200, { code: SUCCESS.code, message: SUCCESS.message, data: toWireItem(check) });
      return;
    }
    const route = target === undefined ? undefined : ROUTES.get(target.path);
    if (target === undefined || route === undefined) {
      sendError(res, ERRORS.notFound, ERRORS.notFound.message);
      return;
    }
    const allowed = allowedMethods(route);
    const method = req.method ?? "GET";
    if (!allowed.includes(method)) {
      sendError(res, ERRORS.methodNotAllowed, ERRORS.methodNotAllowed.message, { Allow: allowed.join(", ") });
      return;
    }
    const ctx: Context = { req, res, query: target.query, options };
    // The image link needs no secret and never answers 402 (docs/sandbox.md §3).
    if (route.kind === "image") {
      qrImage(ctx);
      return;
    }

    const secret = bearerSecret(req.headers.authorization);
    const shop = secret === undefined ? undefined : options.store.shopBySecret(secret);
    if (shop === undefined) {
      sendError(res, ERRORS.unauthorized, ERRORS.unauthorized.message, { "WWW-Authenticate": 'Bearer realm="sandbox"' });
      return;
    }
    if (shop.expiresAtMs <= options.now().getTime()) {
      sendError(res, ERRORS.packageExpired, ERRORS.packageExpired.message);
      return;
    }
    if (route.kind === "slip") {
      slipImage(ctx, shop);
      return;
    }
    const data = await route.run(ctx, shop);
    if (latencyMs > 0) await delay(latencyMs);
    sendJson(res, 200, { code: SUCCESS.code, message: SUCCESS.message, data });
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        reportError(error);
        res.destroy();
        return;
      }
      if (error instanceof HttpProblem) {
        const tooLarge = error.spec.status === ERRORS.payloadTooLarge.status;
        if (tooLarge) discardRest(req, res);
        sendError(res, error.spec, error.message, tooLarge ? { Connection: "close" } : {});
        return;
      }
      reportError(error);
      sendError(res, ERRORS.internal, ERRORS.internal.message);
    });
  };
}
