// A look at the Redis server once at start-up: its version (the queue needs Streams with consumer groups,
// Redis 5.0), its eviction policy (anything but noeviction may drop stored events and the ledger under
// memory pressure) and its persistence (without AOF or RDB a restart empties it). Each finding is logged
// once. Hosted Redis often forbids INFO or CONFIG: then what cannot be read is said once, not an error.
import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** The oldest Redis the queue runs on: XREADGROUP/XACK consumer groups and CLIENT UNBLOCK came in 5.0. */
export const MIN_REDIS_VERSION = "5.0.0";

export type RedisFinding =
  | { readonly kind: "too_old"; readonly version: string }
  | { readonly kind: "eviction"; readonly policy: string }
  | { readonly kind: "no_persistence" }
  | { readonly kind: "not_readable"; readonly what: "info" | "persistence" };

/** What INFO (and CONFIG GET save, when allowed) said; `undefined` where the provider would not say. */
export interface RedisServerFacts {
  readonly version: string | undefined;
  readonly maxmemoryPolicy: string | undefined;
  readonly aof: boolean | undefined;
  /** RDB snapshots configured (`save` not empty); undefined when CONFIG is not allowed. */
  readonly rdb: boolean | undefined;
}

/** The `field:value` lines of an INFO answer. */
export function infoFields(info: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of info.split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at > 0 && !line.startsWith("#")) fields[line.slice(0, at)] = line.slice(at + 1).trim();
  }
  return fields;
}

function versionBelow(version: string, minimum: string): boolean {
  const a = version.split(".").map(Number);
  const b = minimum.split(".").map(Number);
  for (let i = 0; i < 3; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (Number.isNaN(x)) return false; // a provider's own version string: not judged
    if (x !== y) return x < y;
  }
  return false;
}

/** The findings in what the server said. */
export function judgeRedisServer(facts: RedisServerFacts): RedisFinding[] {
  const findings: RedisFinding[] = [];
  if (facts.version === undefined) findings.push({ kind: "not_readable", what: "info" });
  else if (versionBelow(facts.version, MIN_REDIS_VERSION)) findings.push({ kind: "too_old", version: facts.version });
  if (facts.maxmemoryPolicy !== undefined && facts.maxmemoryPolicy !== "noeviction") findings.push({ kind: "eviction", policy: facts.maxmemoryPolicy });
  if (facts.aof === false && facts.rdb === false) findings.push({ kind: "no_persistence" });
  else if (facts.aof === false && facts.rdb === undefined) findings.push({ kind: "not_readable", what: "persistence" });
  return findings;
}

/** Asks the server; a refused INFO or CONFIG leaves its facts undefined. */
export async function readRedisServer(redis: Redis): Promise<RedisServerFacts> {
  const info = async (section: string): Promise<Record<string, string> | undefined> => redis.info(section).then(infoFields, () => undefined);
  const [server, memory, persistence] = [await info("server"), await info("memory"), await info("persistence")];
  const aofEnabled = persistence?.aof_enabled;
  let rdb: boolean | undefined;
  if (aofEnabled !== "1") {
    const save = await redis.config("GET", "save").then(
      (answer) => (Array.isArray(answer) ? String(answer[1] ?? "") : undefined),
      () => undefined,
    );
    rdb = save === undefined ? undefined : save.trim() !== "";
  }
  return {
    version: server?.redis_version,
    maxmemoryPolicy: memory?.maxmemory_policy,
    aof: aofEnabled === undefined ? undefined : aofEnabled === "1",
    rdb,
  };
}

/** Thrown when the server cannot run the queue: start-up stops and names it. */
export class RedisTooOldError extends Error {
  constructor(version: string) {
    super(`Redis ${version} is too old: the event queue needs Redis ${MIN_REDIS_VERSION} or later (Streams with consumer groups)`);
    this.name = "RedisTooOldError";
  }
}

/**
 * Reads the server, logs each finding once, and returns them; with `refuseTooOld`, a server below
 * MIN_REDIS_VERSION throws RedisTooOldError.
 */
export async function checkRedisServer(redis: Redis, log: Logger, refuseTooOld: boolean): Promise<RedisFinding[]> {
  const facts = await readRedisServer(redis);
  const findings = judgeRedisServer(facts);
  log.info({ version: facts.version, maxmemoryPolicy: facts.maxmemoryPolicy, aof: facts.aof, rdb: facts.rdb, findings: findings.length }, "redis server checked");
  for (const finding of findings) {
    switch (finding.kind) {
      case "too_old":
        log.error({ version: finding.version, minimum: MIN_REDIS_VERSION }, "redis server too old for the event queue");
        break;
      case "eviction":
        log.warn(
          { maxmemoryPolicy: finding.policy },
          "redis maxmemory-policy is not noeviction: when Redis fills up it may evict stored events and the ledger of answered ones; set maxmemory-policy noeviction",
        );
        break;
      case "no_persistence":
        log.warn("redis has no persistence (neither AOF nor RDB snapshots): a restart empties it, and events stored only there are lost; turn on appendonly yes");
        break;
      case "not_readable":
        log.info(
          { what: finding.what },
          finding.what === "info"
            ? "redis server not checked: the provider does not allow INFO; make sure it runs Redis 5.0 or later with maxmemory-policy noeviction and persistence"
            : "redis persistence not checked: AOF is off and the provider does not allow CONFIG GET save; make sure it keeps snapshots",
        );
        break;
    }
  }
  const old = findings.find((f) => f.kind === "too_old");
  if (old !== undefined && refuseTooOld) throw new RedisTooOldError(old.version);
  return findings;
}
