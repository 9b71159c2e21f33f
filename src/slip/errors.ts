// The slip client's error family: one class per way a call can fail, each naming the operation it attempted.

export type SlipErrorKind = "package_expired" | "invalid_request" | "unauthorized" | "service_error" | "service_unavailable" | "response_shape" | "qr_mismatch";

/** What a QR answer got wrong: whom it pays, how much, its checksum, its format, or its image link. */
export type QrDifference = "id" | "amount" | "crc" | "payload" | "image_host" | "image_data";

/** One way a QR answer differs from its request, with a short reason that names no secret and no whole id. */
export interface QrMismatch {
  difference: QrDifference;
  detail: string;
}

/**
 * Base of every error the slip client rejects with. `operation` reads like `GET /api/slip-history`
 * (never a query string, never a header), so messages are safe to log. `cause` keeps the underlying
 * error, if any.
 */
export abstract class SlipClientError extends Error {
  abstract readonly kind: SlipErrorKind;
  readonly operation: string;

  protected constructor(operation: string, message: string, cause?: unknown) {
    super(`${operation}: ${message}`, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.operation = operation;
  }
}

/** HTTP 402: the merchant's package has expired; no operation works until it is renewed. */
export class PackageExpiredError extends SlipClientError {
  readonly kind = "package_expired" as const;
  readonly status = 402 as const;
  readonly serviceMessage: string;

  constructor(operation: string, serviceMessage: string) {
    super(operation, `package expired (HTTP 402: ${serviceMessage})`);
    this.serviceMessage = serviceMessage;
  }
}

/**
 * HTTP 400 (or a request the client refused to send): the request itself was wrong. `serviceMessage`
 * is the service's own explanation, meant to be shown to staff.
 */
export class InvalidRequestError extends SlipClientError {
  readonly kind = "invalid_request" as const;
  /** 400, or undefined when the client rejected the request before sending it. */
  readonly status: 400 | undefined;
  readonly serviceMessage: string;

  constructor(operation: string, serviceMessage: string, status: 400 | undefined = 400) {
    super(operation, status === undefined ? `invalid request (not sent: ${serviceMessage})` : `invalid request (HTTP 400: ${serviceMessage})`);
    this.status = status;
    this.serviceMessage = serviceMessage;
  }
}

/** HTTP 401 or 403: the API secret is missing, wrong or not allowed. */
export class UnauthorizedError extends SlipClientError {
  readonly kind = "unauthorized" as const;
  readonly status: 401 | 403;
  readonly serviceMessage: string;

  constructor(operation: string, status: 401 | 403, serviceMessage: string) {
    super(operation, `API secret rejected (HTTP ${status}: ${serviceMessage})`);
    this.status = status;
    this.serviceMessage = serviceMessage;
  }
}

/**
 * The service answered with an envelope whose `code` is not a success: HTTP 200 with a `code` other
 * than `200001`, or a 4xx the client has no better class for (404, 405, 413, 415, ...).
 */
export class ServiceError extends SlipClientError {
  readonly kind = "service_error" as const;
  readonly status: number;
  readonly code: string;
  readonly serviceMessage: string;

  constructor(operation: string, status: number, code: string, serviceMessage: string) {
    super(operation, `service answered code ${code} (HTTP ${status}: ${serviceMessage})`);
    this.status = status;
    this.code = code;
    this.serviceMessage = serviceMessage;
  }
}

/**
 * Network errors, timeouts, 5xx and 429 after every attempt was used. `status` is the HTTP status of
 * the last attempt, or undefined when it got no answer (then `cause` is the network error).
 */
export class ServiceUnavailableError extends SlipClientError {
  readonly kind = "service_unavailable" as const;
  readonly attempts: number;
  readonly status: number | undefined;

  constructor(operation: string, attempts: number, status: number | undefined, lastProblem: string, cause?: unknown) {
    super(operation, `failed after ${attempts} attempt${attempts === 1 ? "" : "s"} (${lastProblem})`, cause);
    this.attempts = attempts;
    this.status = status;
  }
}

/** The service answered, but not with the documented shape: not JSON, or a field missing or of the wrong type. */
export class ResponseShapeError extends SlipClientError {
  readonly kind = "response_shape" as const;
  readonly status: number;
  /** What was wrong, e.g. `data.pagination.total: expected an integer >= 0`. Never contains the body. */
  readonly problem: string;

  constructor(operation: string, status: number, problem: string, cause?: unknown) {
    super(operation, `unexpected response (HTTP ${status}: ${problem})`, cause);
    this.status = status;
    this.problem = problem;
  }
}

/**
 * The service answered a QR request with a QR that is not the one asked for: another account or amount, a
 * broken payload or checksum, or an image from elsewhere or of another payload. It must not be shown. An
 * answer, not an outage: the circuit does not count it. The message lists the differences with short
 * reasons (amounts, an id's last 4 digits, origins), never the secret.
 */
export class QrMismatchError extends SlipClientError {
  readonly kind = "qr_mismatch" as const;
  readonly differences: readonly QrDifference[];

  constructor(operation: string, mismatches: readonly QrMismatch[]) {
    super(operation, `QR not as asked, not shown (${mismatches.map((m) => `${m.difference}: ${m.detail}`).join("; ")})`);
    this.differences = [...new Set(mismatches.map((m) => m.difference))];
  }
}

/** Every concrete slip client error; `switch (error.kind)` narrows to the class. */
export type AnySlipClientError = PackageExpiredError | InvalidRequestError | UnauthorizedError | ServiceError | ServiceUnavailableError | ResponseShapeError | QrMismatchError;

export function isSlipClientError(error: unknown): error is AnySlipClientError {
  return error instanceof SlipClientError;
}
