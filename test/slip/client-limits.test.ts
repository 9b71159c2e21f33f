// The slip client under load and outage: never more calls than connections, deadlines that start with the
// call itself, a bounded wait for a connection, and a circuit that stops calling a service that is down.
import { afterEach, describe, expect, it } from "vitest";
import { createSlipClient } from "../../src/slip/client.js";
import type { SlipClientOptions } from "../../src/slip/client.js";
import { ServiceUnavailableError } from "../../src/slip/errors.js";
import type { SlipClient } from "../../src/slip/types.js";
import { sendData, sendJson, startFaultServer } from "../kit/fault-server.js";
import type { FaultScript, FaultServer } from "../kit/fault-server.js";
import { ACCOUNT, failure, historyData, SECRET } from "./fixtures.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(script: FaultScript, options: Partial<SlipClientOptions> = {}): Promise<{ server: FaultServer; client: SlipClient }> {
  const server = await startFaultServer(script);
  const client = createSlipClient({ baseUrl: server.url, apiSecret: SECRET, accountCacheSeconds: 0, backoffBaseMs: 0, ...options });
  cleanups.push(() => server.close());
  cleanups.push(() => client.close());
  return { server, client };
}

/** A service that answers every request after `ms`, counting how many it holds at once. */
function slowService(ms: number): { script: FaultScript; mostAtOnce: () => number } {
  let atOnce = 0;
  let most = 0;
  return {
    script: async (_request, res) => {
      atOnce += 1;
      most = Math.max(most, atOnce);
      await new Promise((resolve) => setTimeout(resolve, ms));
      atOnce -= 1;
      sendData(res, historyData([]));
    },
    mostAtOnce: () => most,
  };
}

describe("connections", () => {
  it("never has more calls in flight than connections, and each call's deadline starts when it has one", async () => {
    // 9 calls, 3 connections, 250 ms each: the last calls wait about 500 ms for a connection. A deadline
    // of 400 ms that started before the wait would fail them; it starts after, so all succeed.
    const service = slowService(250);
    const { client } = await setup(service.script, { maxConnections: 3, timeoutMs: 400, retries: 0 });
    // Different pages, so no two calls share one request.
    const results = await Promise.allSettled(Array.from({ length: 9 }, (_, i) => client.slipHistory({ page: i + 1 })));
    expect(results.map((r) => r.status)).toEqual(Array(9).fill("fulfilled"));
    expect(service.mostAtOnce()).toBe(3);
  });

  it("bounds the wait for a connection on its own, and does not queue the call again", async () => {
    const { server, client } = await setup(
      () => {
        // Hold every request: the service is stuck.
      },
      { maxConnections: 1, maxWaitMs: 100, timeoutMs: 200, retries: 2 },
    );
    const first = client.accountInfo().catch((error: unknown) => error);
    const waiting = await failure(client.slipHistory({ limit: 1 }));
    expect(waiting).toBeInstanceOf(ServiceUnavailableError);
    expect(waiting.message).toMatch(/busy: no free connection within 100 ms/);
    expect(server.count).toBe(1); // only the first call reached the service
    await first;
  });
});

describe("the circuit breaker", () => {
  it("opens after failures in a row: calls fail at once without reaching the service, then one trial call closes it", async () => {
    let down = true;
    const circuit: string[] = [];
    const outcomes: string[] = [];
    const { server, client } = await setup((_request, res) => (down ? sendJson(res, 503, { code: "503001", message: "Down" }) : sendData(res, ACCOUNT)), {
      retries: 1,
      breakAfterFailures: 3,
      breakForMs: 300,
      observer: { call: (_operation, outcome) => outcomes.push(outcome), circuit: (state) => circuit.push(state) },
    });
    for (let i = 0; i < 3; i++) expect(await failure(client.accountInfo())).toBeInstanceOf(ServiceUnavailableError);
    expect(server.count).toBe(6); // 3 operations of 2 attempts
    expect(circuit).toEqual(["open"]);

    const fast = await failure(client.accountInfo());
    expect(fast).toBeInstanceOf(ServiceUnavailableError);
    expect(fast.message).toMatch(/circuit open after 3 failures in a row/);
    expect(server.count).toBe(6); // the open circuit did not call the service
    expect(outcomes).toEqual(["service_unavailable", "service_unavailable", "service_unavailable", "circuit_open"]);

    down = false;
    await new Promise((resolve) => setTimeout(resolve, 350));
    await expect(client.accountInfo()).resolves.toMatchObject({ storeName: ACCOUNT.storeName });
    expect(circuit).toEqual(["open", "half_open", "closed"]);
  });

  it("is not opened by answers: an expired package or a refused request is no outage", async () => {
    const circuit: string[] = [];
    const { server, client } = await setup((_request, res) => sendJson(res, 402, { code: "402001", message: "Package expired" }), {
      breakAfterFailures: 2,
      observer: { call: () => undefined, circuit: (state) => circuit.push(state) },
    });
    for (let i = 0; i < 5; i++) await failure(client.accountInfo());
    expect(server.count).toBe(5);
    expect(circuit).toEqual([]);
  });
});
