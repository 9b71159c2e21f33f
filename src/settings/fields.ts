// The settings' single values as schemas (zod): each reads one value, from an environment variable or a
// JSON file alike, and says what is wrong in words that never quote a secret.
import { z } from "zod";
import { parsePromptPayId } from "../commands/promptpay-id.js";
import type { Lang } from "../commands/types.js";
import { LOG_LEVELS } from "../log.js";
import { isGroupOrRoomId, isUserId } from "../line-ids.js";
import { isLoopbackHostname } from "../loopback.js";

/** What a field says about a value it refuses: fixed words, or words that quote the value (never for a secret). */
type Problem = string | ((value: string) => string);

function describe(problem: Problem, value: unknown): string {
  if (value === undefined) return "is missing";
  if (typeof problem === "string") return problem;
  return problem(typeof value === "string" ? value : (JSON.stringify(value) ?? typeof value));
}

/** Text read by `read`, which answers undefined for text it refuses; `problem` then says why. */
function reading<T>(read: (value: string) => T | undefined, problem: Problem) {
  return z.string({ error: (issue) => describe(problem, issue.input) }).transform((value, context): T => {
    const result = read(value);
    if (result === undefined) {
      context.addIssue({ code: "custom", message: describe(problem, value) });
      return z.NEVER;
    }
    return result;
  });
}

/** Text kept as it is when `test` accepts it. */
function text(test: (value: string) => boolean, problem: Problem) {
  return reading((value) => (test(value) ? value : undefined), problem);
}

/** One of `words`, in any case, read in lower case. */
function word<W extends string>(words: readonly W[], problem: Problem) {
  return reading((value) => words.find((w) => w === value.toLowerCase()), problem);
}

/** A whole number from `min` to `max`; anything else, fractions and NaN included, gets the one `problem`. */
export function wholeNumber(min: number, max: number, problem: string) {
  return z.number({ error: (issue) => describe(problem, issue.input) }).refine((n) => Number.isInteger(n) && n >= min && n <= max, { error: problem });
}

function parseUrl(raw: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") return undefined;
  return url;
}

const withoutTrailingSlash = (url: URL): string => url.href.replace(/\/+$/, "");

/** An http(s) base URL, read without its trailing slash; plain http only on loopback, since credentials travel with every call. */
export const baseUrl = reading((value) => {
  const url = parseUrl(value);
  return url !== undefined && (url.protocol === "https:" || isLoopbackHostname(url.hostname)) ? withoutTrailingSlash(url) : undefined;
}, "must be an https URL (http only on localhost/127.0.0.1), without query or fragment");

/**
 * A deployment's public address (PUBLIC_URL, the sandbox's SANDBOX_PUBLIC_URL): what LINE and people's phones
 * reach, so https, or http only on this machine (the slip client shows QR images only from such origins).
 */
export const publicUrl = baseUrl;

// The per-shop values.

/** The LINE channel secret: 32 hex digits. Secret: never quoted. */
export const channelSecret = text((value) => /^[0-9a-f]{32}$/.test(value), "must be the 32-character hexadecimal channel secret from the LINE Developers Console");

/** The long-lived channel access token. Secret: never quoted. */
export const channelAccessToken = text((value) => !/\s/.test(value), "must not contain spaces (copy the long-lived channel access token as it is)");

/** The slip service's API secret, never quoted; at least 8 characters: the log scrubs known secrets from every line, and a shorter one would match ordinary text. */
export const slipApiSecret = text((value) => !/\s/.test(value) && value.length >= 8, "must be at least 8 characters, without spaces");

/** The LINE Login (or LINE MINI App) channel of the staff app: its channel id, digits. */
export const loginChannelId = text(
  (value) => /^\d{6,20}$/.test(value),
  (value) => `"${value}" is not a LINE Login channel id: copy the digits shown as "Channel ID" on the LINE Login channel's page`,
);

/** The LIFF app (or MINI App) id of the staff app: the channel id, a dash and a short code. */
export const liffId = text(
  (value) => /^\d{6,20}-[A-Za-z0-9]{4,32}$/.test(value),
  (value) => `"${value}" is not a LIFF id: it looks like 1234567890-AbcdEfgh (the LIFF tab of the LINE Login channel)`,
);

/** A PromptPay id as people write it (spaces, dashes, +66), read into its kind and digits. */
export const promptPayId = reading(
  parsePromptPayId,
  (value) => `"${value}" is not a PromptPay id: use a phone number (10 digits starting with 0, or +66…), a 13-digit citizen or tax id, or a 15-digit e-wallet id`,
);

function quoteList(items: readonly string[]): string {
  const quoted = items.slice(0, 5).map((s) => `"${s.length > 40 ? `${s.slice(0, 40)}…` : s}"`);
  return items.length > 5 ? `${quoted.join(", ")} and ${items.length - 5} more` : quoted.join(", ");
}

