// Property tests: the parser survives any text, history requests round-trip, amounts are exact.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatHistoryCommand } from "../../src/commands/format.js";
import { parseCommand } from "../../src/commands/parse.js";
import { MAX_DAYS, MAX_PAGE, MAX_TRANS_REF_LENGTH, STATUS_WORDS } from "../../src/commands/parse-history.js";
import { MAX_AMOUNT_SATANG } from "../../src/promptpay/amount.js";
import { COMMANDS, COMMAND_NAMES } from "../../src/commands/registry.js";
import type { CalendarDate, HistoryRequest, ParseContext, ParseResult, RangeSpec } from "../../src/commands/types.js";
import type { SlipStatus } from "../../src/slip/types.js";

const ctx: ParseContext = { now: new Date("2026-11-22T07:00:00Z"), timeZone: "Asia/Bangkok", defaultLang: "th" };

/** A result is a command or a failure of a known kind, with a language. */
function expectWellFormed(result: ParseResult): void {
  if (result.ok) {
    expect(COMMAND_NAMES).toContain(result.command.kind);
    expect(["en", "th"]).toContain(result.command.lang);
  } else {
    expect(["usage", "unknown", "empty", "unsure"]).toContain(result.failure.kind);
    expect(["en", "th"]).toContain(result.failure.lang);
  }
}

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const thaiWithMarks = fc.array(fc.integer({ min: 0x0e01, max: 0x0e5b }), { maxLength: 30 }).map((units) => String.fromCharCode(...units));
const commandWords = COMMAND_NAMES.flatMap((name) => [...COMMANDS[name].words.en, ...COMMANDS[name].words.th]);
const pieces = fc.oneof(
  fc.constantFrom(...commandWords, "/", "!", "฿", "บาท", "..", "ถึง", "to", "ref", "หน้า", "page", "7วัน", "เมื่อวาน"),
  fc.constantFrom(" ", "\u00A0", "\u3000", "\n", "\t", "\u200B", "\u0000", "\u0007", "\u0085", "\uFEFF"),
  fc.constantFrom("😀", "👨‍👩‍👧", "\uD800", "\uDC00", "\u0E49\u0E33", "e\u0301", "０８１"),
  fc.stringMatching(/^[0-9,.\-/+]{1,15}$/u),
  thaiWithMarks,
  fc.string({ unit: "binary", maxLength: 10 }),
  fc.string({ unit: anyCodeUnit, maxLength: 10 }),
);
const messages = fc.array(pieces, { maxLength: 20 }).map((parts) => parts.join(""));

describe("parseCommand never throws", () => {
  it("on any string of code units, lone surrogates and control characters included", () => {
    fc.assert(
      fc.property(fc.string({ unit: anyCodeUnit, maxLength: 200 }), (text) => expectWellFormed(parseCommand(text, ctx))),
      { numRuns: 2000 },
    );
  });

  it("on command-like text mixing words, numbers, Thai marks, emoji and odd spaces", () => {
    fc.assert(
      fc.property(messages, (text) => expectWellFormed(parseCommand(text, ctx))),
      { numRuns: 3000 },
    );
  });

  it("on 5,000-character messages", () => {
    fc.assert(
      fc.property(fc.constantFrom("", "qr ", "history ", "ประวัติ", "คิวอาร์"), pieces, (start, piece) => {
        const filler = piece === "" ? "x" : piece;
        const text = (start + filler.repeat(Math.ceil(5000 / filler.length))).slice(0, 5000);
        expectWellFormed(parseCommand(text, ctx));
      }),
      { numRuns: 100 },
    );
  });

  it("in any time zone and at any moment", () => {
    fc.assert(
      fc.property(
        messages,
        fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2150-01-01T00:00:00Z"), noInvalidDate: true }),
        fc.constantFrom("Asia/Bangkok", "UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/Sao_Paulo"),
        (text, now, timeZone) => expectWellFormed(parseCommand(text, { now, timeZone, defaultLang: "en" })),
      ),
      { numRuns: 500 },
    );
  });
});

const calendarDate: fc.Arbitrary<CalendarDate> = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2199-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => ({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }));

