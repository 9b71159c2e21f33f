import { describe, expect, it } from "vitest";
import { createWorkQueue, runBounded } from "../src/work-queue.js";

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => undefined as void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("work queue", () => {
  it("runs at most N tasks at once and starts the waiting ones in arrival order", async () => {
    const queue = createWorkQueue(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const done = gates.map((gate, index) =>
      queue.run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(queue.running).toBe(2);
    expect(queue.waiting).toBe(2);

    gates[1]?.resolve();
    await done[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);

    gates[0]?.resolve();
    gates[2]?.resolve();
    gates[3]?.resolve();
    expect(await Promise.all(done)).toEqual([0, 1, 2, 3]);
    expect(queue.running).toBe(0);
    expect(queue.waiting).toBe(0);
  });

  it("frees the place of a task that fails, and passes the failure to its caller", async () => {
    const queue = createWorkQueue(1);
    await expect(queue.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await queue.run(() => Promise.resolve("next"))).toBe("next");
    expect(queue.running).toBe(0);
  });

  it("refuses a bound that is not a whole number of at least 1", () => {
    expect(() => createWorkQueue(0)).toThrow(RangeError);
    expect(() => createWorkQueue(1.5)).toThrow(RangeError);
  });
});

describe("runBounded", () => {
  it("keeps the tasks' order in its results while never running more than the bound", async () => {
    let inFlight = 0;
    let most = 0;
    const tasks = Array.from({ length: 9 }, (_, index) => async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, (9 - index) % 3));
      inFlight -= 1;
      return index;
    });
    expect(await runBounded(tasks, 3)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(most).toBe(3);
  });
});
