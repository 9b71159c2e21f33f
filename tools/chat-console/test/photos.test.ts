// A persona sends a slip photo from the console: the photo is kept by the LINE stand-in under the message's
// id (its data host serves it to the shop's token) and the bot gets LINE's image event naming it; the
// sandbox draws the slip of the shop's newest check, one never checked, or one without its QR.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_PEOPLE, startLinePlatform } from "@slipline/line-stand-in";
import { DEMO_SECRETS, slipPhotosAt, startSandbox } from "@slipline/slip-sandbox";
import { startConsole } from "../src/console.js";

const customer = DEMO_PEOPLE[2]!.userId;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A bot's webhook that keeps every event it gets. */
async function recordingBot(): Promise<{ url: string; events: { type: string; message?: { type: string; id: string } }[] }> {
  const events: { type: string; message?: { type: string; id: string } }[] = [];
  const app = express();
  app.post("/webhook", express.json(), (req, res) => {
    events.push(...(req.body as { events: typeof events }).events);
    res.status(200).end();
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`, events };
}

describe("sending a photo from the console", { timeout: 30_000 }, () => {
  it("the slip of the newest check reaches the bot as LINE's image event, its bytes on the stand-in's data host", async () => {
    const platform = await startLinePlatform({ channelAccessToken: "cafe-token" });
    cleanups.push(() => platform.close());
    const sandbox = await startSandbox({});
    cleanups.push(() => sandbox.close());
    const bot = await recordingBot();
    const chat = await startConsole({
      platform,
      shops: [{ id: "cafe", name: "Cafe", channel: "default", webhookUrl: bot.url, channelSecret: "s", slipPhoto: slipPhotosAt(sandbox.url, DEMO_SECRETS.shop) }],
    });
    cleanups.push(() => chat.close());
    const config = (await (await fetch(`${chat.url}api/config`)).json()) as { shops: { canSendPhotos: boolean }[] };
    expect(config.shops.map((s) => s.canSendPhotos)).toEqual([true]);

    const send = await fetch(`${chat.url}api/send-photo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: customer, chatId: customer, shop: "cafe", photo: "checked" }),
    });
    expect(send.status).toBe(200);
    const [event] = bot.events;
    expect(event?.message?.type).toBe("image");
    const content = await fetch(`${platform.url}/v2/bot/message/${event?.message?.id ?? ""}/content`, { headers: { authorization: "Bearer cafe-token" } });
    expect(content.headers.get("content-type")).toBe("image/png");
    const sent = new Uint8Array(await content.arrayBuffer());
    const newest = (await (await fetch(`${sandbox.url}/api/slip-history?limit=1`, { headers: { authorization: `Bearer ${DEMO_SECRETS.shop}` } })).json()) as {
      data: { items: { transRef: string }[] };
    };
    // The very slip the sandbox draws for that check (its QR carries the reference: the sandbox's own tests read it).
    const slip = await fetch(`${sandbox.url}/sandbox/slip-image?transRef=${newest.data.items[0]?.transRef ?? ""}`, { headers: { authorization: `Bearer ${DEMO_SECRETS.shop}` } });
    expect(sent).toEqual(new Uint8Array(await slip.arrayBuffer()));

    const wrong = await fetch(`${chat.url}api/send-photo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: customer, chatId: customer, shop: "cafe", photo: "selfie" }),
    });
    expect(wrong.status).toBe(400);
  });
});
