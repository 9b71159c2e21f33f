// A photo in the chat, read as a slip: its bytes from LINE, the verification QR found off the event loop and
// checked (CRC), its reference looked up in the service's history (`transRef`), and the answer by where it
// goes. In a staff place, the check as the service has it, "not checked yet", or why no slip was read (a
// 1:1 chat shows LINE's loading animation meanwhile). Anywhere else customers read the answer: a customer's
// 1:1 chat gets the customers' thanks (as their other words do, once in a while), a group nothing; a shop
// that opted in has the lookup pushed to its staff groups, once per slip. Nothing of the photo is kept, and
// the log names the reference, never the names.
import { performance } from "node:perf_hooks";
import type { Logger } from "pino";
import { renderCustomerThanks } from "../render/errors.js";
import { isSlipClientError } from "../slip/errors.js";
import type { AnySlipClientError } from "../slip/errors.js";
import type { HistoryItem } from "../slip/types.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "../handlers/context.js";
import { handleNonText } from "../handlers/index.js";
import { answerServiceFailure } from "../handlers/service-failure.js";
import type { SlipPhotoParts } from "./parts.js";
import { readQrTexts } from "./payload.js";
import { renderNoSlip, renderSlipChecked, renderSlipNotChecked, renderSlipPush } from "./render.js";
import type { NoSlipReason } from "./render.js";

export interface ImageInput {
  /** LINE's message id, the key of its content; undefined when LINE does not keep the photo (an external link). */
  readonly messageId: string | undefined;
}

/** One page of the service's history holds every check of a slip but the strangest. */
const CHECKS_PAGE = 100;

type Lookup =
  | { readonly kind: "no_slip"; readonly reason: NoSlipReason; readonly why: string }
  | { readonly kind: "looked_up"; readonly transRef: string; readonly checks: readonly HistoryItem[]; readonly total: number }
  | { readonly kind: "service_failure"; readonly error: AnySlipClientError };

const noSlip = (reason: NoSlipReason, why: string): Lookup => ({ kind: "no_slip", reason, why });

/** From the message id to the slip's checks, or why not. Throws only on a bug. */
async function lookUp(messageId: string | undefined, parts: SlipPhotoParts, deps: HandlerDeps, log: Logger): Promise<Lookup> {
  if (messageId === undefined) return noSlip("photo_missing", "no content id");
  const started = performance.now();
  const photo = await parts.photo(messageId);
  if (!photo.ok) return noSlip(photo.reason === "gone" || photo.reason === "unavailable" ? "photo_missing" : "unreadable", `photo ${photo.reason}`);
  const downloadMs = performance.now() - started;
  const decoded = await parts.decode(photo.bytes);
  if (decoded.kind === "busy") return noSlip("busy", "reader busy");
  if (decoded.kind !== "read") return noSlip("unreadable", decoded.kind === "failed" ? `reader failed: ${decoded.why}` : decoded.kind);
  const reading = readQrTexts(decoded.texts);
  if (reading.kind !== "slip") return noSlip(reading.kind === "payment" ? "payment_qr" : "unreadable", `qr ${reading.kind} (${decoded.texts.length} found)`);
  const asked = performance.now();
  try {
    const page = await deps.slip.slipHistory({ transRef: reading.transRef, limit: CHECKS_PAGE });
    // The filter is the service's; only checks of exactly this reference are shown, whatever else came back.
    const checks = page.items.filter((item) => item.transRef === reading.transRef);
    const total = checks.length === page.items.length ? Math.max(page.pagination.total, checks.length) : checks.length;
    log.info(
      {
        transRef: reading.transRef,
        sendingBank: reading.sendingBank,
        checks: total,
        downloadMs: Math.round(downloadMs),
        decodeMs: Math.round(decoded.ms),
        lookupMs: Math.round(performance.now() - asked),
      },
      "slip photo looked up",
    );
    return { kind: "looked_up", transRef: reading.transRef, checks, total };
  } catch (error) {
    if (isSlipClientError(error)) return { kind: "service_failure", error };
    throw error;
  }
}

export async function handleImage(input: ImageInput, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const parts = deps.slipPhotos;
  if (parts === undefined) return handleNonText("image", ctx, deps);
  return ctx.audience.staffPlace ? answerStaff(input, parts, ctx, deps) : answerCustomerPlace(input, parts, ctx, deps);
}

async function answerStaff(input: ImageInput, parts: SlipPhotoParts, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const lang = deps.settings.defaultLang;
  ctx.showLoading();
  const found = await lookUp(input.messageId, parts, deps, deps.log);
  switch (found.kind) {
    case "no_slip":
      deps.log.info({ reason: found.reason, why: found.why }, "slip photo: no slip read");
      await ctx.send(renderNoSlip(found.reason, lang));
      return { command: "slip_photo", outcome: "answered" };
    case "service_failure":
      return { ...(await answerServiceFailure(found.error, "history", lang, ctx, deps)), command: "slip_photo" };
    case "looked_up": {
      const view = { lang, timeZone: deps.settings.timeZone, now: ctx.now, transRef: found.transRef, checks: found.checks, total: found.total };
      await ctx.send(found.checks.length === 0 ? renderSlipNotChecked(view) : renderSlipChecked(view));
      return { command: "slip_photo", outcome: "answered" };
    }
  }
}

async function answerCustomerPlace(input: ImageInput, parts: SlipPhotoParts, ctx: ChatContext, deps: HandlerDeps): Promise<HandlerOutcome> {
  const lang = deps.settings.defaultLang;
  // A photo cannot address the bot in a group: silence there. In a 1:1 chat, the customers' thanks.
  const thanked = ctx.chat.type === "user" && (await deps.quietNotes.claim(ctx.chat.id, ctx.now.getTime()));
  if (thanked) await ctx.send(renderCustomerThanks(lang));
  const outcome: HandlerOutcome = { command: "slip_photo", outcome: thanked ? "noted" : "ignored" };
  if (deps.settings.slipPhotoPush !== true || deps.settings.staffGroupIds.size === 0) return outcome;
  const found = await lookUp(input.messageId, parts, deps, deps.log);
  if (found.kind === "no_slip") {
    deps.log.info({ reason: found.reason, why: found.why }, "customer's photo: no slip read; nothing pushed");
  } else if (found.kind === "service_failure") {
    deps.log.warn(
      { kind: found.error.kind, operation: found.error.operation, reason: found.error.message },
      "customer's slip not looked up: the slip service failed; nothing pushed",
    );
  } else {
    const view = { lang, timeZone: deps.settings.timeZone, now: ctx.now, transRef: found.transRef, checks: found.checks, total: found.total };
    // One push per slip: the retry key comes from the reference, so the same slip sent again is not pushed twice.
    const pushed = await parts.pushToStaffGroups(renderSlipPush(view), `slip-photo:${found.transRef}`);
    deps.log.info({ transRef: found.transRef, groups: pushed }, "customer's slip pushed to the staff groups");
  }
  return outcome;
}
