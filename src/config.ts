// The bot's configuration (docs/configuration.md lists every variable): read once from the environment into the
// shop's and the process's settings (src/settings/), validated completely.
import type { z } from "zod";
import type { Lang, PromptPayId } from "./commands/types.js";
import type { InstanceRole } from "./settings/fields.js";
import { processSettingsSchema, type ProcessSettings } from "./settings/process.js";
import { shopSettingsSchema, type ShopSettings } from "./settings/shop.js";

export type { InstanceRole } from "./settings/fields.js";

/** The staff web app's LINE Login channel (whose ID tokens it accepts) and its LIFF app. */
export interface StaffLogin {
  readonly channelId: string;
  readonly liffId: string;
}

/** What handlers need to decide and render; no secrets here. */
export interface BotSettings {
  readonly promptPayId: PromptPayId | undefined;
  readonly staffUserIds: ReadonlySet<string>;
  readonly staffGroupIds: ReadonlySet<string>;
  readonly defaultLang: Lang;
  readonly timeZone: string;
  /** SLIP_PHOTO_PUSH: a customer's slip photo is looked up and pushed to the staff groups. Default off. */
  readonly slipPhotoPush?: boolean | undefined;
}

export interface Config {
  readonly port: number;
  /** Absent: local mode with the LINE stand-in and the chat console. */
  readonly line: { readonly channelSecret: string; readonly channelAccessToken: string; readonly previousChannelSecret?: string | undefined } | undefined;
  /** LINE_LOGIN_CHANNEL_ID and LIFF_ID: the staff web app's login; absent, the app is off. */
  readonly login: StaffLogin | undefined;
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
  /**
   * On SIGTERM, how long the listener stays open with /readyz answering 503 (webhooks still handled), so
   * load balancers stop sending before the port closes; the grace runs after it.
   */
  readonly shutdownDrainSeconds: number;
  /** HTTP_KEEP_ALIVE_SECONDS: how long an idle kept-alive connection stays open. */
  readonly httpKeepAliveSeconds: number;
  /** Events that may wait for a turn before the webhook answers 503. */
  readonly maxQueuedEvents: number;
  /**
   * MAX_RUNNING_EVENTS: events one instance handles at once, whether they came in on its own webhook or from
   * the shared queue, and its connections to the slip service (each event makes one call at a time).
   */
  readonly maxRunningEvents: number;
  /**
   * When set, GET /metrics wants it as a bearer token. Unset, a LINE deployment's port does not serve
   * /metrics at all (local mode's stays open).
   */
  readonly metricsToken: string | undefined;
  /** METRICS_PORT: /metrics on a listener of its own, bound to 127.0.0.1, without a token. */
  readonly metricsPort: number | undefined;
  /** Shared, durable state for several instances; absent: one process, in memory. */
  readonly redisUrl: string | undefined;
  /** REDIS_TLS_CA: a PEM file of the CA certificates for a rediss:// provider with its own CA. */
  readonly redisTlsCa: string | undefined;
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
  /** SHOPS_FILE: many shops, listed in a JSON file; then the environment names no shop of its own. */
  readonly shopsFile: string | undefined;
  /** REDIS_KEY_PREFIX: what this deployment's Redis keys start with (default: derived from its LINE channel). */
  readonly redisKeyPrefix: string | undefined;
}

/** One wrong variable: its name and what is wrong, never its value when the variable is a secret. */
export interface ConfigProblem {
  readonly variable: string;
  readonly problem: string;
}

/** Start-up refused: every wrong variable at once, so one fix-and-retry is enough. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    super(`Invalid configuration (${problems.length} ${problems.length === 1 ? "problem" : "problems"}):\n` + problems.map((p) => `  ${p.variable}: ${p.problem}`).join("\n"));
    this.name = "ConfigError";
    this.problems = problems;
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

type Schema = "shop" | "process";

/** How a variable's text becomes the value its field reads. */
type Form = "text" | "integer" | "list";

