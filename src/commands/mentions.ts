// Cutting @mentions out of group text so "@ShopBot qr 150" parses as "qr 150".

export interface MentionSpan {
  readonly index: number;
  readonly length: number;
}

/**
 * The text with every given span (UTF-16 index and length, as LINE sends them) replaced by a space,
 * so the words on either side stay apart. Spans may come in any order or overlap; spans that are
 * not whole numbers, empty, negative or past the end are clamped or skipped, never thrown on:
 * the text is what counts, and a wrong span must not cost the answer.
 */
export function cutMentions(text: string, mentionees: readonly MentionSpan[]): string {
  const spans = mentionees
    .filter((m) => Number.isFinite(m.index) && Number.isFinite(m.length))
    .map((m) => {
      const start = Math.max(0, Math.trunc(m.index));
      const end = Math.min(text.length, Math.trunc(m.index) + Math.trunc(m.length));
      return { start, end };
    })
    .filter((s) => s.start < text.length && s.end > s.start)
    .sort((a, b) => a.start - b.start);

  let result = "";
  let at = 0;
  for (const span of spans) {
    if (span.end <= at) continue; // inside a span already cut
    // A span overlapping the one before only lengthens that cut; a new one leaves a space behind.
    if (span.start >= at) result += `${text.slice(at, span.start)} `;
    at = span.end;
  }
  return result + text.slice(at);
}
