// The bench's baseline, from the test kit: the official echo-bot pattern answers a signed text webhook by
// replying the same text, through the LINE stand-in; a webhook signed with another secret gets nothing.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startLinePlatform } from "@slipline/line-stand-in";
import type { LinePlatform } from "@slipline/line-stand-in";
import { ECHO_BOT_ENTRY, childEnv } from "../kit/entry-process.js";
import { lineId, postWebhook, textEvent, webhookBody } from "../kit/webhook.js";

const ECHO_BOT = fileURLToPath(new URL(`../../${ECHO_BOT_ENTRY}`, import.meta.url));
const SECRET = "0123456789abcdef0123456789abcdef";
const TOKEN = "echo-bot-test-token";
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** The echo bot as the bench starts it; resolves with its URL once it prints that it is ready. */
async function startEchoBot(platform: LinePlatform): Promise<string> {
  const child = spawn(process.execPath, [ECHO_BOT], {
    env: childEnv({ LINE_CHANNEL_SECRET: SECRET, LINE_CHANNEL_ACCESS_TOKEN: TOKEN, LINE_API_BASE_URL: platform.url, PORT: "0" }),
    stdio: ["ignore", "pipe", "inherit"],
  });
  stops.push(async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const ready = /"url":"([^"]+)"/.exec(out);
      if (ready?.[1] !== undefined) resolve(ready[1]);
    });
    child.once("exit", (code) => reject(new Error(`the echo bot exited (${String(code)}) before it was ready: ${out}`)));
  });
}

describe("the echo bot of the test kit", { timeout: 30_000 }, () => {
  it("replies the text it got, and refuses a webhook signed with another secret", async () => {
    const platform = await startLinePlatform({ channelAccessToken: TOKEN });
    stops.push(() => platform.close());
    const url = await startEchoBot(platform);
    const user = lineId("U", 0xec0);
    const body = webhookBody([textEvent({ source: { type: "user", userId: user }, replyToken: platform.issueReplyToken(user), text: "สวัสดี echo" })]);
    expect((await postWebhook(`${url}/webhook`, body, { secret: SECRET })).status).toBe(200);
    const [sent] = await platform.waitForSent(1);
    expect(sent?.kind).toBe("reply");
    expect(sent?.messages).toEqual([{ type: "text", text: "สวัสดี echo" }]);

    expect((await postWebhook(`${url}/webhook`, body, { secret: "ffffffffffffffffffffffffffffffff" })).status).not.toBe(200);
    expect(platform.sent).toHaveLength(1);
  });
});
