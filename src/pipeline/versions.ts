// What each group message asked for, by LINE's message id, so that its edits are told apart: an edit that
// asks the same thing gets no second answer, and an older edit arriving after a newer one is ignored. In
// one process's memory, bounded; shared-state/stores.ts keeps the same in Redis for several instances.
import { CHATTER } from "../handlers/context.js";
import type { MessageVersions, Version } from "../handlers/context.js";

export interface MemoryVersionsOptions {
  /** Messages remembered at most; the oldest are forgotten first. Default 50,000. */
  maxMessages?: number;
}

/**
 * The rule both stores follow: the latest timestamp wins, and only a new fingerprint is a change. Chatter
 * does not replace what the message last asked for: `qr 200`, edited to chatter and back to `qr 200`, asks
 * for no second card.
 */
export function compareVersion(before: { timestamp: number; fingerprint: string } | undefined, timestamp: number, fingerprint: string): Version {
  if (before === undefined) return "first";
  if (before.timestamp >= timestamp) return "older";
  return before.fingerprint === fingerprint ? "same" : "changed";
}

/** What is kept after a version: its time, and what the message now asks for (chatter keeps the last ask). */
export function keptFingerprint(before: { fingerprint: string } | undefined, fingerprint: string): string {
  return fingerprint === CHATTER && before !== undefined ? before.fingerprint : fingerprint;
}

export function memoryVersions(options: MemoryVersionsOptions = {}): MessageVersions {
  const maxMessages = options.maxMessages ?? 50_000;
  const latest = new Map<string, { timestamp: number; fingerprint: string }>();
  function record(messageId: string, timestamp: number, fingerprint: string): Version {
    const before = latest.get(messageId);
    const version = compareVersion(before, timestamp, fingerprint);
    if (version !== "older") {
      latest.delete(messageId);
      latest.set(messageId, { timestamp, fingerprint: keptFingerprint(before, fingerprint) });
      if (latest.size > maxMessages) {
        const oldest = latest.keys().next();
        if (oldest.done !== true) latest.delete(oldest.value);
      }
    }
    return version;
  }
  return {
    record: (messageId, timestamp, fingerprint) => Promise.resolve(record(messageId, timestamp, fingerprint)),
    remember(messageId, timestamp, fingerprint) {
      record(messageId, timestamp, fingerprint);
      return Promise.resolve();
    },
  };
}
