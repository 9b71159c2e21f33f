// The bot's LINE transport (an undici pool, src/line/api.ts) against the SDK's own client, on a scripted LINE
// on loopback: for every answer LINE can give, the sender sees the same thing through both, LINE receives
// the same requests, and the outcome is the same. (The sender's own tests put nock in front of the SDK's
// client; this file is what makes those tests speak for the pool too.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messagingApi } from "@line/bot-sdk";
import { createSharedConnections } from "../../src/compose/connections.js";
import { createLineHttpApi } from "../../src/line/api.js";
import type { LineApi, LineHttpApi } from "../../src/line/api.js";
import { installHttpTimeouts } from "../../src/line/http-timeouts.js";
import type { HttpTimeouts } from "../../src/line/http-timeouts.js";
import { createOutbox } from "../../src/line/outbox.js";
import { publicAnswer } from "../../src/privacy/answer.js";
import type { Delivery } from "../../src/line/outbox.js";
import { createLogger } from "../../src/log.js";
import { sendJson, startFaultServer } from "../kit/fault-server.js";
import { freePort } from "../kit/free-port.js";
import type { FaultScript, FaultServer, RecordedRequest } from "../kit/fault-server.js";
import { captureLogs } from "../kit/log-capture.js";
import { sdkLineApi } from "../kit/sdk-line-api.js";

const TOKEN = "api-test-access-token";
const USER = `U${"4".repeat(32)}`;
const HELLO: messagingApi.Message[] = [{ type: "text", text: "สวัสดี hello" }];
// Short, so the hanging LINE is given up on quickly; this file runs in its own worker (the global ones too).
const TIMEOUTS: HttpTimeouts = { connectTimeoutMs: 500, headersTimeoutMs: 300, bodyTimeoutMs: 300 };

let line: FaultServer;
let closedPort: number;
const pools: LineHttpApi[] = [];
beforeAll(async () => {
  installHttpTimeouts(TIMEOUTS);
  line = await startFaultServer((_request, res) => sendJson(res, 500, {}));
  closedPort = await freePort();
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  await line.close();
});

const transports: { name: string; make: (baseUrl: string) => LineApi }[] = [
  {
    name: "the bot's pool",
    make: (baseUrl) => {
      const pool = createLineHttpApi({ baseUrl, channelAccessToken: TOKEN, timeouts: TIMEOUTS });
      pools.push(pool);
      return pool;
    },
  },
  {
    // A shop of a deployment: the shared pool's own timeouts are the defaults, so these come from each call.
    name: "the deployment's shared pool",
    make: (baseUrl) => {
      const connections = createSharedConnections({ lineConnections: 4, slipConnectTimeoutMs: 500 });
      const pool = createLineHttpApi({ baseUrl, channelAccessToken: TOKEN, timeouts: TIMEOUTS, shared: connections.line(baseUrl) });
      pools.push({ ...pool, close: () => connections.close() });
      return pool;
    },
  },
  { name: "the SDK's client", make: (baseUrl) => sdkLineApi(new messagingApi.MessagingApiClient({ channelAccessToken: TOKEN, baseURL: baseUrl })) },
];

/** What LINE received, without what differs between clients by design (user agent, connection headers). */
interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  retryKey: string | undefined;
  body: unknown;
}

const seen = (request: RecordedRequest): Seen => ({
  method: request.method,
  url: request.url,
  authorization: request.headers.authorization,
  contentType: request.headers["content-type"],
  retryKey: request.headers["x-line-retry-key"] as string | undefined,
  body: JSON.parse(request.body) as unknown,
});

interface Run {
  deliveries: readonly Delivery[];
  requests: Seen[];
  delays: number[];
  logs: string;
}

/** One event's answer sent through `api` to LINE scripted with `script`. */
async function run(api: LineApi, script: FaultScript, replyToken: string | undefined): Promise<Run> {
  line.script(script);
  const from = line.count;
  const logs = captureLogs();
  const delays: number[] = [];
  const sender = createOutbox({
    staff: () => ({ staffUserIds: new Set(), staffGroupIds: new Set() }),
    api,
    log: createLogger({ level: "debug", destination: logs, secrets: [TOKEN] }),
    attempts: 2,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    newRetryKey: () => "00000000-0000-4000-8000-000000000001",
  });
  const outlet = sender.forEvent({ replyToken, chat: { type: "user", id: USER } });
  await outlet.send(publicAnswer("help", HELLO));
  return { deliveries: outlet.deliveries, requests: line.requests.slice(from).map(seen), delays, logs: logs.text() };
}

/** LINE answers each path's calls with its answers in turn (the last one repeats). */
function answers(byPath: Record<string, [number, string, Record<string, string>?][]>): FaultScript {
  const served = new Map<string, number>();
  return (request, res) => {
    const list = byPath[request.url] ?? [[404, '{"message":"Not found"}']];
    const n = served.get(request.url) ?? 0;
    served.set(request.url, n + 1);
    const [status, body, headers] = list[Math.min(n, list.length - 1)] ?? [500, "{}"];
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(body);
  };
}

const REPLY = "/v2/bot/message/reply";
const PUSH = "/v2/bot/message/push";

