// The friendly note's memory: once per chat per period, and bounded.
import { describe, expect, it } from "vitest";
import { createQuietNotes } from "../../src/stores/quiet-notes.js";

describe("createQuietNotes", () => {
  it("lets a chat have the note once per period, each chat on its own clock", async () => {
    const notes = createQuietNotes({ periodMs: 1000 });
    expect(await notes.claim("U1", 0)).toBe(true);
    expect(await notes.claim("U1", 999)).toBe(false);
    expect(await notes.claim("U2", 500)).toBe(true);
    expect(await notes.claim("U1", 1000)).toBe(true);
    expect(await notes.claim("U2", 1000)).toBe(false);
  });

  it("forgets the least recently noted chats first when full, so memory stays bounded", async () => {
    const notes = createQuietNotes({ periodMs: 1000, maxChats: 2 });
    await notes.claim("A", 0);
    await notes.claim("B", 1);
    await notes.claim("C", 2); // A is forgotten
    expect(await notes.claim("B", 3)).toBe(false);
    expect(await notes.claim("C", 3)).toBe(false);
    expect(await notes.claim("A", 3)).toBe(true);
  });
});
