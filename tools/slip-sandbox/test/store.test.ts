// The sandbox store and demo data: determinism, unique transRefs, hashed secrets, extra seeding, indexes.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_SECRETS, demoShopId } from "../src/demo.js";
import { openStore, type SandboxStore } from "../src/store.js";
import { NOW } from "./sandbox-client.js";

const opened: SandboxStore[] = [];
const dirs: string[] = [];

function store(path = ":memory:"): SandboxStore {
  const s = openStore(path);
  opened.push(s);
  return s;
}

afterEach(() => {
  for (const s of opened.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("openStore", () => {
  it("finds shops by their secret and keeps only hashes of secrets", () => {
    const dir = mkdtempSync(join(tmpdir(), "slipline-store-"));
    dirs.push(dir);
    const path = join(dir, "sandbox.db");
    const s = store(path);
    s.refreshDemo(NOW.getTime());
    expect(s.shopBySecret(DEMO_SECRETS.shop)?.name).toBe("ร้านกาแฟดีใจ");
    expect(s.shopBySecret(DEMO_SECRETS.other)?.name).toBe("Second Shop");
    expect(s.shopBySecret(DEMO_SECRETS.expired)?.expiresAtMs).toBeLessThan(NOW.getTime());
    expect(s.shopBySecret("demo-shop-secret ")).toBeUndefined();
    s.close();
    opened.pop();
    const bytes = readFileSync(path).toString("latin1");
    for (const secret of Object.values(DEMO_SECRETS)) expect(bytes.includes(secret)).toBe(false);
  });

  it("adds extra checks for the demo shop only, with fresh unique transRefs", () => {
    const s = store();
    s.refreshDemo(NOW.getTime());
    const all = s.checkCount();
    const before = s.history(demoShopId("shop"), { page: 1, limit: 1 }).total;
    const other = s.history(demoShopId("other"), { page: 1, limit: 1 }).total;
    expect(s.seedExtraChecks(5000, NOW.getTime())).toEqual({ firstId: all + 1, count: 5000 });
    s.seedExtraChecks(777, NOW.getTime());
    expect(s.history(demoShopId("shop"), { page: 1, limit: 1 }).total).toBe(before + 5777);
    expect(s.history(demoShopId("other"), { page: 1, limit: 1 }).total).toBe(other);
    expect(s.checkCount()).toBe(all + 5777);
    const refs = s.history(demoShopId("shop"), { page: 1, limit: 100_000 }).items.map((c) => c.transRef);
    expect(new Set(refs).size).toBe(refs.length);
  });

  it("answers every filter combination from an index, without sorting", () => {
    const s = store();
    s.refreshDemo(NOW.getTime());
    for (const status of [undefined, "fraud" as const]) {
      for (const transRef of [undefined, "x"]) {
        for (const fromMs of [undefined, 1]) {
          for (const toMs of [undefined, 2]) {
            const plans = s.explainHistory({ page: 1, limit: 20, status, transRef, fromMs, toMs });
            for (const plan of [plans.page, plans.count]) {
              expect(plan).toMatch(/USING (COVERING )?INDEX/);
              expect(plan).not.toMatch(/TEMP B-TREE|SCAN checks/);
            }
          }
        }
      }
    }
  });
});
