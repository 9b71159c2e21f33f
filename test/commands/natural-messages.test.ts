// The reader measured on messages as people type them (natural-messages.ts, a literal table written from how
// staff and customers write): most are understood with every detail, none is run as the wrong command, and the
// talk among staff or from customers is left alone.
import { describe, expect, it } from "vitest";
import { explainCommand, parseCommand } from "../../src/commands/parse.js";
import type { ParseContext } from "../../src/commands/types.js";
import { NATURAL_MESSAGES } from "./natural-messages.js";
import { meantOf } from "./natural-reading.js";

const ctx: ParseContext = { now: new Date("2026-11-22T07:05:00.000Z"), timeZone: "Asia/Bangkok", defaultLang: "th" };
const read = NATURAL_MESSAGES.map(([message, place, meant]) => ({ message, place, meant, got: meantOf(parseCommand(message, ctx), place) }));

describe("natural messages", () => {
  it("has 150 rows or more", () => {
    expect(NATURAL_MESSAGES.length).toBeGreaterThanOrEqual(150);
  });

  it("understands at least 90 % with the right command and details", () => {
    const understood = read.filter((r) => r.got === r.meant).length;
    expect(understood / read.length).toBeGreaterThanOrEqual(0.9);
  });

  it("never runs a wrong command, nor the right one with wrong details (precision before recall)", () => {
    expect(read.filter((r) => r.got !== "none" && r.got !== r.meant).map((r) => `${r.message} => ${r.got}`)).toEqual([]);
  });

  it("leaves talk alone: staff among themselves, and customers", () => {
    expect(read.filter((r) => r.meant === "none" && r.got !== "none").map((r) => r.message)).toEqual([]);
  });
});

describe("why a message was read as it was (the debug log's line)", () => {
  // A name or any other typed word beside a time is not a word of the reader's lists: the why names none.
  it.each(["สมชาย 14:30 ยอด 150", "history secretword 09:15", "นางสมศรี 10:45 เข้ายัง 300"])("names no word of %s but the reader's own", (message) => {
    const why = explainCommand(message, ctx).why;
    const said = JSON.stringify(why ?? {});
    for (const typed of ["สมชาย", "secretword", "นางสมศรี"]) expect(said).not.toContain(typed);
  });
});
