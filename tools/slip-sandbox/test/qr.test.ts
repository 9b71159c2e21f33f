// The two QR operations and the qr-image link over real HTTP.
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PROMPTPAY_ID } from "../src/demo.js";
import { buildPromptPayPayload, crc16CcittFalse } from "../src/emvco.js";
import type { RunningSandbox } from "../src/server.js";
import type { PromptPayQr, PromptPayQrUrl } from "../../../src/slip/types.js";
import { decodeQrPng } from "./qr-decode.js";
import { EXPIRED, postJson, startTestSandbox } from "./sandbox-client.js";

let sandbox: RunningSandbox;
let base: string;
let publicSandbox: RunningSandbox;

const ACCOUNT_MESSAGE = "accountNumber must be a 10-digit phone, 13-digit ID, or 15-digit e-wallet id";
const AMOUNT_MESSAGE = "amount must be a number greater than 0 with at most 2 decimals";
const SIZE_MESSAGE = "size must be an integer from 128 to 1024";

beforeAll(async () => {
  sandbox = await startTestSandbox();
  base = sandbox.url;
  publicSandbox = await startTestSandbox({ publicUrl: "https://sandbox.example.test/slip/" });
});

afterAll(async () => {
  await sandbox.close();
  await publicSandbox.close();
});

function pngSize(bytes: Buffer): { width: number; height: number } {
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height };
}

describe("POST /api/promptpay-qr", () => {
  it.each([
    ["0812345678", "phone", "0812345678"],
    ["081-234-5678", "phone", "0812345678"],
    ["081 234 5678", "phone", "0812345678"],
    ["1234567890123", "citizen", "1234567890123"],
    ["0105551234567", "citizen", "0105551234567"],
    ["1-2345-67890-12-3", "citizen", "1234567890123"],
    ["140000812345678", "ewallet", "140000812345678"],
  ] as const)("reads %s as a %s target", async (accountNumber, type, digits) => {
    const res = await postJson<PromptPayQr>(base, "/api/promptpay-qr", { payload: { accountNumber } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: "200001",
      message: "Get Info Success",
      data: { qrCode: buildPromptPayPayload({ type, digits }), targetType: type, amount: null },
    });
  });

  it("embeds and echoes the amount", async () => {
    const res = await postJson<PromptPayQr>(base, "/api/promptpay-qr", { payload: { accountNumber: DEMO_PROMPTPAY_ID, amount: 150 } });
    const qrCode = res.body.data?.qrCode ?? "";
    expect(res.body.data?.amount).toBe(150);
    expect(qrCode).toContain("5406150.00");
    expect(qrCode).toContain("010212");
    expect(qrCode.slice(-4)).toBe(crc16CcittFalse(qrCode.slice(0, -4)));
    expect(res.body.data?.qrCode).toBe(buildPromptPayPayload({ type: "phone", digits: DEMO_PROMPTPAY_ID }, 15_000));
  });

  it.each([0.01, 1, 99.5, 1234567.89, 9999999999.99])("accepts the amount %s", async (amount) => {
    const res = await postJson<PromptPayQr>(base, "/api/promptpay-qr", { payload: { accountNumber: "0812345678", amount } });
    expect(res.status).toBe(200);
    expect(res.body.data?.amount).toBe(amount);
    expect(res.body.data?.qrCode).toContain(`54${String(amount.toFixed(2).length).padStart(2, "0")}${amount.toFixed(2)}`);
  });

  it.each([
    ["too short", "12345"],
    ["10 digits not starting with 0", "1234567890"],
    ["11 digits", "08123456789"],
    ["14 digits", "12345678901234"],
    ["16 digits", "1234567890123456"],
    ["letters", "08123456ab"],
    ["empty", ""],
    ["a number", 812345678],
    ["null", null],
    ["missing", undefined],
  ])("answers 400 with the service's documented message to an accountNumber that is %s", async (_label, accountNumber) => {
    for (const path of ["/api/promptpay-qr", "/api/promptpay-qr-url"]) {
      const res = await postJson(base, path, { payload: { accountNumber, amount: 10 } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "400001", message: ACCOUNT_MESSAGE });
    }
  });

  it.each([
    ["zero", 0],
    ["negative", -5],
    ["three decimals", 1.005],
    ["a tiny fraction", 0.001],
    ["too large", 10_000_000_000],
    ["an exponent-sized number", 1e21],
    ["a string", "150"],
    ["null", null],
    ["a boolean", true],
    ["an object", { baht: 1 }],
  ])("answers 400 to an amount that is %s", async (_label, amount) => {
    for (const path of ["/api/promptpay-qr", "/api/promptpay-qr-url"]) {
      const res = await postJson(base, path, { payload: { accountNumber: "0812345678", amount } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "400001", message: AMOUNT_MESSAGE });
    }
  });
});

