// Turns shared fairly between shops: a bound on events running in this process, and within it a bound per
// shop, so that a shop whose service is slow (but answers, so its breaker never opens) or whose group bursts
// cannot hold every turn. A free turn goes to the shops with events waiting in rotation, one event each, so
// another shop's event waits for at most one turn to free, not behind the busy shop's whole backlog.

export interface FairTurnsOptions {
  /** Events running at once, all shops together. */
  readonly running: number;
  /** Events of one shop running at once. Default half of `running` (at least 1). */
  readonly runningPerShop?: number | undefined;
}

export interface FairTurns {
  /**
   * Runs `work` in a turn of `shop`'s. Resolves with `{ ran: false }` without running it when the waiting
   * turns are dropped (`dropWaiting`, at the end of a shutdown's grace period).
   */
  take<T>(shop: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
  /** Events running now, all shops together. */
  readonly running: number;
  /** Turns free now, all shops together. */
  readonly free: number;
  /** Turns that could start at once for `shop` (a free turn within its own bound and the total's). */
  freeFor(shop: string): number;
  /** Events waiting are dropped: each `take` of theirs resolves `{ ran: false }`. */
  dropWaiting(): void;
}

interface ShopTurns {
  running: number;
  readonly waiting: ((go: boolean) => void)[];
}

export function runningPerShopOf(running: number, perShop: number | undefined): number {
  return Math.max(1, Math.min(running, perShop ?? Math.ceil(running / 2)));
}

export function createFairTurns(options: FairTurnsOptions): FairTurns {
  const total = Math.max(1, options.running);
  const perShop = runningPerShopOf(total, options.runningPerShop);
  const shops = new Map<string, ShopTurns>();
  // The shops with events waiting, in the order their turn comes (a Map keeps insertion order).
  const rotation = new Map<string, ShopTurns>();
  let running = 0;

  const turnsOf = (shop: string): ShopTurns => {
    let turns = shops.get(shop);
    if (turns === undefined) {
      turns = { running: 0, waiting: [] };
      shops.set(shop, turns);
    }
    return turns;
  };
  const forget = (shop: string, turns: ShopTurns): void => {
    if (turns.running === 0 && turns.waiting.length === 0) shops.delete(shop);
  };

  /** Gives free turns to waiting events, one shop after another. */
  function dispatch(): void {
    while (running < total && rotation.size > 0) {
      let started = false;
      for (const [shop, turns] of rotation) {
        if (running >= total) break;
        if (turns.running >= perShop) continue;
        const go = turns.waiting.shift();
        rotation.delete(shop);
        if (go === undefined) continue;
        // Back to the end of the rotation while it has more waiting.
        if (turns.waiting.length > 0) rotation.set(shop, turns);
        turns.running += 1;
        running += 1;
        started = true;
        go(true);
      }
      if (!started) return;
    }
  }

  return {
    async take(shop, work) {
      const turns = turnsOf(shop);
      if (running < total && turns.running < perShop && turns.waiting.length === 0) {
        turns.running += 1;
        running += 1;
      } else {
        const go = await new Promise<boolean>((resolve) => {
          turns.waiting.push(resolve);
          if (!rotation.has(shop)) rotation.set(shop, turns);
          dispatch();
        });
        if (!go) {
          forget(shop, turns);
          return { ran: false };
        }
      }
      try {
        return { ran: true, value: await work() };
      } finally {
        turns.running -= 1;
        running -= 1;
        forget(shop, turns);
        dispatch();
      }
    },
    get running() {
      return running;
    },
    get free() {
      return total - running;
    },
    freeFor(shop) {
      return Math.max(0, Math.min(total - running, perShop - (shops.get(shop)?.running ?? 0)));
    },
    dropWaiting() {
      for (const [shop, turns] of shops) {
        const dropped = turns.waiting.splice(0);
        rotation.delete(shop);
        for (const go of dropped) go(false);
      }
    },
  };
}
