// What the start-up look at the Redis server concludes from what INFO (and CONFIG GET save) said.
import { describe, expect, it } from "vitest";
import { infoFields, judgeRedisServer } from "../../src/shared-state/server-checks.js";

const good = { version: "7.0.15", maxmemoryPolicy: "noeviction", aof: true, rdb: undefined };

describe("judgeRedisServer", () => {
  it.each([
    ["a current Redis with AOF and noeviction", good, []],
    ["Redis 4 (no consumer groups)", { ...good, version: "4.0.14" }, [{ kind: "too_old", version: "4.0.14" }]],
    ["Redis 5.0.0, the oldest the queue runs on", { ...good, version: "5.0.0" }, []],
    ["a provider's own version text", { ...good, version: "valkey-8" }, []],
    ["an eviction policy", { ...good, maxmemoryPolicy: "allkeys-lru" }, [{ kind: "eviction", policy: "allkeys-lru" }]],
    ["RDB snapshots only", { ...good, aof: false, rdb: true }, []],
    ["neither AOF nor RDB", { ...good, aof: false, rdb: false }, [{ kind: "no_persistence" }]],
    ["AOF off and CONFIG refused", { ...good, aof: false, rdb: undefined }, [{ kind: "not_readable", what: "persistence" }]],
    ["INFO refused", { version: undefined, maxmemoryPolicy: undefined, aof: undefined, rdb: undefined }, [{ kind: "not_readable", what: "info" }]],
  ])("%s", (_name, facts, findings) => {
    expect(judgeRedisServer(facts)).toEqual(findings);
  });

  it("reads INFO's field:value lines, skipping the section titles", () => {
    expect(infoFields("# Server\r\nredis_version:7.2.4\r\nredis_mode:standalone\r\n\r\n# Memory\r\nmaxmemory_policy:noeviction\r\n")).toEqual({
      redis_version: "7.2.4",
      redis_mode: "standalone",
      maxmemory_policy: "noeviction",
    });
  });
});
