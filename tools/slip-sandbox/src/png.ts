// A minimal PNG writer for 1-bit grayscale images (black and white), on node:zlib.
import { deflateSync } from "node:zlib";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// CRC-32 (ISO-HDLC, reflected poly 0xEDB88320) table; node:zlib gains crc32 only in Node 22.2 and we run on 20.
const CRC32_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG chunks use it, over `bytes[start, end)`. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) {
    c = (CRC32_TABLE[(c ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** Bytes of one scanline of a 1-bit image, the leading filter-type byte included. */
export function gray1ScanlineLength(width: number): number {
  return 1 + Math.ceil(width / 8);
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  out.set(data, 8);
  // The chunk CRC covers the type and the data, not the length.
  out.writeUInt32BE(crc32(out, 4, 8 + data.length), 8 + data.length);
  return out;
}

/**
 * Encodes a 1-bit grayscale PNG (bit depth 1, colour type 0: a 0 bit is black, a 1 bit white).
 * `scanlines` holds `height` rows of `gray1ScanlineLength(width)` bytes, each starting with its
 * filter byte (0 = none), pixels packed most significant bit first.
 */
export function encodeGray1Png(width: number, height: number, scanlines: Uint8Array): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`PNG dimensions must be positive integers, got ${width}x${height}`);
  }
  const expected = height * gray1ScanlineLength(width);
  if (scanlines.length !== expected) {
    throw new RangeError(`expected ${expected} bytes of scanlines for ${width}x${height}, got ${scanlines.length}`);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // colour type: grayscale
  ihdr[10] = 0; // compression: deflate
  ihdr[11] = 0; // filter method 0
  ihdr[12] = 0; // no interlace
  return Buffer.concat([PNG_SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(scanlines)), chunk("IEND", new Uint8Array(0))]);
}

/**
 * Encodes an 8-bit grayscale PNG: `pixels` holds `width * height` bytes, row by row (0 black, 255 white).
 * Each row gets filter type 0 (none).
 */
export function encodeGray8Png(width: number, height: number, pixels: Uint8Array): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`PNG dimensions must be positive integers, got ${width}x${height}`);
  }
  if (pixels.length !== width * height) throw new RangeError(`expected ${width * height} pixels for ${width}x${height}, got ${pixels.length}`);
  const scanlines = Buffer.alloc(height * (width + 1));
  for (let y = 0; y < height; y++) scanlines.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // colour type: grayscale
  return Buffer.concat([PNG_SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(scanlines)), chunk("IEND", new Uint8Array(0))]);
}
