// `npm test`'s checks before the suite: the type check, lint and the format check. Each runs on one core, so
// they run at the same time; each one's output is printed whole once all are done, and the run fails when
// any of them failed.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";

const CHECKS = ["typecheck", "lint", "format:check"];
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs `npm run <name>`; resolves with its exit code, its output and how long it took. */
function check(name) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(npm, ["run", "--silent", name], { stdio: ["ignore", "pipe", "pipe"], shell: process.platform === "win32" });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk));
    const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
    child.on("error", (err) => resolve({ name, code: 1, output: `${String(err)}\n`, seconds: seconds() }));
    child.on("close", (code) => resolve({ name, code, output, seconds: seconds() }));
  });
}

const results = await Promise.all(CHECKS.map(check));
for (const { name, code, output, seconds } of results) {
  process.stdout.write(`> npm run ${name}: ${code === 0 ? "passed" : `FAILED (exit ${String(code)})`} in ${seconds} s\n${output}`);
}
process.exitCode = results.every(({ code }) => code === 0) ? 0 : 1;
