// The real client against the real sandbox on port 0: every operation, filters, pagination and the service's refusals.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSlipClient } from "../../src/slip/client.js";
import { InvalidRequestError, PackageExpiredError, UnauthorizedError } from "../../src/slip/errors.js";
import { SLIP_STATUSES } from "../../src/slip/types.js";
import type { SlipClient } from "../../src/slip/types.js";
import { DEMO_PROMPTPAY_ID, DEMO_SECRETS } from "@slipline/slip-sandbox";
import { startSandbox } from "@slipline/slip-sandbox";
import { failure } from "./fixtures.js";

const ACCOUNT_NUMBER_MESSAGE = "accountNumber must be a 10-digit phone, 13-digit ID, or 15-digit e-wallet id";

let sandbox: { url: string; close(): Promise<void> };
let shop: SlipClient;
const clients: SlipClient[] = [];

function clientFor(apiSecret: string): SlipClient {
  const client = createSlipClient({ baseUrl: sandbox.url, apiSecret, backoffBaseMs: 0, accountCacheSeconds: 0 });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  shop = clientFor(DEMO_SECRETS.shop);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await sandbox.close();
});

describe("account info", () => {
  it("returns the demo shop's account", async () => {
    const account = await shop.accountInfo();
    expect(account.storeName).toBe("ร้านกาแฟดีใจ");
    expect(account.packageName).toBe("Pro");
    expect(Date.parse(account.expiresAt)).toBeGreaterThan(Date.now());
    expect(account.rate.api).toBeGreaterThan(0);
    expect(account.estimatedSlips.api).toBe(Math.floor(account.tokens / account.rate.api));
  });
});

describe("slip history", () => {
  it("returns the first page of 20, newest first", async () => {
    const page = await shop.slipHistory();
    expect(page.pagination).toMatchObject({ page: 1, limit: 20 });
    expect(page.pagination.total).toBeGreaterThan(100);
    expect(page.pagination.pages).toBe(Math.ceil(page.pagination.total / 20));
    expect(page.items).toHaveLength(20);
    const times = page.items.map((item) => Date.parse(item.createdAt ?? ""));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("pages without overlap or gaps", async () => {
    const [first, second, both] = await Promise.all([shop.slipHistory({ limit: 10, page: 1 }), shop.slipHistory({ limit: 10, page: 2 }), shop.slipHistory({ limit: 20, page: 1 })]);
    expect(second.pagination.page).toBe(2);
    expect([...first.items, ...second.items].map((item) => item.transRef)).toEqual(both.items.map((item) => item.transRef));
  });

  it("answers a page past the end with no items and the true total", async () => {
    const { pagination } = await shop.slipHistory({ limit: 100 });
    const past = await shop.slipHistory({ limit: 100, page: pagination.pages + 1 });
    expect(past.items).toEqual([]);
    expect(past.pagination.total).toBe(pagination.total);
  });

  it("filters by status, and the per-status totals add up to the whole", async () => {
    const all = await shop.slipHistory({ limit: 1 });
    const perStatus = await Promise.all(SLIP_STATUSES.map((status) => shop.slipHistory({ status, limit: 100 })));
    perStatus.forEach((page, index) => {
      for (const item of page.items) expect(item.status).toBe(SLIP_STATUSES[index]);
    });
    expect(perStatus.reduce((sum, page) => sum + page.pagination.total, 0)).toBe(all.pagination.total);
    const notFound = perStatus[SLIP_STATUSES.indexOf("not_found")]?.items[0];
    expect(notFound?.amount).toBeNull();
    expect(notFound?.senderName).toBeNull();
  });

  it("finds one check by transRef", async () => {
    const sample = (await shop.slipHistory({ page: 3 })).items[4];
    const found = await shop.slipHistory({ transRef: sample?.transRef ?? "" });
    expect(found.items).toEqual([sample]);
    expect(found.pagination.total).toBe(1);
  });

  it("bounds createdAt by from (a Date) and to (a string), both inclusive", async () => {
    const page = await shop.slipHistory({ limit: 30 });
    const newest = page.items[5]?.createdAt ?? "";
    const oldest = page.items[25]?.createdAt ?? "";
    const ranged = await shop.slipHistory({ from: new Date(oldest), to: newest, limit: 100 });
    expect(ranged.items.map((item) => item.transRef)).toEqual(page.items.slice(5, 26).map((item) => item.transRef));
  });

  it("keeps another shop's checks apart", async () => {
    const other = await clientFor(DEMO_SECRETS.other).slipHistory({ limit: 100 });
    const own = new Set((await shop.slipHistory({ limit: 100 })).items.map((item) => item.transRef));
    expect(other.items.length).toBeGreaterThan(0);
    for (const item of other.items) expect(own.has(item.transRef)).toBe(false);
  });

  it("maps an unreadable date to InvalidRequestError with the service's message naming the parameter", async () => {
    const error = await failure(shop.slipHistory({ from: "not-a-date" }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.kind === "invalid_request" && error.serviceMessage).toContain("from");
  });
});

describe("PromptPay QR", () => {
  it("builds the payload text for a phone number with an amount", async () => {
    const qr = await shop.promptPayQr({ accountNumber: DEMO_PROMPTPAY_ID, amount: 150 });
    expect(qr.targetType).toBe("phone");
    expect(qr.amount).toBe(150);
    expect(qr.qrCode).toMatch(/^000201010212/);
    expect(qr.qrCode).toContain("5406150.00");
  });

  it("returns an image link whose data is the payload and whose size is the one asked for", async () => {
    const qr = await shop.promptPayQrUrl({ accountNumber: DEMO_PROMPTPAY_ID, size: 1024 });
    expect(qr.amount).toBeNull();
    const url = new URL(qr.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${sandbox.url}/api/qr-image`);
    expect(url.searchParams.get("data")).toBe(qr.qrCode);
    expect(url.searchParams.get("size")).toBe("1024");
  });

  it("maps a bad PromptPay number to InvalidRequestError with the service's message", async () => {
    // Thunks, so each call starts only when awaited and no rejection goes unhandled meanwhile.
    for (const call of [() => shop.promptPayQr({ accountNumber: "12345" }), () => shop.promptPayQrUrl({ accountNumber: "12345", size: 512 })]) {
      const error = await failure(call());
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error.kind === "invalid_request" && error.serviceMessage).toBe(ACCOUNT_NUMBER_MESSAGE);
    }
  });
});

describe("refusals", () => {
  it("maps an unknown secret to UnauthorizedError", async () => {
    const error = await failure(clientFor("not-a-demo-secret").accountInfo());
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.kind === "unauthorized" && [error.status, error.serviceMessage]).toEqual([401, "Unauthorized"]);
    expect(error.message).not.toContain("not-a-demo-secret");
  });

  it("maps an expired package to PackageExpiredError on every operation", async () => {
    const expired = clientFor(DEMO_SECRETS.expired);
    const calls = [
      () => expired.accountInfo(),
      () => expired.slipHistory({ status: "valid" }),
      () => expired.promptPayQr({ accountNumber: DEMO_PROMPTPAY_ID }),
      // The package check comes before the request check (docs/sandbox.md §3), so even a bad number gets 402.
      () => expired.promptPayQrUrl({ accountNumber: "12" }),
    ];
    for (const call of calls) {
      const error = await failure(call());
      expect(error).toBeInstanceOf(PackageExpiredError);
      expect(error.kind === "package_expired" && error.serviceMessage).toBe("Package expired");
    }
  });
});
