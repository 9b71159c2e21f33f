// `npm run sandbox` as a process: env settings, the printed address and secrets, --seed, clean stops on signals.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HistoryPage, PromptPayQrUrl } from "../../../src/slip/types.js";
import { killLeftovers, startEntry, type EntryProcess } from "../../../test/kit/entry-process.js";
import { SHOP, requestJson, postJson } from "./sandbox-client.js";

const dirs: string[] = [];

afterEach(async () => {
  await killLeftovers();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "slipline-sandbox-main-"));
  dirs.push(dir);
  return dir;
}

function run(env: Record<string, string>, args: string[] = []): EntryProcess {
  return startEntry("tools/slip-sandbox/src/main.ts", env, args);
}

describe("npm run sandbox", () => {
  it("serves the demo shops, prints the address and secrets, and stops cleanly on SIGTERM", async () => {
    const dir = tempDir();
    const db = join(dir, "nested", "sandbox.db");
    const r = run({ PORT: "0", SANDBOX_DB: db, SANDBOX_PUBLIC_URL: "https://qr.example.test/" });
    const [, url = ""] = await r.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await r.waitFor(/package expired/);
    expect(r.output()).toContain("demo-shop-secret");
    expect(r.output()).toContain("demo-other-secret");
    expect(r.output()).toContain("demo-expired-secret");
    expect(existsSync(db)).toBe(true);

    const info = await requestJson(url, "/api/account/info", SHOP);
    expect(info.status).toBe(200);
    const qr = await postJson<PromptPayQrUrl>(url, "/api/promptpay-qr-url", { payload: { accountNumber: "0812345678" } });
    expect(qr.body.data?.url.startsWith("https://qr.example.test/api/qr-image?data=")).toBe(true);

    r.child.kill("SIGTERM");
    expect(await r.exited).toBe(0);
    expect(r.output()).toContain("SIGTERM");
  });

  it("stops cleanly on SIGINT", async () => {
    const r = run({ PORT: "0", SANDBOX_DB: ":memory:" });
    await r.waitFor(/listening on/);
    r.child.kill("SIGINT");
    expect(await r.exited).toBe(0);
  });

  it("adds checks with --seed and exits, keeping them in the file", async () => {
    const db = join(tempDir(), "seed.db");
    const seed = run({ SANDBOX_DB: db }, ["--seed", "2500"]);
    expect(await seed.exited).toBe(0);
    const [, shopTotal = ""] = /added 2500 checks for the demo shop in [\d.]+ s; it has (\d+) now/.exec(seed.output()) ?? [];
    // The demo data itself (about 60 checks a day for 90 days) comes first, then the 2,500.
    expect(Number(shopTotal)).toBeGreaterThan(2500 + 90 * 40);

    const serve = run({ PORT: "0", SANDBOX_DB: db });
    const [, url = ""] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    // Starting again brings the demo data up to now: the stream may have moved on by a check or two since.
    const [, added = ""] = await serve.waitFor(/demo data brought up to now: (\d+) checks added/);
    const res = await requestJson<HistoryPage>(url, "/api/slip-history?limit=1", SHOP);
    expect(res.body.data?.pagination.total).toBeGreaterThanOrEqual(Number(shopTotal));
    expect(res.body.data?.pagination.total).toBeLessThanOrEqual(Number(shopTotal) + Number(added));
    serve.child.kill("SIGTERM");
    expect(await serve.exited).toBe(0);
  });

  it("records a customer's payment with --pay and --from, then serves it first in the history", async () => {
    const db = join(tempDir(), "pay.db");
    const pay = run({ SANDBOX_DB: db }, ["--pay", "150.5", "--from", "นาย ทดสอบ จ่ายเงิน"]);
    expect(await pay.exited).toBe(0);
    expect(pay.output()).toMatch(/received ฿150\.50 from นาย ทดสอบ จ่ายเงิน \(ref \S+\)/);

    const serve = run({ PORT: "0", SANDBOX_DB: db });
    const [, url = ""] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const res = await requestJson<HistoryPage>(url, "/api/slip-history?status=valid&limit=20", SHOP);
    expect(res.body.data?.items.map((i) => [i.amount, i.senderName])).toContainEqual([150.5, "นาย ทดสอบ จ่ายเงิน"]);
    serve.child.kill("SIGTERM");
    expect(await serve.exited).toBe(0);
  });

  it("names each mistake of --pay and --from", async () => {
    const zero = run({ SANDBOX_DB: ":memory:" }, ["--pay", "0"]);
    expect(await zero.exited).toBe(1);
    expect(zero.output()).toContain('--pay needs an amount in baht greater than 0, with at most 2 decimals, got "0"');
    const alone = run({ SANDBOX_DB: ":memory:" }, ["--from", "Somchai"]);
    expect(await alone.exited).toBe(1);
    expect(alone.output()).toContain("--from goes with --pay");
  });

  it("refuses bad settings with one message naming each", async () => {
    const r = run({ PORT: "http", SANDBOX_PUBLIC_URL: "ftp://x" }, ["--seed", "-3"]);
    expect(await r.exited).toBe(1);
    expect(r.output()).toContain("PORT must be an integer from 0 to 65535");
    expect(r.output()).toContain("SANDBOX_PUBLIC_URL must be an http(s) URL");
    expect(r.output()).toContain("--seed needs a number of checks");
  });
});
