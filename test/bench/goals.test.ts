// The bench's goals table: what it calls met and missed, from made-up figures whose answer is known.
import { describe, expect, it } from "vitest";
import { formatGoals, highestSustained, judgeGoals, judgeManyShops, judgeNeighbours, judgeScaleOut } from "../../bench/goals.js";
import type { StepFigures } from "../../bench/goals.js";

function step(rate: number, over: Partial<StepFigures> = {}): StepFigures {
  return {
    rate,
    eventsSent: rate * 5,
    eventsLost: 0,
    e2eP99: 10,
    botAddedP99: 4,
    cpuSecondsPer1000: 1,
    peakRssPerInstanceMiB: [100],
    allocatedKBPerEvent: 30,
    gcPauseMsPer1000: 50,
    ...over,
  };
}

const echo = { name: "echo", steps: [step(100), step(250), step(500), step(1_000), step(2_000, { eventsLost: 40 })] };

describe("the goals table", () => {
  it("meets a goal at its bound and misses it just past, rate by rate", () => {
    const ours = {
      name: "one",
      steps: [
        step(100, { cpuSecondsPer1000: 1.0, e2eP99: 12, botAddedP99: 4.9, allocatedKBPerEvent: 40, gcPauseMsPer1000: 60 }),
        step(250, { cpuSecondsPer1000: 1.01, e2eP99: 12.1 }),
        step(500),
        step(1_000, { cpuSecondsPer1000: 0.5 }),
        step(2_000, { cpuSecondsPer1000: 9, allocatedKBPerEvent: 90, gcPauseMsPer1000: 500 }), // above 1,000/s: not a CPU, allocation or GC goal
      ],
    };
    const rows = judgeGoals(echo, [ours]);
    const verdict = (goal: string) => rows.find((row) => row.goal === goal)?.met;
    expect(verdict("CPU per event @100/s")).toBe(true);
    expect(verdict("CPU per event @250/s")).toBe(false);
    expect(verdict("CPU per event @1000/s")).toBe(true);
    expect(rows.some((row) => row.goal === "CPU per event @2000/s")).toBe(false);
    expect(verdict("bot-added e2e p99 @100/s")).toBe(true);
    expect(verdict("e2e p99 @100/s")).toBe(true); // 1.2 times
    expect(verdict("e2e p99 @250/s")).toBe(false); // 1.21 times
    expect(verdict("bytes allocated per event (worst, @100/s)")).toBe(true); // 40 KB
    expect(verdict("GC pauses per 1k events (worst, @100/s)")).toBe(true); // 1.2 times
    expect(verdict("highest rate, no loss, p99 < 1 s")).toBe(true); // both good to 1,000/s
  });

  it("judges CPU over every round taken at a rate, where the echo bot and ours both had rounds", () => {
    // The step alone: 1.1 times; over the rounds: 0.95 / 1.0.
    const ours = { name: "one", steps: [step(250, { cpuSecondsPer1000: 1.1, cpuOverRoundsPer1000: 0.95 })] };
    const base = { name: "echo", steps: [step(250, { cpuSecondsPer1000: 1.0, cpuOverRoundsPer1000: 1.0 })] };
    expect(judgeGoals(base, [ours]).find((row) => row.goal === "CPU per event @250/s")).toMatchObject({ ours: "0.950 s/1k", echo: "1.000 s/1k", met: true });
  });

  it("misses the heap goals just past their bounds, and where a step has no reading", () => {
    const rows = (over: Partial<StepFigures>) => judgeGoals(echo, [{ name: "one", steps: [step(100), step(250, over)] }]);
    const verdict = (over: Partial<StepFigures>, goal: string) => rows(over).find((row) => row.goal.startsWith(goal));
    expect(verdict({ allocatedKBPerEvent: 40.1 }, "bytes allocated")).toMatchObject({ goal: "bytes allocated per event (worst, @250/s)", met: false });
    expect(verdict({ gcPauseMsPer1000: 60.5 }, "GC pauses")).toMatchObject({ goal: "GC pauses per 1k events (worst, @250/s)", met: false });
    expect(verdict({ allocatedKBPerEvent: null }, "bytes allocated")).toMatchObject({ goal: "bytes allocated per event (worst, @250/s)", met: false });
    expect(verdict({ gcPauseMsPer1000: null }, "GC pauses")).toMatchObject({ goal: "GC pauses per 1k events (worst, @250/s)", met: false });
  });

  it("judges memory by the worst step and, for several instances, by the larger one", () => {
    const pair = { name: "pair", steps: [step(100, { peakRssPerInstanceMiB: [105, 109] }), step(250, { peakRssPerInstanceMiB: [100, 112] })] };
    const row = judgeGoals(echo, [pair]).find((r) => r.goal.startsWith("peak RSS"));
    expect(row).toMatchObject({ goal: "peak RSS (worst, @250/s)", met: false });
    expect(row?.ratio).toBeCloseTo(1.12);
  });

  it("finds the highest rate with no loss and p99 under a second, and the rate where that ended", () => {
    expect(highestSustained(echo.steps)).toEqual({ rate: 1_000, next: 2_000 });
    expect(highestSustained([step(100, { e2eP99: 1_000 })])).toEqual({ rate: 0, next: 100 });
    expect(highestSustained([step(100), step(250)])).toEqual({ rate: 250, next: null });
    const slower = { name: "slower", steps: [step(100), step(250), step(500, { eventsLost: 1 })] };
    expect(judgeGoals(echo, [slower]).find((row) => row.goal.startsWith("highest"))).toMatchObject({ ours: "250-500/s", echo: "1000-2000/s", met: false });
  });

  it("holds two instances to one instance's CPU, not the echo bot's, and to the scale-out goals", () => {
    const one = { name: "one", steps: [step(100), step(250), step(1_000), step(2_000)] };
    const pair = {
      name: "pair",
      steps: [
        step(100, { cpuSecondsPer1000: 1.5, peakRssPerInstanceMiB: [100, 100] }),
        step(250, { cpuSecondsPer1000: 1.51, peakRssPerInstanceMiB: [100, 100], perInstance: [{ eventsHandled: 600 }, { eventsHandled: 400 }] }),
        step(1_000, { peakRssPerInstanceMiB: [100, 100], perInstance: [{ eventsHandled: 601 }, { eventsHandled: 399 }] }),
        step(2_000, { eventsLost: 3, peakRssPerInstanceMiB: [100, 100] }),
      ],
    };
    expect(judgeGoals(echo, [pair]).filter((row) => row.goal.startsWith("CPU"))).toEqual([]);
    const rows = judgeScaleOut(one, pair, {
      capacity: { one: { answerP95Ms: 20_000, lastAnswerMs: 22_000 }, two: { answerP95Ms: 15_000, lastAnswerMs: 16_600 } },
      takeover: { lastAnswerMs: 5_001 },
      sigkill: { acknowledged: 300, acknowledgedUnanswered: 0, answeredTwice: 0 },
      redisLoss: { acknowledged: 200, acknowledgedUnanswered: 0, answeredTwice: 1 },
    });
    const verdict = (goal: string) => rows.find((row) => row.goal === goal)?.met;
    expect(verdict("CPU per event @100/s, vs one instance")).toBe(true); // 1.5 times
    expect(verdict("CPU per event @250/s, vs one instance")).toBe(false); // 1.51 times
    expect(verdict("highest rate, no loss, p99 < 1 s, vs one instance")).toBe(false); // one instance held 2,000/s
    expect(verdict("largest share handled by one instance @250/s")).toBe(true); // 60 %
    expect(verdict("largest share handled by one instance @1000/s")).toBe(false); // 60.1 %
    expect(verdict("capacity: slow-service burst, p95, vs one instance")).toBe(true); // 0.75 times
    expect(verdict("capacity: slow-service burst, last answer, vs one instance")).toBe(false); // 0.755 times
    expect(verdict("takeover: a SIGKILLed instance's events answered")).toBe(false);
    expect(verdict("SIGKILL mid-burst: acknowledged, unanswered / twice")).toBe(true);
    expect(verdict("Redis back empty: acknowledged, unanswered / twice")).toBe(false);
  });

  it("compares two instances with one over every CPU round taken at a rate, where there were more", () => {
    const one = { name: "one", steps: [step(250, { cpuSecondsPer1000: 1, cpuOverRoundsPer1000: 1.2 })] };
    // The step alone: 1.9 times; over the rounds: 1.7 / 1.2 = 1.42 times.
    const pair = { name: "pair", steps: [step(250, { cpuSecondsPer1000: 1.9, cpuOverRoundsPer1000: 1.7 })] };
    const rows = judgeScaleOut(one, pair, {
      capacity: { one: { answerP95Ms: 20_000, lastAnswerMs: 22_000 }, two: { answerP95Ms: 10_000, lastAnswerMs: 11_000 } },
      takeover: { lastAnswerMs: 3_000 },
      sigkill: { acknowledged: 300, acknowledgedUnanswered: 0, answeredTwice: 0 },
      redisLoss: { acknowledged: 200, acknowledgedUnanswered: 0, answeredTwice: 0 },
    });
    expect(rows.find((row) => row.goal === "CPU per event @250/s, vs one instance")).toMatchObject({ ours: "1.700 s/1k", echo: "1.200 s/1k", met: true });
  });

  it("judges the bot-added p99 over every event of the rounds at 100/s, where there were rounds", () => {
    const one = { name: "one", steps: [step(100, { botAddedP99: 4.5 })] };
    // The step alone: 6 ms, over 5; over the step and its rounds: 4.2 ms.
    const pair = { name: "pair", steps: [step(100, { botAddedP99: 6, botAddedOverRoundsP99: 4.2 })] };
    const verdicts = judgeGoals(echo, [one, pair]).filter((row) => row.goal === "bot-added e2e p99 @100/s");
    expect(verdicts.map((row) => [row.layout, row.ours, row.met])).toEqual([
      ["one", "4.5 ms", true],
      ["pair", "4.2 ms", true],
    ]);
  });

  it("prints one line per goal and the count met", () => {
    const text = formatGoals(judgeGoals(echo, [{ name: "one", steps: echo.steps }]));
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^layout\s+goal\s+slipline\s+against\s+ratio\s+target$/);
    expect(lines.at(-1)).toBe("11 of 11 goals met");
    expect(lines.filter((line) => line.endsWith("MISSED"))).toEqual([]);
  });

  it("judges many shops against one: start-up and memory by the median, CPU and the reload's p99 as ratios, a reload that changed too few as missed", () => {
    const measured = {
      startup: { one: { readyMs: [600, 700, 650], idleRssMiB: [120, 121, 119] }, many: { shops: 1_000, readyMs: [1_640, 1_600, 9_000], idleRssMiB: [169.9, 170, 500] } },
      cpu: { rate: 250, spreadOver: 100, oneShop: { cpuSecondsPer1000: 2 }, spread: { cpuSecondsPer1000: 2.2 } },
      reload: { rate: 250, before: { e2eP99: 10 }, during: { eventsSent: 3_750, eventsLost: 0, refused: 0, e2eP99: 12.1 }, shopsChanged: 1_000 },
    };
    const verdicts = (m: typeof measured) => judgeManyShops(m).map((row) => [row.goal, row.met]);
    // 1,640 - 650 = 990 ms; 170 - 120 = 50 MiB (not under 50); 1.1 times; 0 / 0; 1.21 times.
    expect(verdicts(measured)).toEqual([
      ["start-up to ready, vs 1 shop (median)", true],
      ["idle RSS, vs 1 shop (median)", false],
      ["CPU per event @250/s over 100 shops, vs 1 shop", true],
      ["reload of every shop @250/s: lost / refused", true],
      ["reload @250/s: e2e p99, vs the step before", false],
    ]);
    const fewerChanged = { ...measured, reload: { ...measured.reload, shopsChanged: 999 } };
    expect(judgeManyShops(fewerChanged).find((row) => row.goal.startsWith("reload of"))?.met).toBe(false);
    const oneRefused = { ...measured, reload: { ...measured.reload, during: { ...measured.reload.during, refused: 1 } } };
    expect(judgeManyShops(oneRefused).find((row) => row.goal.startsWith("reload of"))?.met).toBe(false);
  });

  it("judges the noisy neighbour: B's p95 within 1.5 times or 300 ms more, whichever is larger; nothing lost, refused or answered twice", () => {
    const layout = (aloneP95: number, besideP95: number) => ({
      layout: "one instance",
      alone: { e2eP95: aloneP95 },
      beside: { sent: 75, lost: 0, refused503: 0, otherErrors: 0, e2eP95: besideP95 },
      flood: { acknowledged: 900, lost: 0, answeredTwice: 0 },
      rejectedByLine: 0,
    });
    const p95Met = (aloneP95: number, besideP95: number) =>
      judgeNeighbours({ floodRate: 100, quietRate: 5, layouts: [layout(aloneP95, besideP95)] }).find((row) => row.goal.startsWith("B's e2e p95"))?.met;
    // Fast alone: +300 ms is the larger allowance; slow alone: 1.5 times is.
    expect([p95Met(40, 340), p95Met(40, 341), p95Met(1_000, 1_500), p95Met(1_000, 1_501)]).toEqual([true, false, true, false]);
    const verdicts = (over: Partial<ReturnType<typeof layout>>) =>
      judgeNeighbours({ floodRate: 100, quietRate: 5, layouts: [{ ...layout(40, 60), ...over }] }).map((row) => [row.goal, row.met]);
    expect(verdicts({})).toEqual([
      ["B (5/s) beside A's flood: lost / 503", true],
      ["B's e2e p95 beside A's flood, vs B alone", true],
      ["A (100/s) acknowledged: not answered / answered twice", true],
    ]);
    expect(verdicts({ beside: { sent: 75, lost: 0, refused503: 1, otherErrors: 0, e2eP95: 60 } })[0]).toEqual(["B (5/s) beside A's flood: lost / 503", false]);
    expect(verdicts({ flood: { acknowledged: 900, lost: 0, answeredTwice: 1 } })[2]).toEqual(["A (100/s) acknowledged: not answered / answered twice", false]);
    expect(verdicts({ rejectedByLine: 1 })[2]).toEqual(["A (100/s) acknowledged: not answered / answered twice", false]);
    expect(verdicts({ flood: { acknowledged: 900, lost: 3, answeredTwice: 0 } })[2]).toEqual(["A (100/s) acknowledged: not answered / answered twice", false]);
  });
});
