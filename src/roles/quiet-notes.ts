// Remembers which chats got the friendly "the shop will reply soon" note lately, so a customer who writes
// ten messages hears it once and the shop can answer by hand. One process's memory; bounded.

export interface QuietNotes {
  /** True the first time for `chatId` in a period: the caller then sends the note. */
  claim(chatId: string, nowMs: number): Promise<boolean>;
}

export interface QuietNotesOptions {
  /** Default 12 hours. */
  periodMs?: number;
  /** Chats remembered at most; the least recently noted are forgotten first. Default 50,000. */
  maxChats?: number;
}

export const NOTE_PERIOD_MS = 12 * 3_600_000;

export function createQuietNotes(options: QuietNotesOptions = {}): QuietNotes {
  const periodMs = options.periodMs ?? NOTE_PERIOD_MS;
  const maxChats = options.maxChats ?? 50_000;
  // Insertion order is note order: a chat noted again moves to the end.
  const notedAt = new Map<string, number>();
  return {
    claim(chatId, nowMs) {
      const last = notedAt.get(chatId);
      if (last !== undefined && nowMs - last < periodMs) return Promise.resolve(false);
      notedAt.delete(chatId);
      notedAt.set(chatId, nowMs);
      if (notedAt.size > maxChats) {
        const oldest = notedAt.keys().next();
        if (oldest.done !== true) notedAt.delete(oldest.value);
      }
      return Promise.resolve(true);
    },
  };
}
