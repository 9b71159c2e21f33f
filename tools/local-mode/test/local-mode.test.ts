// Local mode's package on its own: what the bot's entry point gets when nothing is configured (two demo
// shops on the stand-in, each with its own channel and the sandbox's account), and its clean close.
import express from "express";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config.js";
import type { LocalWorld } from "../../../src/local-tools.js";
import { DEMO_SECRETS, startEmbeddedSandbox, startLocalWorld } from "../src/index.js";

const log = pino({ level: "silent" });
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("local mode", () => {
  it("with nothing configured: the two demo shops as two channels of the stand-in, on the embedded sandbox", async () => {
    const world: LocalWorld = await startLocalWorld(loadConfig({ SANDBOX_DB: ":memory:" }), log);
    closers.push(() => world.close());
    expect(world.shops.map((shop) => [shop.id, shop.webhookPath])).toEqual([
      ["cafe", "/webhook/cafe"],
      ["second", "/webhook/second"],
    ]);
    expect(world.shops.map((shop) => shop.slip.apiSecret)).toEqual([DEMO_SECRETS.shop, DEMO_SECRETS.other]);
    expect(new Set(world.shops.map((shop) => shop.line.channelSecret)).size).toBe(2);
    for (const shop of world.shops) expect(world.secrets).toEqual(expect.arrayContaining([shop.line.channelSecret, shop.line.channelAccessToken]));
    // The stand-in answers as LINE for each shop's token.
    const token = world.shops[0]?.line.channelAccessToken ?? "";
    const info = await fetch(`${world.lineApiBaseUrl}/v2/bot/info`, { headers: { authorization: `Bearer ${token}` } });
    expect(info.status).toBe(200);
    // The console's page and API go in front of the bot's routes.
    const root = express();
    world.mount(root);
    const server = root.listen(0, "127.0.0.1");
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    await new Promise((resolve) => server.once("listening", resolve));
    const address = server.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    expect((await fetch(`http://127.0.0.1:${port}/api/config`)).headers.get("content-type")).toMatch(/json/);
  });

  it("the embedded sandbox alone serves the demo shop's account", async () => {
    const sandbox = await startEmbeddedSandbox(loadConfig({ SANDBOX_DB: ":memory:" }), log, false);
    closers.push(() => sandbox.close());
    const account = await fetch(`${sandbox.url}/api/account/info`, { headers: { authorization: `Bearer ${DEMO_SECRETS.shop}` } });
    expect(account.status).toBe(200);
  });
});
