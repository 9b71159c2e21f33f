// Adds to package-lock.json the entries npm leaves out for other platforms' optional binaries
// (`@napi-rs/canvas-darwin-arm64`, `@msgpackr-extract/msgpackr-extract-win32-x64`...) when the registry it
// installs from does not carry them. `npm ci` refuses a lock file without them ("Missing: ... from lock
// file"); with them it skips each one whose os, cpu or libc is not this machine's, as on any machine.
// Run it after `npm install` of a package that ships such binaries: `node scripts/complete-lock.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const OSES = ["darwin", "linux", "win32", "android", "freebsd", "openbsd", "sunos", "aix"];
const CPUS = ["arm64", "x64", "ia32", "arm", "riscv64", "ppc64", "s390x", "loong64", "mips64el"];

/** The platform a binary package is for, read from its name (the packages name themselves this way). */
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const entry = {};
  const cpu = CPUS.find((c) => parts.includes(c));
  const os = OSES.find((o) => parts.includes(o));
  if (cpu !== undefined) entry.cpu = [cpu];
  if (os !== undefined) entry.os = [os];
  if (parts.includes("musl")) entry.libc = ["musl"];
  else if (parts.includes("gnu") || parts.includes("gnueabihf")) entry.libc = ["glibc"];
  return entry;
}

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;
const added = [];
for (const meta of Object.values(packages)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (key in packages) continue;
    const entry = { ...(meta.dev === true ? { dev: true } : {}), optional: true, ...platformOf(dep) };
    // In the order npm writes them: the version, then the rest alphabetically.
    packages[key] = { version, ...Object.fromEntries(Object.entries(entry).sort(([a], [b]) => a.localeCompare(b, "en"))) };
    added.push(`${dep}@${version}`);
  }
}
// npm keeps the entries sorted by path, the root ("") first.
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b, "en")));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length === 0 ? "package-lock.json: nothing missing" : `package-lock.json: added ${added.join(", ")}`);