const dates: fc.Arbitrary<RangeSpec> = fc.tuple(calendarDate, calendarDate).map(([a, b]) => {
  const [from, to] = a.year * 10000 + a.month * 100 + a.day <= b.year * 10000 + b.month * 100 + b.day ? [a, b] : [b, a];
  return { kind: "dates", from, to };
});
const range: fc.Arbitrary<RangeSpec> = fc.oneof(
  dates,
  fc.constantFrom<RangeSpec>({ kind: "today" }, { kind: "yesterday" }, { kind: "month" }, { kind: "lastmonth" }),
  fc.integer({ min: 1, max: MAX_DAYS }).map((days): RangeSpec => ({ kind: "days", days })),
);
const page = fc.integer({ min: 1, max: MAX_PAGE });
const status = fc.constantFrom(...(Object.keys(STATUS_WORDS) as SlipStatus[]));
const transRef = fc.stringMatching(new RegExp(`^[A-Za-z0-9_-]{1,${MAX_TRANS_REF_LENGTH}}$`, "u"));
const request: fc.Arbitrary<HistoryRequest> = fc.oneof(
  fc.record({ by: fc.constant("range" as const), range, page }),
  fc.record({ by: fc.constant("range" as const), range, status, page }),
  fc.record({ by: fc.constant("ref" as const), transRef, page }),
);

describe("formatHistoryCommand round-trips", () => {
  it("parse(format(request)) gives the request back, in both languages, within 300 characters", () => {
    fc.assert(
      fc.property(request, fc.constantFrom("en", "th" as const), (r, lang) => {
        const text = formatHistoryCommand(r, lang);
        expect(text.length).toBeLessThanOrEqual(300);
        expect(parseCommand(text, ctx)).toMatchObject({ ok: true, command: { kind: "history", lang, request: r } });
      }),
      { numRuns: 2000 },
    );
  });
});

/** 150050 satang as people write it: `1500.5`, `1,500.50`, `฿1,500.50`, `1500.50บาท`... */
function writeAmount(satang: number, style: { commas: boolean; decimals: 0 | 1 | 2; sign: string }): string | undefined {
  const baht = Math.floor(satang / 100);
  const cents = satang % 100;
  if (style.decimals === 0 && cents !== 0) return undefined;
  if (style.decimals === 1 && cents % 10 !== 0) return undefined;
  const whole = style.commas ? baht.toLocaleString("en-US") : String(baht);
  const fraction = style.decimals === 0 ? "" : `.${String(cents).padStart(2, "0").slice(0, style.decimals)}`;
  const number = whole + fraction;
  return style.sign === "฿" ? `฿${number}` : `${number}${style.sign}`;
}

describe("amounts are exact", () => {
  it("the satang parsed equal the integer the text was written from", () => {
    const satang = fc.oneof(
      fc.integer({ min: 1, max: MAX_AMOUNT_SATANG }),
      fc.integer({ min: 1, max: 100_000 }),
      fc.constantFrom(1, 10, 100, 101, 110, 999, 100_000, MAX_AMOUNT_SATANG),
    );
    const style = fc.record({
      commas: fc.boolean(),
      decimals: fc.constantFrom<0 | 1 | 2>(0, 1, 2),
      sign: fc.constantFrom("฿", "บาท", " บาท", "", "baht"),
    });
    fc.assert(
      fc.property(satang, style, fc.boolean(), (value, s, withId) => {
        const written = writeAmount(value, s);
        fc.pre(written !== undefined);
        const text = `${withId ? "qr 081-234-5678 " : "จ่าย "}${written}`;
        const result = parseCommand(text, ctx);
        // Ten or more bare digits cannot be an amount on their own: that is the id rule.
        if (!withId && s.sign === "" && /^\d{10,}$/u.test(written ?? "")) {
          expect(result).toMatchObject({ ok: false, failure: { problem: { code: "bad_promptpay_id" } } });
          return;
        }
        expect(result).toMatchObject({ ok: true, command: { kind: "qr", amount: value } });
      }),
      { numRuns: 3000 },
    );
  });
});
