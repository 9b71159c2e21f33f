// The kit's one METRICS_TOKEN: a LINE-mode bot serves /metrics only with a token (or on METRICS_PORT), so
// the harness, the LINE-mode entry and the bench's bots are all given this one, and read /metrics with it.

/** The METRICS_TOKEN of every bot the kit starts in LINE mode (16 or more visible characters). */
export const TEST_METRICS_TOKEN = "kit-metrics-token-0123456789";

/** The header that reads /metrics (and /readyz's shop names) with the kit's token. */
export const METRICS_AUTH: Readonly<Record<string, string>> = { authorization: `Bearer ${TEST_METRICS_TOKEN}` };

/** `<baseUrl>/metrics` with the kit's token: the Prometheus text; throws unless it answers 200. */
export async function readMetrics(baseUrl: string, options: { timeoutMs?: number } = {}): Promise<string> {
  const res = await fetch(`${baseUrl}/metrics`, {
    headers: METRICS_AUTH,
    ...(options.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(options.timeoutMs) }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${baseUrl}/metrics answered ${res.status}: ${text}`);
  return text;
}
