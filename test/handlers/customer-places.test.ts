// Where customers read the answer, it is theirs, whoever wrote: a staff member's greeting, typo, chatter,
// mistyped QR, edit or photo in a group with customers gets what a customer gets there (plus the pointer
// to a private chat when the typo meant a private command), never the staff greeting, a "did you mean",
// "unknown command" or the staff commands as buttons. And `id` shows each place only what its readers
// may see. Expected texts are written out here, as a customer would read them.
import type { messagingApi } from "@line/bot-sdk";
import { describe, expect, it } from "vitest";
import { handleEditedText, handleNonText, handleText } from "../../src/handlers/index.js";
import type { HandlerDeps } from "../../src/handlers/context.js";
import { memoryVersions } from "../../src/stores/versions.js";
import { quickReplyLabels, visibleText } from "../render/line-limits.js";
import { deps, fakeSlip, recordingContext, type RecordingContext } from "./fakes.js";

const STAFF = "U_STAFF";
const CUSTOMER = "U_CUSTOMER";
const LISTS = { staffUserIds: new Set([STAFF]), staffGroupIds: new Set(["C_STAFF"]) };
const NOBODY = { staffUserIds: new Set<string>(), staffGroupIds: new Set<string>() };
const CUSTOMER_GROUP = { type: "group", id: "C_CUSTOMERS" } as const;
const STAFF_GROUP = { type: "group", id: "C_STAFF" } as const;

const BOT = "@ShopBot ";
const addressed = (words: string) => ({ text: `${BOT}${words}`, mentionees: [{ index: 0, length: BOT.length - 1, isSelf: true }] });
const plain = (words: string) => ({ text: words, mentionees: [] });

/** The customers' note, as docs/thai.md gives it, with its one button; and the pointer to a private chat. */
const CUSTOMER_NOTE = {
  en: { text: "Thanks for your message! The shop will reply soon 🙏\nTo pay, tap “Pay by QR” below.", buttons: ["Pay by QR", "How to pay"] },
  th: { text: "ขอบคุณที่ทักมานะคะ ทางร้านจะรีบตอบกลับค่ะ 🙏\nถ้าต้องการชำระเงิน กดปุ่ม “จ่ายด้วย QR” ด้านล่างได้เลยนะคะ", buttons: ["จ่ายด้วย QR", "วิธีจ่ายเงิน"] },
} as const;
const POINTER = {
  en: "Please ask me for the shop's data in our 1:1 chat or in the staff group.",
  th: "ข้อมูลร้านดูได้เฉพาะในแชทส่วนตัว หรือในกลุ่มพนักงานค่ะ",
} as const;

function withLists(lists = LISTS, lang: "th" | "en" = "en"): HandlerDeps {
  return { ...deps(fakeSlip(), { ...lists, defaultLang: lang }), versions: memoryVersions() };
}

function only(ctx: RecordingContext, audience: "public" | "staff" = "public"): messagingApi.Message[] {
  expect(ctx.sent).toHaveLength(1);
  // Everything that reaches a group with customers is public: the send boundary never has to step in. Only
  // a staff place may be sent a staff answer (the test says so).
  expect(ctx.answers.map((a) => a.audience)).toEqual([audience]);
  return ctx.sent[0] ?? [];
}

