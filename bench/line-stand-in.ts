// Benchmark child: the LINE stand-in, plus a control port through which the load generator gets reply
// tokens and reads when each chat's answer arrived (timestamped here, on arrival).
import { startLinePlatform } from "../src/local-line/platform.js";
import { serveControl } from "./control.js";

export interface Arrival {
  chatId: string;
  kind: "reply" | "push";
  /** Epoch milliseconds with sub-millisecond precision. */
  at: number;
  /** Only when the drain asked for `withMessages`: each message's type, in order. */
  types?: string[];
  /** Only when the drain asked for `withMessages`: the first text message's text, cut to 200 characters. */
  text?: string;
}

/** What an arrival keeps of its messages; handed out only on request, so the load steps' drains stay small. */
interface Summary {
  types: string[];
  text: string | undefined;
}

const platform = await startLinePlatform({ port: 0, host: "127.0.0.1", replyTokenTtlMs: 10 * 60_000 });
let arrivals: Arrival[] = [];
let summaries: Summary[] = [];
let rejected = 0;
platform.on("sent", (send) => {
  arrivals.push({ chatId: send.chatId, kind: send.kind, at: performance.timeOrigin + performance.now() });
  const firstText = send.messages.find((message) => message.type === "text");
  summaries.push({
    types: send.messages.map((message) => message.type),
    text: firstText && "text" in firstText ? String(firstText.text).slice(0, 200) : undefined,
  });
});
platform.on("rejected", () => {
  rejected += 1;
});

const control = await serveControl({
  tokens: (body) => ({ tokens: (body as { chatIds: string[] }).chatIds.map((chatId) => platform.issueReplyToken(chatId)) }),
  drain: (body) => {
    const withMessages = (body as { withMessages?: boolean } | undefined)?.withMessages === true;
    const drained = {
      arrivals: withMessages
        ? arrivals.map((arrival, index) => ({ ...arrival, ...summaries[index] }))
        : arrivals,
      rejected,
    };
    arrivals = [];
    summaries = [];
    rejected = 0;
    return drained;
  },
});
console.log(JSON.stringify({ ready: true, url: platform.url, controlUrl: control.url }));

process.on("SIGTERM", () => {
  control.close();
  void platform.close().then(() => process.exit(0));
});
