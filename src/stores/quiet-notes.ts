// Quiet notes: which customer chats got the "the shop will reply soon" note lately, so it goes once per 12 hours (in memory, bounded; in Redis, across instances).
import type { Redis } from "ioredis";

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

/** One process's memory: a customer who writes ten messages hears the note once, and the shop can answer by hand. */
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

/** The customer note's once-in-12-hours rule, across instances: whoever sets the key sends the note. */
export function redisQuietNotes(redis: Redis, namespace: string, periodMs: number = NOTE_PERIOD_MS): QuietNotes {
  return {
    async claim(chatId) {
      try {
        return (await redis.set(`${namespace}note:${chatId}`, "1", "PX", periodMs, "NX")) === "OK";
      } catch {
        // Redis away: a note repeated once is better than a customer left without one.
        return true;
      }
    },
  };
}
