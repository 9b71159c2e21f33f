// Reads an uploaded image's format and pixel size from its first bytes, without decoding it: the PNG
// signature and IHDR chunk, or the JPEG start-of-image marker and its first start-of-frame segment.
// The stand-in uses it to check rich menu images the way LINE does (PNG or JPEG, the menu's exact size).

export type ImageFormat = "png" | "jpeg";

export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format the magic bytes say, whether or not the rest of the header can be read. */
export function sniffImageFormat(bytes: Buffer): ImageFormat | undefined {
  if (bytes.length >= PNG_SIGNATURE.length && bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return "png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  return undefined;
}

/** Format and size, or undefined when the bytes are neither a PNG nor a JPEG with a readable header. */
export function readImageInfo(bytes: Buffer): ImageInfo | undefined {
  switch (sniffImageFormat(bytes)) {
    case "png":
      return readPng(bytes);
    case "jpeg":
      return readJpeg(bytes);
    default:
      return undefined;
  }
}

function readPng(bytes: Buffer): ImageInfo | undefined {
  // Signature (8), then the IHDR chunk first: length (4), "IHDR" (4), width (4), height (4).
  if (bytes.length < 24 || bytes.toString("latin1", 12, 16) !== "IHDR") return undefined;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  return width > 0 && height > 0 ? { format: "png", width, height } : undefined;
}

// Start-of-frame markers carry the size: C0-CF except C4 (DHT), C8 (JPG extension) and CC (DAC).
const NOT_FRAMES = new Set([0xc4, 0xc8, 0xcc]);

function readJpeg(bytes: Buffer): ImageInfo | undefined {
  let offset = 2;
  while (offset < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    // Any number of 0xFF fill bytes may precede a marker.
    while (offset < bytes.length && bytes[offset] === 0xff) offset += 1;
    const marker = bytes[offset];
    offset += 1;
    if (marker === undefined) return undefined;
    // Markers without a length: TEM and the restart markers. End of image or start of scan before a frame: no size.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0xd9 || marker === 0xda) return undefined;
    if (offset + 2 > bytes.length) return undefined;
    const length = bytes.readUInt16BE(offset);
    if (length < 2) return undefined;
    if (marker >= 0xc0 && marker <= 0xcf && !NOT_FRAMES.has(marker)) {
      // Length (2), sample precision (1), height (2), width (2).
      if (offset + 7 > bytes.length) return undefined;
      const height = bytes.readUInt16BE(offset + 3);
      const width = bytes.readUInt16BE(offset + 5);
      return width > 0 && height > 0 ? { format: "jpeg", width, height } : undefined;
    }
    offset += length;
  }
  return undefined;
}
