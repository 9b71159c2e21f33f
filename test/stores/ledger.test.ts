// The event ledger's memory on one instance: each event id once, for its window, in bounded memory.
import { describe, expect, it } from "vitest";
import { createEventDeduper } from "../../src/stores/ledger.js";

describe("event deduper", () => {
  it("lets an event id through once and refuses its repeats", () => {
    const dedupe = createEventDeduper();
    expect(dedupe.firstSeen("01HZY")).toBe(true);
    expect(dedupe.firstSeen("01HZY")).toBe(false);
    expect(dedupe.firstSeen("01HZZ")).toBe(true);
  });

  it("remembers an id for its whole window (at least an hour), then forgets it", () => {
    let clock = 0;
    const dedupe = createEventDeduper({ ttlMs: 60 * 60 * 1000, now: () => clock });
    dedupe.firstSeen("a");
    clock = 60 * 60 * 1000 - 1;
    expect(dedupe.firstSeen("a")).toBe(false);
    clock = 2 * 60 * 60 * 1000;
    expect(dedupe.firstSeen("a")).toBe(true);
  });

  it("keeps memory bounded: past the cap the oldest ids are forgotten first", () => {
    const dedupe = createEventDeduper({ maxEntries: 3, now: () => 0 });
    for (const id of ["a", "b", "c", "d"]) dedupe.firstSeen(id);
    expect(dedupe.size).toBe(3);
    expect(dedupe.firstSeen("d")).toBe(false);
    expect(dedupe.firstSeen("a")).toBe(true);
  });

  it("drops expired ids as time passes, so an idle bot shrinks", () => {
    let clock = 0;
    const dedupe = createEventDeduper({ ttlMs: 1000, now: () => clock });
    for (let i = 0; i < 50; i++) dedupe.firstSeen(`id-${i}`);
    clock = 5000;
    dedupe.firstSeen("new");
    expect(dedupe.size).toBe(1);
  });
});
