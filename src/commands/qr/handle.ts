// qr: a PromptPay QR card and image from the service's QR link (size 1024). In a staff place any id may be
// asked for, and a QR with an amount comes with a "check payment" button (and, with watches on, the bot's
// own word when it arrives). Anywhere else the QR pays the shop's own PROMPTPAY_ID and nothing else, and a
// staff member there gets what a customer gets, plus a pointer to ask in private.
import { formatPaidCommand } from "../format.js";
import type { Command, PromptPayId } from "../types.js";
import { followedBy } from "../../privacy/answer.js";
import type { PublicAnswer } from "../../privacy/answer.js";
import { renderAskInPrivate, renderNoPromptPayId, renderQrAskStaff, renderQrShopOnly } from "../../render/errors.js";
import { QR_SIZES, renderQr } from "./render.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../../handlers/context.js";

function sameId(a: PromptPayId, b: PromptPayId): boolean {
  return a.type === b.type && a.digits === b.digits;
}

type Payee = { ok: true; id: PromptPayId } | { ok: false; answered: HandlerOutcome };

/** Whom the QR pays, or, having said why there is none, the outcome. */
async function payeeFor(command: Extract<Command, { kind: "qr" }>, ctx: ChatContext, deps: HandlerDeps): Promise<Payee> {
  const shop = deps.settings.promptPayId;
  if (ctx.audience.staffPlace) {
    const id = command.id ?? shop;
    if (id !== undefined) return { ok: true, id };
    await ctx.send(renderNoPromptPayId(command.lang));
    return { ok: false, answered: { command: "qr", outcome: "usage_error" } };
  }
  // A customer place: what a customer gets here, and for staff the pointer to where they get more.
  const refuse = async (answer: PublicAnswer): Promise<Payee> => {
    await ctx.send(ctx.audience.role === "staff" ? followedBy(answer, renderAskInPrivate(command.lang)) : answer);
    return { ok: false, answered: { command: "qr", outcome: "refused" } };
  };
  if (shop === undefined) {
    deps.log.warn({ place: ctx.audience.place }, "a QR was asked for where customers see it, but PROMPTPAY_ID is not set");
    return refuse(renderQrAskStaff(command.lang));
  }
  // The shop's own id spelled out is fine; any other would make the shop's bot collect for someone else.
  if (command.id !== undefined && !sameId(command.id, shop)) {
    deps.log.warn({ place: ctx.audience.place, role: ctx.audience.role, idType: command.id.type }, "a QR to another PromptPay id was asked for where customers see it; refused");
    return refuse(renderQrShopOnly(command.lang));
  }
  return { ok: true, id: shop };
}

export async function handleQr(command: Extract<Command, { kind: "qr" }>, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const found = await payeeFor(command, ctx, deps);
  if (!found.ok) return found.answered;
  const payee = found.id;
  const qr = await deps.slip.promptPayQrUrl({
    accountNumber: payee.digits,
    // The service takes baht; the command holds satang.
    amount: command.amount === undefined ? undefined : command.amount / 100,
    size: QR_SIZES.original,
  });
  // In a staff place a QR with an amount can be checked for its payment; with watches on, the bot says itself.
  const staffAmount = ctx.audience.staffPlace ? command.amount : undefined;
  const checkPayment = staffAmount === undefined ? undefined : formatPaidCommand({ amount: staffAmount, after: ctx.now }, command.lang);
  const paysShop = deps.settings.promptPayId !== undefined && sameId(payee, deps.settings.promptPayId);
  await ctx.send(renderQr({ lang: command.lang, payee, paysShop, amount: qr.amount, url: qr.url, checkPayment, forCustomers: !ctx.audience.staffPlace }));
  if (staffAmount !== undefined && deps.watches !== undefined) {
    await deps.watches.watch({ chatId: ctx.chat.id, amountSatang: staffAmount, after: ctx.now, lang: command.lang }).catch((err: unknown) => {
      deps.log.warn({ err }, "payment watch not started");
    });
  }
  return { command: "qr", outcome: "answered" };
}
