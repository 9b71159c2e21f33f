// The shared queue on a redis-server of the test's own, with two queue objects on connections of their own
// standing for two instances: each key's items one at a time and in the order stored, whichever instance
// stored them; each item once; twice the items in hand with two instances; a stopped instance's items
// taken up by the other (at once when its connection is gone, never while it is there); and a Redis that
// comes back empty, or with its data.
import fc from "fast-check";
import type { Redis } from "ioredis";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDurableEventQueue, namedInstanceId, PARTITIONS, partitionOf, queueConnectionName, queueKeys } from "../../src/queue/index.js";
import type { DurableEventQueue, DurableEventQueueOptions, ItemHandler, QueueItem } from "../../src/queue/index.js";
import { connectRedis, whenUp } from "../../src/shared-state/redis.js";
import type { RedisLink } from "../../src/shared-state/redis.js";
import { commandStats, startTestRedis } from "../kit/redis-server.js";
import type { TestRedis } from "../kit/redis-server.js";

const silent = pino({ level: "silent" });
let prefixes = 0;
const open: Instance[] = [];

interface Instance {
  queue: DurableEventQueue;
  link: RedisLink;
}

/**
 * One instance's queue, with short leases and checks so the test need not wait long. With `instanceId`, its
 * queue connection is named after it, as the bot's are.
 */
function instance(url: string, keyPrefix: string, options: Partial<DurableEventQueueOptions> = {}): Instance {
  const link = connectRedis({ url, log: silent, workersName: options.instanceId === undefined ? undefined : queueConnectionName(options.instanceId) });
  const queue = createDurableEventQueue({
    commands: link.commands,
    workers: link.workers,
    log: silent,
    keyPrefix,
    leaseMs: 600,
    claimEveryMs: 100,
    keepCheckMs: 200,
    ...options,
  });
  const made = { queue, link };
  open.push(made);
  return made;
}

/** As SIGKILL leaves it: no more ticks, no acknowledgements, nothing given back. */
async function kill(dead: Instance): Promise<void> {
  await dead.queue.close();
  dead.link.commands.disconnect();
  dead.link.workers.disconnect();
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(check()).toBe(true);
}

/** As waitUntil, for a condition read from Redis. */
async function waitUntilRead(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await check()).toBe(true);
}

/** Both instances have their share of the partitions. */
async function shared(a: Instance, b: Instance): Promise<void> {
  await waitUntil(() => a.queue.stats.partitionsOwned === 32 && b.queue.stats.partitionsOwned === 32, 10_000);
}

interface Payload {
  id: string;
  key: string;
  delayMs?: number;
}

const item = (id: string, key: string, delayMs = 0): QueueItem => ({ id, orderingKey: key, payload: { id, key, delayMs } satisfies Payload });

/**
 * A's handler never finishes (it dies with what it holds), B's records each item and whether it may have run
 * before; 30 items of 30 chats stored through B, shared out between them. What A holds and what B handled.
 */
async function heldByOneHandledByOther(a: Instance, b: Instance, name: string): Promise<{ heldByA: string[]; byB: Map<string, boolean> }> {
  const heldByA: string[] = [];
  const byB = new Map<string, boolean>();
  await a.queue.startWorkers(async (payload) => {
    heldByA.push((payload as Payload).id);
    await new Promise(() => undefined);
  });
  await b.queue.startWorkers(async (payload, taken) => {
    byB.set((payload as Payload).id, taken.mayHaveRunBefore);
    return Promise.resolve();
  });
  await shared(a, b);
  expect(
    await b.queue.store(
      Array.from({ length: 30 }, (_, n) => item(`${name}-${n}`, `chat-${n}`)),
      5_000,
    ),
  ).toBe(true);
  await waitUntil(() => heldByA.length + byB.size === 30, 10_000);
  expect(heldByA.length).toBeGreaterThan(0);
  return { heldByA, byB };
}

/** Closes every instance the test opened (before its redis-server stops: a connection waiting for a server that is gone would wait for ever). */
async function closeOpen(): Promise<void> {
  for (const made of open.splice(0)) {
    await made.queue.close();
    await made.link.close();
  }
}
afterEach(closeOpen);

