// A tiny JSON control port for a benchmark child: POST /<name> runs the named action and answers its result
// (an action may return a promise; the answer waits for it).
import { createServer, type IncomingMessage } from "node:http";
import { once } from "node:events";

export type ControlActions = Record<string, (body: unknown) => unknown>;

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : (JSON.parse(text) as unknown);
}

/** Listens on a free loopback port; resolves to its URL and a close function. */
export async function serveControl(actions: ControlActions): Promise<{ url: string; close: () => void }> {
  const server = createServer((request, response) => {
    const action = request.method === "POST" ? actions[(request.url ?? "").slice(1)] : undefined;
    if (action === undefined) {
      response.writeHead(404).end();
      return;
    }
    readJson(request)
      .then(async (body) => JSON.stringify(await action(body)))
      .then(
        (json) => {
          response.writeHead(200, { "content-type": "application/json" });
          response.end(json);
        },
        () => response.writeHead(400).end(),
      );
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}
