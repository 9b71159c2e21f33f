// The README's Quick start and docs/development.md name the Node versions `engines` in package.json allows,
// word for word: a change to one without the other fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8").replace(/\s+/g, " ");
const DEVELOPMENT = readFileSync(new URL("../docs/development.md", import.meta.url), "utf8").replace(/\s+/g, " ");
const PACKAGE = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { engines: { node: string } };

/** `^20.19.0 || ^24.0.0` as a reader says it: `20.19 or later in 20, any 24`. Only caret ranges are expected. */
function inWords(range: string): string {
  return range
    .split("||")
    .map((part) => {
      const caret = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(part.trim());
      if (caret === null) throw new Error(`engines.node has "${part.trim()}"; this test reads caret ranges (^major.minor.patch) only`);
      const [, major, minor, patch] = caret;
      if (patch !== "0") return `${major}.${minor}.${patch} or later in ${major}`;
      return minor === "0" ? `any ${major}` : `${major}.${minor} or later in ${major}`;
    })
    .join(", ");
}

/** Whether a version satisfies one of the range's caret alternatives. */
function allows(range: string, version: string): boolean {
  const [major, minor, patch] = version.split(".").map(Number);
  return range.split("||").some((part) => {
    const [m, n, p] = part.trim().slice(1).split(".").map(Number);
    return major === m && ((minor ?? 0) > (n ?? 0) || (minor === n && (patch ?? 0) >= (p ?? 0)));
  });
}

describe("the README's Node versions", () => {
  const range = PACKAGE.engines.node;
  const said = `Node.js \`${range}\` (\`engines\` in \`package.json\`): ${inWords(range)}`;

  it("reads caret ranges in words", () => {
    expect(inWords("^20.19.0 || ^22.12.0 || ^24.0.0")).toBe("20.19 or later in 20, 22.12 or later in 22, any 24");
    expect(inWords("^18.17.1")).toBe("18.17.1 or later in 18");
  });

  it("allow the Node running this suite (the machine's 20, and .nvmrc's 24.21.0 and 26 under scripts/with-node.sh)", () => {
    expect(allows(range, "20.18.3")).toBe(false);
    expect(allows(range, "22.12.0")).toBe(true);
    expect(allows(range, "23.1.0")).toBe(false);
    expect(allows(range, process.versions.node)).toBe(true);
  });

  it("are exactly engines', in the README's Quick start and under Node versions in docs/development.md", () => {
    const quickStart = README.slice(README.indexOf("## Quick start"), README.indexOf("```", README.indexOf("## Quick start")));
    expect(quickStart).toContain(said);
    const versions = DEVELOPMENT.slice(DEVELOPMENT.indexOf("**Node versions.**"));
    expect(versions.slice(0, said.length + 40)).toContain(said);
  });

  it("name no Node version outside engines in either place", () => {
    const majors = new Set(range.split("||").map((part) => /\^(\d+)/.exec(part)?.[1]));
    const quickStart = README.slice(README.indexOf("## Quick start"), README.indexOf("```", README.indexOf("## Quick start")));
    for (const [, major] of quickStart.matchAll(/\b(\d{2})(?:\.\d+)*\b/g)) expect(majors).toContain(major);
  });
});
