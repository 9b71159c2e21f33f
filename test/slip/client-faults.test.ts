// The slip client against scripted local servers: retries, timeouts, resets, bad bodies, error mapping, sharing and caching.
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { createSlipClient } from "../../src/slip/client.js";
import type { SlipClientOptions } from "../../src/slip/client.js";
import { InvalidRequestError, PackageExpiredError, ResponseShapeError, ServiceError, ServiceUnavailableError, UnauthorizedError } from "../../src/slip/errors.js";
import type { SlipClient } from "../../src/slip/types.js";
import { sendData, sendJson, startFaultServer } from "../kit/fault-server.js";
import type { FaultScript, FaultServer } from "../kit/fault-server.js";
import { ACCOUNT, failure, historyData, QR_0812345678, QR_0812345678_150, SECRET, VALID_ITEM } from "./fixtures.js";

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Harness {
  server: FaultServer;
  client: SlipClient;
  /** Every wait the client asked for between attempts, in ms. */
  sleeps: number[];
}

async function setup(script: FaultScript, options: Partial<SlipClientOptions> = {}): Promise<Harness> {
  const server = await startFaultServer(script);
  const sleeps: number[] = [];
  const client = createSlipClient({
    baseUrl: server.url,
    apiSecret: SECRET,
    timeoutMs: 3000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  // The client closes first: a pool waiting on a hung request would otherwise hold the server open.
  cleanups.push(() => server.close());
  cleanups.push(() => client.close());
  return { server, client, sleeps };
}

const accountOk: FaultScript = (_request, res) => sendData(res, ACCOUNT);

describe("requests it sends", () => {
  it("puts the secret only in the Authorization header", async () => {
    const { server, client } = await setup((request, res) =>
      request.url.startsWith("/api/slip-history") ? sendData(res, historyData([])) : sendData(res, { qrCode: QR_0812345678_150, targetType: "phone", amount: 150 }),
    );
    await client.slipHistory({ transRef: "ABC", limit: 5 });
    await client.promptPayQr({ accountNumber: "0812345678", amount: 150 });
    for (const request of server.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(request.url).not.toContain(SECRET);
      expect(request.body).not.toContain(SECRET);
      const otherHeaders = Object.entries(request.headers).filter(([name]) => name !== "authorization");
      expect(JSON.stringify(otherHeaders)).not.toContain(SECRET);
    }
  });

  it("keeps the path prefix of a base URL", async () => {
    const server = await startFaultServer(accountOk);
    cleanups.push(() => server.close());
    const client = createSlipClient({ baseUrl: `${server.url}/slip/v1/`, apiSecret: SECRET, accountCacheSeconds: 0 });
    cleanups.push(() => client.close());
    await client.accountInfo();
    expect(server.requests[0]?.url).toBe("/slip/v1/api/account/info");
  });

  it("sends only the given history filters, Dates as ISO 8601 and strings as given", async () => {
    const { server, client } = await setup((_request, res) => sendData(res, historyData([])));
    await client.slipHistory();
    await client.slipHistory({
      page: 2,
      limit: 100,
      status: "fraud",
      transRef: "015 A&B",
      from: new Date("2026-11-19T17:00:00.000Z"),
      to: "2026-11-20",
    });
    expect(server.requests[0]?.url).toBe("/api/slip-history");
    const sent = new URL(server.requests[1]?.url ?? "", server.url).searchParams;
    expect([...sent.entries()]).toEqual([
      ["page", "2"],
      ["limit", "100"],
      ["status", "fraud"],
      ["transRef", "015 A&B"],
      ["from", "2026-11-19T17:00:00.000Z"],
      ["to", "2026-11-20"],
    ]);
  });

  it("posts the QR payload as JSON with only the given fields", async () => {
    const { server, client } = await setup((_request, res) =>
      sendData(res, { qrCode: QR_0812345678, url: `${server.url}/api/qr-image?data=${QR_0812345678}&size=1024`, amount: null }),
    );
    await client.promptPayQrUrl({ accountNumber: "0812345678", size: 1024 });
    const request = server.requests[0];
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/api/promptpay-qr-url");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual({ payload: { accountNumber: "0812345678", size: 1024 } });
  });

  it("refuses an invalid Date without calling the service", async () => {
    const { server, client } = await setup(accountOk);
    const error = await failure(client.slipHistory({ from: new Date("not a date") }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.message).toContain("from");
    expect(server.count).toBe(0);
  });
});

describe("retries and timeouts", () => {
  it("gives up when headers come slower than the headers timeout, after exactly 3 attempts", async () => {
    // A long deadline, so the headers timeout is what ends each attempt.
    const { server, client } = await setup(() => undefined, { headersTimeoutMs: 100, timeoutMs: 20_000 });
    const error = await failure(client.accountInfo());
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.kind === "service_unavailable" && error.attempts).toBe(3);
    expect(error.kind === "service_unavailable" && error.status).toBeUndefined();
    expect(error.message).toContain("no response headers within 100 ms");
    expect((error.cause as { code?: string }).code).toBe("UND_ERR_HEADERS_TIMEOUT");
    expect(server.count).toBe(3);
  });

  it("gives up when a trickling body outlasts the per-attempt deadline", async () => {
    const { server, client } = await setup(
      (_request, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"code":"200001","message":"Get Info Success","data":{');
        // A byte now and then keeps the body timeout from firing; only the overall deadline can end it.
        const drip = setInterval(() => res.write(" "), 20);
        res.on("close", () => clearInterval(drip));
      },
      { timeoutMs: 250, retries: 1 },
    );
    const error = await failure(client.accountInfo());
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.message).toContain("no complete answer within 250 ms");
    expect(server.count).toBe(2);
  });

  it("retries a 500 and returns the data of the 200 that follows", async () => {
    const { server, client, sleeps } = await setup((request, res) =>
      request.index === 1 ? sendJson(res, 500, { code: "500001", message: "Internal Server Error" }) : sendData(res, ACCOUNT),
    );
    await expect(client.accountInfo()).resolves.toEqual(ACCOUNT);
    expect(server.count).toBe(2);
    expect(sleeps).toHaveLength(1);
  });

  it("fails with ServiceUnavailableError after the bounded attempts when the service keeps answering 500", async () => {
    const { server, client, sleeps } = await setup((_request, res) => sendJson(res, 500, { code: "500001", message: "Internal Server Error" }));
    const error = await failure(client.slipHistory({ limit: 10 }));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.kind === "service_unavailable" && [error.attempts, error.status]).toEqual([3, 500]);
    expect(error.message).toBe("GET /api/slip-history: failed after 3 attempts (HTTP 500)");
    expect(server.count).toBe(3);
    // Full jitter with random() = 0.5: half of 200 ms, then half of 400 ms.
    expect(sleeps).toEqual([100, 200]);
  });

  it("makes one attempt only when retries is 0", async () => {
    const { server, client } = await setup((_request, res) => sendJson(res, 503, { code: "503001", message: "Unavailable" }), { retries: 0 });
    const error = await failure(client.accountInfo());
    expect(error.kind === "service_unavailable" && error.attempts).toBe(1);
    expect(server.count).toBe(1);
  });

  it("waits as long as Retry-After says on a 429, in seconds or as an HTTP date, up to the cap", async () => {
    const now = Date.UTC(2026, 10, 20, 7, 0, 0);
    const retryAfter = ["1", new Date(now + 1000).toUTCString(), "30"];
    const { server, client, sleeps } = await setup(
      (request, res) => {
        const value = retryAfter[request.index - 1];
        if (value === undefined) sendData(res, ACCOUNT);
        else sendJson(res, 429, { code: "429001", message: "Too Many Requests" }, { "retry-after": value });
      },
      { retries: 3, now: () => now },
    );
    await expect(client.accountInfo()).resolves.toEqual(ACCOUNT);
    expect(sleeps).toEqual([1000, 1000, 2000]);
    expect(server.count).toBe(4);
  });

  it("retries a connection reset in the middle of the body", async () => {
    const { server, client } = await setup((request, res) => {
      if (request.index > 1) return sendData(res, ACCOUNT);
      res.writeHead(200, { "content-type": "application/json", "content-length": "500" });
      res.write('{"code":"200001","message":"Get Info Su');
      setImmediate(() => res.socket?.destroy());
    });
    await expect(client.accountInfo()).resolves.toEqual(ACCOUNT);
    expect(server.count).toBe(2);
  });

  it("reports the network cause when every attempt is reset mid-body", async () => {
    const { server, client } = await setup((_request, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "500" });
      res.write('{"code":"200001"');
      setImmediate(() => res.socket?.destroy());
    });
    const error = await failure(client.accountInfo());
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.kind === "service_unavailable" && error.status).toBeUndefined();
    expect(error.cause).toBeInstanceOf(Error);
    expect(server.count).toBe(3);
  });

  it("treats a refused connection as a network error and retries it", async () => {
    const { server } = await setup(accountOk);
    const deadUrl = server.url;
    await server.close();
    const client = createSlipClient({ baseUrl: deadUrl, apiSecret: SECRET, backoffBaseMs: 0 });
    cleanups.push(() => client.close());
    const error = await failure(client.accountInfo());
    expect(error.kind === "service_unavailable" && error.attempts).toBe(3);
    expect(error.message).toContain("ECONNREFUSED");
  });
});

