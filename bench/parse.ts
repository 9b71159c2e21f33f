// `npm run bench:parse`: what reading one message costs, since every group message is read. Parses a literal
// corpus (the natural messages of test/commands/natural-messages.ts: requests, long and busy messages, staff
// and customers' talk) in rounds after a warm-up, timing each call, and prints p50 / p99 / max per message.
// Goal: p99 at most 0.2 ms.
import { performance } from "node:perf_hooks";
import { parseCommand } from "../src/commands/parse.js";
import { NATURAL_MESSAGES } from "../test/commands/natural-messages.js";
import { quantile } from "./stats.js";

const ROUNDS = process.env.BENCH_QUICK === "1" ? 20 : 200;
const ctx = { now: new Date("2026-11-22T07:05:00.000Z"), timeZone: "Asia/Bangkok", defaultLang: "th" } as const;
const corpus = NATURAL_MESSAGES.map(([message]) => message);

for (let i = 0; i < 20; i++) for (const message of corpus) parseCommand(message, ctx);

const times: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const message of corpus) {
    const start = performance.now();
    parseCommand(message, ctx);
    times.push(performance.now() - start);
  }
}
const ms = (value: number): string => `${value.toFixed(3)} ms`;
console.log(
  `parse: ${corpus.length} messages x ${ROUNDS} rounds: p50 ${ms(quantile(times, 0.5))}, p99 ${ms(quantile(times, 0.99))}, max ${ms(Math.max(...times))} per message (goal: p99 <= 0.2 ms)`,
);
