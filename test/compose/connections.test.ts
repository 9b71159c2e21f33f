// The connections a deployment's shops share (compose/connections.ts): several shops' calls to one LINE go
// over a few kept-alive sockets, each call with its own shop's token; several shops' slip clients on one
// service each send their own secret and read their own account; a shop closed at a reload leaves the
// others' connections open.
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSharedConnections } from "../../src/compose/connections.js";
import type { SharedConnections } from "../../src/compose/connections.js";
import { createLineHttpApi } from "../../src/line/api.js";
import { DEMO_SECRETS, DEMO_STORE_NAMES } from "@slipline/slip-sandbox";
import { startSandbox } from "@slipline/slip-sandbox";
import { createSlipClient } from "../../src/slip/client.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A LINE on loopback that answers every call 200 and notes each call's socket (its client port) and token. */
async function recordingLine(): Promise<{ url: string; calls: { socket: number; authorization: string | undefined }[] }> {
  const calls: { socket: number; authorization: string | undefined }[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      calls.push({ socket: req.socket.remotePort ?? 0, authorization: req.headers.authorization });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

function sharedConnections(): SharedConnections {
  const connections = createSharedConnections({ lineConnections: 8, slipConnectTimeoutMs: 2_000 });
  cleanups.push(() => connections.close());
  return connections;
}

const USER = `U${"5".repeat(32)}`;

describe("the connections a deployment's shops share", () => {
  it("carries twenty shops' LINE calls, one after another, over the same kept-alive sockets, each with its own shop's token", async () => {
    const line = await recordingLine();
    const connections = sharedConnections();
    const shops = Array.from({ length: 20 }, (_, n) => createLineHttpApi({ baseUrl: line.url, channelAccessToken: `shop-${n}-token`, shared: connections.line(line.url) }));
    for (const [n, shop] of shops.entries())
      await shop.push({ to: USER, messages: [{ type: "text", text: `from shop ${n}` }] }, `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`);

    expect(line.calls.map((call) => call.authorization)).toEqual(shops.map((_, n) => `Bearer shop-${n}-token`));
    // A pool of each shop's own would open twenty; the shared one may open a second while the first is
    // still being handed back.
    expect(new Set(line.calls.map((call) => call.socket)).size).toBeLessThanOrEqual(2);
  });

  it("keeps the other shops' connections open when one shop closes (a reload retires it)", async () => {
    const line = await recordingLine();
    const connections = sharedConnections();
    const [retired, kept] = ["retired", "kept"].map((name) => createLineHttpApi({ baseUrl: line.url, channelAccessToken: `${name}-token`, shared: connections.line(line.url) }));
    await retired?.showLoading({ chatId: USER, loadingSeconds: 5 });
    await retired?.close();
    await kept?.showLoading({ chatId: USER, loadingSeconds: 5 });
    expect(line.calls.map((call) => call.authorization)).toEqual(["Bearer retired-token", "Bearer kept-token"]);
  });

  it("gives two shops on one slip service each its own account, by its own secret, over the shared pool", async () => {
    const sandbox = await startSandbox({});
    cleanups.push(() => sandbox.close());
    const connections = sharedConnections();
    const client = (apiSecret: string) => createSlipClient({ baseUrl: sandbox.url, apiSecret, accountCacheSeconds: 0, connections: connections.slip(sandbox.url) });
    const [shop, other] = [client(DEMO_SECRETS.shop), client(DEMO_SECRETS.other)];
    const seen = await Promise.all([shop.accountInfo(), other.accountInfo(), shop.accountInfo(), other.accountInfo()]);
    expect(seen.map((account) => account.storeName)).toEqual([DEMO_STORE_NAMES.shop, DEMO_STORE_NAMES.other, DEMO_STORE_NAMES.shop, DEMO_STORE_NAMES.other]);
    await shop.close();
    expect((await other.accountInfo()).storeName).toBe(DEMO_STORE_NAMES.other);
  });
});
