// Reading a PromptPay QR payload (EMVCo merchant-presented mode, Thai credit transfer): whom it pays and how
// much, or why it is not one a banking app would read the same way. Pure.
import { crc16CcittFalse } from "./crc.js";

/** The application id of PromptPay credit transfer, first inside tag 29. */
export const PROMPTPAY_AID = "A000000677010111";
/** Tag 53: Thai baht (ISO 4217). */
export const CURRENCY_THB = "764";
/** Tag 58. */
export const COUNTRY_TH = "TH";
/** The longest payload EMVCo allows. */
export const MAX_PAYLOAD_CHARS = 512;

/** Who receives the money: a phone, a citizen or juristic tax id, or an e-wallet. */
export type PromptPayProxyType = "phone" | "citizen" | "ewallet";

/**
 * A PromptPay proxy as people write it: a phone is `0` + 9 digits (the payload holds `0066` + the 9),
 * a citizen or tax id 13 digits and an e-wallet id 15, both verbatim (a leading 0 is kept).
 */
export interface PromptPayProxy {
  type: PromptPayProxyType;
  digits: string;
}

/** The sub-tag of template 29 for each kind of proxy. */
export const PROXY_SUB_TAGS: Readonly<Record<PromptPayProxyType, string>> = { phone: "01", citizen: "02", ewallet: "03" };

/** The digits of each kind of proxy, as people write it. */
const PROXY_DIGITS: readonly [PromptPayProxyType, RegExp][] = [
  ["phone", /^0\d{9}$/],
  ["citizen", /^\d{13}$/],
  ["ewallet", /^\d{15}$/],
];

/** The proxy these digits name (10 from 0: a phone, 13: a citizen or tax id, 15: an e-wallet), or undefined. */
export function proxyOfDigits(digits: string): PromptPayProxy | undefined {
  const found = PROXY_DIGITS.find(([, pattern]) => pattern.test(digits));
  return found === undefined ? undefined : { type: found[0], digits };
}

export interface PromptPayPayload {
  proxy: PromptPayProxy;
  /** Tag 54 in satang; undefined when the payload has none (the payer types the amount). */
  amountSatang: number | undefined;
}

/**
 * The payload's reading. `crc`: it reads as a PromptPay payload but its checksum is wrong (banking apps
 * refuse it), with what it would pay kept for the report. `payload`: it is no PromptPay payload a banking
 * app would read the way it looks. `detail` says what, in a few words, never the whole payload.
 */
export type PayloadReading =
  { ok: true; payload: PromptPayPayload } | { ok: false; problem: "crc"; detail: string; payload: PromptPayPayload } | { ok: false; problem: "payload"; detail: string };

/**
 * Root tags a payload may hold: the ones PromptPay credit transfer uses, and the merely descriptive ones
 * (52 category, 59 name, 60 city, 61 postal code, 62 additional data such as a reference). Every other
 * tag is refused, because some could change whom or what the payer pays: 02-51 are other merchant
 * accounts a banking app may choose instead of 29, 55-57 add a tip or a fee.
 */
const ALLOWED_ROOT_TAGS: ReadonlySet<string> = new Set(["00", "01", "29", "52", "53", "54", "58", "59", "60", "61", "62", "63"]);

const PROXY_VALUES: Readonly<Record<string, { type: PromptPayProxyType; pattern: RegExp }>> = {
  [PROXY_SUB_TAGS.phone]: { type: "phone", pattern: /^0066\d{9}$/ },
  [PROXY_SUB_TAGS.citizen]: { type: "citizen", pattern: /^\d{13}$/ },
  [PROXY_SUB_TAGS.ewallet]: { type: "ewallet", pattern: /^\d{15}$/ },
};

/** Tag 54: digits, then optionally a point and one or two decimals (EMVCo allows leaving them out). */
const AMOUNT = /^(\d+)(?:\.(\d{1,2}))?$/;
/** EMVCo's limit on tag 54, which makes 9,999,999,999.99 the largest amount. */
const MAX_AMOUNT_CHARS = 13;

// Thrown inside the reader only, so each rule stays one line; `readPromptPayPayload` turns it into data.
class NotPromptPay extends Error {}

