// qr: a PromptPay QR card and image from the service's QR link (size 1024). Staff may ask for any id;
// customers get QR codes that pay the shop's own PROMPTPAY_ID and nothing else.
import { formatPaidCommand } from "../commands/format.js";
import type { Command, PromptPayId } from "../commands/types.js";
import { renderNoPromptPayId, renderQrAskStaff, renderQrShopOnly } from "../render/errors.js";
import { QR_SIZES, renderQr } from "../render/qr.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "./context.js";

function sameId(a: PromptPayId, b: PromptPayId): boolean {
  return a.type === b.type && a.digits === b.digits;
}

type Payee = { ok: true; id: PromptPayId } | { ok: false; answered: HandlerOutcome };

/** Whom the QR pays, or, having said why there is none, the outcome. */
async function payeeFor(command: Extract<Command, { kind: "qr" }>, ctx: ChatContext, deps: HandlerDeps): Promise<Payee> {
  const shop = deps.settings.promptPayId;
  if (ctx.audience.role === "staff") {
    const id = command.id ?? shop;
    if (id !== undefined) return { ok: true, id };
    await ctx.send(renderNoPromptPayId(command.lang));
    return { ok: false, answered: { command: "qr", outcome: "usage_error" } };
  }
  if (shop === undefined) {
    deps.log.warn("a customer asked for a QR, but PROMPTPAY_ID is not set");
    await ctx.send(renderQrAskStaff(command.lang));
    return { ok: false, answered: { command: "qr", outcome: "refused" } };
  }
  // The shop's own id spelled out is fine; any other would make the shop's bot collect for someone else.
  if (command.id !== undefined && !sameId(command.id, shop)) {
    deps.log.warn({ place: ctx.audience.place, idType: command.id.type }, "a customer asked for a QR to another PromptPay id; refused");
    await ctx.send(renderQrShopOnly(command.lang));
    return { ok: false, answered: { command: "qr", outcome: "refused" } };
  }
  return { ok: true, id: shop };
}

export async function handleQr(
  command: Extract<Command, { kind: "qr" }>,
  ctx: ChatContext,
  deps: HandlerDeps,
): Promise<HandlerOutcome> {
  const found = await payeeFor(command, ctx, deps);
  if (!found.ok) return found.answered;
  const payee = found.id;
  const qr = await deps.slip.promptPayQrUrl({
    accountNumber: payee.digits,
    // The service takes baht; the command holds satang.
    amount: command.amount === undefined ? undefined : command.amount / 100,
    size: QR_SIZES.original,
  });
  // Staff asking for an amount can check whether it arrived; with watches on, the bot tells them itself.
  const staffAmount = ctx.audience.role === "staff" ? command.amount : undefined;
  const checkPayment = staffAmount === undefined ? undefined : formatPaidCommand({ amount: staffAmount, after: ctx.now }, command.lang);
  await ctx.send(renderQr({ lang: command.lang, payee, amount: qr.amount, url: qr.url, checkPayment }));
  if (staffAmount !== undefined && deps.watches !== undefined) {
    await deps.watches.watch({ chatId: ctx.chat.id, amountSatang: staffAmount, after: ctx.now, lang: command.lang }).catch((err: unknown) => {
      deps.log.warn({ err }, "payment watch not started");
    });
  }
  return { command: "qr", outcome: "answered" };
}
