// Message versions: what each group message last asked, so its edits are told apart (in memory, bounded; in Redis for a day, compared in one step).
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { scriptCommand } from "./redis-script.js";

/**
 * How a version of a message compares with the versions seen before: `first` (none seen), `older` (a later
 * one was seen: ignore it), `same` (it asks what the latest before asked), `changed`.
 */
export type Version = "first" | "older" | "same" | "changed";

/** The fingerprint of text that asks nothing of the bot. */
export const CHATTER = "none";

export interface MessageVersions {
  /** Records this version (its time and what it asks) unless a later one is known, and says how it compares. */
  record(messageId: string, timestamp: number, fingerprint: string): Promise<Version>;
  /**
   * Records a message's first version, whose comparison nobody waits for (the message is answered as it
   * is): the same rule as `record`, but a shared store may write several together. Resolves once written;
   * a `record` made meanwhile sees it.
   */
  remember(messageId: string, timestamp: number, fingerprint: string): Promise<void>;
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

export interface MemoryVersionsOptions {
  /** Messages remembered at most; the oldest are forgotten first. Default 50,000. */
  maxMessages?: number;
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

/** A message's versions are compared for a day: LINE lets a text be edited for a short while only. */
const VERSION_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * First versions wait this long to be written together, one round trip for all that came meanwhile (of
 * every shop): nothing waits for them but their event's end, and an edit's comparison takes them along.
 */
const REMEMBER_WINDOW_MS = 100;

// Versions of group messages, in one step, each by the rule of `compareVersion` and `keptFingerprint`: KEYS
// are the messages, ARGV the expiry, the chatter fingerprint, then each version's time and fingerprint.
// Returns how each compared.
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
