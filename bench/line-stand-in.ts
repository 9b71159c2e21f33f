// Benchmark child: the LINE stand-in, plus a control port through which the load generator gets reply
// tokens and reads when each chat's answer arrived (timestamped here, on arrival).
import { startLinePlatform } from "../src/local-line/platform.js";
import { serveControl } from "./control.js";

export interface Arrival {
  chatId: string;
  kind: "reply" | "push";
  /** Epoch milliseconds with sub-millisecond precision. */
  at: number;
}

const platform = await startLinePlatform({ port: 0, host: "127.0.0.1", replyTokenTtlMs: 10 * 60_000 });
let arrivals: Arrival[] = [];
let rejected = 0;
platform.on("sent", (send) => {
  arrivals.push({ chatId: send.chatId, kind: send.kind, at: performance.timeOrigin + performance.now() });
});
platform.on("rejected", () => {
  rejected += 1;
});

const control = await serveControl({
  tokens: (body) => ({ tokens: (body as { chatIds: string[] }).chatIds.map((chatId) => platform.issueReplyToken(chatId)) }),
  drain: () => {
    const drained = { arrivals, rejected };
    arrivals = [];
    rejected = 0;
    return drained;
  },
});
console.log(JSON.stringify({ ready: true, url: platform.url, controlUrl: control.url }));

process.on("SIGTERM", () => {
  control.close();
  void platform.close().then(() => process.exit(0));
});
