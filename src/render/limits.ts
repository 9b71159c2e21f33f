// Fitting text into LINE's limits: cut by UTF-16 units or by grapheme clusters, never mid-cluster, with an
// ellipsis; and which image URLs LINE (or the local console) can load.
import { graphemesOf, LINE_LIMITS } from "../line-limits.js";
import { isLoopbackHostname } from "../loopback.js";

const ELLIPSIS = "…";
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Cuts text to at most `maxUnits` UTF-16 code units (how LINE counts text), ending with an ellipsis
 * when cut. It never splits a grapheme cluster, so a Thai vowel mark or an emoji stays whole.
 */
export function truncateText(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  const budget = maxUnits - ELLIPSIS.length;
  let out = "";
  for (const { segment } of graphemes.segment(text)) {
    if (out.length + segment.length > budget) break;
    out += segment;
  }
  return out + ELLIPSIS;
}

/** Cuts a label to at most `maxGraphemes` grapheme clusters (how LINE counts labels), ending with an ellipsis. */
export function truncateLabel(label: string, maxGraphemes: number): string {
  // A grapheme is at least one UTF-16 unit: a short enough string needs no segmenting (the usual case).
  if (label.length <= maxGraphemes) return label;
  const parts = graphemesOf(label);
  if (parts.length <= maxGraphemes) return label;
  return parts.slice(0, maxGraphemes - 1).join("") + ELLIPSIS;
}

/** Text for a Flex text component or a text message: never empty, at most `maxUnits` UTF-16 units. */
export function safeText(text: string, maxUnits: number = LINE_LIMITS.textUtf16Units): string {
  const cut = truncateText(text, maxUnits);
  return cut.length > 0 ? cut : " ";
}

/**
 * Whether LINE (or the local console) can load this image URL: https, or http on a loopback host
 * for the console, and at most 2,000 characters.
 */
export function isUsableImageUrl(url: string): boolean {
  if (url.length > LINE_LIMITS.urlChars) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === "https:") return true;
  return parsed.protocol === "http:" && isLoopbackHostname(parsed.hostname);
}
