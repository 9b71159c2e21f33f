// `npx tsx bench/understood.ts [<src dir>]`: how many of the natural messages (test/commands/natural-messages.ts)
// a parser understands: the right command with the right details, where it may run. Point it at another
// checkout's src/ (e.g. main's) to measure before and after with the same table. Prints the counts, the
// misses with what was read, and any wrong command run.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { NATURAL_MESSAGES } from "../test/commands/natural-messages.js";
import { meantOf } from "../test/commands/natural-reading.js";
import type { parseCommand as ParseCommand } from "../src/commands/parse.js";

const src = resolve(process.argv[2] ?? "src");
const { parseCommand } = (await import(pathToFileURL(resolve(src, "commands/parse.ts")).href)) as { parseCommand: typeof ParseCommand };
const ctx = { now: new Date("2026-11-22T07:05:00.000Z"), timeZone: "Asia/Bangkok", defaultLang: "th" } as const;

let understood = 0;
let wrong = 0;
for (const [message, place, meant] of NATURAL_MESSAGES) {
  const read = meantOf(parseCommand(message, ctx), place);
  if (read === meant) understood += 1;
  else {
    // A wrong command (or wrong details) run is worse than nothing; `none` or a question back is a miss.
    const ran = read !== "none";
    if (ran) wrong += 1;
    console.log(`${ran ? "WRONG" : "miss "}  ${place.padEnd(13)} ${message}  =>  ${read}  (meant ${meant})`);
  }
}
console.log(`${src}: understood ${understood}/${NATURAL_MESSAGES.length} (${((100 * understood) / NATURAL_MESSAGES.length).toFixed(1)} %), wrong ${wrong}`);
