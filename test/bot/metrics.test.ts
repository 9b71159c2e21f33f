// A running bot process's /metrics: the process metrics under their standard names, ours under slipline_,
// and every metric docs/grafana-dashboard.json plots present in that scrape.
import { readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { killLeftovers } from "../kit/entry-process.js";
import { startLineModeMain } from "../kit/line-mode-main.js";
import { METRICS_AUTH } from "../kit/metrics.js";
import { lineId, postWebhook, textEvent, webhookBody } from "../kit/webhook.js";

const DASHBOARD = new URL("../../docs/grafana-dashboard.json", import.meta.url);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Metric families by the names a query may use: a histogram's `_bucket`, `_sum` and `_count` too. */
function scrapedNames(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (name === undefined || type === undefined) continue;
    names.set(name, type);
    if (type === "histogram" || type === "summary") {
      for (const suffix of ["_sum", "_count", ...(type === "histogram" ? ["_bucket"] : [])]) names.set(`${name}${suffix}`, type);
    }
  }
  return names;
}

const PROMQL_WORDS = new Set(["by", "without", "on", "ignoring", "group_left", "group_right", "offset", "bool", "and", "or", "unless"]);

/**
 * The metric names in a PromQL expression: what is left once strings, label matchers, ranges, grouping
 * label lists, numbers, function calls and keywords are taken out.
 */
function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  const names: string[] = [];
  for (const match of stripped.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*(\s*\()?/g)) {
    const [whole, call] = match;
    const word = whole.replace(/\s*\($/, "");
    if (call !== undefined || PROMQL_WORDS.has(word) || /^\d/.test(word)) continue;
    names.push(word);
  }
  return names;
}

interface DashboardPanel {
  title?: string;
  type: string;
  targets?: { expr?: string }[];
  panels?: DashboardPanel[];
}

function dashboardQueries(): { where: string; expr: string }[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, "utf8")) as {
    panels: DashboardPanel[];
    templating: { list: { name: string; definition?: string }[] };
  };
  const queries: { where: string; expr: string }[] = [];
  const walk = (panels: DashboardPanel[]): void => {
    for (const panel of panels) {
      for (const target of panel.targets ?? []) if (target.expr !== undefined) queries.push({ where: `panel "${panel.title}"`, expr: target.expr });
      walk(panel.panels ?? []);
    }
  };
  walk(dashboard.panels);
  for (const variable of dashboard.templating.list) {
    const labelValues = /^label_values\(([^,]+),/.exec(variable.definition ?? "");
    if (labelValues?.[1] !== undefined) queries.push({ where: `variable $${variable.name}`, expr: labelValues[1] });
  }
  return queries;
}

describe("the PromQL reader of this test", () => {
  it("finds the metrics and leaves out functions, labels, ranges and keywords", () => {
    expect(metricNamesIn('histogram_quantile(0.95, sum by (le, operation) (rate(a_seconds_bucket{instance=~"$instance",x="y{z}"}[$__rate_interval])))')).toEqual([
      "a_seconds_bucket",
    ]);
    expect(metricNamesIn("sum(rate(a_total[5m])) / sum without (b) (rate(c_total[5m])) > 0.2 and on (d) e")).toEqual(["a_total", "c_total", "e"]);
  });
});

describe("a running bot's /metrics", { timeout: 60_000 }, () => {
  it("has the standard process metrics unprefixed, ours under slipline_, and every metric the Grafana dashboard plots", async () => {
    const staff = lineId("U", 0x5ca);
    const bot = await startLineModeMain({ STAFF_USER_IDS: staff });
    cleanups.push(() => bot.close());
    const { main, platform } = bot;
    const base = bot.url;
    const body = webhookBody([textEvent({ source: { type: "user", userId: staff }, replyToken: platform.issueReplyToken(staff), text: "balance" })]);
    expect((await postWebhook(`${base}/webhook`, body, { secret: bot.channelSecret })).status).toBe(200);
    await platform.waitForSent(1);

    const res = await fetch(`${base}/metrics`, { headers: METRICS_AUTH });
    expect(res.status).toBe(200);
    const text = await res.text();
    // The names stock Node.js dashboards and alerts look for.
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^process_start_time_seconds \d+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
    // Ours, with the balance just asked for counted.
    expect(text).toMatch(/^slipline_events_total\{shop="default",type="message",outcome="answered"\} 1$/m);
    expect(text).toMatch(/^slipline_slip_service_requests_total\{shop="default",operation="GET \/api\/account\/info",outcome="ok"\} 1$/m);
    const families = scrapedNames(text);
    const foreign = [...families.keys()].filter((name) => !/^(slipline|process|nodejs)_/.test(name));
    expect(foreign).toEqual([]);
    expect([...families.keys()].filter((name) => name.startsWith("slipline_process_") || name.startsWith("slipline_nodejs_"))).toEqual([]);

    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const { where, expr } of queries) {
      const names = metricNamesIn(expr);
      if (names.length === 0) missing.push(`${where}: no metric in ${expr}`);
      for (const name of names) if (!families.has(name)) missing.push(`${where}: ${name}`);
    }
    expect(missing).toEqual([]);
    // Every metric of ours is on the dashboard.
    const plotted = new Set(queries.flatMap(({ expr }) => metricNamesIn(expr)).map((name) => name.replace(/_(bucket|sum|count)$/, "")));
    const ours = [...families].filter(([name, type]) => name.startsWith("slipline_") && !(type === "histogram" && /_(bucket|sum|count)$/.test(name)));
    expect(ours.map(([name]) => name).filter((name) => !plotted.has(name))).toEqual([]);
    expect(await main.stop()).toBe(0);
  });

  it("in LINE mode without METRICS_TOKEN: the public port refuses /metrics, even from this machine; METRICS_PORT serves it on 127.0.0.1 alone", async () => {
    const bot = await startLineModeMain({ METRICS_TOKEN: "", METRICS_PORT: "0" });
    cleanups.push(() => bot.close());
    const [, metricsPort] = await bot.main.waitFor(/"metricsPort":(\d+)/);
    const refused = await fetch(`${bot.url}/metrics`);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain("slipline_");
    const served = await fetch(`http://127.0.0.1:${String(metricsPort)}/metrics`);
    expect(served.status).toBe(200);
    expect(await served.text()).toMatch(/^slipline_events_in_flight 0$/m);
    // From this machine's other addresses the public port answers, the metrics port does not listen.
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a !== undefined && a.family === "IPv4" && !a.internal)
      .map((a) => a?.address);
    for (const address of others) {
      const port = new URL(bot.url).port;
      expect((await fetch(`http://${String(address)}:${port}/healthz`)).status).toBe(200);
      await expect(fetch(`http://${String(address)}:${String(metricsPort)}/metrics`)).rejects.toThrow();
    }
    expect(await bot.main.stop()).toBe(0);
  });
});
