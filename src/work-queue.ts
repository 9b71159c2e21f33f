// A first-in, first-out queue that runs at most N tasks at once: webhook events when the bot is busy,
// and the service calls of one long history view.

export interface WorkQueue {
  /** Runs the task when a place is free; resolves or rejects with it. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now, and tasks waiting for a place. */
  readonly running: number;
  readonly waiting: number;
}

/**
 * Under a burst, starting every event at once would open a socket and a service call for each, and the
 * webhook's own answers (which LINE times out after 2 s) would queue behind all that work. A bound keeps
 * memory flat and leaves the event loop free to answer webhooks at once.
 */
export function createWorkQueue(concurrency: number): WorkQueue {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError("concurrency must be a whole number of at least 1");
  }
  const waiting: Array<() => void> = [];
  let running = 0;

  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next(); // the place passes straight to the next task
  };

  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < concurrency) running += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
  };
}

/** Runs every task with at most `concurrency` in flight; results in the tasks' order. */
export function runBounded<T>(tasks: readonly (() => Promise<T>)[], concurrency: number): Promise<T[]> {
  const queue = createWorkQueue(concurrency);
  return Promise.all(tasks.map((task) => queue.run(task)));
}
