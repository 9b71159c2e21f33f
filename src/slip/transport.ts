// The slip client's HTTP transport: one keep-alive undici pool per base URL (or the deployment's, shared by
// its shops), no more calls than `maxConnections`, a deadline per attempt and a cap on the body. It reports
// what one attempt produced; what that means is for answers.ts and the retry loop to say.
import PQueue from "p-queue";
import { Pool } from "undici";
import type { Dispatcher } from "undici";
import type { Settings } from "./settings.js";

/** One request as the transport sends it. */
export interface SlipRequest {
  readonly method: "GET" | "POST";
  /** Contract path, e.g. `/api/slip-history`; the base URL's prefix is added when sending. */
  readonly path: string;
  readonly query: string;
  readonly body: string | undefined;
}

/** What one attempt produced: an answer with its status, or no answer at all. */
export type Attempt =
  | { readonly kind: "answer"; readonly status: number; readonly headers: Dispatcher.ResponseData["headers"]; readonly text: string }
  | { readonly kind: "too_large"; readonly status: number }
  /** No free connection within maxWaitMs: the service is already as busy as we let it be. */
  | { readonly kind: "busy" }
  | { readonly kind: "no_answer"; readonly problem: string; readonly cause: unknown };

export interface Transport {
  attempt(request: SlipRequest): Promise<Attempt>;
  close(): Promise<void>;
}

export function header(headers: Dispatcher.ResponseData["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A short, safe description of why an attempt got no answer; undici codes are stable, messages are not. */
function describeNetworkError(error: unknown, settings: Settings): string {
  const code = typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
  switch (code) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return `connect timeout after ${settings.connectTimeoutMs} ms`;
    case "UND_ERR_HEADERS_TIMEOUT":
      return `no response headers within ${settings.headersTimeoutMs} ms`;
    case "UND_ERR_BODY_TIMEOUT":
      return `response body stalled for ${settings.bodyTimeoutMs} ms`;
    case "UND_ERR_SOCKET":
      return "connection closed by the server";
    case undefined:
      return `network error (${error instanceof Error ? error.name : typeof error})`;
    default:
      return `network error ${code}`;
  }
}

async function readLimited(body: Dispatcher.ResponseData["body"], maxBytes: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      return undefined;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function createTransport(settings: Settings): Transport {
  // Made at the first call: a deployment of a thousand shops, most of them quiet at any moment, would
  // otherwise hold a thousand pools from the start.
  let pool: Pool | undefined;
  const poolNow = (): Dispatcher =>
    settings.connections ??
    (pool ??= new Pool(settings.origin, {
      connections: settings.maxConnections,
      connect: { timeout: settings.connectTimeoutMs },
      headersTimeout: settings.headersTimeoutMs,
      bodyTimeout: settings.bodyTimeoutMs,
    }));
  // Calls in flight never outnumber the pool's connections (see attempt).
  const slots = new PQueue({ concurrency: settings.maxConnections });

  async function attemptWithConnection(request: SlipRequest): Promise<Attempt> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), settings.timeoutMs);
    try {
      const response = await poolNow().request({
        origin: settings.origin,
        method: request.method,
        path: `${settings.pathPrefix}${request.path}${request.query === "" ? "" : `?${request.query}`}`,
        headers: {
          authorization: settings.authorization,
          accept: "application/json",
          ...(request.body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: request.body,
        signal: deadline.signal,
        headersTimeout: settings.headersTimeoutMs,
        bodyTimeout: settings.bodyTimeoutMs,
      });
      const text = await readLimited(response.body, settings.maxBodyBytes);
      if (text === undefined) return { kind: "too_large", status: response.statusCode };
      return { kind: "answer", status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      const problem = deadline.signal.aborted ? `no complete answer within ${settings.timeoutMs} ms` : describeNetworkError(error, settings);
      return { kind: "no_answer", problem, cause: error };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /**
     * One attempt, once a connection is free: the deadline covers the attempt itself, not the wait for a
     * connection, which is bounded on its own. Calls never outnumber connections, so undici never queues.
     */
    async attempt(request) {
      // A free connection (the usual case): no wait to bound, so no timer and no signal for it.
      if (slots.pending < settings.maxConnections && slots.size === 0) return slots.add(() => attemptWithConnection(request));
      const waitOver = new AbortController();
      const waitTimer = setTimeout(() => waitOver.abort(), settings.maxWaitMs);
      try {
        return await slots.add(
          () => {
            clearTimeout(waitTimer);
            return attemptWithConnection(request);
          },
          { signal: waitOver.signal },
        );
      } catch (error) {
        if (waitOver.signal.aborted) return { kind: "busy" };
        throw error;
      } finally {
        clearTimeout(waitTimer);
      }
    },

    close: () => pool?.close() ?? Promise.resolve(),
  };
}
