// Scenario: connections that send nothing, up to the server's cap. While the cap is full, every new
// connection (LINE's webhook among them) is reset at once; LINE redelivers, but for how long is the
// webhook out? The bot's own HTTP server (createBotServer, with its limits) and a handler that answers 200,
// in this process; `holders` sockets connect and send nothing; then a webhook is tried on a new connection
// every `probeEveryMs` until one is answered. Measured twice in one run: with the limits as they are, and
// without the first-request deadline (idle sockets then last until the headers timeout).
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createBotServer, SERVER_LIMITS } from "../src/webhook/http-server.js";
import { round } from "./slow-service.js";

export interface IdleConnectionsFigures {
  holders: number;
  /** From the moment the cap was full to the first webhook answered, ms; and the probes reset meanwhile. */
  withDeadline: { outMs: number; probesReset: number; firstRequestTimeoutMs: number };
  withoutDeadline: { outMs: number; probesReset: number; headersTimeoutMs: number };
}

async function measure(firstRequestTimeoutMs: number, holders: number, probeEveryMs: number, giveUpMs: number): Promise<{ outMs: number; probesReset: number }> {
  const server = createBotServer(
    (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    },
    { ...SERVER_LIMITS, firstRequestTimeoutMs },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const sockets: Socket[] = [];
  try {
    await Promise.all(
      Array.from({ length: holders }, () => {
        const socket = connect(port, "127.0.0.1");
        socket.on("error", () => undefined);
        sockets.push(socket);
        return new Promise((resolve) => socket.once("connect", resolve));
      }),
    );
    await sleep(50); // the server has counted them
    const fullAt = performance.now();
    let probesReset = 0;
    // Bounded by giveUpMs: a probe on a fresh connection every probeEveryMs until one is answered.
    while (performance.now() - fullAt < giveUpMs) {
      const answered = await fetch(`http://127.0.0.1:${port}/webhook`, { method: "POST", body: "{}", signal: AbortSignal.timeout(1_000) }).then(
        (response) => response.ok,
        () => false,
      );
      if (answered) return { outMs: round(performance.now() - fullAt), probesReset };
      probesReset += 1;
      await sleep(probeEveryMs);
    }
    return { outMs: Number.POSITIVE_INFINITY, probesReset };
  } finally {
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

export async function benchIdleConnections(options: { probeEveryMs?: number } = {}): Promise<IdleConnectionsFigures> {
  const holders = SERVER_LIMITS.maxConnections;
  const probeEveryMs = options.probeEveryMs ?? 100;
  const withDeadline = await measure(SERVER_LIMITS.firstRequestTimeoutMs, holders, probeEveryMs, 30_000);
  const withoutDeadline = await measure(0, holders, probeEveryMs, 30_000);
  return {
    holders,
    withDeadline: { ...withDeadline, firstRequestTimeoutMs: SERVER_LIMITS.firstRequestTimeoutMs },
    withoutDeadline: { ...withoutDeadline, headersTimeoutMs: SERVER_LIMITS.headersTimeoutMs },
  };
}

export function idleConnectionsLine(figures: IdleConnectionsFigures): string {
  const { holders, withDeadline, withoutDeadline } = figures;
  return (
    `${holders} connections that send nothing (the cap): the webhook was out ${round(withDeadline.outMs / 1000, 2)} s ` +
    `(${withDeadline.probesReset} probes reset) with the ${withDeadline.firstRequestTimeoutMs / 1000} s first-request deadline, ` +
    `${round(withoutDeadline.outMs / 1000, 2)} s (${withoutDeadline.probesReset} reset) without it (the ${withoutDeadline.headersTimeoutMs / 1000} s headers timeout)`
  );
}
