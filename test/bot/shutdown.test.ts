// Shutdown in two steps, as a platform sees it from outside the real process: on SIGTERM /readyz answers 503
// at once while the port stays open and webhooks are still answered (the drain), then the listener closes,
// the accepted events finish, and the process exits 0.
// Platform: SIGTERM and the exit code of a real process.
import { afterEach, describe, expect, it } from "vitest";
import { killLeftovers } from "../kit/entry-process.js";
import { startLineModeMain } from "../kit/line-mode-main.js";
import { shownText } from "../kit/messages.js";
import { lineId, postWebhook, textEvent, webhookBody } from "../kit/webhook.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe("shutdown", { timeout: 60_000 }, () => {
  it("on SIGTERM answers /readyz 503 while a webhook still gets its answer, then closes the listener and exits 0", async () => {
    // The drain is long enough for the requests below on any machine; the test waits for it to pass.
    const bot = await startLineModeMain({ SHUTDOWN_DRAIN_SECONDS: "8", SHUTDOWN_GRACE_SECONDS: "5", BOT_LANG: "en" });
    cleanups.push(() => bot.close());
    const { main, platform } = bot;
    expect((await fetch(`${bot.url}/readyz`)).status).toBe(200);

    main.child.kill("SIGTERM");
    await main.waitFor(/"drainSeconds":8[^\n]*draining/);
    const ready = await fetch(`${bot.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "draining" });
    // Keep-alive connections are not reused while draining: the next request goes to another instance.
    expect(ready.headers.get("connection")).toBe("close");
    // Liveness stays: the platform must not count a draining instance as dead.
    expect((await fetch(`${bot.url}/healthz`)).status).toBe(200);

    const user = lineId("U", 0xd1a);
    const answer = await postWebhook(
      `${bot.url}/webhook`,
      webhookBody([textEvent({ source: { type: "user", userId: user }, replyToken: platform.issueReplyToken(user), text: "help" })]),
      {
        secret: bot.channelSecret,
      },
    );
    expect(answer.status).toBe(200);
    const [sent] = await platform.waitForSent(1, 10_000);
    expect(sent?.chatId).toBe(user);
    expect(shownText(sent?.messages ?? []).length).toBeGreaterThan(0);

    expect(await main.exited).toBe(0);
    const output = main.output();
    // The two steps, in order: drain, then the listener closes and the grace runs.
    expect(output.indexOf("listener closed")).toBeGreaterThan(output.indexOf("draining:"));
    expect(output).toMatch(/"abandoned":0/);
  });

  it("on SIGINT (someone at a terminal) closes at once, without the drain", async () => {
    const bot = await startLineModeMain({ SHUTDOWN_DRAIN_SECONDS: "30" });
    cleanups.push(() => bot.close());
    bot.main.child.kill("SIGINT");
    expect(await bot.main.exited).toBe(0);
    expect(bot.main.output()).toMatch(/"signal":"SIGINT","drainSeconds":0/);
    expect(bot.main.output()).not.toMatch(/"msg":"draining/);
  });
});