describe("a staff member's words that are no command, in a group with customers", () => {
  it.each([
    ["a greeting", "hello", "en"],
    ["a Thai greeting", "สวัสดีค่ะ", "th"],
    ["chatter", "whatever", "en"],
    ["Thai chatter", "ขอบคุณนะ", "th"],
    ["a typo of a command everyone may use", "hepl", "en"],
    ["a QR typo", "qrr 150", "en"],
  ] as const)("%s addressed to the bot gets the customers' note, once in 12 hours, with the customers' button only", async (_what, words, lang) => {
    const d = withLists(LISTS, lang);
    const first = recordingContext(CUSTOMER_GROUP, STAFF, LISTS);
    expect(await handleText(addressed(words), first, d)).toEqual({ command: "none", outcome: "noted" });
    const reply = only(first);
    expect(visibleText(reply)).toBe(CUSTOMER_NOTE[lang].text);
    expect(quickReplyLabels(reply[0])).toEqual(CUSTOMER_NOTE[lang].buttons);
    const again = recordingContext(CUSTOMER_GROUP, STAFF, LISTS);
    expect(await handleText(addressed(words), again, d)).toEqual({ command: "none", outcome: "ignored" });
    expect(again.sent).toEqual([]);
  });

  it.each([
    ["histroy", "en"],
    ["blance", "en"],
    ["summry", "en"],
    ["เชคยอด", "th"],
    ["ประวัต", "th"],
    ["ยอดค่ะ", "th"],
  ] as const)("a typo of a private command (%s) gets the pointer its right spelling gets, never a 'did you mean' naming it", async (typo, lang) => {
    const ctx = recordingContext(CUSTOMER_GROUP, STAFF, LISTS);
    expect((await handleText(addressed(typo), ctx, withLists())).outcome).toBe("pointed_to_private");
    expect(visibleText(only(ctx))).toBe(POINTER[lang]);
    expect(quickReplyLabels(ctx.sent[0]?.[0])).toEqual([]);
  });

  it("is quiet when the bot is not addressed, as for anyone there", async () => {
    for (const words of ["hello", "histroy", "whatever", "เชคยอด"]) {
      const ctx = recordingContext(CUSTOMER_GROUP, STAFF, LISTS);
      expect((await handleText(plain(words), ctx, withLists())).outcome, words).toBe("ignored");
      expect(ctx.sent).toEqual([]);
    }
  });

  it("a customer there gets the same note, and the same pointer-free answer to a typo", async () => {
    const ctx = recordingContext(CUSTOMER_GROUP, CUSTOMER, LISTS);
    expect(await handleText(addressed("histroy"), ctx, withLists())).toEqual({ command: "none", outcome: "noted" });
    expect(visibleText(only(ctx))).toBe(CUSTOMER_NOTE.en.text);
  });

  it("the same words in a staff place still get the staff's answers: greeting, did you mean, the commands to tap", async () => {
    const greeting = recordingContext(STAFF_GROUP, STAFF, LISTS);
    await handleText(addressed("hello"), greeting, withLists());
    expect(greeting.answers.map((a) => [a.audience, a.kind])).toEqual([["staff", "staff_greeting"]]);
    expect(quickReplyLabels(greeting.sent[0]?.[0])).toEqual(["qr", "history", "summary", "summary yesterday", "balance", "help"]);
    const typo = recordingContext({ type: "user", id: STAFF }, STAFF, LISTS);
    await handleText(plain("histroy"), typo, withLists());
    expect(visibleText(typo.sent[0] ?? [])).toBe("Unknown command “histroy”. Did you mean “history”?");
    expect(typo.answers.map((a) => [a.audience, a.kind])).toEqual([["staff", "did_you_mean"]]);
  });
});

describe("a staff member's mistyped QR in a group with customers", () => {
  it("gets the customers' example to copy, never the command's notation", async () => {
    const ctx = recordingContext(CUSTOMER_GROUP, STAFF, LISTS);
    expect(await handleText(plain("qr 0812345678 0"), ctx, withLists())).toEqual({ command: "qr", outcome: "usage_error" });
    const reply = only(ctx);
    expect(visibleText(reply)).toBe("To pay, send “qr” with the amount, like “qr 150”.");
    expect(quickReplyLabels(reply[0])).toEqual(["Pay by QR", "How to pay"]);
  });

  it("edited into another mistake, gets the same, after the (edited) note", async () => {
    const d = withLists();
    const first = recordingContext(CUSTOMER_GROUP, STAFF, LISTS);
    await handleText({ ...plain("qr 150"), messageId: "7001", timestamp: 1000 }, first, d);
    const edit = recordingContext(CUSTOMER_GROUP, STAFF, LISTS);
    expect(await handleEditedText({ ...plain("qr 0812345678 1.234"), messageId: "7001", timestamp: 2000 }, edit, d)).toEqual({ command: "qr", outcome: "usage_error" });
    expect(visibleText(only(edit))).toBe("✏️ (edited) Answering the new text.\nTo pay, send “qr” with the amount, like “qr 150”.");
  });
});

