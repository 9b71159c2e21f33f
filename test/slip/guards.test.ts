// The response guards on their own: the documented shapes accepted, anything else named by its path.
import { describe, expect, it } from "vitest";
import { readAccountInfo, readEnvelope, readHistoryPage, readPromptPayQr, readPromptPayQrUrl } from "../../src/slip/guards.js";
import { ACCOUNT, historyData, VALID_ITEM } from "./fixtures.js";

describe("readEnvelope", () => {
  it("accepts code and message strings and leaves data to the operation", () => {
    expect(readEnvelope({ code: "500001", message: "busy" })).toEqual({ ok: true, value: { code: "500001", message: "busy", data: undefined } });
  });

  it.each([
    [null, "body: expected an object, got null"],
    ["text", "body: expected an object, got a string"],
    [{ message: "x" }, "code: expected a string, got nothing"],
    [{ code: "200001", message: 1 }, "message: expected a string, got a number"],
  ])("rejects %j", (body, problem) => {
    expect(readEnvelope(body)).toEqual({ ok: false, problem });
  });
});

describe("readHistoryPage", () => {
  it("keeps every documented field of an item", () => {
    expect(readHistoryPage(historyData([VALID_ITEM]))).toEqual({
      ok: true,
      value: { items: [VALID_ITEM], pagination: { page: 1, limit: 20, total: 1, pages: 1 } },
    });
  });

  it("accepts an empty item: every field becomes null", () => {
    const result = readHistoryPage(historyData([{}]));
    expect(result.ok && result.value.items[0]).toEqual(Object.fromEntries(Object.keys(VALID_ITEM).map((key) => [key, null])));
  });

  it("rejects dates that cannot be read", () => {
    expect(readHistoryPage(historyData([{ ...VALID_ITEM, createdAt: "yesterday" }]))).toEqual({
      ok: false,
      problem: "data.items[0].createdAt: expected an ISO 8601 date-time string, got a string",
    });
  });

  it("rejects negative counts", () => {
    expect(readHistoryPage({ items: [], pagination: { page: 1, limit: 20, total: -1, pages: 0 } })).toEqual({
      ok: false,
      problem: "data.pagination.total: expected an integer >= 0, got a number",
    });
  });
});

describe("QR payloads", () => {
  it("reads a QR without amount as amount null and passes the target type through", () => {
    expect(readPromptPayQr({ qrCode: "0002", targetType: "ewallet" })).toEqual({
      ok: true,
      value: { qrCode: "0002", targetType: "ewallet", amount: null },
    });
  });

  it("requires an absolute http(s) image link", () => {
    expect(readPromptPayQrUrl({ qrCode: "0002", url: "https://x.test/api/qr-image?data=0002&size=512", amount: 150 }).ok).toBe(true);
    expect(readPromptPayQrUrl({ qrCode: "0002", url: "/api/qr-image", amount: 150 })).toEqual({
      ok: false,
      problem: "data.url: expected an absolute http(s) URL, got a string",
    });
  });
});

describe("readAccountInfo", () => {
  it("accepts the documented account", () => {
    expect(readAccountInfo(ACCOUNT)).toEqual({ ok: true, value: ACCOUNT });
  });

  it("requires every field", () => {
    const { expiresAt: _dropped, ...rest } = ACCOUNT;
    expect(readAccountInfo(rest)).toEqual({ ok: false, problem: "data.expiresAt: expected an ISO 8601 date-time string, got nothing" });
  });
});
