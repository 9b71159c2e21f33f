import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";
import { clockTime, promptPayId, staffUserIds, timeZone } from "../src/settings/fields.js";
import { shopSettingsSchema } from "../src/settings/shop.js";

const SECRET = "8c570fa6dd201bb328f1c1eac23a96d8";
const TOKEN = "cHJldGVuZC1sb25nLWxpdmVkLWFjY2Vzcy10b2tlbi0xMjM0NTY3ODkw";
const API_SECRET = "sk_live_abcdef0123456789";

function problemsOf(env: Record<string, string>): { variable: string; problem: string }[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return [...(err as ConfigError).problems];
  }
  throw new Error("loadConfig accepted the environment");
}

describe("loadConfig", () => {
  it("with nothing set gives local mode, the embedded sandbox and the documented defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.line).toBeUndefined();
    expect(config.slip).toBeUndefined();
    expect(config.lineApiBaseUrl).toBe("https://api.line.me");
    expect(config.accountCacheSeconds).toBe(30);
    expect(config.logLevel).toBe("info");
    expect(config.sandbox).toEqual({ dbPath: "data/sandbox.db", publicUrl: undefined, withLine: false });
    expect(config.settings.defaultLang).toBe("th");
    expect(config.settings.timeZone).toBe("Asia/Bangkok");
    expect(config.settings.promptPayId).toBeUndefined();
    expect(config.settings.staffUserIds.size).toBe(0);
    expect(config.settings.staffGroupIds.size).toBe(0);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it("reads a complete production environment", () => {
    const user = `U${"a".repeat(32)}`;
    const group = `C${"b".repeat(32)}`;
    const config = loadConfig({
      PORT: "8080",
      LINE_CHANNEL_SECRET: SECRET,
      LINE_CHANNEL_ACCESS_TOKEN: TOKEN,
      LINE_API_BASE_URL: "https://api.line.me/",
      SLIP_API_BASE_URL: "https://slips.example.com/v1/",
      SLIP_API_SECRET: API_SECRET,
      PROMPTPAY_ID: "+66 81-234-5678",
      STAFF_USER_IDS: ` ${user} ,`,
      STAFF_GROUP_IDS: group,
      BOT_LANG: "EN",
      BUSINESS_TIMEZONE: "Asia/Tokyo",
      ACCOUNT_CACHE_SECONDS: "0",
      LOG_LEVEL: "debug",
    });
    expect(config.port).toBe(8080);
    expect(config.line).toEqual({ channelSecret: SECRET, channelAccessToken: TOKEN });
    expect(config.lineApiBaseUrl).toBe("https://api.line.me");
    expect(config.slip).toEqual({ baseUrl: "https://slips.example.com/v1", apiSecret: API_SECRET });
    expect(config.settings.promptPayId).toEqual({ type: "phone", digits: "0812345678" });
    expect([...config.settings.staffUserIds]).toEqual([user]);
    expect([...config.settings.staffGroupIds]).toEqual([group]);
    expect(config.settings.defaultLang).toBe("en");
    expect(config.settings.timeZone).toBe("Asia/Tokyo");
    expect(config.accountCacheSeconds).toBe(0);
    expect(config.logLevel).toBe("debug");
  });

  it("treats empty values as unset", () => {
    const config = loadConfig({ PORT: "", LINE_CHANNEL_SECRET: " ", LINE_CHANNEL_ACCESS_TOKEN: "", PROMPTPAY_ID: "" });
    expect(config.port).toBe(3000);
    expect(config.line).toBeUndefined();
  });

  it("reports every wrong variable at once", () => {
    const problems = problemsOf({
      PORT: "80a",
      LINE_CHANNEL_SECRET: SECRET,
      LINE_API_BASE_URL: "ftp://api.line.me",
      SLIP_API_BASE_URL: "not a url",
      SLIP_API_SECRET: API_SECRET,
      PROMPTPAY_ID: "12345",
      STAFF_USER_IDS: "Uabc,someone",
      STAFF_GROUP_IDS: "group-1",
      BOT_LANG: "jp",
      BUSINESS_TIMEZONE: "Bangkok/Nowhere",
      ACCOUNT_CACHE_SECONDS: "-5",
      LOG_LEVEL: "loud",
      SANDBOX_PUBLIC_URL: "localhost:4000?x=1",
    });
    expect(problems.map((p) => p.variable).sort()).toEqual(
      [
        "PORT",
        "LINE_CHANNEL_ACCESS_TOKEN",
        "LINE_API_BASE_URL",
        "SLIP_API_BASE_URL",
        "PROMPTPAY_ID",
        "STAFF_USER_IDS",
        "STAFF_GROUP_IDS",
        "BOT_LANG",
        "BUSINESS_TIMEZONE",
        "ACCOUNT_CACHE_SECONDS",
        "LOG_LEVEL",
        "SANDBOX_PUBLIC_URL",
      ].sort(),
    );
    const message = (() => {
      try {
        loadConfig({ PORT: "99999", BOT_LANG: "jp" });
      } catch (err) {
        return (err as Error).message;
      }
      return "";
    })();
    expect(message).toContain("PORT");
    expect(message).toContain("BOT_LANG");
    expect(message).toMatch(/2 problems/);
  });

  it("names the bad staff ids so they can be fixed", () => {
    const [problem] = problemsOf({ STAFF_USER_IDS: `U${"1".repeat(32)},Uabc` });
    expect(problem?.variable).toBe("STAFF_USER_IDS");
    expect(problem?.problem).toContain('"Uabc"');
    expect(problem?.problem).not.toContain("1".repeat(32));
  });

  it.each([
    [{ LINE_CHANNEL_SECRET: SECRET }, ["LINE_CHANNEL_ACCESS_TOKEN"]],
    [{ LINE_CHANNEL_ACCESS_TOKEN: TOKEN }, ["LINE_CHANNEL_SECRET"]],
    [{ SLIP_API_BASE_URL: "https://slips.example.com" }, ["SLIP_API_SECRET"]],
    [{ SLIP_API_SECRET: API_SECRET }, ["SLIP_API_BASE_URL"]],
  ])("refuses a half-configured pair %j", (env, variables) => {
    expect(problemsOf(env).map((p) => p.variable)).toEqual(variables);
  });

  it("refuses a channel secret that is not LINE's 32 hex digits, without showing it", () => {
    const wrong = "not-the-secret-but-long-enough-to-spot";
    const problems = problemsOf({ LINE_CHANNEL_SECRET: wrong, LINE_CHANNEL_ACCESS_TOKEN: `${TOKEN} x` });
    expect(problems.map((p) => p.variable)).toEqual(["LINE_CHANNEL_SECRET", "LINE_CHANNEL_ACCESS_TOKEN"]);
    expect(JSON.stringify(problems)).not.toContain(wrong);
    expect(JSON.stringify(problems)).not.toContain(TOKEN);
  });

  it("never puts a secret value in the error message", () => {
    const env = {
      LINE_CHANNEL_SECRET: `${SECRET}ff`,
      LINE_CHANNEL_ACCESS_TOKEN: `${TOKEN} and more`,
      SLIP_API_BASE_URL: "http://slips.example.com",
      SLIP_API_SECRET: `${API_SECRET} with space`,
      PORT: "x",
    };
    let message = "";
    try {
      loadConfig(env);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain("LINE_CHANNEL_SECRET");
    expect(message).toContain("LINE_CHANNEL_ACCESS_TOKEN");
    expect(message).toContain("SLIP_API_SECRET");
    expect(message).toContain("SLIP_API_BASE_URL");
    for (const secret of [SECRET, TOKEN, API_SECRET]) expect(message).not.toContain(secret);
  });

  it("allows plain http only on loopback, where credentials do not cross a network", () => {
    expect(loadConfig({ LINE_API_BASE_URL: "http://127.0.0.1:4100" }).lineApiBaseUrl).toBe("http://127.0.0.1:4100");
    expect(loadConfig({ SLIP_API_BASE_URL: "http://localhost:4000", SLIP_API_SECRET: API_SECRET }).slip?.baseUrl).toBe("http://localhost:4000");
    expect(problemsOf({ LINE_API_BASE_URL: "http://api.line.me" }).map((p) => p.variable)).toEqual(["LINE_API_BASE_URL"]);
  });

  it.each([
    ["0812345678", { type: "phone", digits: "0812345678" }],
    ["0105551234567", { type: "citizen", digits: "0105551234567" }],
    ["123456789012345", { type: "ewallet", digits: "123456789012345" }],
  ])("reads PROMPTPAY_ID %s", (value, id) => {
    expect(loadConfig({ PROMPTPAY_ID: value }).settings.promptPayId).toEqual(id);
  });

  it("reads MARK_AS_READ and PUBLIC_URL, and names them when wrong", () => {
    expect(loadConfig({})).toMatchObject({ markAsRead: false, publicUrl: undefined });
    expect(loadConfig({ MARK_AS_READ: "1", PUBLIC_URL: "https://bot.example.com/" })).toMatchObject({ markAsRead: true, publicUrl: "https://bot.example.com" });
    expect(loadConfig({ MARK_AS_READ: "no" }).markAsRead).toBe(false);
    expect(
      problemsOf({ MARK_AS_READ: "sometimes", PUBLIC_URL: "http://bot.example.com" })
        .map((p) => p.variable)
        .sort(),
    ).toEqual(["MARK_AS_READ", "PUBLIC_URL"]);
  });

  it("reads the staff app's LINE_LOGIN_CHANNEL_ID and LIFF_ID, both or neither, and names them when wrong", () => {
    expect(loadConfig({}).login).toBeUndefined();
    expect(loadConfig({ LINE_LOGIN_CHANNEL_ID: "1650000001", LIFF_ID: "1650000001-AbCdEfGh" }).login).toEqual({ channelId: "1650000001", liffId: "1650000001-AbCdEfGh" });
    expect(problemsOf({ LINE_LOGIN_CHANNEL_ID: "1650000001" })).toEqual([
      { variable: "LIFF_ID", problem: "is missing: LINE_LOGIN_CHANNEL_ID is set, and the staff web app needs both (or neither: then the app is off)" },
    ]);
    expect(problemsOf({ LINE_LOGIN_CHANNEL_ID: "abc", LIFF_ID: "liff" }).map((p) => p.variable)).toEqual(["LINE_LOGIN_CHANNEL_ID", "LIFF_ID"]);
    expect(problemsOf({ SHOPS_FILE: "shops.json", LINE_LOGIN_CHANNEL_ID: "1650000001", LIFF_ID: "1650000001-AbCdEfGh" }).map((p) => p.variable)).toEqual([
      "LINE_LOGIN_CHANNEL_ID",
      "LIFF_ID",
    ]);
  });

  it("with SHOPS_FILE, refuses a shop's own variables beside it, and wants REDIS_KEY_PREFIX with Redis", () => {
    expect(loadConfig({ SHOPS_FILE: "shops.json" })).toMatchObject({ shopsFile: "shops.json", line: undefined });
    expect(
      problemsOf({
        SHOPS_FILE: "shops.json",
        LINE_CHANNEL_SECRET: SECRET,
        LINE_CHANNEL_ACCESS_TOKEN: TOKEN,
        STAFF_USER_IDS: `U${"a".repeat(32)}`,
        REDIS_URL: "redis://127.0.0.1:6379",
      }),
    ).toEqual([
      { variable: "LINE_CHANNEL_SECRET", problem: "is set together with SHOPS_FILE: set it for each shop in the file instead" },
      { variable: "LINE_CHANNEL_ACCESS_TOKEN", problem: "is set together with SHOPS_FILE: set it for each shop in the file instead" },
      { variable: "STAFF_USER_IDS", problem: "is set together with SHOPS_FILE: set it for each shop in the file instead" },
      {
        variable: "REDIS_KEY_PREFIX",
        problem: "is missing: with SHOPS_FILE and REDIS_URL it names this deployment's keys, so that two deployments on one Redis never mix (for example agency-a)",
      },
    ]);
    expect(loadConfig({ SHOPS_FILE: "shops.json", REDIS_URL: "redis://127.0.0.1:6379", REDIS_KEY_PREFIX: "agency-a" }).redisKeyPrefix).toBe("agency-a");
    expect(problemsOf({ REDIS_KEY_PREFIX: "two words" }).map((p) => p.variable)).toEqual(["REDIS_KEY_PREFIX"]);
  });

  it("accepts room ids among the staff groups", () => {
    const room = `R${"c".repeat(32)}`;
    expect(loadConfig({ STAFF_GROUP_IDS: room }).settings.staffGroupIds.has(room)).toBe(true);
  });

  it("with a LINE channel refuses to start without the real slip service, naming both variables", () => {
    const problems = problemsOf({ LINE_CHANNEL_SECRET: SECRET, LINE_CHANNEL_ACCESS_TOKEN: TOKEN });
    expect(problems.map((p) => p.variable)).toEqual(["SLIP_API_BASE_URL", "SLIP_API_SECRET"]);
    expect(problems[0]?.problem).toMatch(/SLIP_SANDBOX=1/);
    for (const p of problems) expect(p.problem).not.toContain(TOKEN);
  });

  it("runs the sandbox beside a LINE channel only when SLIP_SANDBOX asks, and never together with a real service", () => {
    const line = { LINE_CHANNEL_SECRET: SECRET, LINE_CHANNEL_ACCESS_TOKEN: TOKEN };
    const config = loadConfig({ ...line, SLIP_SANDBOX: "1" });
    expect(config.slip).toBeUndefined();
    expect(config.sandbox.withLine).toBe(true);
    expect(loadConfig({ SLIP_SANDBOX: "true" }).sandbox.withLine).toBe(false); // local mode uses it anyway
    expect(problemsOf({ ...line, SLIP_SANDBOX: "0" }).map((p) => p.variable)).toEqual(["SLIP_API_BASE_URL", "SLIP_API_SECRET"]);
    expect(problemsOf({ SLIP_SANDBOX: "maybe" }).map((p) => p.variable)).toEqual(["SLIP_SANDBOX"]);
    expect(problemsOf({ ...line, SLIP_SANDBOX: "1", SLIP_API_BASE_URL: "https://slips.example.com", SLIP_API_SECRET: API_SECRET }).map((p) => p.variable)).toEqual([
      "SLIP_SANDBOX",
    ]);
  });

  it("honours the sandbox's own variables", () => {
    const config = loadConfig({ SANDBOX_DB: ":memory:", SANDBOX_PUBLIC_URL: "https://demo.example.com/" });
    expect(config.sandbox).toEqual({ dbPath: ":memory:", publicUrl: "https://demo.example.com", withLine: false });
    expect(loadConfig({ SANDBOX_PUBLIC_URL: "http://localhost:4000" }).sandbox.publicUrl).toBe("http://localhost:4000");
    // Its links carry QR images, which the bot shows only from https or from this machine.
    expect(problemsOf({ SANDBOX_PUBLIC_URL: "http://192.168.1.20:4000" }).map((p) => p.variable)).toEqual(["SANDBOX_PUBLIC_URL"]);
  });
});

describe("loadConfig: the alerts and the process's bounds", () => {
  it("reads the opt-in alerts, and leaves each unset one off", () => {
    const config = loadConfig({ DAILY_SUMMARY_AT: "9:05", LOW_TOKEN_ALERT_SLIPS: "50", EXPIRY_ALERT_DAYS: "7" });
    expect(config.alerts).toEqual({ dailySummaryAt: { hour: 9, minute: 5 }, lowTokenSlips: 50, expiryDays: 7, watchMinutes: undefined });
    expect(loadConfig({}).alerts).toEqual({ dailySummaryAt: undefined, lowTokenSlips: undefined, expiryDays: undefined, watchMinutes: undefined });
  });

  it("reads the process's settings and their defaults", () => {
    const config = loadConfig({
      REDIS_URL: "redis://:pw@cache.internal:6379/0",
      INSTANCE_ROLE: "Worker",
      SHUTDOWN_GRACE_SECONDS: "30",
      SHUTDOWN_DRAIN_SECONDS: "0",
      MAX_QUEUED_EVENTS: "50",
      METRICS_TOKEN: "0123456789abcdefXYZ",
    });
    expect([config.role, config.redisUrl, config.shutdownDrainSeconds, config.shutdownGraceSeconds, config.maxQueuedEvents, config.metricsToken]).toEqual([
      "worker",
      "redis://:pw@cache.internal:6379/0",
      0,
      30,
      50,
      "0123456789abcdefXYZ",
    ]);
    const defaults = loadConfig({});
    expect([defaults.role, defaults.redisUrl, defaults.shutdownDrainSeconds, defaults.shutdownGraceSeconds, defaults.maxQueuedEvents, defaults.lineDataApiBaseUrl]).toEqual([
      "both",
      undefined,
      5,
      20,
      1000,
      "https://api-data.line.me",
    ]);
  });

  it("reads METRICS_PORT, a listener of its own for /metrics, and refuses it on PORT's port", () => {
    expect(loadConfig({ METRICS_PORT: "9464" }).metricsPort).toBe(9464);
    expect(loadConfig({}).metricsPort).toBeUndefined();
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problemsOf({ METRICS_PORT: "3000" })).toEqual([{ variable: "METRICS_PORT", problem: "is the same as PORT: the metrics listener needs a port of its own" }]);
    expect(problemsOf({ PORT: "8080", METRICS_PORT: "8080" })).toEqual([
      { variable: "METRICS_PORT", problem: "is the same as PORT: the metrics listener needs a port of its own" },
    ]);
    expect(problemsOf({ METRICS_PORT: "70000" })).toEqual([{ variable: "METRICS_PORT", problem: "must be a whole number from 0 to 65535" }]);
  });

  it("names each wrong alert and bound, in the README's order, with the words that say how to fix it", () => {
    const problems = problemsOf({
      DAILY_SUMMARY_AT: "24:00",
      LOW_TOKEN_ALERT_SLIPS: "0",
      EXPIRY_ALERT_DAYS: "7.5",
      WATCH_PAYMENTS_MINUTES: "1441",
      SHUTDOWN_GRACE_SECONDS: "0",
      MAX_QUEUED_EVENTS: "lots",
      INSTANCE_ROLE: "web",
    });
    expect(problems).toEqual([
      { variable: "SHUTDOWN_GRACE_SECONDS", problem: "must be a whole number of seconds from 1 to 3600 (platforms such as Heroku allow 30)" },
      { variable: "MAX_QUEUED_EVENTS", problem: "must be a whole number from 1 to 1000000" },
      { variable: "INSTANCE_ROLE", problem: '"web" needs REDIS_URL: without Redis one process takes the webhooks and handles them' },
      { variable: "DAILY_SUMMARY_AT", problem: '"24:00" is not a time: use HH:MM in 24 hours, such as 21:30 (the business time zone)' },
      { variable: "LOW_TOKEN_ALERT_SLIPS", problem: "must be a whole number from 1 to 1000000 (API checks left)" },
      { variable: "EXPIRY_ALERT_DAYS", problem: "must be a whole number from 1 to 365 (days before the package expires)" },
      { variable: "WATCH_PAYMENTS_MINUTES", problem: "must be a whole number from 1 to 1440 (minutes)" },
    ]);
  });

  it("never shows a secret it refuses, whatever it is", () => {
    const secretVariables = ["LINE_CHANNEL_SECRET", "LINE_CHANNEL_ACCESS_TOKEN", "SLIP_API_SECRET", "METRICS_TOKEN", "REDIS_URL"] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...secretVariables),
        fc.string({ minLength: 6, maxLength: 60 }).filter((s) => s.trim().length >= 6 && /\s/.test(s.trim())),
        (variable, value) => {
          let message = "";
          try {
            loadConfig({ [variable]: value, PORT: "x" });
          } catch (err) {
            message = (err as Error).message;
          }
          expect(message).toContain(variable);
          expect(message).not.toContain(value.trim());
        },
      ),
    );
  });
});

