// The bot's configuration (the README's table of variables): read once from the environment, validated completely.
import { isGroupOrRoomId, isUserId } from "./line-ids.js";
import { isLoopbackHostname } from "./loopback.js";
import type { Lang, PromptPayId } from "./commands/types.js";
import { parsePromptPayId } from "./commands/promptpay-id.js";
import { LOG_LEVELS } from "./log.js";

/** What handlers need to decide and render; no secrets here. */
export interface BotSettings {
  readonly promptPayId: PromptPayId | undefined;
  readonly staffUserIds: ReadonlySet<string>;
  readonly staffGroupIds: ReadonlySet<string>;
  readonly defaultLang: Lang;
  readonly timeZone: string;
}

export interface Config {
  readonly port: number;
  /** Absent: local mode with the LINE stand-in and the chat console. */
  readonly line: { readonly channelSecret: string; readonly channelAccessToken: string } | undefined;
  readonly lineApiBaseUrl: string;
  /** LINE's data host (rich menu images). */
  readonly lineDataApiBaseUrl: string;
  /** Absent: the embedded sandbox and its demo shop (in local mode, or with a real channel only when SLIP_SANDBOX asks). */
  readonly slip: { readonly baseUrl: string; readonly apiSecret: string } | undefined;
  /**
   * Used only when `slip` is absent: where the embedded sandbox keeps its data and the base of its qr
   * links; `withLine` when SLIP_SANDBOX asked for it beside a real LINE channel.
   */
  readonly sandbox: { readonly dbPath: string; readonly publicUrl: string | undefined; readonly withLine: boolean };
  readonly accountCacheSeconds: number;
  /** On SIGTERM/SIGINT, how long accepted events may take to finish. */
  readonly shutdownGraceSeconds: number;
  /** Events that may wait for a turn before the webhook answers 503. */
  readonly maxQueuedEvents: number;
  /**
   * MAX_RUNNING_EVENTS: events one instance handles at once, whether they came in on its own webhook or from
   * the shared queue, and its connections to the slip service (each event makes one call at a time).
   */
  readonly maxRunningEvents: number;
  /** When set, GET /metrics wants it as a bearer token. */
  readonly metricsToken: string | undefined;
  /** Shared, durable state for several instances; absent: one process, in memory. */
  readonly redisUrl: string | undefined;
  /** What this instance does with Redis: take webhooks, work the event queue, or both. */
  readonly role: InstanceRole;
  /** The opt-in pushes; each unset one is off. */
  readonly alerts: {
    readonly dailySummaryAt: { readonly hour: number; readonly minute: number } | undefined;
    readonly lowTokenSlips: number | undefined;
    readonly expiryDays: number | undefined;
    readonly watchMinutes: number | undefined;
  };
  readonly logLevel: string;
  readonly settings: BotSettings;
  /** MARK_AS_READ: mark a 1:1 chat read after each command (LINE honours it only with the OA's Chat on). */
  readonly markAsRead: boolean;
  /** PUBLIC_URL: this deployment's public https address, e.g. to check the webhook URL LINE has. */
  readonly publicUrl: string | undefined;
}

export type InstanceRole = "both" | "web" | "worker";

/** Measured with the bench's capacity scenario (the service answering in 2 s): see docs/operations.md. */
export const DEFAULT_MAX_RUNNING_EVENTS = 64;

/** One wrong variable: its name and what is wrong, never its value when the variable is a secret. */
export interface ConfigProblem {
  readonly variable: string;
  readonly problem: string;
}

