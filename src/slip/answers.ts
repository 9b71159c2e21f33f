// What a final answer of the slip service means: the operation's data, or the typed error its status and
// envelope call for. Pure.
import { InvalidRequestError, PackageExpiredError, ResponseShapeError, ServiceError, UnauthorizedError } from "./errors.js";
import { readEnvelope, SUCCESS_CODE } from "./guards.js";
import type { Guarded } from "./guards.js";

/** An answer that is not retried: its status and its whole body. */
export interface FinalAnswer {
  readonly status: number;
  readonly text: string;
}

/** One per shop's API secret; a deployment of more shops than this compiles some again. */
const MAX_SECRET_PATTERNS = 4_096;
const secretPatterns = new Map<string, RegExp>();

/**
 * Cuts the API secret out of text taken from an answer, should a service ever echo it. In any letter case:
 * a URL's host name comes back lower-cased.
 */
export function redactSecret(text: string, secret: string): string {
  // Every successful answer's message passes here: the pattern is compiled once per secret.
  let pattern = secretPatterns.get(secret);
  if (pattern === undefined) {
    if (secretPatterns.size >= MAX_SECRET_PATTERNS) secretPatterns.clear();
    pattern = new RegExp(secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi");
    secretPatterns.set(secret, pattern);
  }
  return text.replace(pattern, "[redacted]");
}

/**
 * Turns a final answer into data or the matching error. `secret` is the API secret: a service message is
 * outside input, and if it ever echoed the secret, the secret would reach staff and logs.
 */
export function readAnswer<T>(operation: string, answer: FinalAnswer, read: (data: unknown) => Guarded<T>, secret: string): T {
  const { status, text } = answer;
  const redact = (value: string): string => redactSecret(value, secret);
  let json: unknown;
  let parsed = true;
  try {
    json = JSON.parse(text);
  } catch {
    parsed = false;
  }
  const envelope = parsed ? readEnvelope(json) : undefined;
  const message = envelope?.ok === true ? redact(envelope.value.message) : undefined;

  if (status >= 200 && status <= 299) {
    if (!parsed) throw new ResponseShapeError(operation, status, "body is not JSON");
    if (envelope === undefined || !envelope.ok) throw new ResponseShapeError(operation, status, envelope?.problem ?? "no envelope");
    if (envelope.value.code !== SUCCESS_CODE) {
      throw new ServiceError(operation, status, redact(envelope.value.code), message ?? "");
    }
    const data = read(envelope.value.data);
    if (!data.ok) throw new ResponseShapeError(operation, status, data.problem);
    return data.value;
  }
  switch (status) {
    case 400:
      throw new InvalidRequestError(operation, message ?? "Bad Request");
    case 401:
    case 403:
      throw new UnauthorizedError(operation, status, message ?? (status === 401 ? "Unauthorized" : "Forbidden"));
    case 402:
      throw new PackageExpiredError(operation, message ?? "Package expired");
  }
  if (status >= 400 && status <= 499) {
    const code = envelope?.ok === true ? redact(envelope.value.code) : String(status);
    throw new ServiceError(operation, status, code, message ?? `HTTP ${status}`);
  }
  throw new ResponseShapeError(operation, status, `unexpected HTTP status ${status}`);
}
