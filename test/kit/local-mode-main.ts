// `npm start` with nothing configured, as a process: the bot in local mode with its embedded sandbox, the LINE
// stand-in and the chat console, on a throwaway database.
import { startEntry, type EntryProcess } from "./entry-process.js";

export interface LocalModeMain {
  readonly main: EntryProcess;
  /** The bot's (and the console's) base URL, `http://127.0.0.1:<port>`, without the trailing slash. */
  readonly url: string;
  /** The embedded sandbox's address: only its start-up log says it. */
  readonly sandboxUrl: string;
}

/** Starts it (`env` adds to PORT 0 and an in-memory sandbox) and waits until it says where it is. */
export async function startLocalModeMain(env: Record<string, string> = {}, timeoutMs = 60_000): Promise<LocalModeMain> {
  const main = startEntry("src/main.ts", { PORT: "0", SANDBOX_DB: ":memory:", ...env });
  try {
    const [, url] = await main.waitFor(/slipline is running\. Open (http:\/\/127\.0\.0\.1:\d+)\/ to chat with the bot\./, timeoutMs);
    const [, sandboxUrl] = await main.waitFor(/"url":"(http:\/\/127\.0\.0\.1:\d+)[^"]*"[^\n]*embedded sandbox/, 5_000);
    return { main, url: url ?? "", sandboxUrl: sandboxUrl ?? "" };
  } catch (err) {
    await main.stop();
    throw err;
  }
}
