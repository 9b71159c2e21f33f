// Edited messages (LINE's messageEdited, groups only): an edit is answered as the new command, with a short
// "(edited)" note, only when it asks for something else; a change of spacing, case or a word outside the
// command, an older edit arriving after a newer one, and an edit into chatter get nothing. Never two QR
// cards for one message unless the amount or the id changed, whatever order the edits arrive in.
import type { messagingApi } from "@line/bot-sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { handleEditedText, handleText } from "../../src/handlers/index.js";
import type { HandlerDeps } from "../../src/handlers/context.js";
import { memoryVersions } from "../../src/stores/versions.js";
import { visibleText } from "../render/line-limits.js";
import { deps, fakeSlip, GROUP_CHAT, recordingContext } from "./fakes.js";

const MESSAGE = "325708";
const BOT_MENTION = "@slipline ";

function withVersions(lang: "th" | "en" = "en"): HandlerDeps {
  return { ...deps(fakeSlip(), { defaultLang: lang }), versions: memoryVersions() };
}

/** Sends the original (time 1000) and then each edit with its time; returns what each one got. */
async function conversation(original: string, edits: readonly { text: string; at: number }[], shared = withVersions()) {
  const said: { text: string; outcome: string; reply: messagingApi.Message[] }[] = [];
  const first = recordingContext(GROUP_CHAT, "U1111");
  const outcome = await handleText({ text: original, mentionees: [], messageId: MESSAGE, timestamp: 1000 }, first, shared);
  said.push({ text: original, outcome: outcome.outcome, reply: first.sent.flat() });
  for (const edit of edits) {
    const ctx = recordingContext(GROUP_CHAT, "U1111");
    const result = await handleEditedText({ text: edit.text, mentionees: [], messageId: MESSAGE, timestamp: edit.at }, ctx, shared);
    said.push({ text: edit.text, outcome: result.outcome, reply: ctx.sent.flat() });
  }
  return said;
}

const qrCards = (reply: readonly messagingApi.Message[]): number => reply.filter((m) => m.type === "flex" && m.altText.includes("QR")).length;

describe("an edited message", () => {
  it.each([
    ["spacing", "qr   150"],
    ["case", "QR 150"],
    ["a Thai command word for the same QR", "คิวอาร์ 150"],
    ["the same amount written otherwise", "qr 150.00"],
  ])("that changes only %s gets no second answer", async (_what, edited) => {
    const said = await conversation("qr 150", [{ text: edited, at: 2000 }]);
    expect(qrCards(said[0]?.reply ?? [])).toBe(1);
    expect(said[1]).toMatchObject({ outcome: "edit_unchanged", reply: [] });
  });

  it("that asks for another amount is answered as the new command, with the (edited) note first", async () => {
    const said = await conversation("qr 150", [{ text: "qr 200", at: 2000 }]);
    const reply = said[1]?.reply ?? [];
    expect(said[1]?.outcome).toBe("answered");
    expect(reply[0]).toMatchObject({ type: "text" });
    expect(visibleText([reply[0] as messagingApi.Message])).toMatch(/edited/);
    expect(visibleText(reply)).toContain("฿200.00");
    expect(qrCards(reply)).toBe(1);
  });

  it("that arrives after a newer one is ignored, and the newer one stands", async () => {
    const said = await conversation("qr 150", [
      { text: "qr 300", at: 3000 },
      { text: "qr 200", at: 2000 },
    ]);
    expect(visibleText(said[1]?.reply ?? [])).toContain("฿300.00");
    expect(said[2]).toMatchObject({ outcome: "edit_unchanged", reply: [] });
  });

  it("into chatter gets nothing; chatter edited into a command is answered", async () => {
    expect((await conversation("qr 150", [{ text: "thanks everyone", at: 2000 }]))[1]).toMatchObject({ reply: [] });
    const fromChatter = await conversation("hello all", [{ text: "qr 150", at: 2000 }]);
    expect(fromChatter[0]?.reply).toEqual([]);
    expect(qrCards(fromChatter[1]?.reply ?? [])).toBe(1);
  });

  it("is not answered when its versions cannot be compared (a missed edit beats a second QR card)", async () => {
    const failing: HandlerDeps = {
      ...withVersions(),
      versions: { record: () => Promise.reject(new Error("redis away")), remember: () => Promise.reject(new Error("redis away")) },
    };
    const ctx = recordingContext(GROUP_CHAT, "U1111");
    expect(await handleEditedText({ text: "qr 200", mentionees: [], messageId: MESSAGE, timestamp: 2000 }, ctx, failing)).toMatchObject({ outcome: "edit_unchanged" });
    expect(ctx.sent).toEqual([]);
  });

  it("never brings two QR cards for one message unless the amount or the id changed, whatever order the edits arrive in", async () => {
    const TEXTS = ["qr 150", "qr  150", "QR 150", "qr 200", "qr 0812345678 200", "qr 0899999999 200", "thanks", "qr", "qr 150 please", `${BOT_MENTION}qr 150`];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TEXTS),
        fc.array(fc.record({ text: fc.constantFrom(...TEXTS), at: fc.integer({ min: 1001, max: 1100 }) }), { minLength: 1, maxLength: 6 }),
        async (original, edits) => {
          const said = await conversation(original, edits);
          // Replay the rule from outside: the latest version seen so far, and what each answered card paid.
          let latestAt = 1000;
          let latestText = original;
          let lastCard = qrCards(said[0]?.reply ?? []) > 0 ? cardOf(said[0]?.reply ?? []) : undefined;
          edits.forEach((edit, i) => {
            const reply = said[i + 1]?.reply ?? [];
            if (edit.at <= latestAt) {
              expect(reply, `an older edit (${edit.at} after ${latestAt}) is ignored`).toEqual([]);
              return;
            }
            latestAt = edit.at;
            const before = latestText;
            latestText = edit.text;
            if (qrCards(reply) === 0) return;
            const card = cardOf(reply);
            // A second card only when what it pays differs from the message's card before.
            if (lastCard !== undefined) expect(card, `after "${before}" came "${edit.text}"`).not.toEqual(lastCard);
            lastCard = card;
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** What a QR card pays, as shown: the amount and the masked payee. */
function cardOf(reply: readonly messagingApi.Message[]): string {
  const text = visibleText(reply.filter((m) => m.type === "flex"));
  return `${/฿[\d,.]+/.exec(text)?.[0] ?? "any amount"} ${/\d{3}-x{3}-\d{4}|x+\d+/.exec(text)?.[0] ?? ""}`;
}
