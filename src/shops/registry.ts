// The shops a deployment serves right now, swapped whole on a reload: added shops take webhooks at once,
// a changed shop's next event uses its new settings, and a removed (or replaced) shop stops taking
// webhooks at once but is kept for the events it still has in hand, then closed.
import type { Logger } from "pino";
import { giveWay } from "./give-way.js";
import { shopChangeOf } from "./shop.js";
import type { ShopConfig } from "./shop.js";

/** What the registry keeps of a running shop. */
export interface RunningShop {
  readonly config: ShopConfig;
  /** Takes new settings in place, when `shopChangeOf` says nothing needs building anew. */
  update(config: ShopConfig): void;
  /** Events of this shop being handled now. */
  readonly inHand: number;
  start(tickMs: number): Promise<void>;
  /** Taken out of service: its schedules stop at once, while its events in hand finish. */
  retire(): void;
  close(): Promise<void>;
}

export interface ShopChanges {
  added: string[];
  changed: string[];
  removed: string[];
  kept: string[];
}

export interface ShopRegistry<T extends RunningShop> {
  /** The shop whose webhook is at `path`, among those served now. */
  atPath(path: string): T | undefined;
  /** A shop by id: one served now, or one retired whose events in hand are not done yet. */
  byId(id: string): T | undefined;
  /**
   * The shop served now under this id, never a retired one: whose staff lists hold at this moment, for a
   * retired shop's last events too (a removed shop has none).
   */
  servedNow(id: string): T | undefined;
  /** The shops served now. */
  current(): readonly T[];
  /** Serves exactly these shops from now on. */
  apply(configs: readonly ShopConfig[]): Promise<ShopChanges>;
  /** Closes every shop, served or retiring, at once (shutdown has drained the events in hand first). */
  close(): Promise<void>;
}

export interface ShopRegistryOptions<T extends RunningShop> {
  build(config: ShopConfig): T;
  log: Logger;
  /** The opt-in pushes' tick, for shops that start. */
  tickMs: number;
  /** How often a retired shop is checked for events still in hand. Default 1,000 ms. */
  retireCheckMs?: number;
}

export function createShopRegistry<T extends RunningShop>(options: ShopRegistryOptions<T>): ShopRegistry<T> {
  const { log } = options;
  let byPath = new Map<string, T>();
  let byIdNow = new Map<string, T>();
  const retiring = new Map<string, T>();
  const retirements = new Set<Promise<void>>();

  /** A retired shop closes once nothing of it is in hand (checked every second), so no answer is cut off. */
  function retire(shop: T): void {
    retiring.set(shop.config.id, shop);
    shop.retire();
    const done = (async () => {
      while (shop.inHand > 0) await new Promise((resolve) => setTimeout(resolve, options.retireCheckMs ?? 1_000).unref());
      if (retiring.get(shop.config.id) === shop) retiring.delete(shop.config.id);
      await shop.close().catch((err: unknown) => log.warn({ err, shop: shop.config.id }, "a retired shop did not close cleanly"));
    })();
    retirements.add(done);
    void done.finally(() => retirements.delete(done));
  }

  let applying: Promise<unknown> = Promise.resolve();

  async function applyNow(configs: readonly ShopConfig[]): Promise<ShopChanges> {
    const changes: ShopChanges = { added: [], changed: [], removed: [], kept: [] };
    const nextById = new Map<string, T>();
    const started: T[] = [];
    const inPlace: [T, ShopConfig][] = [];
    // Compared while events keep arriving, in slices; nothing changes until the swap below.
    const slice = giveWay();
    for (const config of configs) {
      await slice();
      const running = byIdNow.get(config.id);
      const change = running === undefined ? "parts" : shopChangeOf(running.config, config);
      if (running !== undefined && change === "none") {
        nextById.set(config.id, running);
        changes.kept.push(config.id);
        continue;
      }
      if (running !== undefined && change === "settings") {
        // Staff, language, time zone, PromptPay id: the running shop takes them from its next event on.
        inPlace.push([running, config]);
        nextById.set(config.id, running);
        changes.changed.push(config.id);
        continue;
      }
      const built = options.build(config);
      nextById.set(config.id, built);
      started.push(built);
      (running === undefined ? changes.added : changes.changed).push(config.id);
    }
    for (const [id, running] of byIdNow) {
      if (nextById.get(id) !== running) {
        if (!nextById.has(id)) changes.removed.push(id);
        retire(running);
      }
    }
    // Swapped in one step: a webhook sees the old set or the new one, never half of each.
    for (const [running, config] of inPlace) running.update(config);
    byIdNow = nextById;
    byPath = new Map([...nextById.values()].map((shop) => [shop.config.webhookPath, shop]));
    await Promise.all(started.map((shop) => shop.start(options.tickMs)));
    return changes;
  }

  return {
    atPath: (path) => byPath.get(path),
    byId: (id) => byIdNow.get(id) ?? retiring.get(id),
    servedNow: (id) => byIdNow.get(id),
    current: () => [...byIdNow.values()],
    apply(configs) {
      // One reload at a time (SIGHUP and the file's change can come together): each compares with what the
      // one before it left.
      const run = applying.then(() => applyNow(configs));
      applying = run.catch(() => undefined);
      return run;
    },
    async close() {
      // At shutdown the grace period has already been given to the events in hand: close every shop now.
      const all = [...byIdNow.values(), ...retiring.values()];
      byIdNow = new Map();
      byPath = new Map();
      retiring.clear();
      await Promise.all(all.map((shop) => shop.close().catch((err: unknown) => log.warn({ err, shop: shop.config.id }, "a shop did not close cleanly"))));
    },
  };
}
