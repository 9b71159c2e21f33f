// The webhook's signature check, pure: the same verdict as the LINE SDK's validateSignature on any body,
// secret and signature, and the typed refusals after it.
import fc from "fast-check";
import { validateSignature as sdkValidateSignature } from "@line/bot-sdk";
import { describe, expect, it } from "vitest";
import { validateSignature, verifyWebhook } from "../../src/webhook/verify.js";
import { signBody } from "../kit/webhook.js";

const SECRET = "0123456789abcdef0123456789abcdef";

describe("the signature check", () => {
  it("agrees with the SDK's validateSignature on signatures right, wrong, cut, padded or not base64 at all", () => {
    const signature = fc.oneof(
      fc.string(),
      fc.base64String(),
      fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString("base64")),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.string({ minLength: 1, maxLength: 40 }), signature, fc.boolean(), (bytes, secret, other, signed) => {
        const body = Buffer.from(bytes);
        const given = signed ? signBody(body, secret) : other;
        expect(validateSignature(body, secret, given)).toBe(sdkValidateSignature(body, secret, given));
      }),
    );
  });

  it("takes LINE's signature of the body and refuses it under another secret or for another body", () => {
    const body = JSON.stringify({ destination: "U0", events: [] });
    const signature = signBody(body, SECRET);
    expect(verifyWebhook(Buffer.from(body), signature, { channelSecret: SECRET })).toEqual({ ok: true, events: [], signedWith: "current" });
    expect(verifyWebhook(Buffer.from(body), signature, { channelSecret: "fedcba9876543210fedcba9876543210" })).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifyWebhook(Buffer.from(`${body} `), signature, { channelSecret: SECRET })).toEqual({ ok: false, reason: "bad_signature" });
  });
});
