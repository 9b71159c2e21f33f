// The HTTP server the bot's routes run on, with limits on how long clients may take and how many may hold a
// connection, so slow or idle clients cannot hold memory.
import { createServer } from "node:http";
import type { IncomingMessage, RequestListener, Server } from "node:http";
import type { Socket } from "node:net";

/** How long clients may take, and how many may hold a connection, so slow or idle clients cannot hold memory. */
export const SERVER_LIMITS = {
  /**
   * A new connection must send its first request within this, or it is closed. LINE sends the webhook as
   * soon as it has connected; a connection that sends nothing only holds a place under the cap, and
   * while the cap is full every new connection, LINE's too, is reset (measured in the bench).
   */
  firstRequestTimeoutMs: 2_000,
  /** All the request's headers must arrive within this. */
  headersTimeoutMs: 10_000,
  /** The whole request, body included. LINE sends a webhook in one go. */
  requestTimeoutMs: 15_000,
  /**
   * An idle keep-alive connection is closed after this (HTTP_KEEP_ALIVE_SECONDS). Behind a load balancer
   * that keeps connections longer, set it above the balancer's idle timeout (65 s behind 60 s), or the
   * balancer sometimes sends on a connection the bot has just closed: a sporadic 502.
   */
  keepAliveTimeoutMs: 5_000,
  /** Connections at once; past it new ones are closed at once. 512 bodies of 128 KB stay under 100 MB. */
  maxConnections: 512,
} as const;

export type ServerLimits = typeof SERVER_LIMITS;

/**
 * The limits with a keep-alive of `keepAliveSeconds`. The header and request deadlines stay above it, as a
 * load balancer's guides ask (Node requires the request deadline to be at least the headers'); the
 * connection cap and the first-request deadline still bound what idle or slow clients can hold.
 */
export function serverLimitsWith(keepAliveSeconds: number): { readonly [K in keyof ServerLimits]: number } {
  const keepAliveTimeoutMs = keepAliveSeconds * 1_000;
  const headersTimeoutMs = Math.max(SERVER_LIMITS.headersTimeoutMs, keepAliveTimeoutMs + 1_000);
  return { ...SERVER_LIMITS, keepAliveTimeoutMs, headersTimeoutMs, requestTimeoutMs: Math.max(SERVER_LIMITS.requestTimeoutMs, headersTimeoutMs + 5_000) };
}

/** The HTTP server for the bot's app, with the limits above (Node checks the timeouts every second). */
export function createBotServer(app: RequestListener, limits: { readonly [K in keyof ServerLimits]: number } = SERVER_LIMITS): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: 1_000,
    },
    app,
  );
  server.maxConnections = limits.maxConnections;
  if (limits.firstRequestTimeoutMs > 0) {
    // Idle from the start: no byte within the deadline closes it. The first request's arrival lifts the
    // deadline (the socket's own timeout would otherwise cut a slow answer); the timeouts above take over.
    server.on("connection", (socket: Socket) => {
      socket.setTimeout(limits.firstRequestTimeoutMs, () => socket.destroy());
    });
    server.on("request", (req: IncomingMessage) => {
      req.socket.setTimeout(0);
    });
  }
  return server;
}
