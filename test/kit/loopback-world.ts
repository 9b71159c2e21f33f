// A small world on loopback for black-box tests of whole bot processes: the LINE stand-in and a (slow)
// sandbox in the test's process, bots as processes of their own in LINE mode, signed bursts of `qr 150`
// events, and what each chat got back.
import type { LinePlatform } from "@slipline/line-stand-in";
import { startLinePlatform } from "@slipline/line-stand-in";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import { startSandbox } from "@slipline/slip-sandbox";
import type { RunningSandbox } from "@slipline/slip-sandbox";
import { startEntry } from "./entry-process.js";
import { TEST_METRICS_TOKEN } from "./metrics.js";
import type { EntryProcess } from "./entry-process.js";
import { lineId, newEventId, postWebhook, textEvent, webhookBody } from "./webhook.js";

export const CHANNEL_SECRET = "0123456789abcdef0123456789abcdef";
const ACCESS_TOKEN = "loopback-world-access-token";

export interface World {
  readonly platform: LinePlatform;
  readonly sandbox: RunningSandbox;
  close(): Promise<void>;
}

export interface BotProcess {
  readonly process: EntryProcess;
  readonly url: string;
  readonly webhookUrl: string;
}

/** `devRoutes`: the sandbox's route that simulates a customer paying the demo shop. */
export async function startWorld(latencyMs: number, options: { devRoutes?: boolean } = {}): Promise<World> {
  const platform = await startLinePlatform({ channelAccessToken: ACCESS_TOKEN });
  const sandbox = await startSandbox({ latencyMs, devRoutes: options.devRoutes ?? false });
  return {
    platform,
    sandbox,
    async close() {
      await sandbox.close();
      await platform.close();
    },
  };
}

/** A bot process in LINE mode against the world's LINE stand-in and sandbox (with the kit's METRICS_TOKEN); resolves once it listens. */
export async function startBot(world: World, env: Record<string, string> = {}): Promise<BotProcess> {
  const bot = startEntry("src/main.ts", {
    PORT: "0",
    LINE_CHANNEL_SECRET: CHANNEL_SECRET,
    LINE_CHANNEL_ACCESS_TOKEN: ACCESS_TOKEN,
    LINE_API_BASE_URL: world.platform.url,
    SLIP_API_BASE_URL: world.sandbox.url,
    SLIP_API_SECRET: DEMO_SECRETS.shop,
    PROMPTPAY_ID: "0812345678",
    LOG_LEVEL: "info",
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    ...env,
  });
  const [, port] = await bot.waitFor(/"port":(\d+),"mode":"line"/, 60_000);
  const url = `http://127.0.0.1:${port}`;
  return { process: bot, url, webhookUrl: `${url}/webhook` };
}

/** Waits (bounded) until the bot says it is ready. */
export async function whenReady(bot: BotProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ready = await fetch(`${bot.url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${bot.url} not ready within ${timeoutMs} ms`);
}

export interface Sent {
  chatId: string;
  eventId: string;
  /** HTTP status of the webhook, or 0 when there was none (the connection was refused). */
  status: number;
}

/** One `qr` event of its own chat (half 1:1, half groups), as a signed webhook body. */
export function qrWebhook(world: World, n: number, text = "qr 150", eventId: string = newEventId()): { chatId: string; eventId: string; body: string } {
  const group = n % 2 === 1;
  const chatId = lineId(group ? "C" : "U", n);
  const source = group ? { type: "group" as const, groupId: chatId, userId: lineId("U", 0x100000 + n) } : { type: "user" as const, userId: chatId };
  const event = textEvent({ source, replyToken: world.platform.issueReplyToken(chatId), text, eventId });
  return { chatId, eventId, body: webhookBody([event]) };
}

export async function sendSigned(url: string, body: string): Promise<number> {
  return postWebhook(url, body, { secret: CHANNEL_SECRET }).then(
    (answer) => answer.status,
    () => 0,
  );
}

/**
 * `count` webhooks of one `qr 150` event each, at `perSecond` (open loop), chats numbered from `firstChat`.
 * `target(n)` picks the webhook URL of the n-th (0-based); `onSent(n)` runs after the n-th is sent (1-based).
 */
export async function burst(
  world: World,
  options: { count: number; perSecond: number; firstChat: number; target: (n: number) => string; onSent?: (sent: number) => void },
): Promise<Sent[]> {
  const pending: Promise<Sent>[] = [];
  const started = performance.now();
  for (let n = 0; n < options.count; n++) {
    const wait = started + (n * 1000) / options.perSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const { chatId, eventId, body } = qrWebhook(world, options.firstChat + n);
    pending.push(sendSigned(options.target(n), body).then((status) => ({ chatId, eventId, status })));
    options.onSent?.(n + 1);
  }
  return Promise.all(pending);
}

/** What each chat got from the bot, as the LINE stand-in accepted it: `qr-card+image`, `text:...`. */
export function answersByChat(platform: LinePlatform): Map<string, string[]> {
  const byChat = new Map<string, string[]>();
  for (const send of platform.sent) {
    const kinds = send.messages.map((m) => (m.type === "flex" ? "qr-card" : m.type === "text" ? `text:${m.text}` : m.type));
    byChat.set(send.chatId, [...(byChat.get(send.chatId) ?? []), kinds.join("+")]);
  }
  return byChat;
}

export async function waitUntil(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
