// qr: asks the service for the PromptPay QR link once (size 1024) and answers with the QR card and image.
import type { Command } from "../commands/types.js";
import { renderNoPromptPayId } from "../render/errors.js";
import { QR_SIZES, renderQr } from "../render/qr.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "./context.js";

export async function handleQr(
  command: Extract<Command, { kind: "qr" }>,
  ctx: ChatContext,
  deps: HandlerDeps,
): Promise<HandlerOutcome> {
  const payee = command.id ?? deps.settings.promptPayId;
  if (payee === undefined) {
    await ctx.send(renderNoPromptPayId(command.lang));
    return { command: "qr", outcome: "usage_error" };
  }
  const qr = await deps.slip.promptPayQrUrl({
    accountNumber: payee.digits,
    // The service takes baht; the command holds satang.
    amount: command.amount === undefined ? undefined : command.amount / 100,
    size: QR_SIZES.original,
  });
  await ctx.send(renderQr({ lang: command.lang, payee, amount: qr.amount, url: qr.url }));
  return { command: "qr", outcome: "answered" };
}