interface Variable {
  readonly name: string;
  readonly schema: Schema;
  /** Where its value goes in the schema's shape. */
  readonly path: readonly [string] | readonly [string, string];
  readonly form?: Form;
}

/** Every variable, in the order problems are reported (docs/configuration.md's order). */
const VARIABLES: readonly Variable[] = [
  { name: "PORT", schema: "process", path: ["port"], form: "integer" },
  { name: "LINE_CHANNEL_SECRET", schema: "shop", path: ["line", "channelSecret"] },
  { name: "LINE_CHANNEL_ACCESS_TOKEN", schema: "shop", path: ["line", "channelAccessToken"] },
  { name: "LINE_CHANNEL_SECRET_PREVIOUS", schema: "shop", path: ["line", "previousChannelSecret"] },
  { name: "LINE_API_BASE_URL", schema: "process", path: ["lineApiBaseUrl"] },
  { name: "LINE_DATA_API_BASE_URL", schema: "process", path: ["lineDataApiBaseUrl"] },
  { name: "SLIP_API_BASE_URL", schema: "shop", path: ["slip", "baseUrl"] },
  { name: "SLIP_API_SECRET", schema: "shop", path: ["slip", "apiSecret"] },
  { name: "SLIP_SANDBOX", schema: "process", path: ["sandboxWithLine"] },
  { name: "LINE_LOGIN_CHANNEL_ID", schema: "shop", path: ["login", "channelId"] },
  { name: "LIFF_ID", schema: "shop", path: ["login", "liffId"] },
  { name: "PROMPTPAY_ID", schema: "shop", path: ["promptPayId"] },
  { name: "STAFF_USER_IDS", schema: "shop", path: ["staff", "users"], form: "list" },
  { name: "STAFF_GROUP_IDS", schema: "shop", path: ["staff", "groups"], form: "list" },
  { name: "BOT_LANG", schema: "shop", path: ["lang"] },
  { name: "BUSINESS_TIMEZONE", schema: "shop", path: ["timeZone"] },
  { name: "ACCOUNT_CACHE_SECONDS", schema: "shop", path: ["accountCacheSeconds"], form: "integer" },
  { name: "SHUTDOWN_GRACE_SECONDS", schema: "process", path: ["shutdownGraceSeconds"], form: "integer" },
  { name: "SHUTDOWN_DRAIN_SECONDS", schema: "process", path: ["shutdownDrainSeconds"], form: "integer" },
  { name: "HTTP_KEEP_ALIVE_SECONDS", schema: "process", path: ["httpKeepAliveSeconds"], form: "integer" },
  { name: "MAX_QUEUED_EVENTS", schema: "process", path: ["maxQueuedEvents"], form: "integer" },
  { name: "MAX_RUNNING_EVENTS", schema: "process", path: ["maxRunningEvents"], form: "integer" },
  { name: "METRICS_TOKEN", schema: "process", path: ["metricsToken"] },
  { name: "METRICS_PORT", schema: "process", path: ["metricsPort"], form: "integer" },
  { name: "REDIS_URL", schema: "process", path: ["redisUrl"] },
  { name: "REDIS_TLS_CA", schema: "process", path: ["redisTlsCa"] },
  { name: "INSTANCE_ROLE", schema: "process", path: ["role"] },
  { name: "DAILY_SUMMARY_AT", schema: "shop", path: ["dailySummaryAt"] },
  { name: "LOW_TOKEN_ALERT_SLIPS", schema: "shop", path: ["lowTokenAlertSlips"], form: "integer" },
  { name: "EXPIRY_ALERT_DAYS", schema: "shop", path: ["expiryAlertDays"], form: "integer" },
  { name: "WATCH_PAYMENTS_MINUTES", schema: "shop", path: ["watchPaymentsMinutes"], form: "integer" },
  { name: "LOG_LEVEL", schema: "process", path: ["logLevel"] },
  { name: "MARK_AS_READ", schema: "shop", path: ["markAsRead"] },
  { name: "SLIP_PHOTO_PUSH", schema: "shop", path: ["slipPhotoPush"] },
  { name: "PUBLIC_URL", schema: "process", path: ["publicUrl"] },
  { name: "SHOPS_FILE", schema: "process", path: ["shopsFile"] },
  { name: "REDIS_KEY_PREFIX", schema: "process", path: ["redisKeyPrefix"] },
  { name: "SANDBOX_DB", schema: "process", path: ["sandboxDbPath"] },
  { name: "SANDBOX_PUBLIC_URL", schema: "process", path: ["sandboxPublicUrl"] },
];