describe("answers that are not data", () => {
  it("maps HTML instead of JSON to ResponseShapeError without retrying", async () => {
    const { server, client } = await setup((_request, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>Welcome to nginx!</body></html>");
    });
    const error = await failure(client.accountInfo());
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.message).toBe("GET /api/account/info: unexpected response (HTTP 200: body is not JSON)");
    expect(server.count).toBe(1);
  });

  it("retries an HTML 502 from a proxy like any 5xx", async () => {
    const { server, client } = await setup((_request, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html>Bad Gateway</html>");
    });
    const error = await failure(client.accountInfo());
    expect(error.kind === "service_unavailable" && error.status).toBe(502);
    expect(server.count).toBe(3);
  });

  it("maps HTTP 200 with code 500001 to ServiceError with the code and message, without retrying", async () => {
    const { server, client } = await setup((_request, res) => sendJson(res, 200, { code: "500001", message: "Database busy" }));
    const error = await failure(client.promptPayQr({ accountNumber: "0812345678" }));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.kind === "service_error" && [error.code, error.serviceMessage, error.status]).toEqual(["500001", "Database busy", 200]);
    expect(error.operation).toBe("POST /api/promptpay-qr");
    expect(server.count).toBe(1);
  });

  it("names the field that breaks the service's documented shape", async () => {
    const cases: [unknown, string][] = [
      [{ code: 200001, message: "Get Info Success", data: ACCOUNT }, "code: expected a string, got a number"],
      [{ code: "200001", message: "Get Info Success", data: { ...ACCOUNT, tokens: "12" } }, "data.tokens: expected a number, got a string"],
      [{ code: "200001", message: "Get Info Success", data: { ...ACCOUNT, rate: { chat: 1 } } }, "data.rate.api: expected a number, got nothing"],
      [{ code: "200001", message: "Get Info Success" }, "data: expected an object, got nothing"],
      [[ACCOUNT], "body: expected an object, got an array"],
    ];
    const { client } = await setup((request, res) => sendJson(res, 200, cases[request.index - 1]?.[0]));
    for (const [, problem] of cases) {
      const error = await failure(client.accountInfo());
      expect(error.kind === "response_shape" && error.problem).toBe(problem);
    }
  });

  it("rejects a history page whose pagination or items break the documented shape", async () => {
    const bodies = [
      { items: "none", pagination: { page: 1, limit: 20, total: 0, pages: 0 } },
      { items: [], pagination: { page: 1, limit: 20, total: "0", pages: 0 } },
      { items: [], pagination: { page: 1.5, limit: 20, total: 0, pages: 0 } },
      { items: [{ ...VALID_ITEM, amount: "150.00" }], pagination: { page: 1, limit: 20, total: 1, pages: 1 } },
      { items: [null], pagination: { page: 1, limit: 20, total: 1, pages: 1 } },
    ];
    const { client } = await setup((request, res) => sendData(res, bodies[request.index - 1]));
    const problems: string[] = [];
    for (let i = 0; i < bodies.length; i += 1) {
      const error = await failure(client.slipHistory({ page: i + 1 }));
      if (error.kind === "response_shape") problems.push(error.problem);
    }
    expect(problems).toEqual([
      "data.items: expected an array, got a string",
      "data.pagination.total: expected an integer >= 0, got a string",
      "data.pagination.page: expected an integer >= 0, got a number",
      "data.items[0].amount: expected a number, got a string",
      "data.items[0]: expected an object, got null",
    ]);
  });

  it("rejects a body larger than maxBodyBytes", async () => {
    const { client } = await setup((_request, res) => sendData(res, { ...ACCOUNT, storeName: "x".repeat(5000) }), { maxBodyBytes: 2048 });
    const error = await failure(client.accountInfo());
    expect(error.kind === "response_shape" && error.problem).toBe("body larger than 2048 bytes");
  });

  it("ignores unknown extra fields everywhere", async () => {
    const { client } = await setup((_request, res) =>
      sendJson(res, 200, {
        code: "200001",
        message: "Get Info Success",
        requestId: "r-1",
        data: {
          items: [{ ...VALID_ITEM, bankCode: "004", nested: { x: 1 } }],
          pagination: { page: 1, limit: 20, total: 1, pages: 1, hasNext: false },
          generatedAt: "2026-11-20T07:00:00.000Z",
        },
      }),
    );
    const page = await client.slipHistory();
    expect(page).toEqual({ items: [VALID_ITEM], pagination: { page: 1, limit: 20, total: 1, pages: 1 } });
    expect(Object.keys(page.items[0] ?? {})).toEqual(Object.keys(VALID_ITEM));
  });

  it("passes unknown status and source values through and turns absent or null fields into null", async () => {
    const { client } = await setup((_request, res) =>
      sendData(
        res,
        historyData([
          { ...VALID_ITEM, status: "refunded", source: "kiosk" },
          { code: 404404, status: "not_found", transRef: "X1", amount: null, senderName: null, createdAt: "2026-11-20T07:05:01.123Z" },
        ]),
      ),
    );
    const page = await client.slipHistory();
    expect(page.items[0]).toEqual({ ...VALID_ITEM, status: "refunded", source: "kiosk" });
    expect(page.items[1]).toEqual({
      code: 404404,
      status: "not_found",
      amount: null,
      transRef: "X1",
      transDate: null,
      senderName: null,
      receiverName: null,
      receiverAccount: null,
      source: null,
      tokensCharged: null,
      createdAt: "2026-11-20T07:05:01.123Z",
    });
  });
});

