// Identical slip calls made at the same time share one request.

/** Shares one in-flight promise among identical concurrent calls; each caller gets its own copy of the data. */
export class InFlight<T> {
  private readonly pending = new Map<string, Promise<T>>();

  run(key: string, start: () => Promise<T>): Promise<T> {
    let shared = this.pending.get(key);
    if (shared === undefined) {
      shared = start().finally(() => this.pending.delete(key));
      this.pending.set(key, shared);
    }
    // Copies, so one handler changing its result cannot change another's.
    return shared.then((value) => structuredClone(value));
  }
}
