// The documentation as a reader meets it: the README stays a short front page whose prerequisites are what
// CI installs, and every link in the README, docs/ and bench/RESULTS.md leads to a file of this repository
// and, for a page's section, to a heading that exists.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");
const README = read("README.md");
const PAGES = [
  "README.md",
  "bench/RESULTS.md",
  "test/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(page: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  // Headings outside code blocks only.
  const text = read(page).replace(/^```[\s\S]*?^```/gm, "");
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(heading ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

describe("the README", () => {
  it("is a front page of at most 200 lines", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(200);
  });

  it("names as prerequisites exactly the Debian packages .ci/run installs", () => {
    const ci = /^DEBIAN_PACKAGES=\(([^)]*)\)$/m.exec(read(".ci/run"))?.[1]?.split(/\s+/).filter(Boolean) ?? [];
    const readme = /^apt-get install -y (.+)$/m.exec(README)?.[1]?.split(/\s+/) ?? [];
    expect(ci.length).toBeGreaterThan(0);
    expect([...readme].sort()).toEqual([...ci].sort());
  });
});

describe("links in the README, docs/ and bench/RESULTS.md", () => {
  it.each(PAGES)("%s: every link into the repository leads to a file, and to a heading there", (page) => {
    const text = read(page).replace(/^```[\s\S]*?^```/gm, "");
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (target === undefined || /^(https?|mailto):/.test(target)) continue;
      const [path = "", anchor] = target.split("#");
      const file = path === "" ? page : relative(ROOT, join(ROOT, dirname(page), path));
      if (file.startsWith("..") || !existsSync(join(ROOT, file))) {
        broken.push(`${target} (no ${file} in the repository)`);
        continue;
      }
      if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(file).has(anchor)) broken.push(`${target} (no such heading in ${file})`);
    }
    expect(broken).toEqual([]);
  });
});
