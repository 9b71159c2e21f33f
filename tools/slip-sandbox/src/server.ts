// Starts the sandbox slip service: opens the store, brings its demo data up to now, listens, and closes cleanly.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createSandboxHandler } from "./app.js";
import { QrImageCache } from "./qr-png.js";
import { openStore, type SandboxStore } from "./store.js";

/** Rendered QR images kept in memory; a PNG is a few kilobytes. */
const QR_CACHE_ENTRIES = 512;

export interface SandboxOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** SQLite file, or ":memory:" (the default). Ignored when `store` is given. */
  dbPath?: string;
  /** An already opened store (for example one just given extra checks); closed by `close()`. */
  store?: SandboxStore;
  /** Base of the qr-image links; default the listening URL. */
  publicUrl?: string;
  /** The clock for the demo data and package expiry; default the real one. */
  now?: () => Date;
  /** Told about unexpected failures answered with 500. */
  onError?: (error: unknown) => void;
  /** Added before every answer of the four operations (a slow service, for trying timeouts). Default 0. */
  latencyMs?: number;
  /** Local mode only: `POST /dev/payments` simulates a customer paying the demo shop. Default false. */
  devRoutes?: boolean;
}

export interface RunningSandbox {
  /** The listening URL, e.g. http://127.0.0.1:4000 (no trailing slash). */
  url: string;
  port: number;
  /** The HTTP server, for callers that watch its requests (the benchmark counts them). */
  server: Server;
  /** What starting did to the demo data: seeded an empty database, and how many checks it added. */
  demo: { seeded: boolean; added: number };
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const now = options.now ?? (() => new Date());
  const host = options.host ?? "127.0.0.1";
  const store = options.store ?? openStore(options.dbPath ?? ":memory:");
  const demo = store.refreshDemo(now().getTime());

  // The public URL is known only once the port is; the handler reads it through this holder.
  const app = { publicUrl: "" };
  const handler = createSandboxHandler({
    store,
    now,
    qrCache: new QrImageCache(QR_CACHE_ENTRIES),
    get publicUrl() {
      return app.publicUrl;
    },
    ...(options.onError === undefined ? {} : { onError: options.onError }),
    ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
    ...(options.devRoutes === undefined ? {} : { devRoutes: options.devRoutes }),
  });
  const server = createServer(handler);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    store.close();
    throw error;
  }

  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  app.publicUrl = (options.publicUrl ?? url).replace(/\/+$/, "");

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    server,
    demo,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => {
          store.close();
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
