// What reading one message costs, since every group message is read: parses a literal corpus (the natural
// messages of test/commands/natural-messages.ts: requests, long and busy messages, staff and customers'
// talk) in rounds after a warm-up, timing each call. Goal: p99 at most 0.2 ms a message.
// `npm run bench:parse` prints it alone; `npm run bench` prints it with the scenarios.
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { parseCommand } from "../src/commands/parse.js";
import { NATURAL_MESSAGES } from "../test/commands/natural-messages.js";
import { quantile } from "./stats.js";

export const PARSE_GOAL_P99_MS = 0.2;

export interface ParseBenchResult {
  messages: number;
  rounds: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  goalMet: boolean;
}

export function benchParse(options: { rounds?: number } = {}): ParseBenchResult {
  const rounds = options.rounds ?? 200;
  const ctx = { now: new Date("2026-11-22T07:05:00.000Z"), timeZone: "Asia/Bangkok", defaultLang: "th" } as const;
  const corpus = NATURAL_MESSAGES.map(([message]) => message);
  for (let i = 0; i < 20; i++) for (const message of corpus) parseCommand(message, ctx);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const message of corpus) {
      const start = performance.now();
      parseCommand(message, ctx);
      times.push(performance.now() - start);
    }
  }
  const p99Ms = quantile(times, 0.99);
  return { messages: corpus.length, rounds, p50Ms: quantile(times, 0.5), p99Ms, maxMs: Math.max(...times), goalMet: p99Ms <= PARSE_GOAL_P99_MS };
}

export function formatParse(result: ParseBenchResult): string {
  const ms = (value: number): string => `${value.toFixed(3)} ms`;
  return (
    `parse: ${result.messages} messages x ${result.rounds} rounds: p50 ${ms(result.p50Ms)}, p99 ${ms(result.p99Ms)}, max ${ms(result.maxMs)} per message ` +
    `(goal: p99 <= ${PARSE_GOAL_P99_MS} ms: ${result.goalMet ? "met" : "MISSED"})`
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatParse(benchParse({ rounds: process.env.BENCH_QUICK === "1" ? 20 : 200 })));
}
