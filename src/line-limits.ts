// LINE's message limits, as LINE's Messaging API reference gives them, and how LINE measures text: the
// renderers keep inside them, and the local LINE stand-in refuses what breaks them.

export const LINE_LIMITS = {
  /** Messages in one reply or push. */
  messagesPerRequest: 5,
  /** A text message, counted in UTF-16 code units. */
  textUtf16Units: 5_000,
  /** An image or other URL, in characters. */
  urlChars: 2_000,
  uriActionChars: 1_000,
  altTextChars: 1_500,
  // LINE says "30 KB" and "50 KB" without saying which kilobyte: the stricter 1,000-byte reading, over
  // the UTF-8 bytes of the JSON, so anything kept inside it LINE takes too.
  bubbleJsonBytes: 30_000,
  carouselJsonBytes: 50_000,
  carouselBubbles: 12,
  quickReplyItems: 13,
  /** Labels count grapheme clusters (a Thai consonant with its marks is one). */
  quickReplyLabelGraphemes: 20,
  actionLabelGraphemes: 40,
  postbackDataChars: 300,
  postbackDisplayTextChars: 300,
  messageActionTextChars: 300,
  senderNameChars: 20,
  textEmojis: 20,
} as const;

/** Rich menus: sizes, areas, texts and images. */
export const RICH_MENU_LIMITS = {
  minWidth: 800,
  maxWidth: 2500,
  minHeight: 250,
  minAspectRatio: 1.45,
  nameChars: 300,
  chatBarTextChars: 14,
  areas: 20,
  labelGraphemes: 20,
  postbackDataChars: 300,
  displayTextChars: 300,
  fillInTextChars: 300,
  messageTextChars: 300,
  uriChars: 1000,
  aliasIdChars: 32,
  menusPerChannel: 1000,
  aliasesPerChannel: 1000,
  bulkUserIds: 500,
  // "1 MB", read as 1,000,000 bytes: the stricter reading, so an image the stand-in takes LINE takes too.
  imageBytes: 1_000_000,
} as const;

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Grapheme clusters, as LINE counts labels. */
export function graphemeCount(text: string): number {
  let count = 0;
  for (const _ of graphemes.segment(text)) count += 1;
  return count;
}

/** The grapheme clusters of a text, in order. */
export function graphemesOf(text: string): string[] {
  return Array.from(graphemes.segment(text), (s) => s.segment);
}

/**
 * The bytes LINE measures for a Flex container: its JSON in UTF-8 (Thai letters are three bytes each), as
 * `Buffer.byteLength(JSON.stringify(value))` counts them (0 for a value JSON leaves out). Counted by walking
 * the value, without writing the JSON: a history page was otherwise serialised once to be measured and
 * again to be sent.
 */
export function jsonBytes(value: unknown): number {
  return valueBytes(value, false) ?? 0;
}

/** A value's JSON bytes; undefined where JSON leaves it out (in an array, `null` stands in). */
function valueBytes(value: unknown, inArray: boolean): number | undefined {
  switch (typeof value) {
    case "string":
      return stringBytes(value);
    case "number":
      return Number.isFinite(value) ? String(value).length : 4; // NaN and Infinity are written null
    case "boolean":
      return value ? 4 : 5;
    case "bigint":
      throw new TypeError("Do not know how to serialize a BigInt");
    case "undefined":
    case "function":
    case "symbol":
      return inArray ? 4 : undefined;
  }
  if (value === null) return 4;
  const json = (value as { toJSON?: unknown }).toJSON;
  if (typeof json === "function") return valueBytes((json as () => unknown).call(value), inArray);
  if (Array.isArray(value)) {
    let bytes = 2 + Math.max(0, value.length - 1); // [ ] and the commas
    for (const item of value as unknown[]) bytes += valueBytes(item, true) ?? 4;
    return bytes;
  }
  let bytes = 2; // { }
  let members = 0;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const inner = valueBytes(record[key], false);
    if (inner === undefined) continue;
    bytes += stringBytes(key) + 1 + inner + (members > 0 ? 1 : 0); // "key": and a comma before all but the first
    members += 1;
  }
  return bytes;
}

/** Characters JSON escapes (quote, backslash, controls) or that need a look at their neighbour (surrogates). */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const SPECIAL = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string's bytes in JSON: its quotes, its escapes, and UTF-8 for the rest (a lone surrogate is escaped). */
function stringBytes(text: string): number {
  // Most texts escape nothing: UTF-8's length, counted natively.
  if (!SPECIAL.test(text)) return 2 + Buffer.byteLength(text, "utf8");
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) {
      if (unit === 0x22 || unit === 0x5c || unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d) bytes += 2;
      else bytes += unit < 0x20 ? 6 : 1;
    } else if (unit < 0x800) {
      bytes += 2;
    } else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else {
      bytes += unit >= 0xd800 && unit <= 0xdfff ? 6 : 3;
    }
  }
  return bytes;
}