describe("POST /api/promptpay-qr-url", () => {
  it("links to the image at the standard size 512 without targetType", async () => {
    const res = await postJson<PromptPayQrUrl>(base, "/api/promptpay-qr-url", { payload: { accountNumber: "0812345678" } });
    const data = res.body.data;
    if (data === undefined) throw new Error("no data");
    expect(Object.keys(data).sort()).toEqual(["amount", "qrCode", "url"]);
    expect(data.amount).toBeNull();
    expect(data.url).toBe(`${base}/api/qr-image?data=${encodeURIComponent(data.qrCode)}&size=512`);
  });

  it("uses the public URL for links and the requested size", async () => {
    const res = await postJson<PromptPayQrUrl>(publicSandbox.url, "/api/promptpay-qr-url", {
      payload: { accountNumber: "0812345678", amount: 150, size: 1024 },
    });
    const data = res.body.data;
    expect(data?.url).toBe(`https://sandbox.example.test/slip/api/qr-image?data=${encodeURIComponent(data?.qrCode ?? "")}&size=1024`);
    expect(data?.amount).toBe(150);
  });

  it.each([127, 1025, 512.5, "512", null, -1, 0])("answers 400 to size %s", async (size) => {
    const res = await postJson(base, "/api/promptpay-qr-url", { payload: { accountNumber: "0812345678", size } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "400001", message: SIZE_MESSAGE });
  });

  it("gives a link that works without auth, even for an expired shop's earlier link", async () => {
    const res = await postJson<PromptPayQrUrl>(base, "/api/promptpay-qr-url", {
      payload: { accountNumber: DEMO_PROMPTPAY_ID, amount: 150, size: 240 },
    });
    const data = res.body.data;
    if (data === undefined) throw new Error("no data");
    for (const headers of [{}, EXPIRED]) {
      const image = await fetch(data.url, { headers });
      expect(image.status).toBe(200);
      const decoded = decodeQrPng(Buffer.from(await image.arrayBuffer()));
      expect([decoded.width, decoded.height]).toEqual([240, 240]);
      expect(decoded.text).toBe(data.qrCode);
    }
  });
});

describe("GET /api/qr-image", () => {
  it.each([128, 240, 512, 1024])("renders exactly %i x %i pixels with long-lived caching", async (size) => {
    const res = await fetch(`${base}/api/qr-image?data=${encodeURIComponent("hello sandbox")}&size=${size}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("etag")).toMatch(/^"[^"]+"$/);
    expect(pngSize(Buffer.from(await res.arrayBuffer()))).toEqual({ width: size, height: size });
  });

  it("defaults to 512 pixels", async () => {
    const res = await fetch(`${base}/api/qr-image?data=abc`);
    expect(pngSize(Buffer.from(await res.arrayBuffer()))).toEqual({ width: 512, height: 512 });
  });

  it("answers 304 to a matching If-None-Match, strong, weak or in a list", async () => {
    const url = `${base}/api/qr-image?data=etag-test&size=256`;
    const first = await fetch(url);
    await first.arrayBuffer();
    const etag = first.headers.get("etag") ?? "";
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await fetch(url, { headers: { "If-None-Match": header } });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(await again.text()).toBe("");
    }
    const changed = await fetch(url, { headers: { "If-None-Match": '"something-else"' } });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
    const otherSize = await fetch(`${base}/api/qr-image?data=etag-test&size=257`, { headers: { "If-None-Match": etag } });
    expect(otherSize.status).toBe(200);
    await otherSize.arrayBuffer();
  });

  it.each([
    ["", "data must be 1 to 512 characters"],
    ["size=256", "data must be 1 to 512 characters"],
    ["data=", "data must be 1 to 512 characters"],
    [`data=${"A".repeat(513)}`, "data must be 1 to 512 characters"],
    ["data=a&data=b", "data must be given at most once"],
    ["data=a&size=127", SIZE_MESSAGE],
    ["data=a&size=1025", SIZE_MESSAGE],
    ["data=a&size=", SIZE_MESSAGE],
    ["data=a&size=256.0", SIZE_MESSAGE],
    ["data=a&size=-256", SIZE_MESSAGE],
    ["data=a&size=abc", SIZE_MESSAGE],
    ["data=a&size=256&size=256", "size must be given at most once"],
  ])("answers 400 to ?%s", async (query, message) => {
    const res = await fetch(`${base}/api/qr-image?${query}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: "400001", message });
  });

  it("accepts 512 characters of data", async () => {
    const res = await fetch(`${base}/api/qr-image?data=${"A".repeat(512)}&size=128`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});