/** Where each variable's value goes: the settings schema and the path in it (docs/configuration.md is made from them). */
export const VARIABLE_PLACES: readonly { readonly name: string; readonly schema: Schema; readonly path: readonly string[]; readonly form: Form }[] = VARIABLES.map((v) => ({
  name: v.name,
  schema: v.schema,
  path: v.path,
  form: v.form ?? "text",
}));

/** Every variable's name: what deployment files may set (test/deploy checks them against this). */
export const VARIABLE_NAMES: readonly string[] = VARIABLES.map((v) => v.name);

/** The shop's parts that take two variables, both or neither, and what neither means. */
const PAIRS: Readonly<Record<string, string>> = {
  line: "the channel needs both (or neither, for local mode)",
  slip: "the service needs both (or neither, for the embedded sandbox)",
  login: "the staff web app needs both (or neither: then the app is off)",
};

/** Digits only, as a number; anything else as NaN, which the field refuses with its own words. */
function formed(value: string, form: Form): unknown {
  if (form === "integer") return /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (form === "list")
    return value
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  return value;
}

/** The shop's and the process's settings as the environment gives them, before any check. */
function inputsOf(env: Env): Record<Schema, Record<string, unknown>> {
  const inputs: Record<Schema, Record<string, unknown>> = { shop: {}, process: {} };
  for (const variable of VARIABLES) {
    const value = env[variable.name]?.trim();
    if (value === undefined || value === "") continue; // an empty value counts as unset
    const [key, inner] = variable.path;
    const target = inputs[variable.schema];
    const read = formed(value, variable.form ?? "text");
    if (inner === undefined) target[key] = read;
    else target[key] = { ...(target[key] as Record<string, unknown> | undefined), [inner]: read };
  }
  return inputs;
}

/** The variable a problem at `path` of a schema's input is about. */
function variableAt(schema: Schema, path: readonly PropertyKey[]): Variable {
  const found = VARIABLES.find((v) => v.schema === schema && v.path.every((key, i) => path[i] === key));
  if (found === undefined) throw new Error(`no variable for the ${schema} setting ${path.join(".")}`);
  return found;
}

/**
 * Each field of the schema read on its own, so that one wrong variable leaves the others' values for
 * the rules across variables; the problems named by variable.
 */
function readEach<S extends z.ZodObject>(schema: S, which: Schema, input: Record<string, unknown>): { values: Partial<z.output<S>>; problems: ConfigProblem[] } {
  const values: Record<string, unknown> = {};
  const problems: ConfigProblem[] = [];
  for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    const result = field.safeParse(input[key]);
    if (result.success) {
      values[key] = result.data;
      continue;
    }
    for (const issue of result.error.issues) {
      const path = [key, ...issue.path];
      const variable = variableAt(which, path);
      // Half of a pair: the field says "is missing"; the environment says which variable made it wanted.
      const pair = PAIRS[key];
      const partner = pair === undefined ? undefined : VARIABLES.find((v) => v.schema === which && v.path[0] === key && v !== variable);
      const half = variable.path[1] !== undefined && (input[key] as Record<string, unknown>)[variable.path[1]] === undefined;
      problems.push({ variable: variable.name, problem: partner !== undefined && half ? `is missing: ${partner.name} is set, and ${pair}` : issue.message });
    }
  }
  return { values: values as Partial<z.output<S>>, problems };
}

