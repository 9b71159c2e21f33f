// Answers sealed with their audience hold at run time too: a cast cannot make a staff answer public, a
// combinator cannot smuggle one into a public answer, and a QR that pays anyone but the shop is a staff answer.
import type { messagingApi } from "@line/bot-sdk";
import { describe, expect, it } from "vitest";
import { afterNote, followedBy, isPublic, messagesOf, publicAnswer, staffAnswer } from "../../src/privacy/answer.js";
import type { Answer, PublicAnswer } from "../../src/privacy/answer.js";
import { renderAskInPrivate } from "../../src/render/errors.js";
import { renderQr } from "../../src/render/qr.js";

const SECRET: messagingApi.Message[] = [{ type: "text", text: "✅ 150 บาท จาก นาย ลับ มาก" }];
const POINTER = renderAskInPrivate("en");
const QR_URL = "https://slip.example/api/qr-image?data=abc&size=1024";

describe("a sealed answer", () => {
  it("cannot be relabelled by a cast", () => {
    const payment = staffAnswer("payment_received", SECRET, undefined);
    const forged = { ...payment, audience: "public" } as unknown as PublicAnswer;
    expect(isPublic(forged)).toBe(false);
    expect(() => followedBy(forged, POINTER)).toThrow(/public answers only/);
    expect(() => afterNote(forged, POINTER)).toThrow(/must be public/);
    expect(() => messagesOf(forged)).toThrow(/was not made by/);
    expect(() => publicAnswer("payment_received" as unknown as "help", SECRET)).toThrow(/not a public kind/);
    expect(() => staffAnswer("help" as unknown as "history", SECRET, undefined)).toThrow(/not a staff kind/);
    expect(() => staffAnswer("history", SECRET, payment as unknown as PublicAnswer)).toThrow(/fallback/);
  });

  it("keeps its audience through a note: a staff answer stays staff, its fallback gets the note too", () => {
    const note = publicAnswer("edited_note", [{ type: "text", text: "(edited)" }]);
    const noted: Answer = afterNote(note, staffAnswer("history", SECRET, POINTER));
    expect(noted).toMatchObject({ audience: "staff", kind: "history" });
    expect(noted.audience === "staff" && noted.fallback !== undefined && messagesOf(noted.fallback)).toEqual([
      { type: "text", text: "(edited)" },
      ...messagesOf(POINTER),
    ]);
  });

  it("is public for a QR that pays the shop, and staff for one that pays another id, falling back to 'only the shop's own'", () => {
    const view = { lang: "en" as const, payee: { type: "phone" as const, digits: "0899999999" }, amount: 200, url: QR_URL, forCustomers: false };
    expect(renderQr({ ...view, paysShop: true })).toMatchObject({ audience: "public", kind: "qr_card" });
    const other = renderQr({ ...view, paysShop: false });
    expect(other).toMatchObject({ audience: "staff", kind: "qr_card_other_payee", fallback: { audience: "public", kind: "qr_shop_only" } });
    // With the check-payment button, the fallback is still no card for another id.
    const withCheck = renderQr({ ...view, paysShop: false, checkPayment: "paid 200 after 2026-11-24T07:05:00.000Z" });
    expect(withCheck).toMatchObject({ audience: "staff", kind: "qr_card_with_check", fallback: { kind: "qr_shop_only" } });
  });
});