/** A list of LINE ids; one problem names every entry that is not one, and repeats none of the good ones. */
function idList(shape: (id: string) => boolean, one: string, many: string, hint: string) {
  const notAList = `must be a list of ${many}`;
  return z.array(z.string({ error: notAList }), { error: notAList }).superRefine((ids, context) => {
    const bad = ids.filter((id) => !shape(id));
    if (bad.length > 0) context.addIssue({ code: "custom", message: `${quoteList(bad)} ${bad.length === 1 ? `is not a ${one}` : `are not ${many}`} (${hint})` });
  });
}

/** Staff who may use the private commands: LINE user ids (U and 32 hex digits). */
export const staffUserIds = idList(isUserId, "LINE user id", "LINE user ids", `U followed by 32 hex digits; the bot's "id" command shows yours`);

/** Staff groups (C…) and the older multi-person rooms (R…). */
export const staffGroupIds = idList(isGroupOrRoomId, "LINE group id", "LINE group ids", `C or R followed by 32 hex digits; the bot's "id" command in the group shows it`);

/** The bot's language where a chat has not chosen one. */
export const lang = word<Lang>(["th", "en"], (value) => `"${value}" is not supported: use th or en`);

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone this Node knows, such as Asia/Bangkok. */
export const timeZone = text(isTimeZone, (value) => `"${value}" is not an IANA time zone (for example Asia/Bangkok)`);

/** A time of day, `HH:MM` in 24 hours (`9:05` too), in the shop's time zone. */
export const clockTime = reading(
  (value) => {
    const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(value);
    return match === null ? undefined : Object.freeze({ hour: Number(match[1]), minute: Number(match[2]) });
  },
  (value) => `"${value}" is not a time: use HH:MM in 24 hours, such as 21:30 (the business time zone)`,
);

export const lowTokenAlertSlips = wholeNumber(1, 1_000_000, "must be a whole number from 1 to 1000000 (API checks left)");
export const expiryAlertDays = wholeNumber(1, 365, "must be a whole number from 1 to 365 (days before the package expires)");
export const watchPaymentsMinutes = wholeNumber(1, 1_440, "must be a whole number from 1 to 1440 (minutes)");
export const accountCacheSeconds = wholeNumber(0, 86_400, "must be a whole number of seconds from 0 to 86400");

// The process-wide values.

export const port = wholeNumber(0, 65_535, "must be a whole number from 0 to 65535");

function isRedisUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "redis:" || url.protocol === "rediss:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** A Redis key prefix: letters, digits and `-_.:`, at most 64, so it cannot run into the keys it names. */
export const redisKeyPrefix = text(
  (value) => /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/.test(value),
  (value) => `"${value}" must be 1 to 64 of letters, digits and - _ . : (starting with a letter or digit)`,
);

/** Carries a password: never quoted. */
export const redisUrl = text(isRedisUrl, "must be a redis:// or rediss:// URL, such as redis://:password@host:6379/0 (the value is not shown here)");

export const logLevel = word(LOG_LEVELS, (value) => `"${value}" is not a level: use one of ${LOG_LEVELS.join(", ")}`);

/** The bearer token /metrics wants: a password, never quoted. */
export const metricsToken = text((value) => /^[\x21-\x7e]{16,}$/.test(value), "must be at least 16 visible characters without spaces (it is a password for /metrics)");

export const shutdownGraceSeconds = wholeNumber(1, 3_600, "must be a whole number of seconds from 1 to 3600 (platforms such as Heroku allow 30)");
/** 0 closes the listener at once on SIGTERM (no drain step). */
export const shutdownDrainSeconds = wholeNumber(0, 600, "must be a whole number of seconds from 0 to 600 (drain plus grace must stay under the platform's kill timeout)");
export const httpKeepAliveSeconds = wholeNumber(1, 600, "must be a whole number of seconds from 1 to 600 (set it above your load balancer's idle timeout, such as 65 behind 60)");
export const maxQueuedEvents = wholeNumber(1, 1_000_000, "must be a whole number from 1 to 1000000");
export const maxRunningEvents = wholeNumber(1, 256, "must be a whole number from 1 to 256 (events one instance handles at once, and its connections to the slip service)");
/** Measured with the bench's capacity scenario (the service answering in 2 s): see docs/operations.md. */
export const DEFAULT_MAX_RUNNING_EVENTS = 64;

export type InstanceRole = "both" | "web" | "worker";

/** What an instance does with Redis. */
export const instanceRole = word<InstanceRole>(["both", "web", "worker"], (value) => `"${value}" is not a role: use both, web or worker`);

/** A switch: 1, true or yes; 0, false or no; in any case. */
export const onOff = reading((value) => (/^(1|true|yes)$/i.test(value) ? true : /^(0|false|no)$/i.test(value) ? false : undefined), "must be 1 or 0 (or true or false)");
