// Turns a failed slip service call into the reply and the outcome for the log, by the error's kind.
import type { CommandName, Lang } from "../commands/types.js";
import type { AnySlipClientError, SlipErrorKind } from "../slip/errors.js";
import { followedBy } from "../privacy/answer.js";
import { renderAskInPrivate, renderQrAskStaff, renderServiceFailure } from "../render/errors.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "./context.js";

const OUTCOMES: Record<SlipErrorKind, HandlerOutcome["outcome"]> = {
  package_expired: "package_expired",
  invalid_request: "invalid_request",
  service_unavailable: "service_unavailable",
  unauthorized: "service_error",
  service_error: "service_error",
  response_shape: "service_error",
  qr_mismatch: "service_error",
};

export async function answerServiceFailure(error: AnySlipClientError, command: CommandName, lang: Lang, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  // The error's message names the operation and the service's words, never the secret or the query.
  const level = error.kind === "unauthorized" || error.kind === "response_shape" || error.kind === "qr_mismatch" ? "error" : "warn";
  deps.log[level]({ command, kind: error.kind, operation: error.operation, reason: error.message }, "slip service call failed");
  // Where customers see the answer, it says only that the QR is not available and whom to ask, whoever
  // asked: never the shop's package or settings. Staff there also get the pointer to a private chat.
  if (ctx.audience.staffPlace) {
    const serviceMessage = error.kind === "invalid_request" ? error.serviceMessage : undefined;
    await ctx.send(renderServiceFailure({ kind: error.kind, serviceMessage, command }, lang));
  } else {
    const customers = renderQrAskStaff(lang);
    await ctx.send(ctx.audience.role === "staff" ? followedBy(customers, renderAskInPrivate(lang)) : customers);
  }
  return { command, outcome: OUTCOMES[error.kind] };
}
