// The sandbox's HTTP rules over real HTTP: routes, auth, the expired package, content types and body limits.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SECRETS, DEMO_STORE_NAMES } from "../src/demo.js";
import type { RunningSandbox } from "../src/server.js";
import { openStore } from "../src/store.js";
import type { AccountInfo } from "../../../src/slip/types.js";
import { EXPIRED, OTHER, SHOP, requestJson, postJson, startTestSandbox } from "./sandbox-client.js";

let sandbox: RunningSandbox;
let base: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  base = sandbox.url;
});

afterAll(async () => {
  await sandbox.close();
});

const QR_BODY = { payload: { accountNumber: "0812345678", amount: 150 } };

/** One call of each of the four operations. */
const OPERATIONS = [
  ["GET /api/slip-history", (h: Record<string, string>) => requestJson(base, "/api/slip-history", h)],
  ["GET /api/account/info", (h: Record<string, string>) => requestJson(base, "/api/account/info", h)],
  ["POST /api/promptpay-qr", (h: Record<string, string>) => postJson(base, "/api/promptpay-qr", QR_BODY, h)],
  ["POST /api/promptpay-qr-url", (h: Record<string, string>) => postJson(base, "/api/promptpay-qr-url", QR_BODY, h)],
] as const;

/** A raw request with a chunked body (no Content-Length), for the body limit. */
function postChunked(path: string, chunks: number, chunkBytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: "POST", headers: { ...SHOP, "Content-Type": "application/json", "Transfer-Encoding": "chunked" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    const chunk = " ".repeat(chunkBytes);
    for (let i = 0; i < chunks; i++) req.write(chunk);
    req.end();
  });
}

describe("routes", () => {
  it.each(["/", "/api", "/api/unknown", "/api/slip-history/", "/API/slip-history", "/api/account"])("answers 404 for %s", async (path) => {
    const res = await requestJson(base, path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "404001", message: "Not Found" });
  });

  it.each([
    ["POST", "/api/slip-history", "GET, HEAD"],
    ["DELETE", "/api/account/info", "GET, HEAD"],
    ["GET", "/api/promptpay-qr", "POST"],
    ["PUT", "/api/promptpay-qr-url", "POST"],
    ["POST", "/api/qr-image", "GET, HEAD"],
  ])("answers 405 to %s %s with Allow: %s, before asking for auth", async (method, path, allow) => {
    const res = await requestJson(base, path, {}, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.body).toEqual({ code: "405001", message: "Method Not Allowed" });
  });

  it("answers HEAD like GET without a body", async () => {
    const res = await fetch(`${base}/api/account/info`, { method: "HEAD", headers: SHOP });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.text()).toBe("");
  });
});

describe("auth", () => {
  it.each(OPERATIONS)("%s answers 401 without an Authorization header", async (_name, call) => {
    const res = await call({});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "401001", message: "Unauthorized" });
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it.each([
    ["another scheme", `Basic ${Buffer.from(`user:${DEMO_SECRETS.shop}`).toString("base64")}`],
    ["no secret", "Bearer"],
    ["only spaces after the scheme", "Bearer    "],
    ["an unknown secret", "Bearer not-a-demo-secret"],
    ["a secret in another case", `Bearer ${DEMO_SECRETS.shop.toUpperCase()}`],
    ["two spaces", `Bearer  ${DEMO_SECRETS.shop}`],
    ["the secret alone", DEMO_SECRETS.shop],
    ["a prefix of the secret", `Bearer ${DEMO_SECRETS.shop.slice(0, -1)}`],
  ])("answers 401 to %s", async (_label, header) => {
    const res = await requestJson(base, "/api/account/info", { Authorization: header });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "401001", message: "Unauthorized" });
  });

  it.each(["Bearer", "bearer", "BEARER", "bEaReR"])("accepts the scheme written %s", async (scheme) => {
    const res = await requestJson<AccountInfo>(base, "/api/account/info", { Authorization: `${scheme} ${DEMO_SECRETS.shop}` });
    expect(res.status).toBe(200);
    expect(res.body.data?.storeName).toBe(DEMO_STORE_NAMES.shop);
  });

  it("checks auth before the request itself", async () => {
    const res = await requestJson(base, "/api/promptpay-qr", { "Content-Type": "text/plain" }, { method: "POST", body: "x" });
    expect(res.status).toBe(401);
    const history = await requestJson(base, "/api/slip-history?page=0", {});
    expect(history.status).toBe(401);
  });
});

describe("the expired package", () => {
  it.each(OPERATIONS)("%s answers 402 Package expired", async (_name, call) => {
    const res = await call(EXPIRED);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ code: "402001", message: "Package expired" });
  });

  it("answers 402 whatever the query or body", async () => {
    const expired = [
      await requestJson(base, "/api/slip-history?page=0&from=nonsense&status=nope", EXPIRED),
      await requestJson(base, "/api/promptpay-qr", { ...EXPIRED, "Content-Type": "text/plain" }, { method: "POST", body: "x" }),
      await postJson(base, "/api/promptpay-qr-url", "{not json", EXPIRED),
      await postJson(base, "/api/promptpay-qr", { payload: { accountNumber: "1" } }, EXPIRED),
      await postJson(base, "/api/promptpay-qr", " ".repeat(40_000), EXPIRED),
    ];
    for (const res of expired) {
      expect(res.status).toBe(402);
      expect(res.body).toEqual({ code: "402001", message: "Package expired" });
    }
  });

  it("never answers 402 for a qr-image link", async () => {
    const res = await fetch(`${base}/api/qr-image?data=hello&size=128`, { headers: EXPIRED });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    await res.arrayBuffer();
  });
});

