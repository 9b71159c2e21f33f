// QR code PNGs of an exact pixel size (ECC M, 4-module quiet zone) and a bounded LRU cache of them.
import { createHash } from "node:crypto";
import encodeQR from "qr";
import { encodeGray1Png, gray1ScanlineLength } from "./png.js";

/** ISO/IEC 18004 asks for a quiet zone of 4 modules around the symbol. */
const QUIET_ZONE_MODULES = 4;

/** Upper bound on the requested size, so a caller bug cannot ask for a gigapixel image. */
const MAX_QR_PNG_SIZE = 4096;

/**
 * The module matrix with its quiet zone, true = dark. `qr` rejects border 0 but adds the border after drawing
 * the symbol, so asking it for a 4-module border gives exactly the matrix we want.
 */
export function qrMatrix(text: string): boolean[][] {
  return encodeQR(text, "raw", { ecc: "medium", border: QUIET_ZONE_MODULES });
}

/**
 * Which module each output pixel (along one axis) shows, or -1 for extra white margin. When at least one pixel
 * per module fits, modules get a whole number of pixels and the symbol is centred, the leftover pixels widening
 * the quiet zone: uneven module widths from a fractional scale made jsQR fail on large versions even at 5 px per
 * module. Below one pixel per module the image is downsampled (p -> floor(p * modules / size)) to keep its size,
 * but is then no longer readable.
 */
function pixelToModuleMap(modules: number, size: number): Int32Array {
  const map = new Int32Array(size);
  const scale = Math.floor(size / modules);
  if (scale >= 1) {
    const offset = Math.floor((size - modules * scale) / 2);
    for (let p = 0; p < size; p++) {
      const m = Math.floor((p - offset) / scale);
      map[p] = p >= offset && m < modules ? m : -1;
    }
  } else {
    for (let p = 0; p < size; p++) map[p] = Math.floor((p * modules) / size);
  }
  return map;
}

/** A PNG of the QR code for `text` (ECC M, quiet zone of at least 4 modules), exactly `size` x `size` pixels. */
export function renderQrPng(text: string, size: number): Buffer {
  if (!Number.isInteger(size) || size < 1 || size > MAX_QR_PNG_SIZE) {
    throw new RangeError(`size must be an integer from 1 to ${MAX_QR_PNG_SIZE}, got ${size}`);
  }
  const matrix = qrMatrix(text);
  const toModule = pixelToModuleMap(matrix.length, size);

  const lineLength = gray1ScanlineLength(size);
  const scanlines = Buffer.allocUnsafe(size * lineLength);
  // Output rows repeat (scaling, margin): each distinct module row is packed once, then copied.
  const builtAt = new Map<number, number>();
  for (let y = 0; y < size; y++) {
    const offset = y * lineLength;
    const moduleRow = toModule[y] ?? -1;
    const source = builtAt.get(moduleRow);
    if (source !== undefined) {
      scanlines.copyWithin(offset, source, source + lineLength);
      continue;
    }
    const row = matrix[moduleRow]; // undefined for a margin row: all white
    scanlines[offset] = 0; // filter type: none
    let byte = 0;
    for (let x = 0; x < size; x++) {
      const m = toModule[x] ?? -1;
      // Grayscale bit 1 is white; dark modules leave their bit 0.
      byte = (byte << 1) | (row !== undefined && m >= 0 && row[m] === true ? 0 : 1);
      if ((x & 7) === 7) {
        scanlines[offset + 1 + (x >> 3)] = byte;
        byte = 0;
      }
    }
    const tail = size & 7;
    if (tail !== 0) {
      // Pad the last byte's unused low bits with white.
      scanlines[offset + lineLength - 1] = (byte << (8 - tail)) | (0xff >> tail);
    }
    builtAt.set(moduleRow, offset);
  }
  return encodeGray1Png(size, size, scanlines);
}

export interface QrImage {
  png: Buffer;
  /** A strong ETag (quoted) derived from the PNG bytes. */
  etag: string;
}

/** Bounded LRU cache of rendered QR PNGs keyed by (text, size); the bound is a number of entries. */
export class QrImageCache {
  private readonly entries = new Map<string, QrImage>();

  constructor(private readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get(text: string, size: number): QrImage {
    const key = cacheKey(text, size);
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Re-insert so the Map's insertion order stays least-recently-used first.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const png = renderQrPng(text, size);
    const image: QrImage = { png, etag: `"${createHash("sha256").update(png).digest("base64url")}"` };
    this.entries.set(key, image);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
    return image;
  }
}

// The size goes first so no text can make two different (text, size) pairs collide.
function cacheKey(text: string, size: number): string {
  return `${size}:${text}`;
}
