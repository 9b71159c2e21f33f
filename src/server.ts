// The bot's HTTP face: POST /webhook (signature checked, answered at once, events handled after) and GET /healthz.
import express from "express";
import type { ErrorRequestHandler, Express, Request, Response } from "express";
import { JSONParseError, SignatureValidationFailed, middleware } from "@line/bot-sdk";
import type { Logger } from "pino";
import type { HandlerDeps } from "./handlers/context.js";
import { createEventDispatcher } from "./line/events.js";
import type { EventHandlers } from "./line/events.js";
import type { LineSender } from "./line/sender.js";

export interface BotAppDeps {
  channelSecret: string;
  sender: LineSender;
  handlerDeps: HandlerDeps;
  log: Logger;
  /** Default: the real handlers. */
  handlers?: EventHandlers;
  now?: () => Date;
}

export interface BotApp {
  readonly app: Express;
  /** Resolves once every event accepted so far has been handled (for shutdown and tests). */
  drain(): Promise<void>;
}

// LINE's webhooks are small (text is at most 5,000 characters per message); anything far larger is not LINE.
const WEBHOOK_BODY_LIMIT = "1mb";

export function createBotApp(deps: BotAppDeps): BotApp {
  const { log } = deps;
  const dispatcher = createEventDispatcher({
    sender: deps.sender,
    handlerDeps: deps.handlerDeps,
    log,
    ...(deps.handlers === undefined ? {} : { handlers: deps.handlers }),
    ...(deps.now === undefined ? {} : { now: deps.now }),
  });
  const inFlight = new Set<Promise<void>>();

  const app = express();
  app.disable("x-powered-by");

  app.post(
    "/webhook",
    // Raw bytes, bounded, so the signature is checked over exactly what LINE signed.
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }),
    middleware({ channelSecret: deps.channelSecret }),
    (req: Request, res: Response) => {
      const body: unknown = req.body;
      if (!isCallbackRequest(body)) {
        res.status(400).json({ message: "Body must be a JSON object with an events array" });
        return;
      }
      res.status(200).json({});
      if (body.events.length === 0) return; // the console's "Verify" button, or LINE checking in
      // Handled after the answer: LINE counts anything over 2 s as a timeout.
      const job = new Promise<void>((resolve) => setImmediate(resolve)).then(() => dispatcher.dispatchAll(body.events));
      inFlight.add(job);
      void job.finally(() => inFlight.delete(job));
    },
  );
  app.all("/webhook", (_req: Request, res: Response) => {
    res.status(405).set("Allow", "POST").json({ message: "Use POST" });
  });

  app.get("/healthz", (_req: Request, res: Response) => {
    res.status(200).json({ status: "ok" });
  });

  app.use((_req: Request, res: Response) => {
    res.status(404).json({ message: "Not found" });
  });

  const onError: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
    if (err instanceof SignatureValidationFailed) {
      log.warn({ reason: err.message }, "webhook refused: bad or missing signature");
      res.status(401).json({ message: "Invalid signature" });
      return;
    }
    if (err instanceof JSONParseError) {
      log.warn("webhook refused: body is not JSON");
      res.status(400).json({ message: "Body is not valid JSON" });
      return;
    }
    const status = httpStatusOf(err);
    if (status !== undefined && status >= 400 && status < 500) {
      res.status(status).json({ message: status === 413 ? "Body too large" : "Bad request" });
      return;
    }
    log.error({ err }, "request failed");
    if (res.headersSent) return;
    res.status(500).json({ message: "Internal error" });
  };
  app.use(onError);

  return {
    app,
    async drain() {
      // Bounded by the work accepted: each round awaits what is in flight, and a settled job leaves the set.
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

function isCallbackRequest(body: unknown): body is { events: unknown[] } {
  return typeof body === "object" && body !== null && !Array.isArray(body) && Array.isArray((body as { events?: unknown }).events);
}

/** body-parser's errors (413, 400 on a bad encoding...) carry their status. */
function httpStatusOf(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const candidate = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  return typeof candidate === "number" ? candidate : undefined;
}
