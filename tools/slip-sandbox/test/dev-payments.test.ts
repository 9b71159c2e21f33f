// POST /dev/payments: local mode's simulated customer payment, and nothing at all on a sandbox without it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../src/server.js";
import type { HistoryItem } from "../../../src/slip/types.js";
import { NOW, history, postJson, requestJson, startTestSandbox } from "./sandbox-client.js";

let withRoute: RunningSandbox;
let without: RunningSandbox;
beforeAll(async () => {
  withRoute = await startTestSandbox({ devRoutes: true });
  without = await startTestSandbox();
});
afterAll(async () => {
  await withRoute.close();
  await without.close();
});

describe("POST /dev/payments", () => {
  it("adds a valid check of the amount at the sandbox's now, first in the shop's history", async () => {
    const paid = await postJson<HistoryItem>(withRoute.url, "/dev/payments", { amount: 150.25, senderName: "  น.ส. มาลี ทองดี " }, {});
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ status: "valid", amount: 150.25, senderName: "น.ส. มาลี ทองดี", source: "line_oa_merchant" });
    const newest = await history(withRoute.url, "limit=1");
    expect(newest.body.data?.items[0]).toEqual(paid.body.data);
    expect(Date.parse(newest.body.data?.items[0]?.createdAt ?? "")).toBe(NOW.getTime());
  });

  it("names the mistake in a bad body and adds nothing", async () => {
    const before = (await history(withRoute.url, "limit=1")).body.data?.pagination.total;
    for (const [body, message] of [
      [{ amount: 0 }, /amount/],
      [{ amount: 1.005 }, /amount/],
      [{ amount: "ten" }, /amount/],
      [{ amount: 10, senderName: "" }, /senderName must be a text of 1 to 100 characters/],
      [[10], /JSON object with an amount/],
    ] as const) {
      const res = await postJson(withRoute.url, "/dev/payments", body, {});
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect((await history(withRoute.url, "limit=1")).body.data?.pagination.total).toBe(before);
  });

  it("answers 405 to a GET, and 404 on a sandbox started without the route", async () => {
    const get = await requestJson(withRoute.url, "/dev/payments", {});
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect((await postJson(without.url, "/dev/payments", { amount: 150 }, {})).status).toBe(404);
  });
});
