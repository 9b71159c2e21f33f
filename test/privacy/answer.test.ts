// Answers sealed with their audience hold at run time too: a cast cannot make a staff answer public, a
// combinator cannot smuggle one into a public answer, and a QR that pays anyone but the shop is a staff answer.
import type { messagingApi } from "@line/bot-sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/commands/parse.js";
import { COMMANDS } from "../../src/commands/registry.js";
import { afterNote, followedBy, isPublic, messagesOf, publicAnswer, staffAnswer } from "../../src/privacy/answer.js";
import type { Answer, PublicAnswer } from "../../src/privacy/answer.js";
import { renderAskInPrivate, renderDidYouMean, renderGreeting, renderSlipPhotoHint, renderUnknownCommand, renderUsageError } from "../../src/render/errors.js";
import { renderHelp } from "../../src/commands/help/render.js";
import { renderQr } from "../../src/commands/qr/render.js";

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
    expect(noted.audience === "staff" && noted.fallback !== undefined && messagesOf(noted.fallback)).toEqual([{ type: "text", text: "(edited)" }, ...messagesOf(POINTER)]);
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

  it("cannot be public with a button or quick reply that asks for the shop's data", () => {
    const tap = (action: messagingApi.Action): messagingApi.Message[] => [{ type: "text", text: "hi", quickReply: { items: [{ type: "action", action }] } }];
    for (const action of [
      { type: "message", label: "h", text: "history" },
      { type: "message", label: "ยอด", text: "ยอด" },
      { type: "message", label: "b", text: "/Balance" },
      { type: "postback", label: "p", data: "เช็คยอด 150 หลัง 2026-11-24T07:05:00.000Z", displayText: "เช็คยอด 150" },
    ] as const) {
      expect(() => publicAnswer("customer_note", tap(action)), JSON.stringify(action)).toThrow(/staff command/);
    }
    const button: messagingApi.Message = {
      type: "flex",
      altText: "card",
      contents: {
        type: "bubble",
        footer: { type: "box", layout: "vertical", contents: [{ type: "button", action: { type: "postback", label: "more", data: "history 7d page 2" } }] },
      },
    };
    expect(() => publicAnswer("help", [button])).toThrow(/staff command/);
    // What customers may tap: pay by QR, help, contact the shop.
    for (const text of ["คิวอาร์", "qr 150", "วิธีใช้", "help", "ติดต่อร้าน"]) {
      expect(publicAnswer("customer_note", tap({ type: "message", label: "x", text }))).toMatchObject({ audience: "public" });
    }
  });

  it("reads a button's text as the parser does: full-width, zero-width, glued Thai and lead-ins are no way past it", () => {
    const tap = (text: string): messagingApi.Message[] => [
      { type: "text", text: "hi", quickReply: { items: [{ type: "action", action: { type: "message", label: "x", text } }] } },
    ];
    // Written out, not read from the bot: the forms that passed the guard's simpler reading before.
    for (const text of ["ｈｉｓｔｏｒｙ", "\u200Bhistory", "ประวัติเมื่อวาน", "ยอด\u200B", "ขอดูประวัติ", "ＢＡＬＡＮＣＥ", "\u00ADhistory", "เช็คยอด๑๕๐"]) {
      expect(() => publicAnswer("customer_note", tap(text)), text).toThrow(/staff command/);
    }
    // Property: whatever odd form a text takes, the guard refuses it exactly when the parser reads a staff command in it.
    const words = ["history", "ประวัติ", "balance", "ยอด", "qr 150", "คิวอาร์150", "help", "วิธีใช้", "เช็คยอด 150", "สวัสดี", "ขอดู", "export", "summary"];
    const odd = fc.constantFrom("", "\u200B", "\u2060", "\u00AD", "\uFEFF", " ", "\u3000", "/");
    const toFullWidth = (text: string): string => text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    fc.assert(
      fc.property(fc.constantFrom(...words), odd, odd, fc.boolean(), (word, before, inside, wide) => {
        const middle = Math.floor(word.length / 2);
        const text = `${before}${wide ? toFullWidth(word) : word}`;
        const written = inside === "/" ? text : `${text.slice(0, before.length + middle)}${inside}${text.slice(before.length + middle)}`;
        const read = parseCommand(written, { now: new Date(0), timeZone: "Asia/Bangkok", defaultLang: "th" });
        const name = read.ok ? read.command.kind : read.failure.kind === "usage" ? read.failure.command : undefined;
        const staff = name !== undefined && COMMANDS[name].audience === "staff";
        if (staff) expect(() => publicAnswer("customer_note", tap(written))).toThrow(/staff command/);
        else expect(publicAnswer("customer_note", tap(written))).toMatchObject({ audience: "public" });
      }),
      { numRuns: 300 },
    );
  });

  it("is staff for what only staff are told, each falling back to what a customer gets (or nothing, for a photo)", () => {
    const cases: [string, Answer, string | undefined][] = [
      ["the staff greeting", renderGreeting("th", "staff"), "greeting"],
      ["the staff help", renderHelp({ lang: "en", role: "staff" }), "help"],
      ["one command's help", renderHelp({ lang: "en", role: "staff", topic: "history" }), "help"],
      ["unknown command", renderUnknownCommand("en", "abc"), "customer_note"],
      ["did you mean", renderDidYouMean("en", "histroy", "history"), "customer_note"],
      ["a QR's usage", renderUsageError({ lang: "en", command: "qr", problem: { code: "bad_amount", input: "x" } }), "pay_hint"],
      ["history's usage", renderUsageError({ lang: "en", command: "history", problem: { code: "bad_page", input: "0" } }), "customer_note"],
      ["the photo hint", renderSlipPhotoHint("en"), undefined],
    ];
    for (const [what, answer, fallback] of cases) {
      expect(answer.audience, what).toBe("staff");
      expect(answer.audience === "staff" ? answer.fallback?.kind : "not staff", what).toBe(fallback);
    }
    expect(renderGreeting("en", "customer")).toMatchObject({ audience: "public", kind: "greeting" });
    expect(renderHelp({ lang: "en", role: "customer" })).toMatchObject({ audience: "public", kind: "help" });
  });
});
