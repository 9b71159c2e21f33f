// The sandbox as a slow service: every operation answers after the latency asked for; the QR image does not wait.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../src/server.js";
import { SHOP, history, postJson, startTestSandbox } from "./sandbox-client.js";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ latencyMs: 400 });
});
afterAll(async () => {
  await sandbox.close();
});

describe("latencyMs", () => {
  it("holds every operation's answer back by the latency, and answers it in full", async () => {
    const started = performance.now();
    const [page, account] = await Promise.all([
      history(sandbox.url, "limit=5"),
      fetch(`${sandbox.url}/api/account/info`, { headers: SHOP }).then((r) => r.json() as Promise<{ code: string }>),
    ]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(page.body.data?.items).toHaveLength(5);
    expect(account.code).toBe("200001");
  });

  it("answers the QR image link at once, as a CDN would: before an operation asked at the same moment", async () => {
    const qr = await postJson<{ url: string }>(sandbox.url, "/api/promptpay-qr-url", { payload: { accountNumber: "0812345678", amount: 1 } });
    const order: string[] = [];
    await Promise.all([
      history(sandbox.url, "limit=1").then(() => order.push("history")),
      fetch(qr.body.data?.url ?? "").then(async (image) => {
        expect(image.status).toBe(200);
        await image.arrayBuffer();
        order.push("image");
      }),
    ]);
    expect(order).toEqual(["image", "history"]);
  });
});
