// EMVCo merchant-presented QR payloads for PromptPay credit transfer (docs/sandbox.md §9): the TLV writer (the
// CRC and the format's constants are src/promptpay/'s, which the bot reads payloads with).
import { MAX_AMOUNT_SATANG } from "../../../src/promptpay/amount.js";
import { crc16CcittFalse } from "../../../src/promptpay/crc.js";
import { COUNTRY_TH, CURRENCY_THB, PROMPTPAY_AID, PROXY_SUB_TAGS, proxyOfDigits } from "../../../src/promptpay/payload.js";
import type { PromptPayProxy, PromptPayProxyType } from "../../../src/promptpay/payload.js";

export { crc16CcittFalse };

export type PromptPayTargetType = PromptPayProxyType;

/** `digits`: 10 digits starting with 0 (phone), 13 (citizen / tax id) or 15 (e-wallet), already normalised. */
export type PromptPayTarget = PromptPayProxy;

/** The target these digits name (already normalised), or undefined when they fit no target type. */
export const promptPayTargetOf: (digits: string) => PromptPayTarget | undefined = proxyOfDigits;

/** One TLV data object: 2-digit id, 2-digit decimal length, value. */
function tlv(id: string, value: string): string {
  if (!/^\d{2}$/.test(id)) throw new RangeError(`TLV id must be 2 digits, got ${JSON.stringify(id)}`);
  if (value.length > 99) throw new RangeError(`TLV value of ${id} is longer than 99 characters`);
  return id + String(value.length).padStart(2, "0") + value;
}

/** Integer satang to the tag-54 text: exactly two decimals, `.` mark, no separators (15000 -> "150.00"). */
export function formatAmountSatang(amountSatang: number): string {
  if (!Number.isSafeInteger(amountSatang) || amountSatang < 1 || amountSatang > MAX_AMOUNT_SATANG) {
    throw new RangeError(`amountSatang must be an integer from 1 to ${MAX_AMOUNT_SATANG}, got ${amountSatang}`);
  }
  // Integer arithmetic only: no float rounding can creep in.
  const baht = Math.floor(amountSatang / 100);
  const satang = amountSatang % 100;
  return `${baht}.${String(satang).padStart(2, "0")}`;
}

function formatTarget(target: PromptPayTarget): string {
  if (proxyOfDigits(target.digits)?.type !== target.type) {
    throw new RangeError(`invalid ${target.type} PromptPay id ${JSON.stringify(target.digits)}`);
  }
  // A phone becomes 0066 + its 9 national digits; ids and e-wallets stay verbatim (a leading 0 is kept).
  const value = target.type === "phone" ? `0066${target.digits.slice(1)}` : target.digits;
  return tlv(PROXY_SUB_TAGS[target.type], value);
}

/**
 * The PromptPay payload for a target and an optional amount in satang, tags ascending:
 * 00, 01 (11 static / 12 with an amount), 29, 53, 54 (when an amount), 58, 63 (CRC).
 * Throws RangeError on input outside the valid domain; callers validate outside input first.
 */
export function buildPromptPayPayload(target: PromptPayTarget, amountSatang?: number): string {
  const hasAmount = amountSatang !== undefined;
  const body =
    tlv("00", "01") +
    tlv("01", hasAmount ? "12" : "11") +
    tlv("29", tlv("00", PROMPTPAY_AID) + formatTarget(target)) +
    tlv("53", CURRENCY_THB) +
    (hasAmount ? tlv("54", formatAmountSatang(amountSatang)) : "") +
    tlv("58", COUNTRY_TH) +
    "6304";
  return body + crc16CcittFalse(body);
}

/** Bank of Thailand codes of the sending bank in a slip's verification QR; the sandbox's slips come from one. */
export const SANDBOX_SENDING_BANK = "004";

/**
 * The verification QR's payload printed on a transfer slip (the Bank of Thailand's slip-verification format):
 * tag 00 holding 00 = "000001" (the API type), 01 = the sending bank, 02 = the transfer reference; tag 51 =
 * "TH"; tag 91 = the CRC-16 (the same CCITT-FALSE as PromptPay's tag 63).
 */
export function buildSlipVerifyPayload(transRef: string, sendingBank: string = SANDBOX_SENDING_BANK): string {
  const body = tlv("00", tlv("00", "000001") + tlv("01", sendingBank) + tlv("02", transRef)) + tlv("51", "TH") + "9104";
  return body + crc16CcittFalse(body);
}