describe("the shared queue, two instances on one Redis", { timeout: 120_000 }, () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it("handles each item once, and each key's items one at a time in the order stored, whichever instance stored them", async () => {
    const prefix = `t${++prefixes}`;
    const a = instance(redis.url, prefix);
    const b = instance(redis.url, prefix);
    const handled: { id: string; key: string }[] = [];
    const running = new Map<string, number>();
    let overlaps = 0;
    const handler: ItemHandler = async (payload) => {
      const { id, key, delayMs } = payload as Payload;
      if ((running.get(key) ?? 0) > 0) overlaps += 1;
      running.set(key, (running.get(key) ?? 0) + 1);
      handled.push({ id, key });
      await new Promise((resolve) => setTimeout(resolve, delayMs ?? 0));
      running.set(key, (running.get(key) ?? 1) - 1);
    };
    await a.queue.startWorkers(handler);
    await b.queue.startWorkers(handler);
    await shared(a, b);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ key: fc.integer({ min: 0, max: 3 }), via: fc.constantFrom("a", "b"), delayMs: fc.integer({ min: 0, max: 4 }) }), { minLength: 1, maxLength: 24 }),
        async (plan) => {
          run += 1;
          const items = plan.map((step, index) => item(`r${run}-${index}`, `r${run}-key${step.key}`, step.delayMs));
          for (const [index, step] of plan.entries()) expect(await (step.via === "a" ? a : b).queue.store([items[index] as QueueItem], 5_000)).toBe(true);
          await waitUntil(() => items.every((stored) => handled.some((h) => h.id === stored.id)), 10_000);
          for (const stored of items) expect(handled.filter((h) => h.id === stored.id)).toHaveLength(1);
          for (const key of new Set(items.map((stored) => stored.orderingKey))) {
            expect(handled.filter((h) => h.key === key).map((h) => h.id)).toEqual(items.filter((stored) => stored.orderingKey === key).map((stored) => stored.id));
          }
        },
      ),
      { numRuns: 12 },
    );
    expect(overlaps).toBe(0);
  });

  it("shares the handler slots between groups: a busy group's held backlog holds its share, another group's items are handled past it", async () => {
    const prefix = `t${++prefixes}`;
    // Group of a key: what comes before its slash (as the bot's `<shop>/<chat>`).
    const one = instance(redis.url, prefix, { inHand: 4, inHandPerGroup: 2, groupOf: (key) => key.slice(0, key.indexOf("/")) });
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const running = { busy: 0, quiet: 0 };
    const most = { busy: 0, quiet: 0 };
    const done = { busy: 0, quiet: 0 };
    await one.queue.startWorkers(async (payload) => {
      const group = (payload as Payload).key.startsWith("busy/") ? "busy" : "quiet";
      running[group] += 1;
      most[group] = Math.max(most[group], running[group]);
      if (group === "busy") await held;
      running[group] -= 1;
      done[group] += 1;
    });
    // Thirty of the busy group's items stored first (more than four times the slots), then three of the quiet one's.
    expect(
      await one.queue.store(
        Array.from({ length: 30 }, (_, n) => item(`busy-${n}`, `busy/chat-${n}`)),
        5_000,
      ),
    ).toBe(true);
    await waitUntil(() => running.busy === 2, 10_000);
    expect(await one.queue.store([item("quiet-0", "quiet/chat-0"), item("quiet-1", "quiet/chat-1"), item("quiet-2", "quiet/chat-2")], 5_000)).toBe(true);
    // The quiet group's items are handled while every busy item is still held.
    await waitUntil(() => done.quiet === 3, 10_000);
    expect(done.busy).toBe(0);
    // What this instance stored and has not seen handled, by group: the quiet group's, once acknowledged, none.
    await waitUntil(() => !one.queue.keptByGroup().has("quiet"), 10_000);
    expect(one.queue.keptByGroup()).toEqual(new Map([["busy", 30]]));
    release();
    await waitUntil(() => done.busy === 30, 10_000);
    expect(most).toEqual({ busy: 2, quiet: most.quiet });
    expect(most.quiet).toBeGreaterThanOrEqual(1);
    await waitUntil(() => one.queue.keptByGroup().size === 0, 10_000);
  });

  it("holds each instance's bound at once, so two instances hold twice what one does, and share the work", async () => {
    const prefix = `t${++prefixes}`;
    const a = instance(redis.url, prefix, { inHand: 3 });
    const b = instance(redis.url, prefix, { inHand: 3 });
    let open_ = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open_ = resolve));
    const now = { a: 0, b: 0 };
    const most = { a: 0, b: 0 };
    const done = { a: 0, b: 0 };
    const handlerOf =
      (name: "a" | "b"): ItemHandler =>
      async () => {
        now[name] += 1;
        most[name] = Math.max(most[name], now[name]);
        await gate;
        now[name] -= 1;
        done[name] += 1;
      };
    await a.queue.startWorkers(handlerOf("a"));
    await b.queue.startWorkers(handlerOf("b"));
    await shared(a, b);
    const items = Array.from({ length: 40 }, (_, n) => item(`cap-${n}`, `chat-${n}`));
    expect(await a.queue.store(items, 5_000)).toBe(true);
    // Both full: three each, six in all (one instance alone would hold three).
    await waitUntil(() => now.a + now.b === 6, 10_000);
    open_();
    await waitUntil(() => done.a + done.b === 40, 10_000);
    expect(most).toEqual({ a: 3, b: 3 });
    expect(done.a).toBeGreaterThan(0);
    expect(done.b).toBeGreaterThan(0);
  });

  it("gives what a stopped instance held to the other, those it had in hand marked as maybe run before", async () => {
    const prefix = `t${++prefixes}`;
    const a = instance(redis.url, prefix);
    const b = instance(redis.url, prefix);
    const { heldByA, byB } = await heldByOneHandledByOther(a, b, "kill");
    const handledFirstByB = new Set(byB.keys());
    await kill(a);
    const later = Array.from({ length: 10 }, (_, n) => item(`after-${n}`, `chat-${n}`));
    expect(await b.queue.store(later, 5_000)).toBe(true);
    await waitUntil(() => byB.size === 40, 15_000);
    for (const id of heldByA) expect(byB.get(id)).toBe(true);
    for (const id of handledFirstByB) expect(byB.get(id)).toBe(false);
    // Those stored after the kill are all handled too (one the dead reader was being given as it died counts as maybe run).
    for (const { id } of later) expect(byB.has(id)).toBe(true);
    expect(b.queue.stats.partitionsOwned).toBe(64);
  });

  it("reads a stopped instance's items again when its first look at them fails (Redis refuses the read for a while)", async () => {
    const prefix = `t${++prefixes}`;
    const a = instance(redis.url, prefix);
    const b = instance(redis.url, prefix);
    const { heldByA, byB } = await heldByOneHandledByOther(a, b, "refused");
    const admin = b.link.workers.duplicate();
    const refusedReads = async (): Promise<number> => Number(/cmdstat_xreadgroup:[^\r\n]*rejected_calls=(\d+)/.exec(String(await admin.info("commandstats")))?.[1] ?? 0);
    try {
      // Redis refuses every read of the streams from now on (as a failing or restarting server would).
      await admin.call("ACL", "SETUSER", "default", "-xreadgroup");
      await kill(a);
      await waitUntil(() => b.queue.stats.partitionsOwned === 64, 10_000);
      // The barrier: B's reads refused twice since it took A's partitions, the first of them its look at A's items.
      const refused = await refusedReads();
      const deadline = Date.now() + 10_000;
      while ((await refusedReads()) < refused + 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await refusedReads()).toBeGreaterThanOrEqual(refused + 2);
    } finally {
      await admin.call("ACL", "SETUSER", "default", "+@all");
      admin.disconnect();
    }
    await waitUntil(() => byB.size === 30, 15_000);
    for (const id of heldByA) expect(byB.get(id)).toBe(true);
  });

  // A killed instance, found by its connection.
  it("gives what a killed instance held to the other long before its lease would run out: its connection to Redis is gone", async () => {
    const prefix = `t${++prefixes}`;
    // A lease of ten minutes: only the missing connection can free the dead instance's partitions in this test.
    const long = { leaseMs: 600_000 };
    const a = instance(redis.url, prefix, { ...long, instanceId: namedInstanceId() });
    const b = instance(redis.url, prefix, { ...long, instanceId: namedInstanceId() });
    const { heldByA, byB } = await heldByOneHandledByOther(a, b, "gone");
    await kill(a);
    await waitUntil(() => byB.size === 30, 15_000);
    for (const id of heldByA) expect(byB.get(id)).toBe(true);
    expect(b.queue.stats.partitionsOwned).toBe(64);
  });

  it("leaves a silent instance's partitions alone while its connection is still there (it may only be slow)", async () => {
    const prefix = `t${++prefixes}`;
    const long = { leaseMs: 600_000 };
    const a = instance(redis.url, prefix, { ...long, instanceId: namedInstanceId() });
    const b = instance(redis.url, prefix, { ...long, instanceId: namedInstanceId() });
    await a.queue.startWorkers(() => Promise.resolve());
    await b.queue.startWorkers(() => Promise.resolve());
    await shared(a, b);
    // How many times Redis was asked for its connections (only B asks, once A is silent).
    const lookups = async (): Promise<number> => Number(/cmdstat_client\|list:calls=(\d+)/.exec(String(await a.link.commands.info("commandstats")))?.[1] ?? 0);
    const before = await lookups();
    // A stops ticking (as a process stuck on a long task would) but keeps its connections.
    await a.queue.close();
    // The barrier: B has looked for A's connection five times, and found it each time.
    const deadline = Date.now() + 10_000;
    while ((await lookups()) < before + 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await lookups()).toBeGreaterThanOrEqual(before + 5);
    expect(b.queue.stats.partitionsOwned).toBe(32);
  });

  it("after its connection dropped, handles a chat's item handed out as it dropped before the chat's next one", async () => {
    const prefix = `t${++prefixes}`;
    const a = instance(redis.url, prefix);
    const seen: string[] = [];
    await a.queue.startWorkers(async (payload) => {
      seen.push((payload as Payload).id);
      return Promise.resolve();
    });
    await waitUntil(() => a.queue.stats.partitionsOwned === 64, 10_000);
    const admin = a.link.workers.duplicate();
    try {
      // "earlier" handed to the owner's name as the connection drops (as in the test above), then the chat's
      // next item stored while the instance reconnects: the read sent again after the drop may return it first.
      const stream = queueKeys(prefix).stream(partitionOf("chat-3", PARTITIONS));
      await admin
        .multi()
        .xadd(stream, "*", "i", "earlier", "k", "chat-3", "p", JSON.stringify({ id: "earlier", key: "chat-3" }))
        .xreadgroup("GROUP", "handlers", "owner", "COUNT", 10, "STREAMS", stream, ">")
        .exec();
      const readers = String(await admin.client("LIST"))
        .split("\n")
        .filter((line) => / name=slipline-queue-reader /.test(line));
      await admin.client("KILL", "ID", /\bid=(\d+)/.exec(readers[0] as string)?.[1] as string);
      expect(await a.queue.store([item("later", "chat-3")], 5_000)).toBe(true);
      await waitUntil(() => seen.length === 2, 10_000);
      expect(seen).toEqual(["earlier", "later"]);
    } finally {
      admin.disconnect();
    }
  });

  it("alone with more partitions than free handler slots, waits for new items while a handler runs, rather than reading again and again", async () => {
    // A Redis of its own: the command counts are the server's, and no other test's instances may add to them.
    const own = await startTestRedis({ persistence: false });
    try {
      const a = instance(own.url, `t${++prefixes}`, { inHand: 2 });
      let release = (): void => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const started: string[] = [];
      await a.queue.startWorkers(async (payload) => {
        started.push((payload as Payload).id);
        if ((payload as Payload).id === "held") await gate;
      });
      await waitUntil(() => a.queue.stats.partitionsOwned === PARTITIONS, 10_000);
      expect(await a.queue.store([item("held", "chat-held")], 5_000)).toBe(true);
      await waitUntil(() => started.includes("held"), 10_000);
      // One handler runs, one slot is free, 64 partitions are owned. Over five of the instance's own claim
      // ticks (each one ZADD), the reads are counted.
      const admin = a.link.workers.duplicate();
      await admin.config("RESETSTAT");
      const calls = async (name: string): Promise<number> => commandStats(await admin.info("commandstats"))[name] ?? 0;
      const deadline = Date.now() + 10_000;
      while ((await calls("zadd")) < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await calls("zadd")).toBeGreaterThanOrEqual(5);
      // A look without waiting and a wait of a second: a few reads. Before, one read after another: hundreds.
      expect(await calls("xreadgroup")).toBeLessThanOrEqual(6);
      // The wait is on every partition: an item of another chat is taken at once, in the free slot.
      expect(await a.queue.store([item("next", "chat-next")], 5_000)).toBe(true);
      await waitUntil(() => started.includes("next"), 10_000);
      release();
      await waitUntil(() => a.queue.stats.inHand === 0, 10_000);
      admin.disconnect();
    } finally {
      // The instance first: a tick sent while its Redis is gone would hold its connection's quit.
      await closeOpen();
      await own.stop();
    }
  });

  it("acknowledges what it handled along with the next items it stores, in the same step", async () => {
    const prefix = `t${++prefixes}`;
    const a = instance(redis.url, prefix);
    const [firstKey, secondKey] = ["chat-1", "chat-2"];
    expect(partitionOf(firstKey, PARTITIONS)).not.toBe(partitionOf(secondKey, PARTITIONS));
    let storing: Promise<boolean> | undefined;
    await a.queue.startWorkers(async (payload) => {
      // As a webhook arriving just after: the first item's acknowledgement is still in its 0.1 s window.
      if ((payload as Payload).id === "first")
        setImmediate(() => {
          storing = a.queue.store([item("second", secondKey)], 5_000);
        });
      return Promise.resolve();
    });
    await waitUntil(() => a.queue.stats.partitionsOwned === 64, 10_000);
    expect(await a.queue.store([item("first", firstKey)], 5_000)).toBe(true);
    await waitUntil(() => storing !== undefined, 10_000);
    expect(await storing).toBe(true);
    // Gone as soon as the second item is stored, not at the end of the window.
    expect(await a.link.commands.xlen(queueKeys(prefix).stream(partitionOf(firstKey, PARTITIONS)))).toBe(0);
  });

  // Redis going away mid-read: it hands entries to the blocked read, then the connection drops before the
  // answer arrives. Those entries are pending in the owner's name, and nothing else would ever read them.
  it("reads again, once its connection is back, what a read handed it as the connection dropped; what it has in hand is not handed out twice", async () => {
    const prefix = `t${++prefixes}`;
    const a = instance(redis.url, prefix);
    const seen: { id: string; mayHaveRunBefore: boolean }[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await a.queue.startWorkers(async (payload, taken) => {
      seen.push({ id: (payload as Payload).id, mayHaveRunBefore: taken.mayHaveRunBefore });
      if ((payload as Payload).id === "in-hand") await held;
    });
    await waitUntil(() => a.queue.stats.partitionsOwned === 64, 10_000);
    expect(await a.queue.store([item("in-hand", "chat-1")], 5_000)).toBe(true);
    await waitUntil(() => seen.some((s) => s.id === "in-hand"), 10_000);

    // The lost answer, made by hand: the entry is added and handed to the owner's name in one transaction,
    // so the instance's blocked read never sees it.
    const admin = a.link.workers.duplicate();
    try {
      const stream = queueKeys(prefix).stream(partitionOf("chat-2", PARTITIONS));
      const [[, added], [, handed]] = (await admin
        .multi()
        .xadd(stream, "*", "i", "lost", "k", "chat-2", "p", JSON.stringify({ id: "lost", key: "chat-2" }))
        .xreadgroup("GROUP", "handlers", "owner", "COUNT", 10, "STREAMS", stream, ">")
        .exec()) as [[null, string], [null, [string, [string, string[]][]][]]];
      expect(handed[0]?.[1].map(([entryId]) => entryId)).toEqual([added]);
      // The drop: Redis closes the instance's reading connection.
      const readers = String(await admin.client("LIST"))
        .split("\n")
        .filter((line) => / name=slipline-queue-reader /.test(line));
      expect(readers).toHaveLength(1);
      await admin.client("KILL", "ID", /\bid=(\d+)/.exec(readers[0] as string)?.[1] as string);

      await waitUntil(() => seen.some((s) => s.id === "lost"), 10_000);
      // Read in the same step as "lost" (both pending in the owner's name), "in-hand" was skipped: still once.
      expect(seen).toEqual([
        { id: "in-hand", mayHaveRunBefore: false },
        { id: "lost", mayHaveRunBefore: true },
      ]);
      // Looking again did not count a delivery of what it has in hand (five make an entry poison for a next owner).
      const inHandStream = queueKeys(prefix).stream(partitionOf("chat-1", PARTITIONS));
      expect((await admin.xpending(inHandStream, "handlers", "-", "+", 10)).map((row) => (row as [string, string, number, number])[3])).toEqual([1]);
      release();
      await waitUntil(() => a.queue.stats.inHand === 0, 10_000);
      // Both acknowledged and gone: nothing left for a later owner to handle again.
      const streams = [stream, queueKeys(prefix).stream(partitionOf("chat-1", PARTITIONS))];
      const deadline = Date.now() + 5_000;
      const lengths = async (): Promise<number[]> => Promise.all(streams.map((key) => admin.xlen(key)));
      while ((await lengths()).some((n) => n > 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await lengths()).toEqual([0, 0]);
    } finally {
      release();
      admin.disconnect();
    }
  });
});