describe("client errors of the service", () => {
  it("does not retry a 400 and keeps the service's message", async () => {
    const message = "accountNumber must be a 10-digit phone, 13-digit ID, or 15-digit e-wallet id";
    const { server, client } = await setup((_request, res) => sendJson(res, 400, { code: "400001", message }));
    const error = await failure(client.promptPayQr({ accountNumber: "12" }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.kind === "invalid_request" && error.serviceMessage).toBe(message);
    expect(server.count).toBe(1);
  });

  it("maps 401 and 403 to UnauthorizedError, 402 to PackageExpiredError and 404 to ServiceError, once each", async () => {
    const answers: [number, string, string][] = [
      [401, "401001", "Unauthorized"],
      [403, "403001", "Forbidden"],
      [402, "402001", "Package expired"],
      [404, "404001", "Not Found"],
    ];
    const { server, client } = await setup((request, res) => {
      const [status, code, message] = answers[request.index - 1] ?? [500, "500001", "unexpected"];
      sendJson(res, status, { code, message });
    });
    const errors = [];
    for (let i = 0; i < answers.length; i += 1) errors.push(await failure(client.slipHistory({ page: i + 1 })));
    expect(errors[0]).toBeInstanceOf(UnauthorizedError);
    expect(errors[1]).toBeInstanceOf(UnauthorizedError);
    expect(errors[1]?.kind === "unauthorized" && errors[1].status).toBe(403);
    expect(errors[2]).toBeInstanceOf(PackageExpiredError);
    expect(errors[2]?.kind === "package_expired" && errors[2].serviceMessage).toBe("Package expired");
    expect(errors[3]?.kind === "service_error" && [errors[3].status, errors[3].code]).toEqual([404, "404001"]);
    expect(server.count).toBe(4);
  });

  it("never lets the secret into any error, even when the service echoes it", async () => {
    const echo = `bad secret ${SECRET}`;
    const scripts: FaultScript[] = [
      (_request, res) => sendJson(res, 400, { code: "400001", message: echo }),
      (_request, res) => sendJson(res, 401, { code: "401001", message: echo }),
      (_request, res) => sendJson(res, 402, { code: "402001", message: echo }),
      (_request, res) => sendJson(res, 200, { code: `500${SECRET}`, message: echo }),
      (_request, res) => sendJson(res, 503, { code: "503001", message: echo }),
      (_request, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(echo);
      },
      (_request, res) => {
        res.writeHead(200, { "content-length": "100" });
        res.write(echo);
        setImmediate(() => res.socket?.destroy());
      },
      () => undefined,
    ];
    const { server, client } = await setup(scripts[0] ?? accountOk, { headersTimeoutMs: 100, accountCacheSeconds: 0 });
    const kinds = new Set<string>();
    for (const script of scripts) {
      server.script(script);
      const error = await failure(client.accountInfo());
      kinds.add(error.kind);
      for (const text of [error.message, error.stack ?? "", JSON.stringify(error), inspect(error, { depth: Infinity, showHidden: true })]) {
        expect(text).not.toContain(SECRET);
      }
    }
    expect(kinds).toEqual(new Set(["invalid_request", "unauthorized", "package_expired", "service_error", "service_unavailable", "response_shape"]));
  });
});

describe("sharing and caching", () => {
  it("answers 50 concurrent account info calls with one request, and the next call from the cache", async () => {
    let clock = Date.UTC(2026, 10, 20, 7, 0, 0);
    const { server, client } = await setup(
      (_request, res) => {
        setTimeout(() => sendData(res, ACCOUNT), 20);
      },
      { now: () => clock },
    );
    const results = await Promise.all(Array.from({ length: 50 }, () => client.accountInfo()));
    expect(server.count).toBe(1);
    for (const result of results) expect(result).toEqual(ACCOUNT);
    clock += 29_000;
    await expect(client.accountInfo()).resolves.toEqual(ACCOUNT);
    expect(server.count).toBe(1);
    clock += 1_000;
    await client.accountInfo();
    expect(server.count).toBe(2);
  });

  it("does not cache failures", async () => {
    const { server, client } = await setup((request, res) => (request.index === 1 ? sendJson(res, 402, { code: "402001", message: "Package expired" }) : sendData(res, ACCOUNT)));
    await expect(client.accountInfo()).rejects.toBeInstanceOf(PackageExpiredError);
    await expect(client.accountInfo()).resolves.toEqual(ACCOUNT);
    expect(server.count).toBe(2);
  });

  it("shares identical concurrent history calls, hands each caller a value no other caller can change, and keeps different queries apart", async () => {
    const { server, client } = await setup((_request, res) => {
      setTimeout(() => sendData(res, historyData([VALID_ITEM])), 20);
    });
    const [first, second, other] = await Promise.all([
      client.slipHistory({ status: "valid", page: 1 }),
      client.slipHistory({ status: "valid", page: 1 }),
      client.slipHistory({ status: "valid", page: 2 }),
    ]);
    expect(server.count).toBe(2);
    // Frozen: a handler that tried to change the shared page would throw here, not corrupt another's.
    expect(() => first.items.pop()).toThrow(TypeError);
    expect(second.items).toEqual([VALID_ITEM]);
    expect(other.items).toEqual([VALID_ITEM]);
  });
});

describe("options", () => {
  it("rejects a bad base URL or secret with an error naming the option, not its value", () => {
    expect(() => createSlipClient({ baseUrl: "ftp://127.0.0.1", apiSecret: SECRET })).toThrow("`baseUrl`");
    expect(() => createSlipClient({ baseUrl: "http://user:pw@127.0.0.1", apiSecret: SECRET })).toThrow("credentials");
    const bad = "secret with\nnewline";
    expect(() => createSlipClient({ baseUrl: "http://127.0.0.1", apiSecret: bad })).toThrow("`apiSecret`");
    expect(() => createSlipClient({ baseUrl: "http://127.0.0.1", apiSecret: "" })).toThrow("`apiSecret`");
    expect(() => createSlipClient({ baseUrl: "http://127.0.0.1", apiSecret: SECRET, retries: 9 })).toThrow("`retries`");
  });
});
