// The payload of a QR, read for a slip photo: a slip's verification QR gives its reference only when its
// CRC, its country tag and its reference's shape hold; a payment QR and anything else are told apart.
import generatePayload from "promptpay-qr";
import { describe, expect, it } from "vitest";
import { readQrText, readQrTexts } from "../../src/slip-photo/payload.js";
import { slipPayload } from "../kit/slip-images.js";

/** A slip payload written out by hand (tag 00: 000001, bank 014, the reference; 51: TH; 91: CRC-16 CCITT-FALSE). */
function handWritten(transRef: string, country = "TH"): string {
  const inner = `0006000001010301402${String(transRef.length).padStart(2, "0")}${transRef}`;
  const body = `00${String(inner.length).padStart(2, "0")}${inner}51${String(country.length).padStart(2, "0")}${country}9104`;
  let crc = 0xffff;
  for (const char of body) {
    crc ^= char.charCodeAt(0) << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return body + crc.toString(16).toUpperCase().padStart(4, "0");
}

describe("a QR's text, read for a slip", () => {
  it("a slip's verification QR gives its reference and sending bank", () => {
    expect(readQrText(slipPayload("2404141402000123", "004"))).toEqual({ kind: "slip", transRef: "2404141402000123", sendingBank: "004" });
    expect(readQrText(handWritten("016104141402ATF01234"))).toEqual({ kind: "slip", transRef: "016104141402ATF01234", sendingBank: "014" });
  });

  it("a wrong CRC is a bad slip QR, never a reference", () => {
    const good = handWritten("016104141402ATF01234");
    expect(readQrText(`${good.slice(0, -4)}0000`)).toEqual({ kind: "bad_crc" });
  });

  it("a payment QR, another country, a reference of another shape and plain text are no slip", () => {
    expect(readQrText(generatePayload("0812345678", { amount: 150 }))).toEqual({ kind: "payment" });
    expect(readQrText(handWritten("016104141402ATF01234", "LA"))).toEqual({ kind: "other" });
    expect(readQrText(handWritten("0161-04141402"))).toEqual({ kind: "other" });
    expect(readQrText("https://example.com/menu")).toEqual({ kind: "other" });
    expect(readQrText("")).toEqual({ kind: "other" });
  });

  it("among several QRs of one photo, the slip's wins; else a bad CRC says more than a payment QR", () => {
    const slip = handWritten("016104141402ATF01234");
    const payment = generatePayload("0812345678", { amount: 150 });
    expect(readQrTexts(["https://example.com", payment, slip])).toMatchObject({ kind: "slip" });
    expect(readQrTexts([payment, `${slip.slice(0, -4)}0000`])).toEqual({ kind: "bad_crc" });
    expect(readQrTexts([payment])).toEqual({ kind: "payment" });
    expect(readQrTexts([])).toEqual({ kind: "other" });
  });
});