/** A problem found by a rule across variables, reported right after the problems of the variable `after`. */
interface CrossProblem extends ConfigProblem {
  readonly after: string;
}

/** The rules across variables, on the values that were read. */
function crossProblems(shop: Partial<ShopSettings>, proc: Partial<ProcessSettings>, inputs: Record<Schema, Record<string, unknown>>): CrossProblem[] {
  const problems: CrossProblem[] = [];
  if (proc.sandboxWithLine === true && shop.slip !== undefined) {
    problems.push({
      variable: "SLIP_SANDBOX",
      problem: "is set together with SLIP_API_BASE_URL and SLIP_API_SECRET: choose the real service or the sandbox",
      after: "SLIP_SANDBOX",
    });
  }
  // A real channel needs the real service: the demo sandbox would show real staff fake history and make
  // QR codes that pay the demo's id. Only SLIP_SANDBOX=1 allows it, for trying the bot on a test channel.
  if (shop.line !== undefined && inputs.shop.slip === undefined && proc.sandboxWithLine !== true && inputs.process.shopsFile === undefined) {
    const why =
      "is missing: with a LINE channel the bot needs the real slip service (SLIP_API_BASE_URL and SLIP_API_SECRET); SLIP_SANDBOX=1 uses the demo sandbox instead, for a test channel only";
    problems.push({ variable: "SLIP_API_BASE_URL", problem: why, after: "SLIP_SANDBOX" }, { variable: "SLIP_API_SECRET", problem: why, after: "SLIP_SANDBOX" });
  }
  // A shops file says everything about its shops: a shop's variable beside it would be a second, silent truth.
  if (inputs.process.shopsFile !== undefined) {
    for (const variable of VARIABLES.filter((v) => v.schema === "shop" && inputs.shop[v.path[0]] !== undefined)) {
      const shopValue = inputs.shop[variable.path[0]] as Record<string, unknown> | undefined;
      if (variable.path[1] !== undefined && shopValue?.[variable.path[1]] === undefined) continue;
      problems.push({ variable: variable.name, problem: "is set together with SHOPS_FILE: set it for each shop in the file instead", after: "SHOPS_FILE" });
    }
    if (inputs.process.redisUrl !== undefined && inputs.process.redisKeyPrefix === undefined) {
      problems.push({
        variable: "REDIS_KEY_PREFIX",
        problem: "is missing: with SHOPS_FILE and REDIS_URL it names this deployment's keys, so that two deployments on one Redis never mix (for example agency-a)",
        after: "REDIS_KEY_PREFIX",
      });
    }
  }
  // The default prefix is a digest of the channel secret: rotating it would move every key out of reach.
  if (
    shop.line?.previousChannelSecret !== undefined &&
    inputs.process.redisUrl !== undefined &&
    inputs.process.redisKeyPrefix === undefined &&
    inputs.process.shopsFile === undefined
  ) {
    problems.push({
      variable: "REDIS_KEY_PREFIX",
      problem:
        "is missing: during a rotation of the channel secret the default prefix (derived from the secret) would change; set it to the prefix this deployment has used (the `prefix` of the start-up line `REDIS_URL set…`)",
      after: "REDIS_KEY_PREFIX",
    });
  }
  if (inputs.process.redisTlsCa !== undefined && !(typeof proc.redisUrl === "string" && proc.redisUrl.startsWith("rediss://"))) {
    problems.push({ variable: "REDIS_TLS_CA", problem: "needs REDIS_URL to be a rediss:// URL (TLS): the certificates check a TLS connection only", after: "REDIS_TLS_CA" });
  }
  if (proc.metricsPort !== undefined && proc.metricsPort !== 0 && proc.metricsPort === (proc.port ?? 3000)) {
    problems.push({ variable: "METRICS_PORT", problem: "is the same as PORT: the metrics listener needs a port of its own", after: "METRICS_PORT" });
  }
  if (proc.role !== undefined && proc.role !== "both" && inputs.process.redisUrl === undefined) {
    problems.push({
      variable: "INSTANCE_ROLE",
      problem: `"${proc.role}" needs REDIS_URL: without Redis one process takes the webhooks and handles them`,
      after: "INSTANCE_ROLE",
    });
  }
  return problems;
}

