// Benchmark child: the LINE stand-in, plus a control port through which the load generator gets reply
// tokens and reads when each chat's answer arrived (timestamped here, on arrival).
import { createServer, type IncomingMessage } from "node:http";
import { once } from "node:events";
import { startLinePlatform } from "../src/local-line/platform.js";

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

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
}

const control = createServer((request, response) => {
  const reply = (body: unknown) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
  if (request.method === "POST" && request.url === "/tokens") {
    readJson(request).then(
      (body) => {
        const chatIds = (body as { chatIds: string[] }).chatIds;
        reply({ tokens: chatIds.map((chatId) => platform.issueReplyToken(chatId)) });
      },
      () => {
        response.writeHead(400).end();
      },
    );
  } else if (request.method === "POST" && request.url === "/drain") {
    reply({ arrivals, rejected });
    arrivals = [];
    rejected = 0;
  } else {
    response.writeHead(404).end();
  }
});
control.listen(0, "127.0.0.1");
await once(control, "listening");
const address = control.address();
const controlPort = typeof address === "object" && address ? address.port : 0;
console.log(JSON.stringify({ ready: true, url: platform.url, controlUrl: `http://127.0.0.1:${controlPort}` }));

process.on("SIGTERM", () => {
  control.close();
  void platform.close().then(() => process.exit(0));
});
