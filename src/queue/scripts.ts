// The queue's Lua scripts, each one step in Redis, and their calls on a connection: the tick (liveness,
// claims and suspects), forgetting a dead instance, giving leases back, storing, the keeper's look and the
// acknowledgements.
import type { Redis } from "ioredis";

// One round trip per tick: the instance says it lives (a sorted set of instances by their last tick; one
// silent for `stale` ms is dropped), and claims partitions up to its share: a partition is free when its
// lease names no instance that lives. Its own leases are checked only when it may have lost them (it was
// silent too long itself) and their expiry pushed back now and then (the expiry only clears leases left
// behind). Returns the share, the partitions lost, those claimed now, and the instances silent for a while
// (each with its last tick), whose connections are then looked for.
const TICK_SCRIPT = `
local me = ARGV[1]
local now = tonumber(ARGV[2])
local stale = tonumber(ARGV[3])
local partitions = tonumber(ARGV[4])
local leasePrefix = ARGV[5]
local start = tonumber(ARGV[6])
local leaseTtl = tonumber(ARGV[7])
local refresh = ARGV[8] == '1'
local suspectBefore = now - tonumber(ARGV[9])
local owned = tonumber(ARGV[10])
local last = redis.call('ZSCORE', KEYS[1], me)
local wasAlive = last and tonumber(last) >= now - stale
redis.call('ZADD', KEYS[1], now, me)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - stale)
redis.call('PEXPIRE', KEYS[1], stale * 10)
local share = math.ceil(partitions / redis.call('ZCARD', KEYS[1]))
local held = owned
local lost = {}
if (not wasAlive) or refresh then
  held = 0
  for i = 1, owned do
    local p = ARGV[10 + i]
    local key = leasePrefix .. p
    if redis.call('GET', key) == me then
      redis.call('PEXPIRE', key, leaseTtl)
      held = held + 1
    else
      table.insert(lost, tonumber(p))
    end
  end
end
local claimed = {}
local j = 0
while held < share and j < partitions do
  local p = (start + j) % partitions
  local key = leasePrefix .. p
  local owner = redis.call('GET', key)
  if owner ~= me and ((not owner) or (not redis.call('ZSCORE', KEYS[1], owner))) then
    redis.call('SET', key, me, 'PX', leaseTtl)
    table.insert(claimed, p)
    held = held + 1
  end
  j = j + 1
end
local suspects = {}
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. suspectBefore, 'WITHSCORES')) do
  table.insert(suspects, member)
end
return {share, lost, claimed, suspects}`;

/** Forgets an instance taken for dead, unless it said it lives since (its last tick still the one seen). */
const FORGET_SCRIPT = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0`;

/** Gives leases back, only those still this instance's. */
const RELEASE_SCRIPT = `
local released = 0
for i = 2, #ARGV do
  local key = ARGV[1] .. ARGV[i]
  if redis.call('GET', key) == KEYS[1] then
    redis.call('DEL', key)
    released = released + 1
  end
