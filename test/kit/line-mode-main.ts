// The real entry (src/main.ts) in LINE mode, as a process, against a sandbox slip service and a LINE
// stand-in started in the test: what a deployment runs, on loopback.
import { startLinePlatform, type LinePlatform } from "@slipline/line-stand-in";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import { startSandbox, type RunningSandbox } from "@slipline/slip-sandbox";
import { startEntry, type EntryProcess } from "./entry-process.js";
import { TEST_METRICS_TOKEN } from "./metrics.js";

export interface LineModeMain {
  readonly main: EntryProcess;
  /** The bot's base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly channelSecret: string;
  readonly accessToken: string;
  readonly sandbox: RunningSandbox;
  readonly platform: LinePlatform;
  /** Stops the bot (SIGTERM) if it still runs, then the sandbox and the stand-in. */
  close(): Promise<void>;
}

/**
 * Starts the three; `env` adds to or overrides the LINE-mode variables (PORT 0, the channel, the service,
 * the kit's METRICS_TOKEN: read /metrics with `readMetrics`; an empty METRICS_TOKEN counts as unset).
 */
export async function startLineModeMain(env: Record<string, string> = {}): Promise<LineModeMain> {
  const channelSecret = "0123456789abcdef0123456789abcdef";
  const accessToken = "line-mode-main-channel-access-token-0123";
  const sandbox = await startSandbox();
  const platform = await startLinePlatform({ channelAccessToken: accessToken });
  const main = startEntry("src/main.ts", {
    PORT: "0",
    LINE_CHANNEL_SECRET: channelSecret,
    LINE_CHANNEL_ACCESS_TOKEN: accessToken,
    LINE_API_BASE_URL: platform.url,
    SLIP_API_BASE_URL: sandbox.url,
    SLIP_API_SECRET: DEMO_SECRETS.shop,
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    ...env,
  });
  const close = async (): Promise<void> => {
    await main.stop();
    await platform.close();
    await sandbox.close();
  };
  try {
    const [, port] = await main.waitFor(/"port":(\d+),"mode":"line"/);
    return { main, url: `http://127.0.0.1:${port}`, channelSecret, accessToken, sandbox, platform, close };
  } catch (err) {
    await close();
    throw err;
  }
}
