// The attempts of one slip call: tried again on no answer, 5xx and 429, waiting as src/retry.ts's shared
// backoff says, until an answer is final or the attempts run out.
import { ResponseShapeError, ServiceUnavailableError } from "./errors.js";
import type { Guarded } from "./guards.js";
import { readAnswer } from "./answers.js";
import type { Settings } from "./settings.js";
import { header } from "./transport.js";
import type { SlipRequest, Transport } from "./transport.js";
import { isRetryableStatus, parseRetryAfterMs, retryDelayMs } from "../retry.js";

/** One call as the retry loop sees it: the request, and how to read its data. */
export interface Call<T> extends SlipRequest {
  readonly read: (data: unknown) => Guarded<T>;
}

export async function withRetries<T>(operation: string, call: Call<T>, transport: Transport, settings: Settings): Promise<T> {
  const attempts = settings.policy.retries + 1;
  let last: { status: number | undefined; problem: string; cause: unknown } = { status: undefined, problem: "not attempted", cause: undefined };
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const result = await transport.attempt(call);
    let retryAfterMs: number | undefined;
    if (result.kind === "too_large") {
      throw new ResponseShapeError(operation, result.status, `body larger than ${settings.maxBodyBytes} bytes`);
    }
    // Waiting again would only add to the queue that made this one wait.
    if (result.kind === "busy") {
      throw new ServiceUnavailableError(operation, attempt - 1, undefined, `busy: no free connection within ${settings.maxWaitMs} ms`);
    }
    if (result.kind === "no_answer") {
      last = { status: undefined, problem: result.problem, cause: result.cause };
    } else if (isRetryableStatus(result.status)) {
      last = { status: result.status, problem: `HTTP ${result.status}`, cause: undefined };
      retryAfterMs = parseRetryAfterMs(header(result.headers, "retry-after"), settings.now());
    } else {
      return readAnswer(operation, result, call.read, settings.secret);
    }
    if (attempt < attempts) await settings.sleep(retryDelayMs(attempt, settings.policy, retryAfterMs, settings.random));
  }
  throw new ServiceUnavailableError(operation, attempts, last.status, last.problem, last.cause);
}
