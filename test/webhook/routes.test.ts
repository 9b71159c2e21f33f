import { createServer } from "node:http";
import { connect } from "node:net";
import type { AddressInfo, Socket } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicAnswer } from "../../src/privacy/answer.js";
import { REAL_HANDLERS } from "../../src/event/handle-event.js";
import type { Intake } from "../../src/intake/in-process.js";
import type { LineCheck } from "../../src/line/self-check.js";
import { createMetrics } from "../../src/metrics/metrics.js";
import { createBotApp, isWebhookPath } from "../../src/webhook/routes.js";
import type { WebhookShop } from "../../src/webhook/routes.js";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { METRICS_AUTH, readMetrics } from "../kit/metrics.js";
import { lineId, newEventId, postWebhook, signBody, textEvent, webhookBody } from "../kit/webhook.js";

// LINE's published test vector for the signature.
const VECTOR = {
  body: '{"destination":"U8e742f61d673b39c7fff3cecb7536ef0","events":[]}',
  secret: "8c570fa6dd201bb328f1c1eac23a96d8",
  signature: "GhRKmvmHys4Pi8DxkF4+EayaH0OqtJtaZxgTD9fMDLs=",
};

let bot: BotHarness;

beforeAll(async () => {
  bot = await startBotHarness({ channelSecret: VECTOR.secret });
});
afterAll(async () => {
  await bot.close();
});

