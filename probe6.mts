import pino from "pino";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { writeFileSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { startDeployment } from "./src/app/deployment.ts";
import { readShopsFile } from "./src/shops/file.ts";
import { makeStaffPool } from "./bench/load.ts";
const STAFF = makeStaffPool(100, 30);
const mk = (suffix: string) => JSON.stringify({ shops: Array.from({ length: 1000 }, (_, i) => {
  const n = i + 1;
  const own = { users: [0, 1, 2].map((k) => `U${(0x5b000000 * 4 + n * 4 + k).toString(16).padStart(32, "0")}`), groups: [] as string[] };
  return { id: `shop-${String(n).padStart(4, "0")}`, name: `Bench shop ${n}${suffix}`, line: { channelSecret: (0xbe000000 + n).toString(16).padStart(32, "0"), channelAccessToken: `bench-shop-token-${n}` }, slip: { baseUrl: "http://127.0.0.1:9", apiSecret: "demo-shop-secret" }, promptPayId: "0812345678", staff: n <= 100 ? { users: STAFF.users, groups: STAFF.groups } : own, lang: "en" };
}) });
const dir = mkdtempSync(join(tmpdir(), "p6-")); const file = join(dir, "s.json");
writeFileSync(file, mk(""));
const first = await readShopsFile(file, {}); if (!first.ok) throw new Error("bad");
const d = await startDeployment({ log: pino({ level: "silent" }), shops: first.shops, many: true, port: 0, lineApiBaseUrl: "http://127.0.0.1:9" });
for (let round = 0; round < 4; round++) {
  writeFileSync(file, mk(round % 2 === 0 ? " x" : ""));
  await new Promise((r) => setTimeout(r, 200));
  const h = monitorEventLoopDelay({ resolution: 1 }); h.enable();
  const t = performance.now();
  const read = await readShopsFile(file, {}); if (!read.ok) throw new Error("bad");
  const tr = performance.now();
  const ch = await d.reload(read.shops);
  const ta = performance.now();
  h.disable();
  console.log(`read ${(tr - t).toFixed(0)} ms, apply ${(ta - tr).toFixed(0)} ms, changed ${ch.changed.length}, worst loop delay ${(h.max / 1e6).toFixed(1)} ms, p99 ${(h.percentile(99) / 1e6).toFixed(1)} ms`);
}
await d.shutdown(100); process.exit(0);
