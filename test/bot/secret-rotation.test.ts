// A rotation of the channel secret, from outside the real process: with LINE_CHANNEL_SECRET_PREVIOUS set,
// webhooks signed with either secret are answered and the log says which one matched (never the secret);
// any other signature is still refused.
import { afterEach, describe, expect, it } from "vitest";
import { killLeftovers } from "../kit/entry-process.js";
import { startLineModeMain } from "../kit/line-mode-main.js";
import { lineId, postWebhook, textEvent, webhookBody } from "../kit/webhook.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const NEW_SECRET = "00112233445566778899aabbccddeeff";
const OLD_SECRET = "0123456789abcdef0123456789abcdef";
const OTHER_SECRET = "ffeeddccbbaa99887766554433221100";

describe("channel secret rotation", { timeout: 60_000 }, () => {
  it("answers webhooks signed with the new or the previous secret, says which matched, and refuses others", async () => {
    const bot = await startLineModeMain({ LINE_CHANNEL_SECRET: NEW_SECRET, LINE_CHANNEL_SECRET_PREVIOUS: OLD_SECRET });
    cleanups.push(() => bot.close());
    const { main, platform } = bot;
    const send = (secret: string, seed: number) => {
      const user = lineId("U", seed);
      return postWebhook(`${bot.url}/webhook`, webhookBody([textEvent({ source: { type: "user", userId: user }, replyToken: platform.issueReplyToken(user), text: "help" })]), {
        secret,
      });
    };
    expect((await send(OLD_SECRET, 0x501)).status).toBe(200);
    await platform.waitForSent(1);
    await main.waitFor(/"signedWith":"previous"[^\n]*webhook signed with the previous channel secret/);
    expect((await send(NEW_SECRET, 0x502)).status).toBe(200);
    expect((await send(NEW_SECRET, 0x503)).status).toBe(200);
    await platform.waitForSent(3);
    await main.waitFor(/"signedWith":"current"[^\n]*webhook signed with the current channel secret while the previous one is still accepted/);
    expect((await send(OTHER_SECRET, 0x504)).status).toBe(401);
    expect(platform.sent.map((s) => s.chatId).sort()).toEqual([lineId("U", 0x501), lineId("U", 0x502), lineId("U", 0x503)].sort());
    expect(await main.stop()).toBe(0);
    // The current secret is told once, not at every webhook; no secret is ever written.
    expect(main.output().match(/webhook signed with the current channel secret/g)).toHaveLength(1);
    for (const secret of [NEW_SECRET, OLD_SECRET]) expect(main.output()).not.toContain(secret);
  });
});