end
return released`;

// Acknowledges handled entries and deletes them, stream by stream: `streams` the keys, ARGV from `at` for
// each stream the count of its ids, then the ids (in chunks: Lua's unpack takes a few thousand at most).
const ACK_LUA = `
local function acknowledge(streams, group, at)
  for _, stream in ipairs(streams) do
    local count = tonumber(ARGV[at])
    for from = 1, count, 1000 do
      local ids = {}
      for j = from, math.min(count, from + 999) do ids[#ids + 1] = ARGV[at + j] end
      redis.call('XACK', stream, group, unpack(ids))
      redis.call('XDEL', stream, unpack(ids))
    end
    at = at + count + 1
  end
end`;

// Stores items: each is added to its partition's stream only if its id was not stored (or answered) in
// the last day, the id's mark set in the same step. Items stored again after a loss of Redis's data are
// added whatever the mark says. Returns each item's entry id, or "" for an id seen before. KEYS: each
// item's stream and mark, then the streams of the acknowledgements that ride along; ARGV: the mark's
// expiry, the item count, four per item, then as ACK_SCRIPT's ARGV. The acknowledgements go first: should
// they fail, nothing is stored (a script's writes are not undone), and the caller handles the items itself.
const STORE_SCRIPT = `${ACK_LUA}
local ttl = ARGV[1]
local n = tonumber(ARGV[2])
local ackStreams = {}
for k = 2 * n + 1, #KEYS do ackStreams[#ackStreams + 1] = KEYS[k] end
acknowledge(ackStreams, ARGV[3 + n * 4], 4 + n * 4)
local out = {}
for i = 1, n do
  local base = 2 + (i - 1) * 4
  local restored = ARGV[base + 4] == '1'
  local fresh = redis.call('SET', KEYS[2 * i], '1', 'NX', 'EX', ttl)
  if fresh or restored then
    if restored then
      out[i] = redis.call('XADD', KEYS[2 * i - 1], '*', 'i', ARGV[base + 1], 'k', ARGV[base + 2], 'p', ARGV[base + 3], 'r', '1')
    else
      out[i] = redis.call('XADD', KEYS[2 * i - 1], '*', 'i', ARGV[base + 1], 'k', ARGV[base + 2], 'p', ARGV[base + 3])
    end
  else
    out[i] = ''
  end
end
return out`;

// The keeper's look, in one step: whether the marker is still the one this instance knows (renewing it),
// and which of the entries it keeps are gone from their streams. Returns {0} when the marker is not, else
// {1, indexes of the entries gone...}.
const KEEP_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {0} end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local out = {1}
for i = 3, #ARGV, 2 do
  if #redis.call('XRANGE', ARGV[i], ARGV[i + 1], ARGV[i + 1]) == 0 then table.insert(out, (i - 1) / 2) end
end
return out`;

// Acknowledges handled entries and deletes them: KEYS are the streams, ARGV the group, then for each
// stream the count of its ids and the ids.
const ACK_SCRIPT = `${ACK_LUA}
acknowledge(KEYS, ARGV[1], 2)
return 1`;

/** The scripts, sent once and then called by their hash. */
export interface QueueScripts {
  queueTick(instances: string, ...args: string[]): Promise<[number, number[], number[], string[]]>;
  queueForget(instances: string, member: string, score: string): Promise<number>;
  queueRelease(me: string, ...args: string[]): Promise<number>;
  queueKeep(marker: string, ...args: string[]): Promise<number[]>;
  queueAck(streamCount: number, ...keysAndArgs: string[]): Promise<number>;
}

/** A connection with the queue's scripts defined on it. */
export type ScriptedRedis = Redis & QueueScripts;

/** The store script's call: keys and arguments in one list, the number of keys apart. */
export type StoreCall = (keysAndArgs: string[], keyCount: number) => Promise<string[]>;

export function withScripts(redis: Redis): ScriptedRedis {
  const scripted = redis as Redis & Partial<QueueScripts>;
  if (scripted.queueTick === undefined) redis.defineCommand("queueTick", { numberOfKeys: 1, lua: TICK_SCRIPT });
  if (scripted.queueRelease === undefined) redis.defineCommand("queueRelease", { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  if (scripted.queueForget === undefined) redis.defineCommand("queueForget", { numberOfKeys: 1, lua: FORGET_SCRIPT });
  if (scripted.queueKeep === undefined) redis.defineCommand("queueKeep", { numberOfKeys: 1, lua: KEEP_SCRIPT });
  if (scripted.queueAck === undefined) redis.defineCommand("queueAck", { lua: ACK_SCRIPT });
  return redis as ScriptedRedis;
}

/** The store script's call: its keys depend on the items. */
export function storeScript(redis: Redis): StoreCall {
  const scripted = redis as Redis & { queueStore?: (count: number, ...keysAndArgs: string[]) => Promise<string[]> };
  if (scripted.queueStore === undefined) redis.defineCommand("queueStore", { lua: STORE_SCRIPT });
  return (keysAndArgs, keyCount) => (scripted as Required<typeof scripted>).queueStore(keyCount, ...keysAndArgs);
}