/** Start-up refused: every wrong variable at once, so one fix-and-retry is enough. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    super(
      `Invalid configuration (${problems.length} ${problems.length === 1 ? "problem" : "problems"}):\n` +
        problems.map((p) => `  ${p.variable}: ${p.problem}`).join("\n"),
    );
    this.name = "ConfigError";
    this.problems = problems;
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_PORT = 3000;
const DEFAULT_LINE_API_BASE_URL = "https://api.line.me";
const DEFAULT_LINE_DATA_API_BASE_URL = "https://api-data.line.me";
const DEFAULT_SANDBOX_DB = "data/sandbox.db";
const MAX_ACCOUNT_CACHE_SECONDS = 86_400;
const CHANNEL_SECRET = /^[0-9a-f]{32}$/;
const BASE_URL_PROBLEM = "must be an https URL (http only on localhost/127.0.0.1), without query or fragment";

/**
 * Reads the environment once. Returns a frozen Config, or throws one ConfigError that names every
 * wrong variable. An empty value counts as unset.
 */
export function loadConfig(env: Env): Config {
  const problems: ConfigProblem[] = [];
  const fail = (variable: string, problem: string): undefined => {
    problems.push({ variable, problem });
    return undefined;
  };
  const get = (name: string): string | undefined => {
    const raw = env[name];
    if (raw === undefined) return undefined;
    const trimmed = raw.trim();
    return trimmed === "" ? undefined : trimmed;
  };

  const port = readInteger(get("PORT"), DEFAULT_PORT, 0, 65_535) ?? fail("PORT", "must be a whole number from 0 to 65535");

  // LINE channel: both or neither (neither = local mode). Values are never echoed.
  const channelSecretRaw = get("LINE_CHANNEL_SECRET");
  const channelAccessTokenRaw = get("LINE_CHANNEL_ACCESS_TOKEN");
  let line: Config["line"];
  if (channelSecretRaw !== undefined || channelAccessTokenRaw !== undefined) {
    const channelSecret =
      channelSecretRaw === undefined
        ? fail("LINE_CHANNEL_SECRET", "is missing: LINE_CHANNEL_ACCESS_TOKEN is set, and the channel needs both (or neither, for local mode)")
        : CHANNEL_SECRET.test(channelSecretRaw)
          ? channelSecretRaw
          : fail("LINE_CHANNEL_SECRET", "must be the 32-character hexadecimal channel secret from the LINE Developers Console");
    const channelAccessToken =
      channelAccessTokenRaw === undefined
        ? fail("LINE_CHANNEL_ACCESS_TOKEN", "is missing: LINE_CHANNEL_SECRET is set, and the channel needs both (or neither, for local mode)")
        : /\s/.test(channelAccessTokenRaw)
          ? fail("LINE_CHANNEL_ACCESS_TOKEN", "must not contain spaces (copy the long-lived channel access token as it is)")
          : channelAccessTokenRaw;
    if (channelSecret !== undefined && channelAccessToken !== undefined) {
      line = Object.freeze({ channelSecret, channelAccessToken });
    }
  }

  const lineApiBaseUrl = readBaseUrl(get("LINE_API_BASE_URL"), DEFAULT_LINE_API_BASE_URL) ?? fail("LINE_API_BASE_URL", BASE_URL_PROBLEM);
  const lineDataApiBaseUrl =
    readBaseUrl(get("LINE_DATA_API_BASE_URL"), DEFAULT_LINE_DATA_API_BASE_URL) ?? fail("LINE_DATA_API_BASE_URL", BASE_URL_PROBLEM);

  // Slip service: both or neither (neither = the embedded sandbox).
  const slipBaseUrlRaw = get("SLIP_API_BASE_URL");
  const apiSecretRaw = get("SLIP_API_SECRET");
  let slip: Config["slip"];
  if (slipBaseUrlRaw !== undefined || apiSecretRaw !== undefined) {
    const baseUrl =
      slipBaseUrlRaw === undefined
        ? fail("SLIP_API_BASE_URL", "is missing: SLIP_API_SECRET is set, and the service needs both (or neither, for the embedded sandbox)")
        : (readBaseUrl(slipBaseUrlRaw, undefined) ?? fail("SLIP_API_BASE_URL", BASE_URL_PROBLEM));
    const apiSecret =
      apiSecretRaw === undefined
        ? fail("SLIP_API_SECRET", "is missing: SLIP_API_BASE_URL is set, and the service needs both (or neither, for the embedded sandbox)")
        : /\s/.test(apiSecretRaw)
          ? fail("SLIP_API_SECRET", "must not contain spaces")
          : apiSecretRaw;
    if (baseUrl !== undefined && apiSecret !== undefined) {
      slip = Object.freeze({ baseUrl, apiSecret });
    }
  }

  // A real channel needs the real service: the demo sandbox would show real staff fake history and make
  // QR codes that pay the demo's id. Only SLIP_SANDBOX=1 allows it, for trying the bot on a test channel.
  const sandboxRaw = get("SLIP_SANDBOX");
  const sandboxWithLine =
    sandboxRaw === undefined ? false : /^(1|true|yes)$/i.test(sandboxRaw) ? true : /^(0|false|no)$/i.test(sandboxRaw) ? false : undefined;
  if (sandboxWithLine === undefined) fail("SLIP_SANDBOX", "must be 1 or 0 (or true or false)");
  if (sandboxWithLine === true && slip !== undefined) {
    fail("SLIP_SANDBOX", "is set together with SLIP_API_BASE_URL and SLIP_API_SECRET: choose the real service or the sandbox");
  }
  if (line !== undefined && slipBaseUrlRaw === undefined && apiSecretRaw === undefined && sandboxWithLine !== true) {
    const why = "is missing: with a LINE channel the bot needs the real slip service (SLIP_API_BASE_URL and SLIP_API_SECRET); SLIP_SANDBOX=1 uses the demo sandbox instead, for a test channel only";
    fail("SLIP_API_BASE_URL", why);
    fail("SLIP_API_SECRET", why);
  }

  const promptPayRaw = get("PROMPTPAY_ID");
  let promptPayId: PromptPayId | undefined;
  if (promptPayRaw !== undefined) {
    promptPayId = parsePromptPayId(promptPayRaw);
    if (promptPayId === undefined) {
      fail(
        "PROMPTPAY_ID",
        `"${promptPayRaw}" is not a PromptPay id: use a phone number (10 digits starting with 0, or +66…), a 13-digit citizen or tax id, or a 15-digit e-wallet id`,
      );
    }
  }

  const staffUserIds = readIdList(get("STAFF_USER_IDS"), isUserId, (bad) =>
    fail("STAFF_USER_IDS", `${quoteList(bad)} ${bad.length === 1 ? "is not a LINE user id" : "are not LINE user ids"} (U followed by 32 hex digits; the bot's "id" command shows yours)`),
  );
  const staffGroupIds = readIdList(get("STAFF_GROUP_IDS"), isGroupOrRoomId, (bad) =>
    fail("STAFF_GROUP_IDS", `${quoteList(bad)} ${bad.length === 1 ? "is not a LINE group id" : "are not LINE group ids"} (C or R followed by 32 hex digits; the bot's "id" command in the group shows it)`),
  );

  const langRaw = get("BOT_LANG")?.toLowerCase() ?? "th";
  const defaultLang: Lang | undefined =
    langRaw === "th" || langRaw === "en" ? langRaw : fail("BOT_LANG", `"${get("BOT_LANG") ?? ""}" is not supported: use th or en`);

  const timeZoneRaw = get("BUSINESS_TIMEZONE") ?? "Asia/Bangkok";
  const timeZone = isTimeZone(timeZoneRaw)
    ? timeZoneRaw
    : fail("BUSINESS_TIMEZONE", `"${timeZoneRaw}" is not an IANA time zone (for example Asia/Bangkok)`);

  const accountCacheSeconds =
    readInteger(get("ACCOUNT_CACHE_SECONDS"), 30, 0, MAX_ACCOUNT_CACHE_SECONDS) ??
    fail("ACCOUNT_CACHE_SECONDS", `must be a whole number of seconds from 0 to ${MAX_ACCOUNT_CACHE_SECONDS}`);

  const shutdownGraceSeconds =
    readInteger(get("SHUTDOWN_GRACE_SECONDS"), 25, 1, 3_600) ??
    fail("SHUTDOWN_GRACE_SECONDS", "must be a whole number of seconds from 1 to 3600 (platforms such as Heroku allow 30)");
  const maxQueuedEvents =
    readInteger(get("MAX_QUEUED_EVENTS"), 1_000, 1, 1_000_000) ?? fail("MAX_QUEUED_EVENTS", "must be a whole number from 1 to 1000000");
  const maxRunningEvents =
    readInteger(get("MAX_RUNNING_EVENTS"), DEFAULT_MAX_RUNNING_EVENTS, 1, 256) ??
    fail("MAX_RUNNING_EVENTS", "must be a whole number from 1 to 256 (events one instance handles at once, and its connections to the slip service)");
  const metricsToken = get("METRICS_TOKEN");
  if (metricsToken !== undefined && !/^[\x21-\x7e]{16,}$/.test(metricsToken)) {
    fail("METRICS_TOKEN", "must be at least 16 visible characters without spaces (it is a password for /metrics)");
  }

  const redisUrl = get("REDIS_URL");
  if (redisUrl !== undefined && !isRedisUrl(redisUrl)) {
    fail("REDIS_URL", "must be a redis:// or rediss:// URL, such as redis://:password@host:6379/0 (the value is not shown here)");
  }
  const roleRaw = get("INSTANCE_ROLE")?.toLowerCase() ?? "both";
  const role: InstanceRole | undefined =
    roleRaw === "both" || roleRaw === "web" || roleRaw === "worker"
      ? roleRaw
      : fail("INSTANCE_ROLE", `"${get("INSTANCE_ROLE") ?? ""}" is not a role: use both, web or worker`);
  if (role !== undefined && role !== "both" && redisUrl === undefined) {
    fail("INSTANCE_ROLE", `"${role}" needs REDIS_URL: without Redis one process takes the webhooks and handles them`);
  }

  const dailyRaw = get("DAILY_SUMMARY_AT");
  const daily = dailyRaw === undefined ? undefined : /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(dailyRaw);
  if (daily === null) fail("DAILY_SUMMARY_AT", `"${dailyRaw ?? ""}" is not a time: use HH:MM in 24 hours, such as 21:30 (the business time zone)`);
  const optional = (name: string, min: number, max: number, what: string): number | undefined => {
    const raw = get(name);
    if (raw === undefined) return undefined;
    return readInteger(raw, 0, min, max) ?? fail(name, `must be a whole number from ${min} to ${max} (${what})`);
  };
  const alerts = Object.freeze({
    dailySummaryAt: daily === undefined || daily === null ? undefined : Object.freeze({ hour: Number(daily[1]), minute: Number(daily[2]) }),
    lowTokenSlips: optional("LOW_TOKEN_ALERT_SLIPS", 1, 1_000_000, "API checks left"),
    expiryDays: optional("EXPIRY_ALERT_DAYS", 1, 365, "days before the package expires"),
    watchMinutes: optional("WATCH_PAYMENTS_MINUTES", 1, 1_440, "minutes"),
  });

  const logLevelRaw = get("LOG_LEVEL")?.toLowerCase() ?? "info";
  const logLevel = (LOG_LEVELS as readonly string[]).includes(logLevelRaw)
    ? logLevelRaw
    : fail("LOG_LEVEL", `"${get("LOG_LEVEL") ?? ""}" is not a level: use one of ${LOG_LEVELS.join(", ")}`);

  const markAsReadRaw = get("MARK_AS_READ");
  const markAsRead = markAsReadRaw === undefined ? false : /^(1|true|yes)$/i.test(markAsReadRaw) ? true : /^(0|false|no)$/i.test(markAsReadRaw) ? false : undefined;
  if (markAsRead === undefined) fail("MARK_AS_READ", "must be 1 or 0 (or true or false)");
  const publicUrlRaw = get("PUBLIC_URL");
  const publicUrl =
    publicUrlRaw === undefined
      ? undefined
      : (readBaseUrl(publicUrlRaw, undefined) ?? fail("PUBLIC_URL", "must be this deployment's https address (http only on localhost/127.0.0.1), without query or fragment"));

  const sandboxPublicUrlRaw = get("SANDBOX_PUBLIC_URL");
  // The slip client shows QR images only from https or loopback origins, so the sandbox's links must be one.
  const sandboxPublicUrl =
    sandboxPublicUrlRaw === undefined ? undefined : (readBaseUrl(sandboxPublicUrlRaw, undefined) ?? fail("SANDBOX_PUBLIC_URL", BASE_URL_PROBLEM));

  if (
    problems.length > 0 ||
    port === undefined ||
    lineApiBaseUrl === undefined ||
    lineDataApiBaseUrl === undefined ||
    defaultLang === undefined ||
    timeZone === undefined ||
    accountCacheSeconds === undefined ||
    shutdownGraceSeconds === undefined ||
    maxQueuedEvents === undefined ||
    maxRunningEvents === undefined ||
    role === undefined ||
    logLevel === undefined ||
    markAsRead === undefined
  ) {
    throw new ConfigError(problems);
  }

  return Object.freeze({
    port,
    line,
    lineApiBaseUrl,
    lineDataApiBaseUrl,
    slip,
    sandbox: Object.freeze({
      dbPath: get("SANDBOX_DB") ?? DEFAULT_SANDBOX_DB,
      publicUrl: sandboxPublicUrl,
      withLine: line !== undefined && sandboxWithLine === true,
    }),
    accountCacheSeconds,
    shutdownGraceSeconds,
    maxQueuedEvents,
    maxRunningEvents,
    metricsToken,
    redisUrl,
    role,
    alerts,
    logLevel,
    markAsRead,
    publicUrl,
    settings: Object.freeze({
      promptPayId,
      staffUserIds,
      staffGroupIds,
      defaultLang,
      timeZone,
    }),
  });
}

function isRedisUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === "redis:" || url.protocol === "rediss:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** The password of a Redis URL, for the log redaction list. */
export function redisPassword(redisUrl: string | undefined): string | undefined {
  if (redisUrl === undefined) return undefined;
  try {
    const password = decodeURIComponent(new URL(redisUrl).password);
    return password === "" ? undefined : password;
  } catch {
    return undefined;
  }
}

function readInteger(raw: string | undefined, fallback: number, min: number, max: number): number | undefined {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
}

/** An http(s) base URL without a trailing slash; plain http only on loopback, since credentials travel with every call. */
function readBaseUrl(raw: string | undefined, fallback: string | undefined): string | undefined {
  if (raw === undefined) return fallback;
  const url = parseUrl(raw);
  if (url === undefined) return undefined;
  if (url.protocol === "http:" && !isLoopbackHostname(url.hostname)) return undefined;
  return stripTrailingSlash(url);
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

function stripTrailingSlash(url: URL): string {
  return url.href.replace(/\/+$/, "");
}

/** Comma-separated ids; blanks between commas are skipped; every bad entry is reported. */
function readIdList(raw: string | undefined, shape: (id: string) => boolean, onBad: (bad: string[]) => void): ReadonlySet<string> {
  if (raw === undefined) return new Set();
  const ids = raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const bad = ids.filter((id) => !shape(id));
  if (bad.length > 0) onBad(bad);
  return new Set(ids.filter(shape));
}

function quoteList(items: readonly string[]): string {
  const shown = items.slice(0, 5).map((s) => `"${s.length > 40 ? `${s.slice(0, 40)}…` : s}"`);
  return items.length > 5 ? `${shown.join(", ")} and ${items.length - 5} more` : shown.join(", ");
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
