// Webhook verification, pure: the raw body as LINE sent it, its x-line-signature and the shop's channel
// secrets give the verified events (and which secret signed them), or a typed refusal. routes.ts maps each
// refusal to its HTTP status, message, log line and metric.
import { createHmac, timingSafeEqual } from "node:crypto";

/** The shop's secrets: during a rotation the previous one is accepted too. */
export interface WebhookSecrets {
  readonly channelSecret: string;
  readonly previousChannelSecret?: string | undefined;
}

export type Verified = { readonly ok: true; readonly events: readonly unknown[]; readonly signedWith: "current" | "previous" };

/** Why a signed request was refused once its body was read. */
export type VerifyRefusal = { readonly ok: false; readonly reason: "bad_signature" | "bad_json" | "bad_body" };

export function verifyWebhook(raw: Buffer, signature: string, secrets: WebhookSecrets): Verified | VerifyRefusal {
  // Checked over exactly the bytes LINE signed, with this shop's secret: another shop's signature is refused.
  const { channelSecret, previousChannelSecret } = secrets;
  const signedWith = validateSignature(raw, channelSecret, signature)
    ? "current"
    : previousChannelSecret !== undefined && validateSignature(raw, previousChannelSecret, signature)
      ? "previous"
      : undefined;
  if (signedWith === undefined) return { ok: false, reason: "bad_signature" };
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return { ok: false, reason: "bad_json" };
  }
  if (!isCallbackRequest(body)) return { ok: false, reason: "bad_body" };
  return { ok: true, events: body.events, signedWith };
}

function isCallbackRequest(body: unknown): body is { events: unknown[] } {
  return typeof body === "object" && body !== null && !Array.isArray(body) && Array.isArray((body as { events?: unknown }).events);
}

/**
 * LINE's signature: the body's HMAC-SHA256 under the channel secret, in base64 (the SDK's validateSignature,
 * without loading the SDK on the path of every webhook). Compared in constant time.
 */
export function validateSignature(body: Buffer, channelSecret: string, signature: string): boolean {
  const expected = createHmac("sha256", channelSecret).update(body).digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