/** Problems in the order of the variables, each rule's after the variable it follows. */
function inOrder(fieldProblems: readonly ConfigProblem[], cross: readonly CrossProblem[]): ConfigProblem[] {
  const rank = (name: string): number => VARIABLES.findIndex((v) => v.name === name);
  const ranked = [
    ...fieldProblems.map((p, i) => ({ p, key: rank(p.variable), i })),
    ...cross.map(({ variable, problem, after }, i) => ({ p: { variable, problem }, key: rank(after) + 0.5, i })),
  ];
  return ranked.sort((a, b) => a.key - b.key || a.i - b.i).map((r) => r.p);
}

/**
 * Reads the environment once. Returns a frozen Config, or throws one ConfigError that names every
 * wrong variable. An empty value counts as unset.
 */
export function loadConfig(env: Env): Config {
  const inputs = inputsOf(env);
  const shopRead = readEach(shopSettingsSchema, "shop", inputs.shop);
  const processRead = readEach(processSettingsSchema, "process", inputs.process);
  const problems = inOrder([...shopRead.problems, ...processRead.problems], crossProblems(shopRead.values, processRead.values, inputs));
  if (problems.length > 0) throw new ConfigError(problems);
  return configOf(shopSettingsSchema.parse(inputs.shop), processSettingsSchema.parse(inputs.process));
}

function configOf(shop: ShopSettings, proc: ProcessSettings): Config {
  const line = shop.line === undefined ? undefined : Object.freeze({ ...shop.line });
  return Object.freeze({
    port: proc.port,
    line,
    lineApiBaseUrl: proc.lineApiBaseUrl,
    lineDataApiBaseUrl: proc.lineDataApiBaseUrl,
    slip: shop.slip === undefined ? undefined : Object.freeze({ ...shop.slip }),
    sandbox: Object.freeze({ dbPath: proc.sandboxDbPath, publicUrl: proc.sandboxPublicUrl, withLine: line !== undefined && proc.sandboxWithLine }),
    accountCacheSeconds: shop.accountCacheSeconds,
    shutdownGraceSeconds: proc.shutdownGraceSeconds,
    shutdownDrainSeconds: proc.shutdownDrainSeconds,
    httpKeepAliveSeconds: proc.httpKeepAliveSeconds,
    maxQueuedEvents: proc.maxQueuedEvents,
    maxRunningEvents: proc.maxRunningEvents,
    metricsToken: proc.metricsToken,
    metricsPort: proc.metricsPort,
    redisUrl: proc.redisUrl,
    redisTlsCa: proc.redisTlsCa,
    role: proc.role,
    alerts: Object.freeze({
      dailySummaryAt: shop.dailySummaryAt,
      lowTokenSlips: shop.lowTokenAlertSlips,
      expiryDays: shop.expiryAlertDays,
      watchMinutes: shop.watchPaymentsMinutes,
    }),
    logLevel: proc.logLevel,
    markAsRead: shop.markAsRead,
    login: shop.login === undefined ? undefined : Object.freeze({ ...shop.login }),
    publicUrl: proc.publicUrl,
    shopsFile: proc.shopsFile,
    redisKeyPrefix: proc.redisKeyPrefix,
    settings: Object.freeze({
      promptPayId: shop.promptPayId,
      staffUserIds: new Set(shop.staff.users),
      staffGroupIds: new Set(shop.staff.groups),
      defaultLang: shop.lang,
      timeZone: shop.timeZone,
      slipPhotoPush: shop.slipPhotoPush,
    }),
  });
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