describe("a photo", () => {
  it("from staff gets the slip hint in their own 1:1 chat only: a group, staff or not, stays quiet", async () => {
    const own = recordingContext({ type: "user", id: STAFF }, STAFF, LISTS);
    expect((await handleNonText("image", own, withLists())).outcome).toBe("unknown_command");
    expect(own.answers.map((a) => [a.audience, a.kind])).toEqual([["staff", "slip_photo_hint"]]);
    for (const chat of [CUSTOMER_GROUP, STAFF_GROUP]) {
      for (const type of ["image", "video", "sticker"]) {
        const ctx = recordingContext(chat, STAFF, LISTS);
        expect((await handleNonText(type, ctx, withLists())).outcome, `${type} in ${chat.id}`).toBe("ignored");
        expect(ctx.sent).toEqual([]);
      }
    }
  });
});

describe("id", () => {
  it.each([STAFF, CUSTOMER, undefined])("in a group with customers shows the group's id alone, whoever asks (%s)", async (who) => {
    for (const lists of [LISTS, NOBODY]) {
      const ctx = recordingContext(CUSTOMER_GROUP, who, lists);
      expect(await handleText(plain("id"), ctx, withLists(lists))).toEqual({ command: "id", outcome: "answered" });
      const said = visibleText(only(ctx));
      expect(said).toBe("This group's id: C_CUSTOMERS\nTo see your own user id, send “id” in a 1:1 chat with the shop.");
      expect(said).not.toMatch(/U_|staff|owner|restart|STAFF_/i);
    }
    const thai = recordingContext(CUSTOMER_GROUP, who, LISTS);
    await handleText(plain("ไอดี"), thai, withLists());
    expect(visibleText(only(thai))).toBe("ไอดีกลุ่มนี้: C_CUSTOMERS\nดูไอดีผู้ใช้ของคุณได้ในแชทส่วนตัวกับร้าน โดยพิมพ์ “ไอดี” ค่ะ");
  });

  it("in a 1:1 chat shows the asker their own id; the owner's set-up steps only while nobody is staff", async () => {
    const customer = recordingContext({ type: "user", id: CUSTOMER }, CUSTOMER, LISTS);
    await handleText(plain("id"), customer, withLists());
    expect(visibleText(only(customer))).toBe("Your user id: U_CUSTOMER");
    const member = recordingContext({ type: "user", id: STAFF }, STAFF, LISTS);
    await handleText(plain("id"), member, withLists());
    expect(visibleText(only(member, "staff"))).toBe("Your user id: U_STAFF\nYou are on the bot's staff list.");
    const owner = recordingContext({ type: "user", id: "U_OWNER" }, "U_OWNER", NOBODY);
    await handleText(plain("ไอดี"), owner, withLists(NOBODY));
    expect(visibleText(only(owner))).toBe(
      [
        "ไอดีผู้ใช้ของคุณ: U_OWNER",
        "ยังไม่ได้ตั้งรายชื่อพนักงาน บอทจึงยังไม่แสดงข้อมูลร้านให้ใครดูค่ะ",
        "เจ้าของร้านทำตามนี้ได้เลยค่ะ",
        "1. เพิ่มไอดีด้านบนในรายชื่อพนักงานของบอท",
        "2. เริ่มบอทใหม่ แล้วพิมพ์ “วิธีใช้” ในแชทนี้",
      ].join("\n"),
    );
  });

  it("in a staff group shows the sender's id, the group's, and that the group is a staff group", async () => {
    const ctx = recordingContext(STAFF_GROUP, STAFF, LISTS);
    await handleText(plain("id"), ctx, withLists());
    // Set-up data for staff (a member's id, what the lists say): a staff answer, which only a staff place gets.
    expect(visibleText(only(ctx, "staff"))).toBe("Your user id: U_STAFF\nThis group's id: C_STAFF\nThis group is a staff group: everyone in it sees the shop's data.");
  });
});