describe("POST /webhook", () => {
  it("accepts LINE's official signature vector (the Verify request) with 200", async () => {
    expect(signBody(VECTOR.body, VECTOR.secret)).toBe(VECTOR.signature);
    const answer = await postWebhook(bot.webhookUrl, VECTOR.body, { signature: VECTOR.signature });
    expect(answer.status).toBe(200);
    expect(bot.platform.sent).toHaveLength(0);
  });

  it("refuses a body whose signature does not match with 401, and handles none of its events", async () => {
    const user = lineId("U", 0x401);
    const body = webhookBody([textEvent({ source: { type: "user", userId: user }, replyToken: bot.token(user), text: "help" })]);
    const answer = await postWebhook(bot.webhookUrl, body, { signature: signBody(`${body} `, VECTOR.secret) });
    expect(answer).toEqual({ status: 401, body: { message: "Invalid signature" } });
    await bot.drain();
    expect(bot.platform.sent.filter((s) => s.chatId === user)).toHaveLength(0);
  });

  it("refuses a missing signature with 401", async () => {
    const answer = await postWebhook(bot.webhookUrl, VECTOR.body, { none: true });
    expect(answer.status).toBe(401);
  });

  it("refuses a signature made with another secret with 401", async () => {
    const answer = await postWebhook(bot.webhookUrl, VECTOR.body, { secret: "0".repeat(32) });
    expect(answer.status).toBe(401);
  });

  it("answers 400 for a correctly signed body that is not JSON", async () => {
    const answer = await postWebhook(bot.webhookUrl, '{"events": [', { secret: VECTOR.secret });
    expect(answer).toEqual({ status: 400, body: { message: "Body is not valid JSON" } });
  });

  it.each(['{"destination":"U1"}', '{"events":{}}', "[]", "null", '"events"'])("answers 400 for signed JSON that is not a webhook: %s", async (body) => {
    const answer = await postWebhook(bot.webhookUrl, body, { secret: VECTOR.secret });
    expect(answer.status).toBe(400);
  });

  it("checks the signature over the raw bytes: escaped emoji stay as LINE sent them", async () => {
    const user = lineId("U", 0x402);
    const raw = webhookBody([textEvent({ source: { type: "user", userId: user }, replyToken: bot.token(user), text: "help 🤨" })]).replace("🤨", "\\uD83E\\uDD28");
    const before = bot.platform.sent.length;
    const answer = await postWebhook(bot.webhookUrl, raw, { secret: VECTOR.secret });
    expect(answer.status).toBe(200);
    await bot.drain();
    expect(bot.platform.sent.length).toBe(before + 1);
  });

  it("answers 413 for a body far larger than any webhook, without reading it", async () => {
    const body = JSON.stringify({ events: [], pad: "x".repeat(1_100_000) });
    const answer = await postWebhook(bot.webhookUrl, body, { secret: VECTOR.secret });
    expect(answer.status).toBe(413);
  });

  it("answers 405 to other methods on /webhook", async () => {
    const res = await fetch(bot.webhookUrl);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("other routes", () => {
  it("GET /healthz answers 200 {status: ok}", async () => {
    const res = await fetch(`${bot.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("an unknown path answers 404 with JSON", async () => {
    const res = await fetch(`${bot.url}/nope`, { method: "POST" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "Not found" });
  });
});

/** Sends raw bytes over TCP and reads what comes back until the server closes, or `waitMs` passes. */
function rawExchange(url: string, request: string, waitMs: number): Promise<{ answer: string; closedByServer: boolean; ms: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answer = "";
    let done = false;
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const finish = (closedByServer: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer, closedByServer, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
    socket.on("end", () => finish(true));
    socket.on("close", () => finish(true));
    socket.on("error", (error) => (done ? undefined : reject(error)));
  });
}

describe("webhook hardening", () => {
  it("refuses a request without x-line-signature before reading its body, and closes the connection", async () => {
    const head = `POST /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"events":[`;
    // The body is promised but never sent: the answer cannot have waited for it.
    const { answer, closedByServer } = await rawExchange(bot.url, head, 5_000);
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer).toMatch(/connection: close/i);
    expect(closedByServer).toBe(true);
  });

  it("takes a webhook body up to 128 KB and refuses a larger one with 413", async () => {
    const pad = (bytes: number) => JSON.stringify({ destination: "U1", events: [], pad: "x".repeat(bytes) });
    expect((await postWebhook(bot.webhookUrl, pad(120_000), { secret: VECTOR.secret })).status).toBe(200);
    expect((await postWebhook(bot.webhookUrl, pad(132_000), { secret: VECTOR.secret })).status).toBe(413);
  });
});

describe("probes and metrics", () => {
  it("GET /readyz is 200 once started", async () => {
    const res = await fetch(`${bot.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready" });
  });

  it("GET /metrics speaks Prometheus: events by type and outcome, LINE and service calls, the queue, the circuit", async () => {
    const user = lineId("U", 0x403);
    await bot.exchange([textEvent({ source: { type: "user", userId: user }, replyToken: bot.token(user), text: "qr 150" })]);
    const res = await fetch(`${bot.url}/metrics`, { headers: METRICS_AUTH });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^slipline_events_total\{shop="default",type="message",outcome="answered"\} [1-9]/m);
    expect(text).toMatch(/^slipline_event_duration_seconds_bucket\{le="\+Inf"\} [1-9]/m);
    expect(text).toMatch(/^slipline_line_api_requests_total\{shop="default",endpoint="reply",status="200"\} [1-9]/m);
    expect(text).toMatch(/^slipline_slip_service_requests_total\{shop="default",operation="POST \/api\/promptpay-qr-url",outcome="ok"\} [1-9]/m);
    expect(text).toMatch(/^slipline_event_queue_depth 0$/m);
    expect(text).toMatch(/^slipline_slip_service_circuit_state\{shop="default"\} 0$/m);
    expect(text).toMatch(/^slipline_webhook_refused_total\{reason="unsigned"\} [1-9]/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    for (const secret of [bot.channelSecret, bot.accessToken, bot.apiSecret]) expect(text).not.toContain(secret);
  });
});

/**
 * A bot that handles one event at a time and lets two wait, each text held until `open()`; `handled` lists
 * the texts in the order handled.
 */
async function boundedBot(): Promise<{ b: BotHarness; open: () => void; handled: string[] }> {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const handled: string[] = [];
  const b = await startBotHarness({
    maxConcurrentEvents: 1,
    maxQueuedEvents: 2,
    handlers: {
      ...REAL_HANDLERS,
      handleText: async (input, ctx) => {
        await gate;
        handled.push(input.text);
        await ctx.send(publicAnswer("help", [{ type: "text", text: `done ${input.text}` }]));
        return { command: "help", outcome: "answered" };
      },
    },
  });
  return { b, open: () => open(), handled };
}

describe("readiness, admission and the metrics token", () => {
  it("answers 503 to a webhook once the waiting events reach the bound, and handles every event it accepted", async () => {
    const { b, open, handled } = await boundedBot();
    try {
      const say = (n: number) => {
        const user = lineId("U", 0x500 + n);
        return b.post([textEvent({ source: { type: "user", userId: user }, replyToken: b.token(user), text: `e${n}` })]);
      };
      const statuses: number[] = [];
      for (let n = 0; n < 5; n++) {
        statuses.push((await say(n)).status);
        await new Promise((resolve) => setImmediate(resolve)); // let the accepted event take its turn or its place
      }
      // One running, two waiting: the fourth and fifth are refused before any work, with a hint to retry.
      expect(statuses).toEqual([200, 200, 200, 503, 503]);
      open();
      await b.drain();
      expect(handled.sort()).toEqual(["e0", "e1", "e2"]);
      expect(b.platform.sent).toHaveLength(3);
      expect(await readMetrics(b.url)).toMatch(/^slipline_webhook_refused_total\{reason="busy"\} 2$/m);
    } finally {
      open();
      await b.close();
    }
  });

  it("holds a burst read in one pass (the event loop was busy when it came) to the same bound", async () => {
    const { b, open, handled } = await boundedBot();
    const { port, pathname } = new URL(b.webhookUrl);
    const sockets = await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          new Promise<Socket>((resolve) => {
            const socket: Socket = connect(Number(port), "127.0.0.1", () => resolve(socket));
          }),
      ),
    );
    try {
      const statuses = sockets.map(
        (socket) =>
          new Promise<number>((resolve) => {
            let seen = "";
            socket.setEncoding("utf8").on("data", (chunk: string) => {
              seen += chunk;
              const status = /^HTTP\/1\.1 (\d{3})/.exec(seen);
              if (status !== null) resolve(Number(status[1]));
            });
          }),
      );
      // The server has taken the connections; the six requests are then written while this process's event
      // loop (the bot's too) is held, so the bot reads all six in one pass before any of them is queued.
      await new Promise((resolve) => setTimeout(resolve, 50));
      sockets.forEach((socket, n) => {
        const user = lineId("U", 0x540 + n);
        const body = webhookBody([textEvent({ source: { type: "user", userId: user }, replyToken: b.token(user), text: `e${n}` })]);
        socket.write(
          `POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Line-Signature: ${signBody(body, b.channelSecret)}\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
      const held = performance.now() + 100;
      while (performance.now() < held) {
        // busy, as a process is while it renders or parses something large
      }
      const got = await Promise.all(statuses);
      // One running and two waiting, as when they come one by one; the other three are refused.
      expect(got.filter((s) => s === 200)).toHaveLength(3);
      expect(got.filter((s) => s === 503)).toHaveLength(3);
      open();
      await b.drain();
      expect(handled).toHaveLength(3);
      expect(b.platform.sent).toHaveLength(3);
    } finally {
      open();
      for (const socket of sockets) socket.destroy();
      await b.close();
    }
  });

  it("while stopping: /readyz 503 and new webhooks 503, while accepted events still finish", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const b = await startBotHarness({
      handlers: {
        ...REAL_HANDLERS,
        handleText: async (_input, ctx) => {
          await gate;
          await ctx.send(publicAnswer("help", [{ type: "text", text: "finished" }]));
          return { command: "help", outcome: "answered" };
        },
      },
    });
    try {
      const user = lineId("U", 0x520);
      expect((await b.post([textEvent({ source: { type: "user", userId: user }, replyToken: b.token(user), text: "x" })])).status).toBe(200);
      b.deployment.bot.stopAccepting();
      const ready = await fetch(`${b.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: "draining" });
      const late = lineId("U", 0x521);
      expect((await b.post([textEvent({ source: { type: "user", userId: late }, replyToken: b.token(late), text: "y" })])).status).toBe(503);
      const drained = b.deployment.intake.drain(5_000);
      open();
      expect(await drained).toEqual({ abandoned: [], leftForOthers: 0 });
      expect(b.platform.sent.map((s) => s.chatId)).toEqual([user]);
    } finally {
      open();
      await b.close();
    }
  });

  it("at the end of the grace period tells each unfinished chat to send again, logs it, and sends nothing after", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const b = await startBotHarness({
      settings: { defaultLang: "en" },
      handlers: {
        ...REAL_HANDLERS,
        handleText: async (_input, ctx) => {
          await gate;
          await ctx.send(publicAnswer("help", [{ type: "text", text: "too late" }]));
          return { command: "help", outcome: "answered" };
        },
      },
    });
    try {
      const group = lineId("C", 0x530);
      const eventId = newEventId();
      await b.post([textEvent({ source: { type: "group", groupId: group, userId: lineId("U", 0x531) }, replyToken: b.token(group), text: "x", eventId })]);
      b.deployment.bot.stopAccepting();
      const report = await b.deployment.intake.drain(200);
      expect(report).toEqual({ abandoned: [{ shop: "default", eventId, chatId: group, apologised: true }], leftForOthers: 0 });
      open();
      // The barrier: the late answer has reached the send, which says it was not sent.
      const late = (): boolean => b.logs.entries().some((e) => e.msg === "answer ready after the event was abandoned at shutdown; not sent" && e.eventId === eventId);
      for (let i = 0; i < 400 && !late(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(late()).toBe(true);
      expect(b.platform.sent.map((s) => s.messages)).toEqual([
        [{ type: "text", text: "Sorry, the bot is restarting and could not answer this. Please send it again in a moment." }],
      ]);
      const line = b.logs.entries().find((e) => e.msg === "event unfinished at the end of the shutdown grace period");
      expect(line).toMatchObject({ eventId, chatId: group, outcome: "abandoned", apologised: true });
    } finally {
      open();
      await b.close();
    }
  });

  it("with METRICS_TOKEN set, /metrics wants it as a bearer token", async () => {
    const b = await startBotHarness({ metricsToken: "metrics-token-0123456789" });
    try {
      expect((await fetch(`${b.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${b.url}/metrics`, { headers: { authorization: "Bearer wrong-token-0123456789" } })).status).toBe(401);
      const ok = await fetch(`${b.url}/metrics`, { headers: { authorization: "Bearer metrics-token-0123456789" } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).not.toContain("metrics-token-0123456789");
    } finally {
      await b.close();
    }
  });
});

describe("what strangers learn: /readyz and /metrics", () => {
  const TOKEN = "metrics-token-0123456789";
  /** The routes alone, with three shops whose LINE channels were looked at, on a port of their own. */
  async function routesOf(how: { metricsToken?: string; metricsWithoutToken?: "open" | "closed" }) {
    const checks: Record<string, LineCheck> = {
      "cafe-a": { state: "ok", displayName: "Cafe A", basicId: "@cafe-a", warnings: [] },
      "noodle-b": { state: "ok", displayName: "Noodle B", basicId: "@noodle-b", warnings: [] },
      "tea-c": { state: "token_rejected", status: 401 },
    };
    const shops = Object.entries(checks).map(([id, check]) => ({ id, lineCheck: () => check }) as unknown as WebhookShop);
    const intake = { hasRoom: () => true, waiting: 0, waitingOf: () => 0, running: 0 } as unknown as Intake;
    const routes = createBotApp({ shops: { atPath: () => undefined, current: () => shops }, intake, log: pino({ level: "silent" }), metrics: createMetrics(), ...how });
    routes.markReady();
    const server = routes.app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it("/readyz gives counts of shops by LINE channel state, and names them only with the metrics token", async () => {
    const routes = await routesOf({ metricsToken: TOKEN });
    try {
      const stranger = await (await fetch(`${routes.url}/readyz`)).json();
      expect(stranger).toEqual({ status: "ready", lines: { ok: 2, token_rejected: 1 } });
      expect(JSON.stringify(stranger)).not.toMatch(/cafe-a|noodle-b|tea-c/);
      const wrong = await (await fetch(`${routes.url}/readyz`, { headers: { authorization: "Bearer not-the-token-000000" } })).json();
      expect(wrong).toEqual(stranger);
      const operator = await (await fetch(`${routes.url}/readyz`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
      expect(operator).toEqual({ status: "ready", lines: { ok: 2, token_rejected: 1 }, linesByShop: { ok: ["cafe-a", "noodle-b"], token_rejected: ["tea-c"] } });
    } finally {
      await routes.close();
    }
  });

  it("/metrics without a token: open in local mode; in a LINE deployment refused to everyone, this machine included", async () => {
    const table: readonly { how: "open" | "closed"; headers: Record<string, string>; status: number }[] = [
      { how: "open", headers: {}, status: 200 },
      { how: "open", headers: { "x-forwarded-for": "203.0.113.9" }, status: 200 },
      { how: "closed", headers: {}, status: 403 },
      { how: "closed", headers: { "x-forwarded-for": "203.0.113.9" }, status: 403 },
      { how: "closed", headers: { authorization: `Bearer ${TOKEN}` }, status: 403 },
    ];
    for (const row of table) {
      const routes = await routesOf({ metricsWithoutToken: row.how });
      try {
        const res = await fetch(`${routes.url}/metrics`, { headers: row.headers });
        expect({ ...row, status: res.status }).toEqual(row);
        if (res.status === 403) {
          expect(await res.json()).toEqual({
            message: "Metrics are not served on this port: set METRICS_TOKEN and scrape with Authorization: Bearer <METRICS_TOKEN>, or METRICS_PORT to serve them on 127.0.0.1",
          });
        } else expect(await res.text()).toMatch(/^slipline_events_in_flight /m);
      } finally {
        await routes.close();
      }
    }
  });

  it("a LINE-mode bot without METRICS_TOKEN refuses /metrics to a loopback request and says at start-up how to enable it; METRICS_PORT serves it on 127.0.0.1", async () => {
    const b = await startBotHarness({ metricsToken: null, metricsPort: 0 });
    try {
      expect(b.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
      const refused = await fetch(`${b.url}/metrics`);
      expect(refused.status).toBe(403);
      expect(await refused.text()).not.toContain("slipline_");
      const port = b.deployment.metricsPort;
      expect(port).toBeGreaterThan(0);
      const served = await fetch(`http://127.0.0.1:${String(port)}/metrics`);
      expect(served.status).toBe(200);
      expect(await served.text()).toMatch(/^slipline_events_in_flight 0$/m);
      // The metrics listener serves nothing else.
      expect((await fetch(`http://127.0.0.1:${String(port)}/readyz`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${String(port)}/webhook`, { method: "POST" })).status).toBe(404);
      expect(b.logs.entries().map((entry) => entry.msg)).toEqual(
        expect.arrayContaining([
          "/metrics served on 127.0.0.1 only (METRICS_PORT), without a token",
          "METRICS_TOKEN is not set: /metrics is not served on the public port, only on METRICS_PORT (127.0.0.1)",
        ]),
      );
    } finally {
      await b.close();
    }
    const none = await startBotHarness({ metricsToken: null });
    try {
      expect((await fetch(`${none.url}/metrics`)).status).toBe(403);
      expect(none.deployment.metricsPort).toBeUndefined();
      expect(none.logs.entries().map((entry) => entry.msg)).toContain(
        "METRICS_TOKEN is not set: /metrics is not served on the public port; set METRICS_TOKEN to scrape it with Authorization: Bearer <METRICS_TOKEN>, or METRICS_PORT to serve it on a port of its own on 127.0.0.1",
      );
    } finally {
      await none.close();
    }
  });

  it("the metrics listener closes with the bot", async () => {
    const b = await startBotHarness({ metricsPort: 0 });
    const port = b.deployment.metricsPort;
    expect((await fetch(`http://127.0.0.1:${String(port)}/metrics`)).status).toBe(200);
    await b.close();
    await expect(fetch(`http://127.0.0.1:${String(port)}/metrics`)).rejects.toThrow();
  });
});

describe("which requests go straight to the webhook's routes", () => {
  it("are a shop's webhook paths, with or without a query, and nothing that only starts like one", () => {
    const table: [string | undefined, boolean][] = [
      ["/webhook", true],
      ["/webhook/cafe", true],
      ["/webhook?x=1", true],
      ["/webhook/cafe/extra", true], // the webhook's routes answer it 404, as before
      ["/webhooks", false],
      ["/webhookcafe", false],
      ["/app/webhook", false],
      ["/", false],
      [undefined, false],
    ];
    expect(table.map(([url]) => [url, isWebhookPath(url)])).toEqual(table);
  });
});

describe("the webhook's own route, outside express", () => {
  /** The routes with one shop at /webhook/cafe whose admission throws (a bug), served by `webhook` alone. */
  async function throwingRoutes() {
    const shop = { id: "cafe", log: pino({ level: "silent" }) } as unknown as WebhookShop;
    const intake = {
      hasRoom: () => {
        throw new Error("a bug in admission");
      },
      waiting: 0,
      waitingOf: () => 0,
      running: 0,
    } as unknown as Intake;
    const routes = createBotApp({ shops: { atPath: (path) => (path === "/webhook/cafe" ? shop : undefined), current: () => [shop] }, intake, log: pino({ level: "silent" }) });
    routes.markReady();
    const server = createServer(routes.webhook).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const port = (server.address() as AddressInfo).port;
    return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  /** One raw HTTP/1.1 request (so the target can be written in absolute form); the status line's code. */
  function rawPost(port: number, target: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(`POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-line-signature: x\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`);
      });
      let head = "";
      socket.setEncoding("utf8").on("data", (chunk: string) => (head += chunk));
      socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1])));
      socket.on("error", reject);
    });
  }

  it("answers a bug with 500 and goes on serving, and reads an absolute-form target's path as express did", async () => {
    const routes = await throwingRoutes();
    try {
      expect(await rawPost(routes.port, "/webhook/cafe")).toBe(500);
      expect(await rawPost(routes.port, `http://127.0.0.1:${routes.port}/webhook/cafe`)).toBe(500);
      expect(await rawPost(routes.port, "/webhook/cafe?from=line#x")).toBe(500);
      expect(await rawPost(routes.port, "/webhook/other")).toBe(404);
    } finally {
      await routes.close();
    }
  });
});
