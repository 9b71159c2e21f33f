import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isUsableImageUrl, safeText, truncateLabel, truncateText } from "../../src/render/limits.js";
import { postbackButton, quickReply } from "../../src/render/messages.js";
import { graphemeCount, jsonBytes } from "../../src/line-limits.js";

describe("truncateText", () => {
  it("leaves short text alone", () => {
    expect(truncateText("สวัสดี", 10)).toBe("สวัสดี");
  });

  it("cuts to the UTF-16 budget with an ellipsis and never splits an emoji", () => {
    const cut = truncateText("ab😀😀😀", 5);
    expect(cut.length).toBeLessThanOrEqual(5);
    expect(cut).toBe("ab😀…");
  });

  it("keeps Thai marks with their consonant", () => {
    const cut = truncateText("น้ำน้ำน้ำ", 4);
    expect(cut.length).toBeLessThanOrEqual(4);
    expect(cut).toBe("น้ำ…");
  });

  it("never returns empty text for LINE", () => {
    expect(safeText("")).toBe(" ");
  });
});

describe("truncateLabel", () => {
  it("counts grapheme clusters, as LINE counts labels", () => {
    const label = "ประวัติประวัติประวัติประวัติ"; // 20 graphemes, 28 UTF-16 units
    expect(graphemeCount(label)).toBe(20);
    expect(truncateLabel(label, 20)).toBe(label);
    const cut = truncateLabel(`${label}ก`, 20);
    expect(graphemeCount(cut)).toBe(20);
    expect(cut.endsWith("…")).toBe(true);
  });
});

describe("isUsableImageUrl", () => {
  it.each([
    ["https://slip.example/api/qr-image?data=x&size=512", true],
    ["http://127.0.0.1:4000/api/qr-image?data=x&size=512", true],
    ["http://localhost:4000/api/qr-image?data=x", true],
    ["http://slip.example/api/qr-image?data=x", false],
    ["ftp://slip.example/x.png", false],
    ["not a url", false],
    [`https://slip.example/${"a".repeat(2000)}`, false],
  ])("%s -> %s", (url, ok) => {
    expect(isUsableImageUrl(url)).toBe(ok);
  });
});

describe("quickReply and postbackButton", () => {
  it("keeps at most 13 items with labels of at most 20 graphemes and drops over-long commands", () => {
    const choices = Array.from({ length: 20 }, (_, i) => ({ label: `choice number ${i} with a long label`, text: `help ${i}` }));
    choices.unshift({ label: "too long", text: "x".repeat(301) });
    const items = quickReply(choices).items ?? [];
    expect(items).toHaveLength(13);
    for (const item of items) expect(graphemeCount(item.action?.label ?? "")).toBeLessThanOrEqual(20);
    expect(items[0]?.action).toMatchObject({ type: "message", text: "help 0" });
  });

  it("leaves a postback button out rather than cut its data", () => {
    expect(postbackButton("Next page", "x".repeat(301), "Next page")).toBeUndefined();
    expect(postbackButton("Next page", "history page 2", "Next page")?.action).toEqual({
      type: "postback",
      label: "Next page",
      data: "history page 2",
      displayText: "Next page",
    });
  });
});

describe("jsonBytes", () => {
  const utf8JsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
  // Any UTF-16 unit, with what JSON escapes or pairs (quote, backslash, controls, surrogate halves) and Thai
  // often enough that every run meets them.
  const anyUnit = fc.oneof(
    fc.integer({ min: 0, max: 0x7f }),
    fc.integer({ min: 0, max: 0xffff }),
    fc.constantFrom(0x22, 0x5c, 0x0a, 0x1f, 0x7f, 0x80, 0x0e01, 0x0e3f, 0xd83d, 0xde00, 0xdfff),
  );
  const anyJsonText = fc.string({ unit: anyUnit.map((unit) => String.fromCharCode(unit)), maxLength: 40 });

  // Anything JSON.stringify takes: texts, numbers (NaN too), dates, what it leaves out (undefined, functions), nested.
  const anyJsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      anyJsonText,
      fc.string({ unit: "grapheme", maxLength: 20 }),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.constant(() => 1),
      fc.date({ noInvalidDate: true }),
      fc.array(tie("value"), { maxLength: 5 }),
      fc.dictionary(anyJsonText, tie("value"), { maxKeys: 5 }),
    ),
  })).value;

  it("counts what Buffer.byteLength(JSON.stringify(value)) counts, whatever the value", () => {
    fc.assert(fc.property(anyJsonValue, (value) => jsonBytes(value) === utf8JsonBytes(value)));
  });

  it("counts a Thai Flex bubble as LINE measures it: three bytes a Thai letter", () => {
    const bubble = { type: "bubble", body: { type: "box", layout: "vertical", contents: [{ type: "text", text: "ประวัติ", wrap: true, flex: 0 }] } };
    expect(jsonBytes(bubble)).toBe('{"type":"bubble","body":{"type":"box","layout":"vertical","contents":[{"type":"text","text":"","wrap":true,"flex":0}]}}'.length + 7 * 3);
    expect(jsonBytes(undefined)).toBe(0);
  });
});
