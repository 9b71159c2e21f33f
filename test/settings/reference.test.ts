// docs/configuration.md is the settings' schemas written out: the page as committed must be what
// `npm run docs:config` writes now, and it names every variable and every field of a shops file.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VARIABLE_NAMES } from "../../src/config.js";
import { configurationReference } from "../../src/settings/reference.js";

const PAGE = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8");

describe("docs/configuration.md", () => {
  it("is what the schemas write today (run npm run docs:config after changing a setting)", () => {
    expect(PAGE).toBe(configurationReference());
  });

  it("has one row per environment variable, in the order start-up names problems, with a default and an example", () => {
    const rows = [...PAGE.matchAll(/^\| `([A-Z_]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \|/gm)];
    expect(rows.map((row) => row[1])).toEqual(VARIABLE_NAMES);
    for (const row of rows) expect([row[2]?.trim(), row[3]?.trim(), row[4]?.trim()].every((text) => text !== undefined && text !== "")).toBe(true);
  });

  it("gives the defaults the bot applies, in the environment's words", () => {
    const defaultOf = (name: string): string => new RegExp(`^\\| \`${name}\` \\| [^|]+ \\| ([^|]+) \\|`, "m").exec(PAGE)?.[1]?.trim() ?? "";
    expect(
      Object.fromEntries(
        ["PORT", "BOT_LANG", "BUSINESS_TIMEZONE", "SHUTDOWN_DRAIN_SECONDS", "SHUTDOWN_GRACE_SECONDS", "MAX_RUNNING_EVENTS", "MARK_AS_READ", "REDIS_URL"].map((n) => [
          n,
          defaultOf(n),
        ]),
      ),
    ).toEqual({
      PORT: "`3000`",
      BOT_LANG: "`th`",
      BUSINESS_TIMEZONE: "`Asia/Bangkok`",
      SHUTDOWN_DRAIN_SECONDS: "`5`",
      SHUTDOWN_GRACE_SECONDS: "`20`",
      MAX_RUNNING_EVENTS: "`64`",
      MARK_AS_READ: "`0`",
      REDIS_URL: "unset",
    });
  });

  it("lists a shops file's fields with the one-shop variable that sets the same", () => {
    const fields = [...PAGE.matchAll(/^\| `([a-zA-Z.]+)` \| [^|]+ \| [^|]+ \| [^|]* \| [^|]* \| `?([A-Z_]*)`? \|$/gm)].map((row) => [row[1], row[2]]);
    expect(Object.fromEntries(fields)).toMatchObject({
      id: "",
      "line.channelSecret": "LINE_CHANNEL_SECRET",
      "slip.apiSecret": "SLIP_API_SECRET",
      "staff.users": "STAFF_USER_IDS",
      dailySummaryAt: "DAILY_SUMMARY_AT",
      markAsRead: "MARK_AS_READ",
    });
  });
});
