// PromptPay ids as people write them, and the masks shown to customers.
import { describe, expect, it } from "vitest";
import { maskPromptPayId, parsePromptPayId } from "../../src/commands/promptpay-id.js";
import type { PromptPayId } from "../../src/commands/types.js";

describe("parsePromptPayId", () => {
  it.each<[string, PromptPayId | undefined]>([
    ["0812345678", { type: "phone", digits: "0812345678" }],
    ["081-234-5678", { type: "phone", digits: "0812345678" }],
    ["081 234 5678", { type: "phone", digits: "0812345678" }],
    ["081\u2013234\u20135678", { type: "phone", digits: "0812345678" }],
    ["+66812345678", { type: "phone", digits: "0812345678" }],
    ["+66 81 234 5678", { type: "phone", digits: "0812345678" }],
    ["+66-81-234-5678", { type: "phone", digits: "0812345678" }],
    ["66812345678", { type: "phone", digits: "0812345678" }],
    ["+66 0812345678", { type: "phone", digits: "0812345678" }],
    ["๐๘๑๒๓๔๕๖๗๘", { type: "phone", digits: "0812345678" }],
    ["０８１２３４５６７８", { type: "phone", digits: "0812345678" }],
    ["1234567890123", { type: "citizen", digits: "1234567890123" }],
    ["1-2345-67890-12-3", { type: "citizen", digits: "1234567890123" }],
    ["0105551234567", { type: "citizen", digits: "0105551234567" }],
    ["140000812345678", { type: "ewallet", digits: "140000812345678" }],
    ["1234567890", undefined],
    ["081234567", undefined],
    ["08123456789", undefined],
    ["12345678901234", undefined],
    ["1234567890123456", undefined],
    ["+0812345678", undefined],
    ["+1 415 555 0100", undefined],
    ["081.234.5678", undefined],
    ["08l2345678", undefined],
    ["", undefined],
  ])("%j", (input, expected) => {
    expect(parsePromptPayId(input)).toEqual(expected);
  });
});

describe("maskPromptPayId", () => {
  it.each<[PromptPayId, string]>([
    [{ type: "phone", digits: "0812345678" }, "081-xxx-5678"],
    [{ type: "citizen", digits: "1234567890123" }, "x-xxxx-xxxx0-12-3"],
    [{ type: "citizen", digits: "0105551234567" }, "x-xxxx-xxxx4-56-7"],
    [{ type: "ewallet", digits: "140000812345678" }, "140-xxxx-xxxx-5678"],
    [{ type: "phone", digits: "12345" }, "x2345"],
  ])("%j is shown as %s", (id, masked) => {
    expect(maskPromptPayId(id)).toBe(masked);
  });

  it("shows the last 4 digits of every kind and hides at least half of the rest", () => {
    for (const input of ["0812345678", "1234567890123", "140000812345678"]) {
      const id = parsePromptPayId(input);
      if (id === undefined) throw new Error(input);
      const masked = maskPromptPayId(id);
      expect(masked.replace(/\D/gu, "").endsWith(input.slice(-4))).toBe(true);
      expect((masked.match(/x/gu) ?? []).length).toBeGreaterThanOrEqual((input.length - 4) / 2);
    }
  });
});