describe("the shop's settings as JSON (the shape of a shops file)", () => {
  const shop = {
    id: "cafe",
    name: "Cafe",
    line: { channelSecret: SECRET, channelAccessToken: TOKEN },
    slip: { baseUrl: "https://slips.example.com/", apiSecret: API_SECRET },
    promptPayId: "0812345678",
    staff: { users: [`U${"a".repeat(32)}`], groups: [`C${"b".repeat(32)}`] },
    lang: "th",
    timeZone: "Asia/Bangkok",
    dailySummaryAt: "21:00",
    lowTokenAlertSlips: 50,
    expiryAlertDays: 7,
    watchPaymentsMinutes: 30,
  };

  it("reads a shop with the same schema the environment is read into", () => {
    expect(shopSettingsSchema.parse(shop)).toEqual({
      line: { channelSecret: SECRET, channelAccessToken: TOKEN },
      slip: { baseUrl: "https://slips.example.com", apiSecret: API_SECRET },
      promptPayId: { type: "phone", digits: "0812345678" },
      staff: { users: [`U${"a".repeat(32)}`], groups: [`C${"b".repeat(32)}`] },
      lang: "th",
      timeZone: "Asia/Bangkok",
      dailySummaryAt: { hour: 21, minute: 0 },
      lowTokenAlertSlips: 50,
      expiryAlertDays: 7,
      watchPaymentsMinutes: 30,
      accountCacheSeconds: 30,
      markAsRead: false,
    });
  });

  it("refuses wrong JSON values with the environment's words, at their place in the file, without the secrets", () => {
    const result = shopSettingsSchema.safeParse({
      ...shop,
      line: { channelSecret: `${SECRET}ff` },
      slip: { baseUrl: "http://slips.example.com", apiSecret: `${API_SECRET} x` },
      staff: { users: `U${"a".repeat(32)}`, groups: ["C1", "C2"] },
      lowTokenAlertSlips: "50",
      expiryAlertDays: 7.5,
      timeZone: 7,
    });
    expect(result.success).toBe(false);
    const problems = (result.error?.issues ?? []).map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    expect(problems).toEqual([
      "line.channelSecret: must be the 32-character hexadecimal channel secret from the LINE Developers Console",
      "line.channelAccessToken: is missing",
      "slip.baseUrl: must be an https URL (http only on localhost/127.0.0.1), without query or fragment",
      "slip.apiSecret: must be at least 8 characters, without spaces",
      "staff.users: must be a list of LINE user ids",
      'staff.groups: "C1", "C2" are not LINE group ids (C or R followed by 32 hex digits; the bot\'s "id" command in the group shows it)',
      'timeZone: "7" is not an IANA time zone (for example Asia/Bangkok)',
      "lowTokenAlertSlips: must be a whole number from 1 to 1000000 (API checks left)",
      "expiryAlertDays: must be a whole number from 1 to 365 (days before the package expires)",
    ]);
    for (const secret of [SECRET, API_SECRET]) expect(JSON.stringify(result.error?.issues)).not.toContain(secret);
  });

  it.each([
    ["9:05", { hour: 9, minute: 5 }],
    ["00:00", { hour: 0, minute: 0 }],
    ["23:59", { hour: 23, minute: 59 }],
  ])("reads the time of day %s", (value, time) => {
    expect(clockTime.parse(value)).toEqual(time);
  });

  it.each(["24:00", "12:60", "1230", "12:5", " 12:30"])("refuses the time of day %j", (value) => {
    expect(clockTime.safeParse(value).success).toBe(false);
  });

  it("applies a single field to a value of its own", () => {
    expect(promptPayId.parse("+66 81-234-5678")).toEqual({ type: "phone", digits: "0812345678" });
    expect(timeZone.safeParse("Mars/Olympus").error?.issues[0]?.message).toBe('"Mars/Olympus" is not an IANA time zone (for example Asia/Bangkok)');
    expect(staffUserIds.parse([])).toEqual([]);
    expect(staffUserIds.safeParse(["x", "y", "z", "w", "v", "u"]).error?.issues[0]?.message).toBe(
      '"x", "y", "z", "w", "v" and 1 more are not LINE user ids (U followed by 32 hex digits; the bot\'s "id" command shows yours)',
    );
  });
});

