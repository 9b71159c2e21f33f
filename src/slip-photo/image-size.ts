// An image's width and height from its header, before anything decodes it: a small file can declare a huge
// image (a PNG of zeros compresses a thousandfold), and decoding allocates 4 bytes per pixel.

export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function pngSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 24 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The first chunk is IHDR: width and height at 16 and 20.
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return undefined;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** JPEG: walk the segments to the first start-of-frame marker (SOF0..SOF15 but DHT, JPG and DAC). */
function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    // Fill bytes, and markers without a length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = view.getUint16(at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (at + 9 > bytes.length) return undefined;
      return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    }
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/** The size a PNG or JPEG declares; undefined when the header cannot be read as either. */
export function imageSizeOf(bytes: Uint8Array): ImageSize | undefined {
  return pngSize(bytes) ?? jpegSize(bytes);
}
