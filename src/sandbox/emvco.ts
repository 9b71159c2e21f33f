// EMVCo merchant-presented QR payloads for PromptPay credit transfer (docs/sandbox.md §9): TLV writer and CRC-16/CCITT-FALSE.
import { MAX_AMOUNT_SATANG } from "../promptpay/amount.js";

export type PromptPayTargetType = "phone" | "citizen" | "ewallet";

/** `digits`: 10 digits starting with 0 (phone), 13 (citizen / tax id) or 15 (e-wallet), already normalised. */
export interface PromptPayTarget {
  type: PromptPayTargetType;
  digits: string;
}

const PROMPTPAY_AID = "A000000677010111";
const CURRENCY_THB = "764";
const COUNTRY_TH = "TH";

// Sub-tag of template 29 and the exact digit pattern each target type must match.
const TARGET_RULES: Record<PromptPayTargetType, { subTag: string; pattern: RegExp }> = {
  phone: { subTag: "01", pattern: /^0\d{9}$/ },
  citizen: { subTag: "02", pattern: /^\d{13}$/ },
  ewallet: { subTag: "03", pattern: /^\d{15}$/ },
};

/** The target these digits name (already normalised), or undefined when they fit no target type. */
export function promptPayTargetOf(digits: string): PromptPayTarget | undefined {
  const type = (Object.keys(TARGET_RULES) as PromptPayTargetType[]).find((t) => TARGET_RULES[t].pattern.test(digits));
  return type === undefined ? undefined : { type, digits };
}

/** One TLV data object: 2-digit id, 2-digit decimal length, value. */
function tlv(id: string, value: string): string {
  if (!/^\d{2}$/.test(id)) throw new RangeError(`TLV id must be 2 digits, got ${JSON.stringify(id)}`);
  if (value.length > 99) throw new RangeError(`TLV value of ${id} is longer than 99 characters`);
  return id + String(value.length).padStart(2, "0") + value;
}

// CRC-16/CCITT-FALSE table for poly 0x1021 (MSB first), built once at load.
const CRC16_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
    table[byte] = crc;
  }
  return table;
})();

/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, xorout 0) of the UTF-8 bytes of `text`,
 * as 4 upper-case hex digits. PromptPay payloads are ASCII, so bytes and characters coincide.
 */
export function crc16CcittFalse(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  let crc = 0xffff;
  for (const byte of bytes) {
    crc = ((crc << 8) & 0xffff) ^ (CRC16_TABLE[((crc >> 8) ^ byte) & 0xff] ?? 0);
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
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
  const rule = TARGET_RULES[target.type];
  if (!rule.pattern.test(target.digits)) {
    throw new RangeError(`invalid ${target.type} PromptPay id ${JSON.stringify(target.digits)}`);
  }
  // A phone becomes 0066 + its 9 national digits; ids and e-wallets stay verbatim (a leading 0 is kept).
  const value = target.type === "phone" ? `0066${target.digits.slice(1)}` : target.digits;
  return tlv(rule.subTag, value);
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
