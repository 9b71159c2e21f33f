// The sandbox's six-digit codes: the envelope's result codes (docs/sandbox.md §2) and the per-item codes (§7).
import type { SlipStatus } from "../../../src/slip/types.js";

export const SUCCESS = { code: "200001", message: "Get Info Success" } as const;

/** Every non-200 answer: the HTTP status, its envelope code and the fixed message where there is one. */
export const ERRORS = {
  badRequest: { status: 400, code: "400001" },
  unauthorized: { status: 401, code: "401001", message: "Unauthorized" },
  packageExpired: { status: 402, code: "402001", message: "Package expired" },
  notFound: { status: 404, code: "404001", message: "Not Found" },
  methodNotAllowed: { status: 405, code: "405001", message: "Method Not Allowed" },
  payloadTooLarge: { status: 413, code: "413001", message: "Payload Too Large" },
  unsupportedMediaType: { status: 415, code: "415001", message: "Content-Type must be application/json" },
  internal: { status: 500, code: "500001", message: "Internal Server Error" },
} as const;

/**
 * Per-item `code` of a history item, one per status: `100` marks a slip-check result, the last three
 * digits echo the HTTP status that best names the outcome.
 */
export const ITEM_CODES: Readonly<Record<SlipStatus, number>> = {
  valid: 100200,
  invalid: 100400,
  fraud: 100403,
  not_found: 100404,
  duplicate: 100409,
  error: 100500,
};
