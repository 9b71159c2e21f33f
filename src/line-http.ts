// What every call to LINE shares: the bot's user agent, and LINE's answer to a call that was not 2xx, read
// alike whoever made the call. The bot's own calls (line/api.ts, line/rare-calls.ts) throw LineHttpError;
// the SDK's client (the rich menu command) throws its HTTPFetchError. Both carry the same fields, so callers
// read them here rather than by class, and the bot never loads the SDK to check one.
import type { Dispatcher } from "undici";

/** Sent with every call the bot makes to LINE. */
export const LINE_USER_AGENT = "slipline (+@line/bot-sdk types)";

/** LINE's status, headers and body (LINE's JSON: `message`, `details`). */
export interface LineHttpFailure {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/** What the bot's own calls throw for an answer that is not 2xx; the fields are those of the SDK's HTTPFetchError. */
export class LineHttpError extends Error implements LineHttpFailure {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;

  constructor(status: number, headers: Headers, body: string) {
    super(`${status} from LINE`);
    this.name = "LineHttpError";
    this.status = status;
    this.headers = headers;
    this.body = body;
  }
}

/** The failure in an error thrown by a LINE call (ours or the SDK's), or undefined for any other error. */
export function lineHttpFailure(err: unknown): LineHttpFailure | undefined {
  if (err instanceof LineHttpError) return err;
  if (!(err instanceof Error) || err.name !== "HTTPFetchError") return undefined;
  const { status, headers, body } = err as Error & Partial<Record<"status" | "headers" | "body", unknown>>;
  return typeof status === "number" && headers instanceof Headers && typeof body === "string" ? { status, headers, body } : undefined;
}

/** LINE's refusal as undici gave it (its headers a plain record). */
export function lineErrorFrom(status: number, headers: Dispatcher.ResponseData["headers"], body: string): LineHttpError {
  const web = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) web.append(name, one);
  }
  return new LineHttpError(status, web, body);
}