describe("the bot's LINE transport answers the sender as the SDK's client does", () => {
  const cases: { name: string; script: () => FaultScript; replyToken?: string; expected: { deliveries: Delivery[]; urls: string[]; delays?: number[]; logs?: string } }[] = [
    {
      name: "a reply LINE accepts",
      script: () => answers({ [REPLY]: [[200, '{"sentMessages":[{"id":"1"}]}', { "x-line-request-id": "rid-ok" }]] }),
      replyToken: "tok-ok",
      expected: { deliveries: [{ via: "reply" }], urls: [REPLY] },
    },
    {
      name: "a 2xx whose body is not JSON (the messages went out)",
      script: () => answers({ [REPLY]: [[200, "OK"]] }),
      replyToken: "tok-text",
      expected: { deliveries: [{ via: "reply" }], urls: [REPLY] },
    },
    {
      name: "an expired reply token, then a push with its retry key",
      script: () => answers({ [REPLY]: [[400, '{"message":"Invalid reply token"}']], [PUSH]: [[200, "{}", { "x-line-request-id": "rid-push" }]] }),
      replyToken: "tok-expired",
      expected: {
        deliveries: [{ via: "push", retryKey: "00000000-0000-4000-8000-000000000001", attempts: 1, reason: "invalid_reply_token" }],
        urls: [REPLY, PUSH],
        logs: "rid-push",
      },
    },
    {
      name: "429 with Retry-After: the same reply again after LINE's wait, never a push",
      script: () =>
        answers({
          [REPLY]: [
            [429, '{"message":"The API rate limit has been exceeded. Try again later."}', { "retry-after": "2" }],
            [200, "{}"],
          ],
        }),
      replyToken: "tok-429",
      expected: { deliveries: [{ via: "reply" }], urls: [REPLY, REPLY], delays: [2_000] },
    },
    {
      name: "5xx on every reply, then a push answered 409 (already sent under this key)",
      script: () => answers({ [REPLY]: [[500, '{"message":"Internal error"}', { "x-line-request-id": "rid-500" }]], [PUSH]: [[409, '{"message":"duplicate"}']] }),
      replyToken: "tok-500",
      expected: {
        deliveries: [{ via: "push", retryKey: "00000000-0000-4000-8000-000000000001", attempts: 1, reason: "reply_failed" }],
        urls: [REPLY, REPLY, PUSH],
        logs: "rid-500",
      },
    },
    {
      name: "the monthly limit on a push",
      script: () => answers({ [PUSH]: [[429, '{"message":"You have reached your monthly limit."}']] }),
      expected: { deliveries: [{ via: "none", reason: "monthly_limit" }], urls: [PUSH] },
    },
    {
      name: "a LINE that never answers a reply: retried, then nothing more (it may have arrived)",
      script: () => () => undefined,
      replyToken: "tok-hang",
      expected: { deliveries: [{ via: "none", reason: "line_unknown" }], urls: [REPLY, REPLY], logs: "UND_ERR_HEADERS_TIMEOUT" },
    },
  ];

  for (const testCase of cases) {
    it(testCase.name, async () => {
      const runs: Run[] = [];
      for (const transport of transports) runs.push(await run(transport.make(line.url), testCase.script(), testCase.replyToken));
      const [pool, sdk] = runs;
      expect(pool?.deliveries).toEqual(testCase.expected.deliveries);
      expect(pool?.requests.map((request) => request.url)).toEqual(testCase.expected.urls);
      if (testCase.expected.delays) expect(pool?.delays).toEqual(testCase.expected.delays);
      if (testCase.expected.logs) expect(pool?.logs).toContain(testCase.expected.logs);
      // The same outcome, the same requests (bearer token, JSON body, retry key) and the same waits.
      expect(sdk?.deliveries).toEqual(pool?.deliveries);
      expect(sdk?.requests).toEqual(pool?.requests);
      expect(sdk?.delays).toEqual(pool?.delays);
      expect(pool?.requests[0]).toMatchObject({ method: "POST", authorization: `Bearer ${TOKEN}`, contentType: "application/json" });
      expect(pool?.logs).not.toContain(TOKEN);
    });
  }

  it("a refused connection is reported alike (ECONNREFUSED: surely not sent), so a push follows the reply", async () => {
    const failures: unknown[] = [];
    for (const transport of transports) {
      const api = transport.make(`http://127.0.0.1:${closedPort}`);
      failures.push(await api.reply({ replyToken: "t", messages: HELLO }).catch((err: unknown) => err));
    }
    const codeOf = (err: unknown) => {
      const withCause = err as { code?: string; cause?: { code?: string } };
      return withCause.cause?.code ?? withCause.code;
    };
    expect(failures.map(codeOf)).toEqual(["ECONNREFUSED", "ECONNREFUSED", "ECONNREFUSED"]);
  });

  it("the loading animation is asked for with the chat and its seconds", async () => {
    const bodies: unknown[] = [];
    for (const transport of transports) {
      line.script(answers({ "/v2/bot/chat/loading/start": [[202, "{}"]] }));
      const from = line.count;
      await transport.make(line.url).showLoading({ chatId: USER, loadingSeconds: 10 });
      bodies.push(line.requests.slice(from).map(seen));
    }
    expect(bodies[0]).toEqual([
      {
        method: "POST",
        url: "/v2/bot/chat/loading/start",
        authorization: `Bearer ${TOKEN}`,
        contentType: "application/json",
        retryKey: undefined,
        body: { chatId: USER, loadingSeconds: 10 },
      },
    ]);
    expect(bodies[1]).toEqual(bodies[0]);
  });
});
