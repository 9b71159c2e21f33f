// What a person probably meant: the command an English typo is closest to, and whether text is a greeting.
import type { CommandName } from "./types.js";
import { COMMAND_NAMES, COMMANDS } from "./registry.js";
import { normalizeText } from "./normalize.js";

/**
 * Edit distance with adjacent swaps counted as one edit (`histroy` is one edit from `history`), for
 * short words only; gives up past `limit`.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...Array.from({ length: b.length }, (_, j) => (i === 0 ? j + 1 : 0))]);
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] ?? [];
    const above = rows[i - 1] ?? [];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row[j] = best;
    }
  }
  return rows[a.length]?.[b.length] ?? limit + 1;
}

/** English command words long enough that a near miss is a typo, not another word (`h`, `id`, `qr` are not). */
const TYPO_TARGETS: readonly { word: string; name: CommandName }[] = COMMAND_NAMES.flatMap((name) =>
  COMMANDS[name].words.en.filter((word) => word.length >= 4).map((word) => ({ word, name })),
);

/**
 * The command an English word is a typo of: one edit away for words of up to 5 letters, two for
 * longer ones, and only when a single command is that close.
 */
export function suggestCommand(word: string): CommandName | undefined {
  const typed = word.toLowerCase();
  if (!/^[a-z]{3,20}$/u.test(typed)) return undefined;
  const limit = typed.length <= 5 ? 1 : 2;
  let best: { distance: number; names: Set<CommandName> } = { distance: limit + 1, names: new Set() };
  for (const target of TYPO_TARGETS) {
    const distance = editDistance(typed, target.word, limit);
    if (distance === 0) return undefined; // a command word itself is no typo
    if (distance < best.distance) best = { distance, names: new Set([target.name]) };
    else if (distance === best.distance) best.names.add(target.name);
  }
  if (best.distance > limit || best.names.size !== 1) return undefined;
  return [...best.names][0];
}

const GREETINGS = /^(?:(?:hello|hi|hey|hiya|good (?:morning|afternoon|evening))(?![a-z])|สวัสดี|หวัดดี|ดีค่ะ|ดีครับ|ดีจ้า)/u;

/** `hello`, `hi there`, `สวัสดีครับ`, `หวัดดีค่ะ`: a greeting rather than a request. */
export function isGreeting(text: string): boolean {
  return GREETINGS.test(normalizeText(text).toLowerCase());
}