describe("loadConfig: a rotation of the channel secret", () => {
  const line = { LINE_CHANNEL_SECRET: "0123456789abcdef0123456789abcdef", LINE_CHANNEL_ACCESS_TOKEN: TOKEN, SLIP_SANDBOX: "1" };
  it("reads LINE_CHANNEL_SECRET_PREVIOUS beside the current secret", () => {
    expect(loadConfig({ ...line, LINE_CHANNEL_SECRET_PREVIOUS: "fedcba9876543210fedcba9876543210" }).line).toEqual({
      channelSecret: "0123456789abcdef0123456789abcdef",
      channelAccessToken: TOKEN,
      previousChannelSecret: "fedcba9876543210fedcba9876543210",
    });
  });

  it("refuses a previous secret that is no channel secret, without quoting it", () => {
    expect(problemsOf({ ...line, LINE_CHANNEL_SECRET_PREVIOUS: "old-secret-not-hex" })).toEqual([
      { variable: "LINE_CHANNEL_SECRET_PREVIOUS", problem: "must be the 32-character hexadecimal channel secret from the LINE Developers Console" },
    ]);
  });

  it("with Redis wants REDIS_KEY_PREFIX named, since the default prefix derives from the secret that is changing", () => {
    const problems = problemsOf({ ...line, LINE_CHANNEL_SECRET_PREVIOUS: "fedcba9876543210fedcba9876543210", REDIS_URL: "redis://127.0.0.1:6390" });
    expect(problems.map((p) => p.variable)).toEqual(["REDIS_KEY_PREFIX"]);
    expect(
      loadConfig({ ...line, LINE_CHANNEL_SECRET_PREVIOUS: "fedcba9876543210fedcba9876543210", REDIS_URL: "redis://127.0.0.1:6390", REDIS_KEY_PREFIX: "slipline:0a1b2c3d4e5f" })
        .redisKeyPrefix,
    ).toBe("slipline:0a1b2c3d4e5f");
  });
});
