// A tiny scripted HTTP server on 127.0.0.1 port 0 for fault tests: each test says how every request is answered, and it counts them.
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the server received it, body read completely. */
export interface RecordedRequest {
  /** 1-based position among all requests this server received. */
  readonly index: number;
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** Answers one request. It may never answer (a hang) or destroy `res.socket` (a reset). */
export type FaultScript = (request: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface FaultServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Number of requests received so far. */
  readonly count: number;
  /** Replaces the script for the requests that follow. */
  script(handler: FaultScript): void;
  /** Drops every open connection (also hung ones) and stops listening; a second call does nothing. */
  close(): Promise<void>;
}

/** Writes a JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Writes the service's success envelope around `data`. */
export function sendData(res: ServerResponse, data: unknown): void {
  sendJson(res, 200, { code: "200001", message: "Get Info Success", data });
}

export async function startFaultServer(initial: FaultScript): Promise<FaultServer> {
  let handler = initial;
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: RecordedRequest = {
        index: requests.length + 1,
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      Promise.resolve(handler(request, res)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get count() {
      return requests.length;
    },
    script(next) {
      handler = next;
    },
    close() {
      if (!server.listening) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
