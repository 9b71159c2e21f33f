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

/**
 * A script by its hash: defined once on the connection, then each call sends the hash, not the text.
 * Without `numberOfKeys`, each call's first argument is its number of keys.
 */
function scriptCommand(redis: Redis, name: string, numberOfKeys: number | undefined, lua: string): (...args: (string | number)[]) => Promise<unknown> {
  const scripted = redis as Redis & Record<string, ((...args: (string | number)[]) => Promise<unknown>) | undefined>;
  if (scripted[name] === undefined) redis.defineCommand(name, numberOfKeys === undefined ? { lua } : { numberOfKeys, lua });
  return (...args) => (scripted[name] as (...args: (string | number)[]) => Promise<unknown>)(...args);
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

/**
 * The account info, shared: one service call per expiry for every instance. What Redis gives is mirrored in
 * this process until Redis lets it go (its remaining life read with it), so a balance asks Redis once per
 * value, not once per command, and is never older than Redis's copy would be.
 */
export function redisAccountCache(redis: Redis, namespace: string, now: () => number = Date.now): AccountCache {
  const key = `${namespace}account-info`;
  let mirrored: { value: AccountInfo; untilMs: number } | undefined;
  return {
    async get() {
      if (mirrored !== undefined && now() < mirrored.untilMs) return mirrored.value;
      mirrored = undefined;
      const [[textErr, text] = [null, null], [, ttlMs] = [null, 0]] = (await redis.pipeline().get(key).pttl(key).exec()) ?? [];
      if (textErr !== null) throw textErr;
      if (typeof text !== "string") return undefined;
      const value = JSON.parse(text) as AccountInfo;
      if (typeof ttlMs === "number" && ttlMs > 0) mirrored = { value, untilMs: now() + ttlMs };
      return value;
    },
    async set(value, ttlMs) {
      await redis.set(key, JSON.stringify(value), "PX", ttlMs);
      mirrored = { value, untilMs: now() + ttlMs };
    },
  };
}

/** A message's versions are compared for a day: LINE lets a text be edited for a short while only. */
const VERSION_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * First versions wait this long to be written together, one round trip for all that came meanwhile (of
 * every shop): nothing waits for them but their event's end, and an edit's comparison takes them along.
 */
const REMEMBER_WINDOW_MS = 100;

// Versions of group messages, in one step, each by the rule of pipeline/versions.ts: KEYS are the
// messages, ARGV the expiry, the chatter fingerprint, then each version's time and fingerprint. Returns how
// each compared.
const VERSIONS_SCRIPT = `
local ttl = ARGV[1]
local chatter = ARGV[2]
local out = {}
for i = 1, #KEYS do
  local at = ARGV[1 + 2 * i]
  local fingerprint = ARGV[2 + 2 * i]
  local before = redis.call('HMGET', KEYS[i], 'ts', 'fp')
  if before[1] and tonumber(before[1]) >= tonumber(at) then
    out[i] = 'older'
  else
    local keep = fingerprint
    if fingerprint == chatter and before[2] then keep = before[2] end
    redis.call('HSET', KEYS[i], 'ts', at, 'fp', keep)
    redis.call('PEXPIRE', KEYS[i], ttl)
    if not before[1] then out[i] = 'first' elseif before[2] == fingerprint then out[i] = 'same' else out[i] = 'changed' end
  end
end
return out`;

interface VersionWrite {
  key: string;
  timestamp: number;
  digest: string;
}

/**
 * The latest version of each group message, shared, compared and written in one step (a Lua script), so two
 * instances holding two edits of one message agree which is the latest. One writer per connection, shared
 * by its shops (`forShop`): first versions of every shop go out together.
 */
export function redisVersions(redis: Redis): { forShop(namespace: string): MessageVersions } {
  const run = scriptCommand(redis, "slipVersions", undefined, VERSIONS_SCRIPT);

  let waiting: { write: VersionWrite; done: { resolve(): void; reject(err: unknown): void } }[] = [];
  let timer: NodeJS.Timeout | undefined;

  /** Writes the waiting first versions, then `writes`, in one step; answers for `writes`. */
  async function send(writes: readonly VersionWrite[]): Promise<Version[]> {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    const all = [...batch.map((entry) => entry.write), ...writes];
    let answers: unknown;
    try {
      answers = await run(all.length, ...all.map((write) => write.key), String(VERSION_TTL_MS), CHATTER, ...all.flatMap((write) => [String(write.timestamp), write.digest]));
    } catch (err) {
      for (const entry of batch) entry.done.reject(err);
      throw err;
    }
    for (const entry of batch) entry.done.resolve();
    return (Array.isArray(answers) ? answers : []).slice(batch.length).map((answer: unknown) => {
      if (answer === "first" || answer === "older" || answer === "same" || answer === "changed") return answer satisfies Version;
      throw new Error(`unexpected answer from redis: ${String(answer)}`);
    });
  }

  return {
    forShop(namespace) {
      // Only equality is ever compared, so Redis keeps a digest, not what the message asked (amounts, references, ids).
      const write = (messageId: string, timestamp: number, fingerprint: string): VersionWrite => ({
        key: `${namespace}message:${messageId}`,
        timestamp,
        digest: fingerprint === CHATTER ? CHATTER : createHash("sha256").update(fingerprint).digest("base64url"),
      });
      return {
        async record(messageId, timestamp, fingerprint) {
          const [answer] = await send([write(messageId, timestamp, fingerprint)]);
          if (answer === undefined) throw new Error("no answer from redis for a message version");
          return answer;
        },
        remember(messageId, timestamp, fingerprint) {
          return new Promise<void>((resolve, reject) => {
            waiting.push({ write: write(messageId, timestamp, fingerprint), done: { resolve, reject } });
            timer ??= setTimeout(() => void send([]).catch(() => undefined), REMEMBER_WINDOW_MS);
          });
        },
      };
    },
  };
}
