// The registry of running shops across reloads: a shop whose channel and service are the same is changed in
// place (its stores and watches stay), another is built anew and the old one retired once nothing of it is in
// hand; the new set is swapped in whole; reloads that come together (SIGHUP and the file's change) run one
// after the other, so a shop is never built twice.
import pino from "pino";
import { describe, expect, it } from "vitest";
import { parseShopsFile } from "../../src/shops/file.js";
import { createShopRegistry } from "../../src/shops/registry.js";
import type { RunningShop } from "../../src/shops/registry.js";
import type { ShopConfig } from "../../src/shops/shop.js";

interface FakeShop extends RunningShop {
  readonly serial: number;
  closed: boolean;
  inHand: number;
  config: ShopConfig;
}

/** Shops from a shops file's text, as a reload reads them (`n` shops, the first `renamed` of them renamed). */
function shops(n: number, changes: { renamed?: number; newSecretFor?: string } = {}): ShopConfig[] {
  const list = Array.from({ length: n }, (_, i) => ({
    id: `shop-${i + 1}`,
    name: `Shop ${i + 1}${i < (changes.renamed ?? 0) ? " (renamed)" : ""}`,
    line: {
      channelSecret: (changes.newSecretFor === `shop-${i + 1}` ? 0xf0000 + i : 0xa0000 + i).toString(16).padStart(32, "0"),
      channelAccessToken: `token-of-shop-${i + 1}`,
    },
    slip: { baseUrl: "https://slip.example.com", apiSecret: "slip-secret-1" },
  }));
  const read = parseShopsFile(JSON.stringify({ shops: list }), {});
  if (!read.ok) throw new Error(read.problems.join("\n"));
  return read.shops;
}

function registry() {
  let serial = 0;
  const built: FakeShop[] = [];
  const reg = createShopRegistry<FakeShop>({
    log: pino({ level: "silent" }),
    tickMs: 60_000,
    retireCheckMs: 5,
    build: (config) => {
      const shop: FakeShop = {
        serial: ++serial,
        config,
        closed: false,
        inHand: 0,
        update(next) {
          shop.config = next;
        },
        start: () => Promise.resolve(),
        retire: () => undefined,
        close: () => {
          shop.closed = true;
          return Promise.resolve();
        },
      };
      built.push(shop);
      return shop;
    },
  });
  return { reg, built };
}

describe("the shop registry", () => {
  it("changes a renamed shop in place, builds a shop with a new channel anew and retires the old one when its events are done", async () => {
    const { reg, built } = registry();
    await reg.apply(shops(3));
    const [first, second] = [reg.byId("shop-1"), reg.byId("shop-2")];
    second!.inHand = 1; // an event of shop-2 still being handled

    const changes = await reg.apply(shops(3, { renamed: 1, newSecretFor: "shop-2" }).slice(0, 2));
    expect(changes).toEqual({ added: [], changed: ["shop-1", "shop-2"], removed: ["shop-3"], kept: [] });
    expect(reg.byId("shop-1")).toBe(first);
    expect(reg.byId("shop-1")?.config.name).toBe("Shop 1 (renamed)");
    const rebuilt = reg.byId("shop-2");
    expect(rebuilt).not.toBe(second);
    expect(rebuilt?.config.line.channelSecret).toBe((0xf0001).toString(16).padStart(32, "0"));
    expect(reg.atPath("/webhook/shop-3")).toBeUndefined();
    expect(reg.current().map((s) => s.config.id)).toEqual(["shop-1", "shop-2"]);

    // The old shop-2 closes only once its event is done; shop-3 had none.
    await waitFor(() => built.find((s) => s.config.id === "shop-3")?.closed === true);
    expect(second!.closed).toBe(false);
    second!.inHand = 0;
    await waitFor(() => second!.closed);
    expect(rebuilt?.closed).toBe(false);
  });

  it("runs reloads that come together one after the other: each shop built once, the last file served", async () => {
    const { reg, built } = registry();
    await reg.apply(shops(2));
    const before = built.length;
    // SIGHUP and the file's change at once, twice over, with a thousand shops (long enough to give way).
    const results = await Promise.all([reg.apply(shops(1_000)), reg.apply(shops(1_000)), reg.apply(shops(1_000, { renamed: 1_000 }))]);
    expect(results.map((r) => [r.added.length, r.changed.length, r.kept.length])).toEqual([
      [998, 0, 2],
      [0, 0, 1_000],
      [0, 1_000, 0],
    ]);
    expect(built.length - before).toBe(998);
    expect(reg.current()).toHaveLength(1_000);
    expect(reg.byId("shop-1000")?.config.name).toBe("Shop 1000 (renamed)");
  });

  it("serves the old set until the new one is swapped in whole", async () => {
    const { reg } = registry();
    await reg.apply(shops(1_000));
    const applying = reg.apply(shops(1_000, { renamed: 1_000 }));
    // While the reload compares (it gives way to events), lookups see the old names only.
    const seen = new Set<string>();
    let done = false;
    void applying.then(() => (done = true));
    while (!done) {
      seen.add(reg.byId("shop-1")?.config.name ?? "");
      seen.add(reg.byId("shop-1000")?.config.name ?? "");
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect([...seen].sort()).toEqual(["Shop 1", "Shop 1000"]);
    expect(reg.byId("shop-1")?.config.name).toBe("Shop 1 (renamed)");
  });
});

async function waitFor(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("not so within 5 s");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