function refuse(detail: string): never {
  throw new NotPromptPay(detail);
}

/** Splits TLV text into id -> value: ids and lengths 2 decimal digits each, no duplicate, nothing left over. */
function readTlv(text: string, where: string): Map<string, string> {
  const objects = new Map<string, string>();
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const lengthText = text.slice(at + 2, at + 4);
    if (!/^\d{2}$/.test(id)) refuse(`${where}: no 2-digit tag at character ${at}`);
    if (!/^\d{2}$/.test(lengthText)) refuse(`${where}: tag ${id} has no 2-digit length`);
    const length = Number(lengthText);
    if (length === 0) refuse(`${where}: tag ${id} is empty`);
    const end = at + 4 + length;
    if (end > text.length) refuse(`${where}: tag ${id} runs past the end`);
    if (objects.has(id)) refuse(`${where}: tag ${id} appears twice`);
    objects.set(id, text.slice(at + 4, end));
    at = end;
  }
  return objects;
}

function readProxy(template: string | undefined): PromptPayProxy {
  if (template === undefined) refuse("no PromptPay tag 29");
  const sub = readTlv(template, "tag 29");
  if (sub.get("00") !== PROMPTPAY_AID) refuse("tag 29 is not PromptPay credit transfer (AID)");
  const proxies = [...sub.keys()].filter((id) => id !== "00");
  const [id] = proxies;
  const rule = id === undefined ? undefined : PROXY_VALUES[id];
  if (proxies.length !== 1 || id === undefined || rule === undefined) {
    refuse(`tag 29 must hold exactly one of sub-tags 01, 02, 03, found ${proxies.join(", ") || "none"}`);
  }
  const value = sub.get(id) ?? "";
  if (!rule.pattern.test(value)) refuse(`tag 29.${id} (${rule.type}) is malformed`);
  return { type: rule.type, digits: rule.type === "phone" ? `0${value.slice(4)}` : value };
}

function readAmount(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = value.length <= MAX_AMOUNT_CHARS ? AMOUNT.exec(value) : null;
  if (match === null) refuse("tag 54 is not an amount");
  // Integer arithmetic on the text, so no float rounding decides what the payer pays.
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

function read(text: string): PayloadReading {
  if (text.length > MAX_PAYLOAD_CHARS) refuse(`longer than ${MAX_PAYLOAD_CHARS} characters`);
  if (!/^[\x20-\x7e]*$/.test(text)) refuse("holds characters other than printable ASCII");
  const root = readTlv(text, "payload");
  const ids = [...root.keys()];
  if (ids[0] !== "00" || root.get("00") !== "01") refuse("does not start with tag 00 = 01");
  // The objects cover the text exactly, so a last tag 63 of length 4 is the text's last 8 characters.
  if (ids.at(-1) !== "63" || root.get("63")?.length !== 4) refuse("does not end with the CRC tag 6304");
  const other = ids.find((id) => !ALLOWED_ROOT_TAGS.has(id));
  if (other !== undefined) refuse(`holds tag ${other}, which PromptPay credit transfer does not use`);
  const initiation = root.get("01");
  if (initiation !== undefined && initiation !== "11" && initiation !== "12") refuse("tag 01 is neither 11 nor 12");
  if (root.get("53") !== CURRENCY_THB) refuse("currency (tag 53) is not baht");
  if (root.get("58") !== COUNTRY_TH) refuse("country (tag 58) is not TH");
  const payload: PromptPayPayload = { proxy: readProxy(root.get("29")), amountSatang: readAmount(root.get("54")) };

  const written = text.slice(-4);
  const computed = crc16CcittFalse(text.slice(0, -4));
  // Upper case only, as the format's builders write it: a banking app comparing text would refuse `66ef`.
  if (written !== computed) return { ok: false, problem: "crc", detail: `CRC is ${written}, the payload's is ${computed}`, payload };
  return { ok: true, payload };
}

/** Reads a payload; never throws on any string. */
export function readPromptPayPayload(text: string): PayloadReading {
  try {
    return read(text);
  } catch (error) {
    if (error instanceof NotPromptPay) return { ok: false, problem: "payload", detail: error.message };
    throw error;
  }
}
