// What a QR's text says, for a slip photo: a slip's verification QR (the Bank of Thailand's slip-verification
// payload: tag 00 holding 00 = "000001", 01 = the sending bank, 02 = the transfer reference; tag 51 = "TH";
// tag 91 = the CRC-16), a payment QR (PromptPay, EMVCo: tag 00 = "01"), or something else. Read with
// promptparse, whose `slipVerify` checks the CRC; the reference is then held to the shape a bank gives it,
// since it goes into the service's query and the log.
import { parse } from "promptparse";
import { slipVerify } from "promptparse/validate";

export type QrReading =
  | { readonly kind: "slip"; readonly transRef: string; readonly sendingBank: string }
  /** A slip's payload whose CRC does not match (misread, or edited). */
  | { readonly kind: "bad_crc" }
  /** A QR that pays (PromptPay or another EMVCo merchant QR), not a slip's. */
  | { readonly kind: "payment" }
  | { readonly kind: "other" };

/** Banks write references of letters and digits; 50 leaves room beyond the longest seen (25). */
const TRANS_REF = /^[0-9A-Za-z]{6,50}$/;
const BANK = /^[0-9]{3}$/;

export function readQrText(text: string): QrReading {
  const loose = parse(text, false);
  if (loose === null) return { kind: "other" };
  if (loose.getTagValue("00") === "01") return { kind: "payment" };
  if (loose.getTagValue("00", "00") !== "000001") return { kind: "other" };
  const slip = slipVerify(text);
  if (slip === null) return { kind: "bad_crc" };
  // Strict: the country tag of the format, and the reference and bank as banks write them.
  if (loose.getTagValue("51") !== "TH" || !TRANS_REF.test(slip.transRef) || !BANK.test(slip.sendingBank)) return { kind: "other" };
  return { kind: "slip", transRef: slip.transRef, sendingBank: slip.sendingBank };
}

/**
 * The first slip among the QRs of one image, or else why none was: a bad CRC says more than a payment QR,
 * which says more than any other QR.
 */
export function readQrTexts(texts: readonly string[]): QrReading {
  const readings = texts.map(readQrText);
  const slip = readings.find((r) => r.kind === "slip");
  if (slip !== undefined) return slip;
  for (const kind of ["bad_crc", "payment"] as const) if (readings.some((r) => r.kind === kind)) return { kind };
  return { kind: "other" };
}
