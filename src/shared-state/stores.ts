// The small pieces of state every instance must see the same: which events were answered, how far each
// event's delivery got, which customer chats got the friendly note lately, and the account-info cache.
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { BatchState, DeliveryJournal } from "../line/outbox.js";
import type { EventLedger } from "../pipeline/ledger.js";
import { CHATTER } from "../handlers/context.js";
import type { MessageVersions, Version } from "../handlers/context.js";
import type { QuietNotes } from "../roles/quiet-notes.js";
import { NOTE_PERIOD_MS } from "../roles/quiet-notes.js";
import type { AccountCache } from "../slip/account-cache.js";
import type { AccountInfo } from "../slip/types.js";

// Every key starts with the shop's namespace (`<deployment prefix>:` for the environment's one shop,
// `<deployment prefix>:shop:<id>:` with a shops file), so deployments and shops sharing one Redis never mix.

/** LINE redelivers for up to about 20 minutes; an answered event is remembered for a day. */
const ANSWERED_TTL_S = 24 * 60 * 60;
/** An event's delivery journal outlives any rerun after a crash. */
const JOURNAL_TTL_S = 24 * 60 * 60;

/** The mark of an event answered, or stored in the shared queue (which sets it in the same step). */
export const answeredKey = (namespace: string, eventId: string): string => `${namespace}answered:${eventId}`;

/**
 * Answered events, shared. `claim` only looks: the shared queue already gives each stored event to one
 * worker at a time, so the ledger has only to stop an event answered before (redelivered, or sent to
 * another instance after its job was cleared) from being answered again.
 */
export function redisLedger(redis: Redis, namespace: string): EventLedger {
  const key = (eventId: string): string => answeredKey(namespace, eventId);
  return {
    async claim(eventId) {
      return (await redis.exists(key(eventId))) === 0;
    },
    async settle(eventId) {
      await redis.set(key(eventId), "1", "EX", ANSWERED_TTL_S);
    },
  };
}

/** A script by its hash: defined once on the connection, then each call sends the hash, not the text. */
function scriptCommand(redis: Redis, name: string, numberOfKeys: number, lua: string): (...args: string[]) => Promise<unknown> {
  const scripted = redis as Redis & Record<string, ((...args: string[]) => Promise<unknown>) | undefined>;
  if (scripted[name] === undefined) redis.defineCommand(name, { numberOfKeys, lua });
  return (...args) => (scripted[name] as (...args: string[]) => Promise<unknown>)(...args);
}

export function redisJournal(redis: Redis, namespace: string): DeliveryJournal {
  const key = (eventId: string): string => `${namespace}delivery:${eventId}`;
  // One step per write (the field and the expiry), one command on the wire.
  const write = scriptCommand(redis, "journalWrite", 1, "redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) redis.call('EXPIRE', KEYS[1], ARGV[3]) return 1");
  return {
    async read(eventId) {
      const fields = await redis.hgetall(key(eventId));
      const batches = new Map<number, BatchState>();
      for (const [batch, state] of Object.entries(fields)) {
        if (state === "reply_attempted" || state === "done") batches.set(Number(batch), state);
      }
      return batches;
    },
    async write(eventId, batch, state) {
      await write(key(eventId), String(batch), state, String(JOURNAL_TTL_S));
    },
  };
}

/** Marks that something happened once (the chat's export links, used once), remembered for `ttlMs`. */
export interface OnceMarks {
  /** True for the first caller with this key within its time; rejects when the marks cannot be reached. */
  take(key: string, ttlMs: number): Promise<boolean>;
}

/** Once-marks shared by every instance: whoever sets the key first has it. Redis away: the promise rejects (fail closed). */
export function redisOnceMarks(redis: Redis, namespace: string): OnceMarks {
  return {
    async take(key, ttlMs) {
      return (await redis.set(`${namespace}once:${key}`, "1", "PX", Math.max(1, Math.ceil(ttlMs)), "NX")) === "OK";
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

export function redisAccountCache(redis: Redis, namespace: string): AccountCache {
  const key = `${namespace}account-info`;
  return {
    async get() {
      const text = await redis.get(key);
      return text === null ? undefined : (JSON.parse(text) as AccountInfo);
    },
    async set(value, ttlMs) {
      await redis.set(key, JSON.stringify(value), "PX", ttlMs);
    },
  };
}

/** A message's versions are compared for a day: LINE lets a text be edited for a short while only. */
const VERSION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The latest version of each group message, shared, compared and written in one step (a Lua script), so two
 * instances holding two edits of one message agree which is the latest. The same rule as pipeline/versions.ts.
 */
export function redisVersions(redis: Redis, namespace: string): MessageVersions {
  const script = `
    local before = redis.call('HMGET', KEYS[1], 'ts', 'fp')
    if before[1] and tonumber(before[1]) >= tonumber(ARGV[1]) then return 'older' end
    local keep = ARGV[2]
    if ARGV[2] == ARGV[4] and before[2] then keep = before[2] end
    redis.call('HSET', KEYS[1], 'ts', ARGV[1], 'fp', keep)
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
    if not before[1] then return 'first' end
    if before[2] == ARGV[2] then return 'same' end
    return 'changed'`;
  const record = scriptCommand(redis, "versionRecord", 1, script);
  return {
    async record(messageId, timestamp, fingerprint) {
      // Only equality is ever compared, so Redis keeps a digest, not what the message asked (amounts, references, ids).
      const digest = fingerprint === CHATTER ? CHATTER : createHash("sha256").update(fingerprint).digest("base64url");
      const answer = await record(`${namespace}message:${messageId}`, String(timestamp), digest, String(VERSION_TTL_MS), CHATTER);
      if (answer === "first" || answer === "older" || answer === "same" || answer === "changed") return answer satisfies Version;
      throw new Error(`unexpected answer from redis: ${String(answer)}`);
    },
  };
}
