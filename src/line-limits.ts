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

/** The bytes LINE measures for a Flex container: its JSON in UTF-8 (Thai letters are three bytes each). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
}
