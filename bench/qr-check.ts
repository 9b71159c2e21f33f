// `npm run bench:qr-check`: what the slip client's check of a QR answer (src/slip/qr-check.ts) costs per QR,
// on answers as the sandbox writes them: the payload read and compared, and the image link checked.
import { pathToFileURL } from "node:url";
import { buildPromptPayPayload } from "@slipline/slip-sandbox";
import type { PromptPayTarget } from "@slipline/slip-sandbox";
import { qrImageOrigins, qrMismatches } from "../src/slip/qr-check.js";
import type { QrAnswer } from "../src/slip/qr-check.js";
import type { PromptPayQrUrlRequest } from "../src/slip/types.js";

export interface QrCheckBenchOptions {
  /** Different request/answer pairs to cycle through (default 200). */
  answers?: number;
  /** Untimed warm-up (default 500 ms). */
  warmupMs?: number;
  /** Timed budget (default 2,000 ms). */
  budgetMs?: number;
}

export interface QrCheckBenchResult {
  answers: number;
  checks: number;
  elapsedMs: number;
  checksPerSecond: number;
  microsPerCheck: number;
}

const SERVICE = "https://slips.example.com";

/** Deterministic, all different: phones, tax ids and e-wallets, with and without amounts; every one passes. */
function benchPairs(count: number): [PromptPayQrUrlRequest, QrAnswer][] {
  const out: [PromptPayQrUrlRequest, QrAnswer][] = [];
  for (let i = 0; i < count; i++) {
    const n = String(10_000_000 + i * 7_919).slice(-8);
    const target: PromptPayTarget =
      i % 3 === 0 ? { type: "phone", digits: `08${n}` } : i % 3 === 1 ? { type: "citizen", digits: `01055${n}` } : { type: "ewallet", digits: `1400008${n}` };
    const satang = i % 4 === 0 ? undefined : 100 + i * 12_345;
    const qrCode = buildPromptPayPayload(target, satang);
    const amount = satang === undefined ? null : satang / 100;
    out.push([
      { accountNumber: target.digits, ...(amount === null ? {} : { amount }), size: 1024 },
      { qrCode, amount, url: `${SERVICE}/api/qr-image?data=${encodeURIComponent(qrCode)}&size=1024` },
    ]);
  }
  return out;
}

export function benchQrCheck(options: QrCheckBenchOptions = {}): QrCheckBenchResult {
  const pairs = benchPairs(options.answers ?? 200);
  const origins = qrImageOrigins(SERVICE, []);
  if (origins === undefined) throw new Error("no image origins");
  const check = (i: number): number => {
    const [request, answer] = pairs[i % pairs.length] ?? [];
    if (request === undefined || answer === undefined) throw new Error("no pair");
    return qrMismatches(request, answer, origins).length;
  };
  // A bench of a check that refuses the right answers would measure the wrong path.
  for (let i = 0; i < pairs.length; i++) if (check(i) !== 0) throw new Error(`answer ${i} was refused`);

  const warmupEnd = performance.now() + (options.warmupMs ?? 500);
  for (let i = 0; performance.now() < warmupEnd; i++) check(i);
  const budgetMs = options.budgetMs ?? 2_000;
  let checks = 0;
  const start = performance.now();
  // Time is read once every 100 checks, so reading it costs little next to the checks.
  while (performance.now() - start < budgetMs) {
    for (let k = 0; k < 100; k++) check(checks + k);
    checks += 100;
  }
  const elapsedMs = performance.now() - start;
  return { answers: pairs.length, checks, elapsedMs, checksPerSecond: (checks / elapsedMs) * 1000, microsPerCheck: (elapsedMs * 1000) / checks };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = benchQrCheck();
  console.log(
    `qr check: ${result.microsPerCheck.toFixed(2)} µs per QR answer (${Math.round(result.checksPerSecond).toLocaleString("en")} checks/s, ` +
      `${result.checks.toLocaleString("en")} checks of ${result.answers} different answers in ${Math.round(result.elapsedMs)} ms, Node ${process.version})`,
  );
}
