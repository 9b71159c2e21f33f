// A message cut into words: Thai by the runtime's own word segmenter (Intl.Segmenter), numbers, Latin words and
// marks by their characters, the segmenter's pieces joined back into the words the reader knows.

/** One word of a message: lower case, with where it is in the text it was cut from. */
export interface Piece {
  readonly text: string;
  readonly kind: "thai" | "latin" | "number" | "mark";
  readonly start: number;
  readonly end: number;
}

/** ICU's Thai dictionary: it cuts finely (`เมื่อ|วาน`, `คิว|อาร์`), so known words are joined back below. */
const SEGMENTER = new Intl.Segmenter("th", { granularity: "word" });

/**
 * The runs of one script: a transfer reference (letters and digits, 10 or more); a number with what it may
 * carry (`1,500.50`, `20/11/2569`, `1-15`, `14:30`, `150.-`); a Latin word; a Thai run with the dots of an
 * abbreviation (`พ.ย.`, `บ.`); a mark that matters (`฿`, `#`, `?`, a range's `..`, `-`, `~`).
 */
const PIECES =
  /(?<ref>(?<![a-z0-9])(?=[a-z0-9_-]*[a-z])(?=[a-z0-9_-]*\d)[a-z0-9_-]{10,64}(?![a-z0-9]))|(?<number>\d[\d,]*(?:\.\d+)?(?:[/\-\u2013:.]\d+)*(?:\.-|-(?!\d))?)|(?<latin>[a-z]+(?:[-_][a-z]+)*)|(?<thai>[\u0E00-\u0E7F]+(?:\.[\u0E00-\u0E7F]+)*\.?)|(?<mark>\.\.|[฿#?~\-\u2013\u2014])/gu;

/** A letter typed three times or more (`ค่าาา`, `จ้าาา`) is one. */
const DRAWN_OUT = /([\u0E00-\u0E7F])\1{2,}/gu;
/** The longest run of the segmenter's pieces tried as one word. */
const MAX_JOIN = 6;

/** One of the segmenter's pieces, with where it is in the message. */
interface Part {
  readonly text: string;
  readonly start: number;
}

/** Two unknown pieces that are two known words cut in the wrong place (`ว่าย|อด` for `ว่า|ยอด`). */
function recut(a: Part, b: Part, lexicon: ReadonlySet<string>): [Part, Part] | undefined {
  if (b.start !== a.start + a.text.length) return undefined;
  const both = a.text + b.text;
  for (let cut = 1; cut < both.length; cut++) {
    if (cut !== a.text.length && lexicon.has(both.slice(0, cut)) && lexicon.has(both.slice(cut))) {
      return [
        { text: both.slice(0, cut), start: a.start },
        { text: both.slice(cut), start: a.start + cut },
      ];
    }
  }
  return undefined;
}

/**
 * The segmenter's pieces of Thai runs (one run, or several apart only by spaces, as a voice-typed message
 * puts a space between every word) as the known words of `lexicon`: pieces joined into the longest known
 * word, a glued pair split, two pieces cut in the wrong place cut again.
 */
function joinParts(parts: Part[], lexicon: ReadonlySet<string>, out: Piece[]): void {
  let i = 0;
  while (i < parts.length) {
    const first = parts[i];
    if (first === undefined) break;
    let taken = 1;
    let text = first.text;
    let joined = first.text;
    for (let j = i + 1; j < Math.min(parts.length, i + MAX_JOIN); j++) {
      joined += parts[j]?.text ?? "";
      if (lexicon.has(joined)) {
        taken = j - i + 1;
        text = joined;
      }
    }
    const last = parts[i + taken - 1] ?? first;
    const end = last.start + last.text.length;
    if (taken === 1 && !lexicon.has(text)) {
      const next = parts[i + 1];
      const again = next === undefined || lexicon.has(next.text) ? undefined : recut(first, next, lexicon);
      if (again !== undefined) {
        parts.splice(i, 2, ...again);
        continue;
      }
      // The segmenter glued two known words it does not know as one (`ประวัติการ`): split them.
      const cut = [...Array(Math.max(0, text.length - 2)).keys()].map((k) => text.length - 1 - k).find((c) => lexicon.has(text.slice(0, c)) && lexicon.has(text.slice(c)));
      if (cut !== undefined) {
        out.push({ text: text.slice(0, cut), kind: "thai", start: first.start, end: first.start + cut });
        out.push({ text: text.slice(cut), kind: "thai", start: first.start + cut, end });
        i += 1;
        continue;
      }
    }
    out.push({ text, kind: "thai", start: first.start, end });
    i += taken;
  }
}

function segment(run: string, at: number, parts: Part[]): void {
  for (const s of SEGMENTER.segment(run)) if (s.segment.trim() !== "") parts.push({ text: s.segment, start: at + s.index });
}

/** `text` must be normalized (normalize.ts) and lower case; positions are into it. */
export function cutWords(text: string, lexicon: ReadonlySet<string>): Piece[] {
  const out: Piece[] = [];
  let parts: Part[] = [];
  const flush = (): void => {
    if (parts.length > 0) joinParts(parts, lexicon, out);
    parts = [];
  };
  for (const match of text.matchAll(PIECES)) {
    const groups = match.groups ?? {};
    const start = match.index;
    const raw = match[0];
    const end = start + raw.length;
    if (groups.thai === undefined) flush();
    if (groups.ref !== undefined) out.push({ text: raw, kind: "latin", start, end });
    else if (groups.number !== undefined) out.push({ text: raw, kind: "number", start, end });
    else if (groups.latin !== undefined) out.push({ text: raw, kind: "latin", start, end });
    else if (groups.mark !== undefined) out.push({ text: raw, kind: "mark", start, end });
    else if (lexicon.has(raw) && raw.includes(".")) {
      flush();
      out.push({ text: raw, kind: "thai", start, end });
    } else {
      // Dots that are no abbreviation we know end a sentence or join words: read the words between.
      let at = start;
      for (const part of raw.split(".")) {
        // A letter drawn out (`ค่าาา`) is read once; its piece still ends where the typing did.
        if (part !== "") segment(part.replace(DRAWN_OUT, "$1"), at, parts);
        at += part.length + 1;
      }
    }
  }
  flush();
  return out;
}
