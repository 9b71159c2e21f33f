// Identical slip calls made at the same time share one request.

/** Freezes a value parsed from JSON, and everything in it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Shares one in-flight promise among identical concurrent calls. Every caller gets the same frozen value:
 * no handler can change what another reads, and nothing is copied per caller.
 */
export class InFlight<T> {
  private readonly pending = new Map<string, Promise<T>>();

  run(key: string, start: () => Promise<T>): Promise<T> {
    let shared = this.pending.get(key);
    if (shared === undefined) {
      shared = start()
        .then(deepFreeze)
        .finally(() => this.pending.delete(key));
      this.pending.set(key, shared);
    }
    return shared;
  }
}
