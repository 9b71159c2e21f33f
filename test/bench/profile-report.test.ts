// The profile report's busiest window: which samples a load step is, out of a process's whole life.
import { describe, expect, it } from "vitest";
import { busiestWindow } from "../../bench/profile-report.js";

const ms = 1_000; // timeDeltas are in microseconds

describe("the busiest window of a profile", () => {
  it("is the stretch with the most time not idle, start-up and idle spells around it left out", () => {
    // 0-9: start-up, busy, 1 ms each; 10-29: idle, 100 ms each (2 s); 30-59: the load step, busy, 50 ms each
    // (1.5 s); 60-69: idle again.
    const deltas = [...Array<number>(10).fill(1 * ms), ...Array<number>(20).fill(100 * ms), ...Array<number>(30).fill(50 * ms), ...Array<number>(10).fill(100 * ms)];
    const idle = deltas.map((_, index) => (index >= 10 && index < 30) || index >= 60);
    const { from, to } = busiestWindow(deltas, idle, 1.5);
    // Every sample of the step, none of the start-up (an idle sample at the edge counts nothing either way).
    expect(to).toBe(59);
    expect(from).toBeGreaterThanOrEqual(10);
    expect(from).toBeLessThanOrEqual(30);
  });

  it("is no longer than asked: a window shorter than the step keeps only part of it", () => {
    const deltas = Array<number>(100).fill(10 * ms); // 1 s, all busy
    const { from, to } = busiestWindow(
      deltas,
      deltas.map(() => false),
      0.25,
    );
    // 0.25 s from the first sample kept to the last: 26 samples 10 ms apart.
    expect(to - from).toBe(25);
  });
});