describe("account info", () => {
  it("gives each active shop its own package, tokens and estimates", async () => {
    const shop = await requestJson<AccountInfo>(base, "/api/account/info", SHOP);
    const other = await requestJson<AccountInfo>(base, "/api/account/info", OTHER);
    for (const res of [shop, other]) {
      expect(res.status).toBe(200);
      expect(res.body.code).toBe("200001");
      const info = res.body.data;
      if (info === undefined) throw new Error("no data");
      expect(Object.keys(info).sort()).toEqual(["credits", "estimatedSlips", "expiresAt", "packageName", "rate", "storeName", "tokens"]);
      expect(info.estimatedSlips).toEqual({
        chat: Math.floor(info.tokens / info.rate.chat),
        api: Math.floor(info.tokens / info.rate.api),
      });
      expect(Date.parse(info.expiresAt)).toBeGreaterThan(Date.parse("2026-11-20T07:30:00Z"));
      expect(info.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(shop.body.data?.storeName).toBe("ร้านกาแฟดีใจ");
    expect(shop.body.data?.packageName).toBe("Pro");
    expect(other.body.data?.storeName).toBe("Second Shop");
  });
});

describe("request bodies", () => {
  it.each([
    ["no Content-Type", undefined],
    ["text/plain", "text/plain"],
    ["form encoding", "application/x-www-form-urlencoded"],
    ["a JSON look-alike", "application/jsonp"],
    ["another charset", "application/json; charset=iso-8859-1"],
  ])("answers 415 to %s", async (_label, type) => {
    const headers: Record<string, string> = { ...SHOP };
    if (type !== undefined) headers["Content-Type"] = type;
    const res = await requestJson(base, "/api/promptpay-qr", headers, {
      method: "POST",
      body: new Blob([JSON.stringify(QR_BODY)]),
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ code: "415001", message: "Content-Type must be application/json" });
  });

  it("accepts application/json with a UTF-8 charset in any case", async () => {
    const res = await requestJson(
      base,
      "/api/promptpay-qr",
      { ...SHOP, "Content-Type": "Application/JSON; Charset=UTF-8" },
      {
        method: "POST",
        body: JSON.stringify(QR_BODY),
      },
    );
    expect(res.status).toBe(200);
  });

  it.each([
    ["an empty body", ""],
    ["broken JSON", '{"payload": {'],
    ["a trailing comma", '{"payload": {"accountNumber": "0812345678",}}'],
    ["single quotes", "{'payload': {}}"],
  ])("answers 400 to %s", async (_label, body) => {
    const res = await postJson(base, "/api/promptpay-qr", body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "400001", message: "body must be valid JSON" });
  });

  it("answers 400 to a body that is not UTF-8", async () => {
    const res = await requestJson(
      base,
      "/api/promptpay-qr",
      { ...SHOP, "Content-Type": "application/json" },
      {
        method: "POST",
        body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("body must be valid JSON");
  });

  it.each([["[]"], ["null"], ["42"], ['"text"'], ['{"accountNumber":"0812345678"}'], ['{"payload":"0812345678"}'], ['{"payload":[]}']])(
    "answers 400 to the JSON %s that is not a payload object",
    async (body) => {
      const res = await postJson(base, "/api/promptpay-qr-url", body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "400001", message: "body must be a JSON object with a payload object" });
    },
  );

  it("accepts a body of exactly 16,384 bytes", async () => {
    const json = JSON.stringify(QR_BODY);
    const res = await postJson(base, "/api/promptpay-qr", json + " ".repeat(16_384 - json.length));
    expect(res.status).toBe(200);
  });

  it("answers 413 to a body one byte over 16,384", async () => {
    const json = JSON.stringify(QR_BODY);
    const res = await postJson(base, "/api/promptpay-qr", json + " ".repeat(16_385 - json.length));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: "413001", message: "Payload Too Large" });
  });

  it("answers 413 to a huge body", async () => {
    const res = await postJson(base, "/api/promptpay-qr-url", { payload: { accountNumber: "0812345678", note: "x".repeat(500_000) } });
    expect(res.status).toBe(413);
  });

  it("answers 413 to a chunked body without a length once it passes the limit", async () => {
    const res = await postChunked("/api/promptpay-qr", 40, 1024);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ code: "413001", message: "Payload Too Large" });
    // The server still serves new requests afterwards.
    expect((await requestJson(base, "/api/account/info")).status).toBe(200);
  });

  it("reads a small chunked body", async () => {
    const res = await postChunked("/api/promptpay-qr", 1, 10);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ code: "400001", message: "body must be valid JSON" });
  });
});

describe("unexpected failures", () => {
  it("answers 500 in the envelope and reports the error, without the secret", async () => {
    const store = openStore(":memory:");
    const failing = {
      ...store,
      history: () => {
        throw new Error("disk on fire");
      },
    };
    const reported: unknown[] = [];
    const broken = await startTestSandbox({ store: failing, onError: (e) => reported.push(e) });
    try {
      const res = await requestJson(broken.url, "/api/slip-history", SHOP);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ code: "500001", message: "Internal Server Error" });
      expect(reported).toHaveLength(1);
      expect(String(reported[0])).not.toContain(DEMO_SECRETS.shop);
      expect((await requestJson(broken.url, "/api/account/info", SHOP)).status).toBe(200);
    } finally {
      await broken.close();
    }
  });
});
