// The bot's logger: pino JSON lines with every secret, access token and reply token kept out of them.
import { pino } from "pino";
import type { DestinationStream, Logger } from "pino";

const CENSOR = "[redacted]";

// Fields that carry credentials or single-use tokens, at the top level and where our code nests them.
const SECRET_KEYS = ["authorization", "Authorization", "channelSecret", "channelAccessToken", "accessToken", "apiSecret", "secret", "replyToken"] as const;

// Explicit paths only: pino's `*.` wildcards made every line about ten times dearer (60 us instead of
// 6 us here), on the path of every event. Known secret values are scrubbed from the whole line anyway.
const REDACT_PATHS: string[] = [
  ...SECRET_KEYS,
  "event.replyToken",
  "events[*].replyToken",
  "body.events[*].replyToken",
  "headers.authorization",
  'headers["x-line-signature"]',
  "req.headers.authorization",
  'req.headers["x-line-signature"]',
  "config.line.channelSecret",
  "config.line.channelAccessToken",
  "config.slip.apiSecret",
];

export interface LoggerOptions {
  level: string;
  /** Where the JSON lines go; stdout when absent (tests pass a stream to read them). */
  destination?: DestinationStream;
  /**
   * Secret values (channel secrets, access tokens, API secrets). Any line that still contains one, say
   * inside an error message, has it replaced before it is written. A function is asked again whenever it
   * may have changed (a reload of the shops brings new secrets): the list is prepared once per new array.
   */
  secrets?: readonly (string | undefined)[] | (() => readonly (string | undefined)[]);
}

// Short strings would match ordinary text; real secrets are long.
const MIN_SCRUBBED_LENGTH = 8;
/** Up to this many secrets, each is looked for in turn; more, and one pass finds them all (see secretScrubber). */
const FEW_SECRETS = 32;

/** The secrets to look for in a line: each long enough, and also as written in a JSON line (a quote or a backslash escaped). */
function prepare(list: readonly (string | undefined)[]): string[] {
  return [...new Set(list.filter((s): s is string => typeof s === "string" && s.length >= MIN_SCRUBBED_LENGTH).flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))];
}

/**
 * Replaces every secret in a line with the censor, in one pass over the line however many secrets there
 * are (a deployment of a thousand shops has three thousand): a rolling hash of each window as long as the
 * shortest secret finds the places where a secret may start, and only those are compared in full. (Looking
 * for each secret in turn cost 0.2 ms a line with a thousand shops, on every line.) The window is the whole
 * shortest secret, not a fixed few characters, so that secrets sharing a beginning (zero-padded, or with a
 * provider's prefix) do not all fall in one bucket.
 */
export function secretScrubber(secrets: readonly string[]): (line: string) => string {
  const usable = [...new Set(secrets.filter((s) => s.length >= MIN_SCRUBBED_LENGTH))].sort((a, b) => b.length - a.length);
  if (usable.length === 0) return (line) => line;
  // A few secrets (one shop): the engine's own substring search is quicker than any hashing (0.2 µs a line
  // against 2 µs); past some 30 secrets the one pass wins.
  if (usable.length <= FEW_SECRETS) {
    return (line) => usable.reduce((out, secret) => (out.includes(secret) ? out.split(secret).join(CENSOR) : out), line);
  }
  const width = Math.min(...usable.map((s) => s.length));
  const hashAt = (text: string, start: number): number => {
    let hash = 0;
    for (let k = 0; k < width; k++) hash = (Math.imul(hash, 31) + text.charCodeAt(start + k)) | 0;
    return hash;
  };
  // 31 to the power width - 1, modulo 2^32: what the character leaving the window weighed.
  let leaving = 1;
  for (let k = 1; k < width; k++) leaving = Math.imul(leaving, 31);
  const byHead = new Map<number, string[]>();
  for (const secret of usable) {
    const head = hashAt(secret, 0);
    byHead.set(head, [...(byHead.get(head) ?? []), secret]); // longest first, as sorted
  }
  return (line) => {
    const last = line.length - width;
    if (last < 0) return line;
    let out = "";
    let copiedTo = 0;
    let i = 0;
    let hash = hashAt(line, 0);
    while (i <= last) {
      const found = byHead.get(hash)?.find((secret) => line.startsWith(secret, i));
      if (found !== undefined) {
        out += line.slice(copiedTo, i) + CENSOR;
        i += found.length;
        copiedTo = i;
        if (i <= last) hash = hashAt(line, i);
        continue;
      }
      if (i < last) hash = (Math.imul(hash - Math.imul(line.charCodeAt(i), leaving), 31) + line.charCodeAt(i + width)) | 0;
      i += 1;
    }
    return copiedTo === 0 ? line : out + line.slice(copiedTo);
  };
}

export function createLogger(options: LoggerOptions): Logger {
  const source = options.secrets ?? [];
  let seen: readonly (string | undefined)[] | undefined;
  let prepared: string[] = [];
  let scrub: (line: string) => string = (line) => line;
  const secretsNow = (): string[] => {
    const list = typeof source === "function" ? source() : source;
    if (list !== seen) {
      seen = list;
      prepared = prepare(list);
      scrub = secretScrubber(prepared);
    }
    return prepared;
  };
  const dynamic = typeof source === "function";
  return pino(
    {
      level: options.level,
      base: { service: "slipline" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      hooks:
        !dynamic && secretsNow().length === 0
          ? {}
          : {
              streamWrite(line: string): string {
                secretsNow();
                return scrub(line);
              },
            },
    },
    // Asynchronous: lines written in the same tick go out in one write (one syscall per line cost ~5 %
    // of the CPU under load), yet nothing waits for a buffer to fill; pino flushes what is left at exit.
    options.destination ?? pino.destination({ fd: 1, sync: false, minLength: 0 }),
  );
}

/** The levels LOG_LEVEL may name. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
