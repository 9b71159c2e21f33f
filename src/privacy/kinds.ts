// The answer kinds that are no one command's, with their audience; each command declares its own kinds
// (commands/<name>/command.ts) and the registry joins the two.

/**
 * Answers fine for anyone: they carry nothing of the shop's own data or settings, and no button for a
 * staff command. `greeting` is the customers' one.
 */
export const SHARED_PUBLIC_KINDS = [
  "qr_shop_only",
  "qr_ask_staff",
  "greeting",
  "customer_note",
  "customer_thanks",
  "pay_hint",
  "ask_in_private",
  "apology",
  "restarting",
  "edited_note",
] as const;

/**
 * Answers for staff places only: the configuration's names, service failures, pushes about the account and
 * payments, and what only staff are told: the staff's greeting (with the staff commands as quick replies),
 * command errors and their notation, "unknown command" and "did you mean", the hint for a staff member's photo, and a slip photo's lookup (its check, "not checked yet", "no slip QR", the push of a customer's slip).
 */
export const SHARED_STAFF_KINDS = [
  "no_promptpay_id",
  "service_failure",
  "staff_group_notice",
  "low_tokens_alert",
  "expiry_alert",
  "payment_received",
  "staff_greeting",
  "thanks_back",
  "usage_error",
  "unknown_command",
  "did_you_mean",
  "slip_photo_hint",
  "slip_checked",
  "slip_not_checked",
  "slip_unreadable",
  "slip_photo_push",
] as const;

export type SharedPublicKind = (typeof SHARED_PUBLIC_KINDS)[number];
export type SharedStaffKind = (typeof SHARED_STAFF_KINDS)[number];
