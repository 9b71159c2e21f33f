// QR PNGs: exact size, readable by a real decoder (jsQR), a 1-bit PNG, a quiet zone, and the LRU cache.
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { buildPromptPayPayload } from "../src/emvco.js";
import { crc32, encodeGray1Png } from "../src/png.js";
import { qrMatrix, QrImageCache, renderQrPng } from "../src/qr-png.js";
import { decodeQrPng } from "./qr-decode.js";

// Deterministic text of a given length over an alphabet (no randomness: failures must reproduce).
function textOf(alphabet: string, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[(i * 7 + ((i * i) % 11)) % alphabet.length];
  return out;
}

const PAYLOADS = [
  buildPromptPayPayload({ type: "phone", digits: "0812345678" }, 15_000),
  buildPromptPayPayload({ type: "phone", digits: "0812345678" }),
  buildPromptPayPayload({ type: "citizen", digits: "0105551234567" }, 2_000),
  buildPromptPayPayload({ type: "ewallet", digits: "140000812345678" }, 999_999_999_999),
];

describe("renderQrPng", () => {
  it.each([128, 240, 512, 1024])("decodes back to the PromptPay payload at %i px, exactly that size", (size) => {
    for (const payload of PAYLOADS) {
      const decoded = decodeQrPng(renderQrPng(payload, size));
      expect(decoded.width).toBe(size);
      expect(decoded.height).toBe(size);
      expect(decoded.text).toBe(payload);
    }
  });

  it("keeps the exact size at awkward sizes too", () => {
    for (const size of [129, 131, 333, 1000, 1023]) {
      const decoded = decodeQrPng(renderQrPng(PAYLOADS[0] ?? "", size));
      expect([decoded.width, decoded.height, decoded.text]).toEqual([size, size, PAYLOADS[0]]);
    }
  });

  it("writes a 1-bit grayscale PNG", () => {
    const png = renderQrPng(PAYLOADS[0] ?? "", 512);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
    expect(png.readUInt32BE(16)).toBe(512);
    expect(png.readUInt32BE(20)).toBe(512);
    expect([png[24], png[25]]).toEqual([1, 0]); // bit depth 1, colour type 0
    expect(png.subarray(-8, -4).toString("latin1")).toBe("IEND");
  });

  it("leaves at least 4 white modules of quiet zone around the symbol", () => {
    for (const size of [128, 240, 512, 1024]) {
      const payload = PAYLOADS[0] ?? "";
      const modules = qrMatrix(payload).length - 8; // the symbol without its quiet zone
      const decoded = decodeQrPng(renderQrPng(payload, size));
      const modulePixels = Math.floor(size / (modules + 8));
      const quiet = 4 * modulePixels;
      const margin = Math.floor((size - (modules + 8) * modulePixels) / 2) + quiet;
      const darkInMargin: [number, number][] = [];
      for (let i = 0; i < size; i++) {
        for (let edge = 0; edge < margin; edge++) {
          for (const [x, y] of [
            [i, edge],
            [edge, i],
            [i, size - 1 - edge],
            [size - 1 - edge, i],
          ] as const) {
            if (decoded.dark(x, y)) darkInMargin.push([x, y]);
          }
        }
      }
      expect(darkInMargin, `size ${size}`).toEqual([]);
      // The finder pattern's corner starts right after the quiet zone.
      expect(decoded.dark(margin, margin)).toBe(true);
    }
  });

  it("reads back payloads near the 512-character maximum at small sizes", () => {
    // Alphanumeric (81 modules with quiet zone) and mixed-case ASCII (97 modules) still decode at 128 px.
    const alphanumeric = textOf("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ .:/-", 512);
    const ascii = textOf("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789-_~", 512);
    for (const text of [alphanumeric, ascii]) {
      expect(qrMatrix(text).length).toBeLessThanOrEqual(128);
      for (const size of [128, 240, 512, 1024]) expect(decodeQrPng(renderQrPng(text, size)).text, `${text.length} chars at ${size}`).toBe(text);
    }
  });

  it("reads back 512 Thai characters once the image has a pixel per module", () => {
    // UTF-8 Thai is 3 bytes a character: version 36, 153 modules with the quiet zone, more than 128 pixels.
    const thai = textOf("กขคงจฉชซฌญฎฏฐฑร้านกาแฟดีใจ", 512);
    const modules = qrMatrix(thai).length;
    expect(modules).toBe(153);
    for (const size of [160, 240, 512, 1024]) expect(decodeQrPng(renderQrPng(thai, size)).text, `at ${size}`).toBe(thai);
    // Below one pixel per module the size is still honoured, but no reader can resolve the modules.
    const small = decodeQrPng(renderQrPng(thai, 128));
    expect([small.width, small.height]).toEqual([128, 128]);
  });

  it("rejects sizes that are not positive integers", () => {
    for (const size of [0, -1, 1.5, Number.NaN, 100_000]) {
      expect(() => renderQrPng("x", size), String(size)).toThrow(RangeError);
    }
  });
});

describe("png", () => {
  it("computes the CRC-32 check value", () => {
    expect(crc32(Buffer.from("123456789")).toString(16)).toBe("cbf43926");
  });

  it("encodes rows of packed bits that pngjs reads back pixel for pixel", () => {
    // 10 x 2: first row alternates black/white, second row all black; row length 1 + 2 bytes.
    const scanlines = Uint8Array.from([0, 0b01010101, 0b01_111111, 0, 0, 0]);
    const image = PNG.sync.read(encodeGray1Png(10, 2, scanlines));
    const gray = Array.from({ length: 20 }, (_, i) => image.data[i * 4]);
    expect(gray).toEqual([0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("refuses scanlines of the wrong length", () => {
    expect(() => encodeGray1Png(10, 2, new Uint8Array(5))).toThrow(RangeError);
  });
});

describe("QrImageCache", () => {
  it("returns the same image and strong ETag for the same text and size", () => {
    const cache = new QrImageCache(4);
    const first = cache.get(PAYLOADS[0] ?? "", 512);
    const again = cache.get(PAYLOADS[0] ?? "", 512);
    expect(again.etag).toBe(first.etag);
    expect(again.png).toBe(first.png);
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    // A fresh cache renders the same bytes, so the ETag is stable across restarts.
    expect(new QrImageCache(1).get(PAYLOADS[0] ?? "", 512).etag).toBe(first.etag);
  });

  it("gives different ETags to a different size or text", () => {
    const cache = new QrImageCache(4);
    const etags = new Set([cache.get(PAYLOADS[0] ?? "", 512).etag, cache.get(PAYLOADS[0] ?? "", 240).etag, cache.get(PAYLOADS[1] ?? "", 512).etag]);
    expect(etags.size).toBe(3);
  });

  it("evicts the least recently used entry beyond its bound", () => {
    const cache = new QrImageCache(2);
    const a = cache.get("A", 128);
    const b = cache.get("B", 128);
    cache.get("A", 128); // A is now the most recent
    const c = cache.get("C", 128);
    expect(cache.size).toBe(2);
    // A hit is the very image kept; B, evicted, is drawn again as a new one.
    expect(cache.get("C", 128)).toBe(c);
    expect(cache.get("A", 128)).toBe(a);
    expect(cache.get("B", 128)).not.toBe(b);
    for (let i = 0; i < 10; i++) cache.get(`item ${i}`, 128);
    expect(cache.size).toBe(2);
  });

  it("refuses a bound that is not a positive integer", () => {
    expect(() => new QrImageCache(0)).toThrow(RangeError);
  });
});
