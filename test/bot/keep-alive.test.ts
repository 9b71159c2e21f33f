// HTTP_KEEP_ALIVE_SECONDS as a client sees it: the bot tells how long it keeps an idle connection open, and
// the same connection serves a second request.
// Platform: node:http's keep-alive timers, as the running Node sets them, seen by a client.
import { Agent, request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { SERVER_LIMITS, serverLimitsWith } from "../../src/webhook/http-server.js";
import { killLeftovers, startEntry } from "../kit/entry-process.js";
import { startLineModeMain } from "../kit/line-mode-main.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** GET `url` through `agent`; the Keep-Alive header and the local port of the connection used. */
function get(url: string, agent: Agent): Promise<{ status: number; keepAlive: string | undefined; localPort: number | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, keepAlive: String(res.headers["keep-alive"]), localPort: req.socket?.localPort }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("keep-alive", { timeout: 60_000 }, () => {
  it.each([
    ["the default", {}, "timeout=5"],
    ["HTTP_KEEP_ALIVE_SECONDS=65 (behind a 60 s load balancer)", { HTTP_KEEP_ALIVE_SECONDS: "65" }, "timeout=65"],
  ])("%s: answers say how long an idle connection is kept, and it is reused", async (_name, env, expected) => {
    const bot = await startLineModeMain(env);
    cleanups.push(() => bot.close());
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(async () => agent.destroy());
    const first = await get(`${bot.url}/healthz`, agent);
    const second = await get(`${bot.url}/readyz`, agent);
    expect([first.status, first.keepAlive]).toEqual([200, expected]);
    expect(second.keepAlive).toBe(expected);
    expect(second.localPort).toBe(first.localPort);
  });

  it("keeps the header and request deadlines above a long keep-alive, and the other limits as they are", () => {
    expect(serverLimitsWith(5)).toEqual(SERVER_LIMITS);
    expect(serverLimitsWith(65)).toEqual({ ...SERVER_LIMITS, keepAliveTimeoutMs: 65_000, headersTimeoutMs: 66_000, requestTimeoutMs: 71_000 });
  });

  it("refuses a keep-alive outside 1 to 600 seconds, naming the variable", async () => {
    const main = startEntry("src/main.ts", { HTTP_KEEP_ALIVE_SECONDS: "0" });
    expect(await main.exited).toBe(1);
    expect(main.stderr()).toContain("HTTP_KEEP_ALIVE_SECONDS: must be a whole number of seconds from 1 to 600");
  });
});
