// What the bot says, sealed with who may see it. The send boundary (line/outbox.ts) accepts nothing else,
// and a kind belongs to one audience, so a staff-only answer cannot be labelled public by mistake.
import type { messagingApi } from "@line/bot-sdk";

/** Answers fine for anyone: they carry nothing of the shop's own data or settings. */
export const PUBLIC_KINDS = [
  "qr_card",
  "qr_shop_only",
  "qr_ask_staff",
  "help",
  "greeting",
  "customer_note",
  "contact",
  "id",
  "usage_error",
  "unknown_command",
  "did_you_mean",
  "slip_photo_hint",
  "customer_thanks",
  "pay_hint",
  "ask_in_private",
  "apology",
  "restarting",
  "edited_note",
] as const;

/**
 * Answers for staff places only: the shop's checks (payer names, references, amounts), summaries, token
 * and package figures, the configuration's names, and the buttons and pushes that lead to them.
 */
export const STAFF_KINDS = [
  "history",
  "summary",
  "balance",
  "paid",
  "qr_card_with_check",
  "no_promptpay_id",
  "service_failure",
  "staff_group_notice",
  "daily_summary",
  "low_tokens_alert",
  "expiry_alert",
  "payment_received",
] as const;

export type PublicKind = (typeof PUBLIC_KINDS)[number];
export type StaffKind = (typeof STAFF_KINDS)[number];
export type AnswerKind = PublicKind | StaffKind;

export interface PublicAnswer {
  readonly audience: "public";
  readonly kind: PublicKind;
}

export interface StaffAnswer {
  readonly audience: "staff";
  readonly kind: StaffKind;
  /**
   * What goes instead when the destination turns out not to be a staff place (a bug the boundary stops):
   * what a customer would get there. None for pushes, which are then not sent at all.
   */
  readonly fallback: PublicAnswer | undefined;
}

export type Answer = PublicAnswer | StaffAnswer;

/** The messages of each answer, out of reach of everything but `messagesOf`. */
const sealed = new WeakMap<Answer, readonly messagingApi.Message[]>();

export function publicAnswer(kind: PublicKind, messages: readonly messagingApi.Message[]): PublicAnswer {
  const answer: PublicAnswer = Object.freeze({ audience: "public", kind });
  sealed.set(answer, Object.freeze([...messages]));
  return answer;
}

export function staffAnswer(kind: StaffKind, messages: readonly messagingApi.Message[], fallback: PublicAnswer | undefined): StaffAnswer {
  const answer: StaffAnswer = Object.freeze({ audience: "staff", kind, fallback });
  sealed.set(answer, Object.freeze([...messages]));
  return answer;
}

/**
 * The messages of an answer. Only the send boundary (and tests) may call this: test/architecture.test.ts
 * holds it, so no other module can take a staff answer's messages and send or relabel them.
 */
export function messagesOf(answer: Answer): readonly messagingApi.Message[] {
  const messages = sealed.get(answer);
  if (messages === undefined) throw new TypeError(`answer of kind ${answer.kind} was not made by publicAnswer or staffAnswer`);
  return messages;
}

/** A public answer followed by another (a customer's answer, then the pointer for the staff who asked). */
export function followedBy(first: PublicAnswer, then: PublicAnswer): PublicAnswer {
  return publicAnswer(first.kind, [...messagesOf(first), ...messagesOf(then)]);
}

/** A note (public) before an answer, in its audience: the note goes with the answer and with its fallback. */
export function afterNote(note: PublicAnswer, answer: Answer): Answer {
  const messages = [...messagesOf(note), ...messagesOf(answer)];
  if (answer.audience === "public") return publicAnswer(answer.kind, messages);
  return staffAnswer(answer.kind, messages, answer.fallback === undefined ? undefined : followedBy(note, answer.fallback));
}
