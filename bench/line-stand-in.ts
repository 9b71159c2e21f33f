// Benchmark child: the LINE stand-in, plus a control port through which the load generator gets reply
// tokens and reads when each answer arrived (timestamped here, on arrival).
//
// A reply is recorded under the chat its reply token was issued for, and the load generator issues each
// token for a label of its own event (not the event's real chat), so a reply names its event even when many
// events come from one chat. A push names its real chat and carries the bot's retry key.
//
// The stand-in keeps at most 10,000 reply tokens and then drops the oldest half, so a step of 10,000 events
// would lose tokens of its own to the previous step's: POST /reset starts a fresh stand-in on the same port
// (between steps, with nothing in flight) so every step starts with no tokens.
import { startLinePlatform, type LinePlatform } from "@slipline/line-stand-in";
import { serveControl } from "./control.js";

export interface Arrival {
  /** A reply: the label its token was issued for. A push: the chat it went to. */
  chatId: string;
  kind: "reply" | "push";
  /** Epoch milliseconds with sub-millisecond precision. */
  at: number;
  /** A push's X-Line-Retry-Key, when it had one. */
  retryKey?: string;
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

let arrivals: Arrival[] = [];
let summaries: Summary[] = [];
let rejected = 0;
/** Pushes answered 409 because their retry key was already accepted (not sent twice). */
let duplicates = 0;

async function startPlatform(port: number): Promise<LinePlatform> {
  const started = await startLinePlatform({ port, host: "127.0.0.1", replyTokenTtlMs: 10 * 60_000 });
  started.on("sent", (send) => {
    const arrival: Arrival = { chatId: send.chatId, kind: send.kind, at: performance.timeOrigin + performance.now() };
    if (send.retryKey !== undefined) arrival.retryKey = send.retryKey;
    arrivals.push(arrival);
    const firstText = send.messages.find((message) => message.type === "text");
    summaries.push({
      types: send.messages.map((message) => message.type),
      text: firstText && "text" in firstText ? String(firstText.text).slice(0, 200) : undefined,
    });
  });
  started.on("rejected", () => {
    rejected += 1;
  });
  started.on("duplicate", () => {
    duplicates += 1;
  });
  return started;
}

let platform = await startPlatform(0);
const url = platform.url;
const port = platform.port;

const control = await serveControl({
  tokens: (body) => ({ tokens: (body as { chatIds: string[] }).chatIds.map((chatId) => platform.issueReplyToken(chatId)) }),
  drain: (body) => {
    const withMessages = (body as { withMessages?: boolean } | undefined)?.withMessages === true;
    const drained = {
      arrivals: withMessages ? arrivals.map((arrival, index) => ({ ...arrival, ...summaries[index] })) : arrivals,
      rejected,
      duplicates,
    };
    arrivals = [];
    summaries = [];
    rejected = 0;
    duplicates = 0;
    return drained;
  },
  reset: async () => {
    await platform.close();
    platform = await startPlatform(port);
    arrivals = [];
    summaries = [];
    rejected = 0;
    duplicates = 0;
    return { url: platform.url };
  },
});
console.log(JSON.stringify({ ready: true, url, controlUrl: control.url }));

process.on("SIGTERM", () => {
  control.close();
  void platform.close().then(() => process.exit(0));
});
