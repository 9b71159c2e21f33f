// test/groups.json, the test files CI runs again on the other Node majors (platform) and at 00:05 Bangkok
// (date), holds exactly what the rules of scripts/test-groups.mjs give: a test file added, moved or changed so
// that it falls under a rule (or no longer does) fails here, by name, until the list is written again.
import { existsSync, readdirSync } from "node:fs";
import { sep } from "node:path";
import { describe, expect, it } from "vitest";
import { savedGroups, testFiles, testGroups } from "../scripts/test-groups.mjs";

const REWRITE = "node scripts/test-groups.mjs --write";
const computed = testGroups();
const saved = savedGroups();
const ROOT = new URL("../", import.meta.url);

describe.each(["platform", "date"] as const)("the %s group in test/groups.json", (group) => {
  const ruled = computed[group].map(({ file }) => file);
  const listed = saved[group];

  it("names only test files that exist", () => {
    const gone = listed.filter((file) => !existsSync(new URL(file, ROOT)));
    expect(gone, `test/groups.json names ${group} files that do not exist (moved or removed?): ${gone.join(", ")}; run ${REWRITE}`).toEqual([]);
  });

  it("lists every test file the rule picks, and no other", () => {
    const missing = computed[group].filter(({ file }) => !listed.includes(file)).map(({ file, reasons }) => `${file} (${reasons.join("; ")})`);
    const extra = listed.filter((file) => existsSync(new URL(file, ROOT)) && !ruled.includes(file));
    expect(missing, `the ${group} rule picks test files test/groups.json does not list: ${missing.join(", ")}; run ${REWRITE}`).toEqual([]);
    expect(extra, `test/groups.json lists ${group} files the rule does not pick: ${extra.join(", ")}; run ${REWRITE}`).toEqual([]);
  });

  it("is sorted, without repeats, and not empty", () => {
    expect(listed.length).toBeGreaterThan(0);
    expect([...new Set(listed)].sort()).toEqual(listed);
  });
});

describe("the rules", () => {
  const all = testFiles();
  const platform = new Set(computed.platform.map(({ file }) => file));

  it("see every test file vitest runs, this one included", () => {
    const underTest = readdirSync(new URL("test/", ROOT), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".test.ts"));
    expect(underTest).toContain("groups.test.ts");
    for (const file of underTest) expect(all).toContain(`test/${file.split(sep).join("/")}`);
    expect(all.every((file) => file.endsWith(".test.ts"))).toBe(true);
  });

  it("say why each file is in a group", () => {
    for (const { file, reasons } of [...computed.platform, ...computed.date]) expect(reasons.length, file).toBeGreaterThan(0);
  });

  it("leave out files that use no platform module, addon, process or signal (this one reads files only)", () => {
    expect(platform.has("test/groups.test.ts")).toBe(false);
    expect(platform.size).toBeLessThan(all.length);
  });

  it("count an import of a platform module only when it loads one: `import type` does not", () => {
    // Its one import of node:http is a type: it runs the bot in-process, the same on every Node.
    expect(platform.has("test/privacy/places.property.test.ts")).toBe(false);
    // It imports node:http for a server of its own.
    expect(computed.platform.find(({ file }) => file === "tools/slip-sandbox/test/http.test.ts")?.reasons.join("; ")).toContain("node:http");
  });

  it("take a whole-bot run only when its header names what of the platform it alone tests", () => {
    // The burst runs use sockets, signals and redis-server, but test the bot's guarantees, not the platform.
    expect(platform.has("test/bot/one-instance.test.ts")).toBe(false);
    expect(platform.has("test/bot/several-instances.test.ts")).toBe(false);
    expect(platform.has("test/browser/console-flows.test.ts")).toBe(false);
    expect(computed.platform.find(({ file }) => file === "test/bot/shutdown.test.ts")?.reasons).toEqual([
      "a whole-bot run that is the one test of: SIGTERM and the exit code of a real process.",
    ]);
    // Outside test/bot and test/browser the imports decide, as before.
    expect(platform.has("test/main.test.ts")).toBe(true);
    expect(platform.has("tools/slip-sandbox/test/store.test.ts")).toBe(true);
  });
});