describe("a Redis that comes back", { timeout: 120_000 }, () => {
  const stores = async (url: string, prefix: string, count: number) => {
    let restored = 0;
    const storer = instance(url, prefix, { observer: { restored: (n) => (restored += n) } });
    await whenUp(storer.link.commands);
    const items = Array.from({ length: count }, (_, n) => item(`${prefix}-${n}`, `chat-${n % 3}`));
    expect(await storer.queue.store(items, 5_000)).toBe(true);
    expect(storer.queue.stats.kept).toBe(count);
    return { storer, items, restored: () => restored };
  };
  const work = async (url: string, prefix: string) => {
    const seen: { id: string; mayHaveRunBefore: boolean }[] = [];
    const worker = instance(url, prefix);
    await worker.queue.startWorkers(async (payload, taken) => {
      seen.push({ id: (payload as Payload).id, mayHaveRunBefore: taken.mayHaveRunBefore });
      return Promise.resolve();
    });
    return seen;
  };
  /** How many times the server ran a command since it started (those a script runs count too). */
  const callsOf = async (admin: Redis, name: string): Promise<number> => commandStats(await admin.info("commandstats"))[name] ?? 0;
  /**
   * The barrier before a restart: the keeper has learnt the marker, shown by a look with it (its script
   * reads each of the items kept; nothing else reads a stream before the workers start).
   */
  const markerLearnt = (admin: Redis, kept: number): Promise<void> => waitUntilRead(async () => (await callsOf(admin, "xrange")) >= kept, 10_000);

  it("empty: the instance that stored the items stores them again, and each is handled, marked as maybe run before", async () => {
    const redis = await startTestRedis({ persistence: false });
    let admin: Redis | undefined;
    try {
      const prefix = `t${++prefixes}`;
      const { storer, items, restored } = await stores(redis.url, prefix, 12);
      admin = storer.link.workers.duplicate();
      await markerLearnt(admin, 12);
      await redis.restart();
      await waitUntil(() => restored() === 12, 15_000);
      const seen = await work(redis.url, prefix);
      await waitUntil(() => seen.length === 12, 15_000);
      expect(seen.map((s) => s.id).sort()).toEqual(items.map((i) => i.id).sort());
      expect(seen.every((s) => s.mayHaveRunBefore)).toBe(true);
      await waitUntil(() => storer.queue.stats.kept === 0, 10_000);
    } finally {
      admin?.disconnect();
      await closeOpen();
      await redis.stop();
    }
  });

  it("with its data: nothing is stored again, and each item is handled once", async () => {
    const redis = await startTestRedis({ persistence: true });
    let admin: Redis | undefined;
    try {
      const prefix = `t${++prefixes}`;
      const { storer, items, restored } = await stores(redis.url, prefix, 12);
      admin = storer.link.workers.duplicate();
      await markerLearnt(admin, 12);
      await redis.restart();
      // The barrier before any item is handled: the keeper has seen the restart (Redis's run id changed)
      // and, the marker there, looked for the items missing and learnt the marker again (its one MULTI;
      // the server's counts start again with it). Anything it were to store again, it has decided on.
      await waitUntilRead(async () => (await callsOf(admin as Redis, "exec")) >= 1, 10_000);
      const seen = await work(redis.url, prefix);
      await waitUntil(() => seen.length === 12 && storer.queue.stats.kept === 0, 15_000);
      expect(restored()).toBe(0);
      expect(seen.map((s) => s.id).sort()).toEqual(items.map((i) => i.id).sort());
      expect(seen.some((s) => s.mayHaveRunBefore)).toBe(false);
    } finally {
      admin?.disconnect();
      await closeOpen();
      await redis.stop();
    }
  });
});
