// Whether a QR the service returned pays what was asked: the payload read and compared with the request
// (proxy, amount, CRC), and the image link checked (an allowed origin, showing that same payload). Pure.
import { isLoopbackHostname } from "../loopback.js";
import { MAX_AMOUNT_SATANG } from "../promptpay/amount.js";
import { proxyOfDigits, readPromptPayPayload } from "../promptpay/payload.js";
import type { PromptPayProxy } from "../promptpay/payload.js";
import type { QrMismatch } from "./errors.js";
import type { PromptPayQrRequest } from "./types.js";

/** The parts of a QR answer that are checked; `targetType` and `url` only where the operation has them. */
export interface QrAnswer {
  qrCode: string;
  amount: number | null;
  targetType?: string;
  url?: string;
}

/** Spaces and dashes, which the service removes from `accountNumber` before reading it. */
const GROUPING = /[\s-]/g;

/** Baht to satang when a QR's amount field can hold it (at most 2 decimals, 13 characters), else undefined. */
function satangOf(baht: number): number | undefined {
  if (!Number.isFinite(baht) || baht < 0) return undefined;
  const text = baht.toFixed(2);
  // toFixed rounds: 1.005 would pass as 1.00 unless the text reads back as the same number.
  if (Number(text) !== baht) return undefined;
  const satang = Number(text.replace(".", ""));
  return Number.isSafeInteger(satang) && satang <= MAX_AMOUNT_SATANG ? satang : undefined;
}

/** Satang as the QR writes it, for reasons in the log. */
function money(satang: number | undefined): string {
  return satang === undefined ? "none" : `${Math.floor(satang / 100)}.${String(satang % 100).padStart(2, "0")}`;
}

/** A proxy in a reason: its kind and last 4 digits, as slips and bank apps show it. */
function named(proxy: PromptPayProxy): string {
  return `${proxy.type} ending ${proxy.digits.slice(-4)}`;
}

function compareProxy(asked: PromptPayProxy | undefined, found: PromptPayProxy): QrMismatch[] {
  if (asked === undefined) return [{ difference: "id", detail: `pays ${named(found)}, but the request named no PromptPay id` }];
  if (asked.type === found.type && asked.digits === found.digits) return [];
  return [{ difference: "id", detail: `pays ${named(found)}, asked ${named(asked)}` }];
}

function compareAmount(request: PromptPayQrRequest, found: number | undefined, answer: QrAnswer): QrMismatch[] {
  const asked = request.amount === undefined ? undefined : satangOf(request.amount);
  // The service should have refused such a request; no QR can show what it asked.
  if (request.amount !== undefined && asked === undefined) {
    return [{ difference: "amount", detail: "the request's amount is none a QR can hold (at most 2 decimals)" }];
  }
  const out: QrMismatch[] = [];
  if (found !== asked) out.push({ difference: "amount", detail: `the QR's amount is ${money(found)}, asked ${money(asked)}` });
  // The echoed amount is what the card shows, so it must say the same.
  const echoed = answer.amount === null ? undefined : satangOf(answer.amount);
  if (answer.amount !== null && echoed === undefined) out.push({ difference: "amount", detail: "the answer's amount is none a QR can hold (at most 2 decimals)" });
  else if (echoed !== asked) out.push({ difference: "amount", detail: `the answer's amount is ${money(echoed)}, asked ${money(asked)}` });
  return out;
}

/** `qrCode` against the request: a PromptPay payload with a correct CRC, for the id and amount asked. */
function checkPayload(request: PromptPayQrRequest, answer: QrAnswer): QrMismatch[] {
  const reading = readPromptPayPayload(answer.qrCode);
  if (!reading.ok && reading.problem === "payload") return [{ difference: "payload", detail: reading.detail }];
  const out: QrMismatch[] = reading.ok ? [] : [{ difference: "crc", detail: reading.detail }];
  const asked = proxyOfDigits(request.accountNumber.replace(GROUPING, ""));
  out.push(...compareProxy(asked, reading.payload.proxy));
  if (answer.targetType !== undefined && asked !== undefined && answer.targetType !== asked.type) {
    out.push({ difference: "id", detail: `the answer's targetType is not ${asked.type}` });
  }
  out.push(...compareAmount(request, reading.payload.amountSatang, answer));
  return out;
}

/**
 * How an origin is compared: as is, except that this machine's names (localhost, 127.0.0.1, [::1]) are one
 * name, so a sandbox reached as 127.0.0.1 may link its images as localhost on the same port.
 */
function originKey(url: URL): string {
  return isLoopbackHostname(url.hostname) ? `${url.protocol}//loopback:${url.port}` : url.origin;
}

/** The image link: on an allowed origin, and its `data` exactly the payload that was checked. */
function checkImage(url: string, qrCode: string, imageOrigins: QrImageOrigins): QrMismatch[] {
  const link = new URL(url);
  const out: QrMismatch[] = [];
  if (!imageOrigins.keys.has(originKey(link)) || link.username !== "" || link.password !== "") {
    out.push({ difference: "image_host", detail: `the image is on ${link.origin}, allowed: ${imageOrigins.shown.join(", ") || "none"}` });
  }
  const data = link.searchParams.getAll("data");
  if (data.length !== 1 || data[0] !== qrCode) out.push({ difference: "image_data", detail: "the image link's data is not the QR's payload" });
  return out;
}

/** Every way the answer differs from the request; empty when the QR may be shown. */
export function qrMismatches(request: PromptPayQrRequest, answer: QrAnswer, imageOrigins: QrImageOrigins): QrMismatch[] {
  return [...checkPayload(request, answer), ...(answer.url === undefined ? [] : checkImage(answer.url, answer.qrCode, imageOrigins))];
}

/** Where QR images may come from: origins compared by `originKey`, and as written, for reasons in the log. */
export interface QrImageOrigins {
  readonly keys: ReadonlySet<string>;
  readonly shown: readonly string[];
}

/**
 * Where QR images may come from: the service's own origin when it is https or loopback, and the origins
 * listed by the operator (each https, or http on loopback). Undefined when a listed one breaks that rule.
 */
export function qrImageOrigins(serviceOrigin: string, listed: readonly string[]): QrImageOrigins | undefined {
  const usable = (url: URL): boolean => url.username === "" && url.password === "" && (url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHostname(url.hostname)));
  const origins: URL[] = [];
  const service = new URL(serviceOrigin);
  if (usable(service)) origins.push(service);
  for (const entry of listed) {
    if (typeof entry !== "string" || !URL.canParse(entry)) return undefined;
    const url = new URL(entry);
    if (!usable(url)) return undefined;
    origins.push(url);
  }
  return { keys: new Set(origins.map(originKey)), shown: [...new Set(origins.map((url) => url.origin))] };
}
