import type { messagingApi } from "@line/bot-sdk";
import { describe, expect, it } from "vitest";
import { handleGreeting, handleMemberJoined, handleNonText, handlePostback, handleText } from "../../src/handlers/index.js";
import {
  InvalidRequestError,
  PackageExpiredError,
  QrMismatchError,
  ResponseShapeError,
  ServiceError,
  ServiceUnavailableError,
  UnauthorizedError,
  type AnySlipClientError,
} from "../../src/slip/errors.js";
import type { HistoryItem } from "../../src/slip/types.js";
import { lineLimitProblems, quickReplyLabels, visibleText } from "../render/line-limits.js";
import { deps, fakeSlip, GROUP_CHAT, makeItems, recordingContext, USER_CHAT } from "./fakes.js";

const text = (value: string) => ({ text: value, mentionees: [] });
const mention = (textValue: string, at: number, length: number, isSelf: boolean) => ({
  text: textValue,
  mentionees: [{ index: at, length, isSelf }],
});

function lastReply(ctx: { sent: messagingApi.Message[][] }): messagingApi.Message[] {
  expect(ctx.sent).toHaveLength(1);
  const reply = ctx.sent[0] ?? [];
  expect(lineLimitProblems(reply)).toEqual([]);
  return reply;
}

function nextPageData(reply: messagingApi.Message[]): string | undefined {
  const message = reply[0];
  if (message?.type !== "flex") return undefined;
  const bubble = message.contents as messagingApi.FlexBubble;
  const buttons = (bubble.footer?.contents ?? []) as messagingApi.FlexButton[];
  const next = buttons.find((b) => b.style === "primary");
  return next?.action.type === "postback" ? next.action.data : undefined;
}

function rowRefs(reply: messagingApi.Message[]): string[] {
  return [...visibleText(reply).matchAll(/REF\d{6}/g)].map((m) => m[0]);
}

function countOf(items: readonly HistoryItem[], status: string): number {
  return items.filter((i) => i.status === status).length;
}

function validTotal(items: readonly HistoryItem[]): number {
  return items.filter((i) => i.status === "valid").reduce((sum, i) => sum + Math.round((i.amount ?? 0) * 100), 0) / 100;
}

describe("qr", () => {
  it("makes a QR for the given id and amount, in English", async () => {
    const slip = fakeSlip();
    const ctx = recordingContext(USER_CHAT, "U1111");
    const outcome = await handleText(text("qr 0812345678 150"), ctx, deps(slip));
    expect(outcome).toEqual({ command: "qr", outcome: "answered" });
    expect(slip.qrCalls).toEqual([{ accountNumber: "0812345678", amount: 150, size: 1024 }]);
    const reply = lastReply(ctx);
    expect(reply.map((m) => m.type)).toEqual(["flex", "image"]);
    expect(visibleText(reply)).toContain("฿150.00");
    expect(visibleText(reply)).toContain("081-xxx-5678");
    expect(visibleText(reply)).toContain("Scan it, or save the picture and pay from any Thai banking app");
    // Staff's own chat: the customer pays at the counter, so no "send the slip in this chat".
    expect(visibleText(reply)).not.toContain("send the slip");
  });

  it("uses the shop's PromptPay id for an amount alone, in Thai", async () => {
    const slip = fakeSlip();
    const ctx = recordingContext(USER_CHAT, "U1111");
    await handleText(text("คิวอาร์ 1,500.50"), ctx, deps(slip, { promptPayId: { type: "citizen", digits: "0105551234567" } }));
    expect(slip.qrCalls).toEqual([{ accountNumber: "0105551234567", amount: 1500.5, size: 1024 }]);
    const reply = lastReply(ctx);
    expect(visibleText(reply)).toContain("฿1,500.50");
    expect(visibleText(reply)).toContain("เลขบัตรประชาชน/เลขผู้เสียภาษี");
    expect(visibleText(reply)).not.toContain("0105551234567");
  });

  it("says how to give the id when none is configured", async () => {
    const slip = fakeSlip();
    const ctx = recordingContext(USER_CHAT, "U1111");
    const outcome = await handleText(text("qr 150"), ctx, deps(slip, { promptPayId: undefined }));
    expect(outcome).toEqual({ command: "qr", outcome: "usage_error" });
    expect(slip.qrCalls).toEqual([]);
    expect(visibleText(lastReply(ctx))).toContain("qr 0812345678 150");
  });

  it("answers a bad amount with the usage, without calling the service", async () => {
    const slip = fakeSlip();
    const ctx = recordingContext(USER_CHAT, "U1111");
    const outcome = await handleText(text("qr 0812345678 1.234"), ctx, deps(slip));
    expect(outcome).toEqual({ command: "qr", outcome: "usage_error" });
    expect(slip.qrCalls).toEqual([]);
    expect(visibleText(lastReply(ctx))).toContain("Usage: qr [promptpay-id] [amount]");
  });
});

describe("history", () => {
  it("shows today's page with one service call when the range holds at most 100 checks (English)", async () => {
    const items = makeItems(37);
    const slip = fakeSlip({ items });
    const ctx = recordingContext(USER_CHAT, "U1111");
    const outcome = await handleText(text("history"), ctx, deps(slip));
    expect(outcome).toEqual({ command: "history", outcome: "answered" });
    expect(ctx.loadings).toBe(1);
    expect(slip.historyCalls).toEqual([{ from: new Date("2026-11-21T17:00:00.000Z"), to: new Date("2026-11-22T16:59:59.999Z"), limit: 100, page: 1 }]);
    const reply = lastReply(ctx);
    const seen = visibleText(reply);
    expect(seen).toContain("37 checks");
    expect(seen).toContain(`Valid total ฿${validTotal(items).toLocaleString("en-US", { minimumFractionDigits: 2 })}`);
    expect(seen).toContain(`Valid ${countOf(items, "valid")}  Invalid ${countOf(items, "invalid")}  Fraud ${countOf(items, "fraud")}`);
    expect(seen).toContain("Page 1 of 4");
    expect(rowRefs(reply)).toEqual(items.slice(0, 10).map((i) => i.transRef));
  });

  it("filters by status in Thai and does not show the loading animation in a group", async () => {
    const items = makeItems(40);
    const slip = fakeSlip({ items });
    const ctx = recordingContext(GROUP_CHAT, "U1111");
    await handleText(text("ประวัติ วันนี้ ปลอม"), ctx, deps(slip));
    expect(ctx.loadings).toBe(0);
    expect(slip.historyCalls[0]).toMatchObject({ status: "fraud", limit: 100, page: 1 });
    const seen = visibleText(lastReply(ctx));
    expect(seen).toContain("สถานะ: ปลอม");
    expect(seen).toContain("ตรวจ 5 สลิป");
    expect(seen).toContain("วันนี้ · 22 พ.ย. 2569");
  });

  it("pages across the 100-item boundary of the service when the range holds 250 checks", async () => {
    const items = makeItems(250);
    const slip = fakeSlip({ items });
    const ctx = recordingContext(USER_CHAT, "U1111");
    await handleText(text("history"), ctx, deps(slip));
    // The summary needs all 250: pages 1 to 3 of 100.
    expect(slip.historyCalls.map((q) => [q.page, q.limit])).toEqual([
      [1, 100],
      [2, 100],
      [3, 100],
    ]);
    const first = lastReply(ctx);
    const seen = visibleText(first);
    expect(seen).toContain("250 checks");
    expect(seen).toContain(`฿${validTotal(items).toLocaleString("en-US", { minimumFractionDigits: 2 })}`);
    expect(seen).toContain(`Valid ${countOf(items, "valid")}  Invalid ${countOf(items, "invalid")}  Fraud ${countOf(items, "fraud")}`);
    expect(seen).toContain("Page 1 of 25");

    // Follow "next page" ten times: page 11 holds items 100..109, from the service's second page.
    let data = nextPageData(first);
    let reply = first;
    for (let page = 2; page <= 11; page += 1) {
      expect(data).toBeDefined();
      const tap = recordingContext(USER_CHAT, "U1111");
      const outcome = await handlePostback(data ?? "", tap, deps(slip));
      expect(outcome).toEqual({ command: "history", outcome: "answered" });
      reply = lastReply(tap);
      data = nextPageData(reply);
    }
    expect(rowRefs(reply)).toEqual(items.slice(100, 110).map((i) => i.transRef));
    expect(visibleText(reply)).toContain("Page 11 of 25");
    expect(visibleText(reply)).toContain("250 checks");
  });

  it("marks the summary partial past 2,000 checks, counts statuses with limit=1 calls and fetches a far page directly", async () => {
    const items = makeItems(2_345);
    const slip = fakeSlip({ items });
    const ctx = recordingContext(USER_CHAT, "U1111");
    await handleText(text("history page 201"), ctx, deps(slip));
    const calls = slip.historyCalls;
    expect(calls.filter((q) => q.limit === 100 && q.status === undefined).map((q) => q.page)).toEqual([...Array.from({ length: 20 }, (_, i) => i + 1), 21]);
    expect(
      calls
        .filter((q) => q.limit === 1)
        .map((q) => q.status)
        .sort(),
    ).toEqual(["duplicate", "error", "fraud", "invalid", "not_found", "valid"]);
    const reply = lastReply(ctx);
    const seen = visibleText(reply);
    expect(seen).toContain("2,345 checks");
    expect(seen).toContain(`Valid ${countOf(items, "valid").toLocaleString("en-US")}  Invalid ${countOf(items, "invalid")}`);
    expect(seen).toContain(`฿${validTotal(items.slice(0, 2000)).toLocaleString("en-US", { minimumFractionDigits: 2 })}`);
    expect(seen).toContain("Total counted over the newest 2,000 checks");
    expect(rowRefs(reply)).toEqual(items.slice(2000, 2010).map((i) => i.transRef));
  });

  it("still calls page 2 of today 'today', though its button carries the date", async () => {
    const ctx = recordingContext(USER_CHAT, "U1111");
    await handlePostback("history 2026-11-22 page 2", ctx, deps(fakeSlip({ items: makeItems(37) }), { defaultLang: "en" }));
    const seen = visibleText(lastReply(ctx));
    expect(seen).toContain("Today · 22 Nov 2026");
    expect(seen).toContain("Page 2 of 4");
    const yesterday = recordingContext(USER_CHAT, "U1111");
    await handlePostback("ประวัติ 2026-11-21 หน้า 2", yesterday, deps(fakeSlip({ items: makeItems(37) })));
    expect(visibleText(lastReply(yesterday))).toContain("เมื่อวาน · 21 พ.ย. 2569");
  });

  it("says plainly when nothing matches, and that a page is past the end", async () => {
    const empty = recordingContext(USER_CHAT, "U1111");
    await handleText(text("history yesterday"), empty, deps(fakeSlip({ items: makeItems(5) })));
    expect(visibleText(lastReply(empty))).toContain("No slip checks yesterday.");

    const past = recordingContext(USER_CHAT, "U1111");
    await handleText(text("history page 3"), past, deps(fakeSlip({ items: makeItems(5) })));
    expect(visibleText(lastReply(past))).toContain("There is no page 3: there is only 1 page.");
  });

  it("looks up a transfer reference", async () => {
    const items = makeItems(30);
    const slip = fakeSlip({ items });
    const ctx = recordingContext(USER_CHAT, "U1111");
    await handleText(text("history ref REF000012"), ctx, deps(slip));
    expect(slip.historyCalls).toEqual([{ transRef: "REF000012", limit: 100, page: 1 }]);
    // Once in the header, once as the only row.
    expect(rowRefs(lastReply(ctx))).toEqual(["REF000012", "REF000012"]);
    expect(visibleText(lastReply(ctx))).toMatch(/^1 check$/m);
  });
});

describe("balance, help and id", () => {
  it.each([
    ["balance", "Tokens left", "1,234.50"],
    ["โทเคน", "โทเคนคงเหลือ", "31 ม.ค. 2570"],
    ["ยอดคงเหลือ", "แพ็กเกจตรวจสลิป", "31 ม.ค. 2570"],
  ])("%s shows the account", async (command, label, value) => {
    const slip = fakeSlip();
    const ctx = recordingContext(USER_CHAT, "U1111");
    expect(await handleText(text(command), ctx, deps(slip))).toEqual({ command: "balance", outcome: "answered" });
    const seen = visibleText(lastReply(ctx));
    expect(seen).toContain(label);
    expect(seen).toContain(value);
  });

  it.each([
    ["help", "Commands: qr 150, history yesterday, summary 7d"],
    ["วิธีใช้", "วิธีใช้: “คิวอาร์ 150” “ประวัติ เมื่อวาน” “ยอดเมื่อวาน”"],
  ])("%s lists the commands", async (command, alt) => {
    const ctx = recordingContext(USER_CHAT, "U1111");
    expect(await handleText(text(command), ctx, deps(fakeSlip()))).toEqual({ command: "help", outcome: "answered" });
    const reply = lastReply(ctx);
    expect(reply[0]?.type === "flex" ? reply[0].altText : "").toContain(alt);
    expect(quickReplyLabels(reply[0])).toHaveLength(6);
  });

  it.each([
    ["id", "Your user id: U9999\nThis group's id: C2222"],
    ["ไอดี", "ไอดีผู้ใช้ของคุณ: U9999\nไอดีกลุ่มนี้: C2222"],
  ])("%s shows the user and group ids", async (command, expected) => {
    const ctx = recordingContext(GROUP_CHAT, "U9999");
    await handleText(text(command), ctx, deps(fakeSlip()));
    expect(visibleText(lastReply(ctx))).toContain(expected);
  });
});

describe("the group rule", () => {
  it("acts on a group message whose first word is a command", async () => {
    const ctx = recordingContext(GROUP_CHAT, "U1111");
    expect(await handleText(text("qr 150"), ctx, deps(fakeSlip()))).toEqual({ command: "qr", outcome: "answered" });
    expect(ctx.sent).toHaveLength(1);
  });

  it("acts when the bot is mentioned, with the mention cut out", async () => {
    const slip = fakeSlip();
    const ctx = recordingContext(GROUP_CHAT, "U1111");
    const outcome = await handleText(mention("@ShopBot qr 0812345678 99", 0, 8, true), ctx, deps(slip));
    expect(outcome).toEqual({ command: "qr", outcome: "answered" });
    expect(slip.qrCalls).toEqual([{ accountNumber: "0812345678", amount: 99, size: 1024 }]);
  });

  it("says nothing to group talk, to a message that opens by mentioning someone else, or to talk that starts with a command word", async () => {
    for (const input of [text("สวัสดีครับ วันนี้เปิดไหม"), mention("@Alice qr 150", 0, 6, false), text("pay me back later")]) {
      const ctx = recordingContext(GROUP_CHAT, "U1111");
      const outcome = await handleText(input, ctx, deps(fakeSlip()));
      expect(outcome.outcome).toBe("ignored");
      expect(ctx.sent).toEqual([]);
    }
  });

  it("still answers a clear mistake in a group command, and unknown text when the bot is mentioned", async () => {
    const mistake = recordingContext(GROUP_CHAT, "U1111");
    expect(await handleText(text("qr 0812345678 0"), mistake, deps(fakeSlip()))).toEqual({ command: "qr", outcome: "usage_error" });

    const asked = recordingContext(GROUP_CHAT, "U1111");
    const outcome = await handleText(mention("@ShopBot whatever", 0, 8, true), asked, deps(fakeSlip()));
    expect(outcome).toEqual({ command: "none", outcome: "unknown_command" });
    expect(visibleText(lastReply(asked))).toContain("whatever");
  });

  it("answers unknown text in a 1:1 chat with a short help", async () => {
    const ctx = recordingContext(USER_CHAT, "U1111");
    expect(await handleText(text("ขอบคุณนะ"), ctx, deps(fakeSlip()))).toEqual({ command: "none", outcome: "unknown_command" });
    const reply = lastReply(ctx);
    expect(visibleText(reply)).toBe("ไม่รู้จักคำสั่ง “ขอบคุณนะ” ค่ะ ลองพิมพ์ “คิวอาร์ 150”, “ประวัติ” หรือ “ยอด” นะคะ\nพิมพ์ “วิธีใช้” เพื่อดูคำสั่งทั้งหมดค่ะ");
    expect(quickReplyLabels(reply[0])).toEqual(["คิวอาร์", "ประวัติ", "ยอด", "ยอดเมื่อวาน", "โทเคน", "วิธีใช้"]);
  });

  it.each([
    ["histroy", "Did you mean “history”?", "history"],
    ["blance", "Did you mean “balance”?", "balance"],
    ["hepl", "Did you mean “help”?", "help"],
  ])("asks staff whether %s meant a command, with it as a quick reply", async (typo, says, command) => {
    const ctx = recordingContext(USER_CHAT, "U1111");
    await handleText(text(typo), ctx, deps(fakeSlip(), { defaultLang: "en" }));
    const reply = lastReply(ctx);
    expect(visibleText(reply)).toBe(`Unknown command “${typo}”. ${says}`);
    expect(quickReplyLabels(reply[0])).toEqual([command]);
  });

  it.each(["hello", "Hi!", "สวัสดีค่ะ", "หวัดดีครับ"])("greets staff back with the menu for %s", async (greeting) => {
    const ctx = recordingContext(USER_CHAT, "U1111");
    expect(await handleText(text(greeting), ctx, deps(fakeSlip()))).toEqual({ command: "none", outcome: "answered" });
    expect(quickReplyLabels(lastReply(ctx)[0])).toHaveLength(6);
    expect(visibleText(lastReply(ctx))).toMatch(/สวัสดีค่ะ|Hello!/);
  });
});

describe("roles", () => {
  const staff = { staffUserIds: new Set(["U_STAFF"]), staffGroupIds: new Set(["C_STAFF"]) };
  const customerGroup = { type: "group", id: "C_CUSTOMERS" } as const;
  const depsWith = (slip: ReturnType<typeof fakeSlip>, overrides = {}) => deps(slip, { ...staff, ...overrides });

  // A customer who says "ยอด 350 นะคะ" means "I transferred 350, please check": they are thanked, shown
  // nothing, and never told about staff rights; like the customer note, once in 12 hours.
  it.each(["ยอด 350 นะคะ", "สลิป 350 ค่ะ", "เช็คยอด 350 ค่ะ", "รายการ 3", "ยอด", "ยอดเมื่อวาน", "โทเคน"])(
    "thanks a customer who writes %s in a 1:1 chat, shows nothing and calls no service",
    async (words) => {
      const slip = fakeSlip();
      const d = depsWith(slip);
      const ctx = recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff);
      expect((await handleText(text(words), ctx, d)).outcome).toBe("refused");
      expect(visibleText(lastReply(ctx))).toBe("ขอบคุณค่ะ 🙏 ทางร้านจะตรวจสอบแล้วรีบตอบกลับนะคะ");
      const again = recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff);
      expect((await handleText(text(words), again, d)).outcome).toBe("refused");
      expect(again.sent).toEqual([]);
      expect(slip.historyCalls).toEqual([]);
      expect(slip.accountCalls).toBe(0);
    },
  );

  it("with no staff listed at all, shows nothing private and gives the owner the set-up steps under `id`", async () => {
    const nobody = { staffUserIds: new Set<string>(), staffGroupIds: new Set<string>() };
    const d = deps(fakeSlip(), { ...nobody, defaultLang: "en" });
    const ctx = recordingContext({ type: "user", id: "U_OWNER" }, "U_OWNER", nobody);
    expect((await handleText(text("balance"), ctx, d)).outcome).toBe("refused");
    expect(visibleText(lastReply(ctx))).toBe("Thank you 🙏 The shop will check and reply soon.");
    const id = recordingContext({ type: "user", id: "U_OWNER" }, "U_OWNER", nobody);
    expect((await handleText(text("id"), id, d)).outcome).toBe("answered");
    expect(visibleText(lastReply(id))).toMatch(/^Your user id: U_OWNER\nNo staff are set up yet[\s\S]*1\. Add the id above to the bot's staff list/);
  });

  // A payment word with more than an amount is a customer talking ("I paid 350"), never a command error.
  it.each(["จ่ายเงิน 350 แล้วค่ะ", "จ่าย 350 แล้วนะคะ", "ชำระเงิน 350 เรียบร้อยค่ะ", "คิวอาร์ 150 2 แก้ว"])(
    "answers a customer's %s as talk: the friendly note in a 1:1 chat, silence in a group unless the bot is mentioned",
    async (words) => {
      const slip = fakeSlip();
      const direct = recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff);
      expect((await handleText(text(words), direct, depsWith(slip))).outcome).toBe("noted");
      expect(visibleText(lastReply(direct))).toBe("ขอบคุณที่ทักมานะคะ ทางร้านจะรีบตอบกลับค่ะ 🙏\nถ้าต้องการชำระเงิน กดปุ่ม “จ่ายด้วย QR” ด้านล่างได้เลยนะคะ");
      expect(quickReplyLabels(lastReply(direct)[0])).toEqual(["จ่ายด้วย QR", "วิธีจ่ายเงิน"]);
      const inGroup = recordingContext(customerGroup, "U_CUSTOMER", staff);
      expect((await handleText(text(words), inGroup, depsWith(slip))).outcome).toBe("ignored");
      expect(inGroup.sent).toEqual([]);
      const mentioned = recordingContext(customerGroup, "U_CUSTOMER", staff);
      expect((await handleText(mention(`@ShopBot ${words}`, 0, 8, true), mentioned, depsWith(slip))).outcome).toBe("noted");
      expect(visibleText(lastReply(mentioned))).not.toMatch(/ไม่เข้าใจ|พิมพ์ตามตัวอย่าง|0812345678/);
      expect(slip.qrCalls).toEqual([]);
    },
  );

  it("tells a customer whose QR has a wrong amount or id how to ask, with one example and no notation", async () => {
    for (const words of ["คิวอาร์ 15o", "คิวอาร์ 1.505", "คิวอาร์ 0899 150"]) {
      const ctx = recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff);
      expect((await handleText(text(words), ctx, depsWith(fakeSlip()))).outcome, words).toBe("usage_error");
      expect(visibleText(lastReply(ctx))).toBe("ถ้าจะชำระเงิน พิมพ์ “คิวอาร์” ตามด้วยยอดเงิน เช่น “คิวอาร์ 150” ได้เลยนะคะ");
    }
    // Staff still get what was wrong and the usage, the PromptPay id included.
    const staffCtx = recordingContext({ type: "user", id: "U_STAFF" }, "U_STAFF", staff);
    expect((await handleText(text("จ่ายเงิน 350 แล้วค่ะ"), staffCtx, depsWith(fakeSlip()))).outcome).toBe("usage_error");
    expect(visibleText(lastReply(staffCtx))).toBe("ไม่เข้าใจคำว่า “แล้ว” ในคำสั่งนี้ค่ะ\nพิมพ์ตามตัวอย่างนี้ได้เลยค่ะ\nคิวอาร์ 150\nคิวอาร์ 0812345678 150");
  });

  it("tells a customer whose menu opened the keyboard with the QR word to add the amount; staff taps stay quiet", async () => {
    const customer = recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff);
    expect(await handlePostback("menu:type qr", customer, depsWith(fakeSlip()))).toEqual({ command: "qr", outcome: "answered" });
    expect(visibleText(lastReply(customer))).toBe("พิมพ์ยอดเงินต่อท้ายได้เลยค่ะ เช่น “คิวอาร์ 150” แล้วกดส่งนะคะ");
    for (const data of ["menu:type qr", "menu:type paid", "menu:switch customer-view"]) {
      const member = recordingContext({ type: "user", id: "U_STAFF" }, "U_STAFF", staff);
      expect(await handlePostback(data, member, depsWith(fakeSlip()))).toEqual({ command: "none", outcome: "ignored" });
      expect(member.sent).toEqual([]);
    }
  });

  it("answers the staff's QR quick reply, which opened the keyboard with the QR word, with where the amount goes", async () => {
    // The quick reply's tap is shown in the chat as `คิวอาร์`; an older LINE opens no keyboard, so the words matter.
    for (const [data, expected] of [
      ["quick:type qr th", "พิมพ์ยอดเงินต่อท้ายได้เลยค่ะ เช่น “คิวอาร์ 150” แล้วกดส่งนะคะ"],
      ["quick:type qr en", "Type the amount after it, like “qr 150”, and send."],
    ] as const) {
      const member = recordingContext({ type: "user", id: "U_STAFF" }, "U_STAFF", staff);
      expect(await handlePostback(data, member, depsWith(fakeSlip()))).toEqual({ command: "qr", outcome: "answered" });
      expect(visibleText(lastReply(member))).toBe(expected);
    }
  });

  it("answers listed users in a 1:1 chat and anyone in a staff group, even without a user id", async () => {
    const listedUser = recordingContext({ type: "user", id: "U_STAFF" }, "U_STAFF", staff);
    expect((await handleText(text("balance"), listedUser, depsWith(fakeSlip()))).outcome).toBe("answered");
    const inStaffGroup = recordingContext({ type: "group", id: "C_STAFF" }, undefined, staff);
    expect((await handleText(text("balance"), inStaffGroup, depsWith(fakeSlip()))).outcome).toBe("answered");
  });

  it("points staff who ask in a customer group to a private chat, and shows nothing", async () => {
    for (const input of [text("history today"), mention("@ShopBot ยอด", 0, 8, true), text("ประวัติ เมื่อวาน")]) {
      const slip = fakeSlip();
      const ctx = recordingContext(customerGroup, "U_STAFF", staff);
      expect((await handleText(input, ctx, depsWith(slip))).outcome).toBe("pointed_to_private");
      expect(slip.historyCalls).toEqual([]);
      expect(slip.accountCalls).toBe(0);
      expect(visibleText(lastReply(ctx))).toMatch(/1:1|แชทส่วนตัว/);
    }
  });

  it("ignores everyday words that are command words in a customer group, unless the bot is mentioned", async () => {
    for (const word of ["เมนู", "?", "help", "ยอด", "จ่าย", "history", "h"]) {
      for (const who of ["U_STAFF", "U_CUSTOMER"]) {
        const ctx = recordingContext(customerGroup, who, staff);
        expect((await handleText(text(word), ctx, depsWith(fakeSlip()))).outcome, `${word} from ${who}`).toBe("ignored");
        expect(ctx.sent).toEqual([]);
      }
    }
    const asked = recordingContext(customerGroup, "U_CUSTOMER", staff);
    expect((await handleText(mention("@ShopBot เมนู", 0, 8, true), asked, depsWith(fakeSlip()))).outcome).toBe("answered");
    expect(visibleText(lastReply(asked))).not.toMatch(/ประวัติ|โทเคน|แพ็กเกจ/);
  });

  it("acts on a customer's qr with its amount in a customer group, and on id alone", async () => {
    const qr = recordingContext(customerGroup, "U_CUSTOMER", staff);
    expect((await handleText(text("คิวอาร์ 150"), qr, depsWith(fakeSlip()))).outcome).toBe("answered");
    const id = recordingContext(customerGroup, "U_OWNER", staff);
    expect((await handleText(text("id"), id, depsWith(fakeSlip()))).outcome).toBe("answered");
    expect(visibleText(lastReply(id))).toContain("C_CUSTOMERS");
  });

  it("gives customers QR codes to the shop's own id only, whatever they type", async () => {
    const slip = fakeSlip();
    const toShop = recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff);
    expect((await handleText(text("qr 081-234-5678 150"), toShop, depsWith(slip))).outcome).toBe("answered");
    const other = recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff);
    expect((await handleText(text("qr 0899999999 500"), other, depsWith(slip))).outcome).toBe("refused");
    expect(visibleText(lastReply(other))).toMatch(/only make QR codes that pay this shop/);
    expect(slip.qrCalls.map((q) => q.accountNumber)).toEqual(["0812345678"]);
    // Staff may make a QR for any valid id.
    const staffQr = recordingContext({ type: "user", id: "U_STAFF" }, "U_STAFF", staff);
    expect((await handleText(text("qr 0899999999 500"), staffQr, depsWith(slip))).outcome).toBe("answered");
    expect(slip.qrCalls.map((q) => q.accountNumber)).toEqual(["0812345678", "0899999999"]);
  });

  it("tells a customer to ask the staff when the shop has no PROMPTPAY_ID, or the service refuses", async () => {
    const noId = recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff);
    expect((await handleText(text("qr 150"), noId, depsWith(fakeSlip(), { promptPayId: undefined }))).outcome).toBe("refused");
    expect(visibleText(lastReply(noId))).toMatch(/leave a message here and the shop will send you a way to pay/);
    const expired = fakeSlip({
      fail: (operation) => {
        throw new PackageExpiredError(operation, "Package expired");
      },
    });
    const ctx = recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff);
    expect((await handleText(text("คิวอาร์ 150"), ctx, depsWith(expired))).outcome).toBe("package_expired");
    expect(visibleText(lastReply(ctx))).toMatch(/ทางร้านจะส่งช่องทางชำระเงินให้/);
    expect(visibleText(lastReply(ctx))).not.toMatch(/แพ็กเกจ|หมดอายุ|package/i);
  });

  it("gives a customer's words one friendly note per chat in 12 hours, then stays quiet", async () => {
    const d = depsWith(fakeSlip());
    const say = async (words: string, at: Date) => {
      const ctx = { ...recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff), now: at };
      const outcome = await handleText(text(words), ctx, d);
      return { outcome: outcome.outcome, sent: ctx.sent };
    };
    const first = await say("โอนแล้วค่ะ", new Date("2026-11-22T07:00:00Z"));
    expect(first.outcome).toBe("noted");
    expect(visibleText(first.sent.at(-1) ?? [])).toMatch(/ทางร้านจะรีบตอบกลับ[\s\S]*กดปุ่ม “จ่ายด้วย QR” ด้านล่าง/);
    expect(visibleText(first.sent.at(-1) ?? [])).not.toMatch(/ไม่รู้จักคำสั่ง|ประวัติ/);
    for (const words of ["สวัสดี", "🙏", "ส่งของวันไหนคะ?"]) expect((await say(words, new Date("2026-11-22T08:00:00Z"))).sent).toEqual([]);
    expect((await say("ยังอยู่ไหมคะ", new Date("2026-11-22T19:00:00Z"))).outcome).toBe("noted");
  });

  it("keeps stickers and images from customers silent, and answers a staff member's photo with a hint", async () => {
    for (const type of ["sticker", "image"]) {
      const ctx = recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff);
      expect((await handleNonText(type, ctx, depsWith(fakeSlip()))).outcome).toBe("ignored");
      expect(ctx.sent).toEqual([]);
    }
    const staffPhoto = recordingContext({ type: "user", id: "U_STAFF" }, "U_STAFF", staff);
    expect((await handleNonText("image", staffPhoto, depsWith(fakeSlip(), { defaultLang: "th" }))).outcome).toBe("unknown_command");
    // This bot reads no slip images: it says where slips are checked instead of listing its commands.
    expect(visibleText(lastReply(staffPhoto))).toBe("บอทนี้ตรวจสลิปจากรูปไม่ได้ค่ะ ส่งสลิปไปตรวจที่ LINE OA หรือแดชบอร์ดของระบบตรวจสลิปที่ร้านใช้ แล้วพิมพ์ “ประวัติ” ที่นี่เพื่อดูผลได้เลยค่ะ");
    const staffVideo = recordingContext({ type: "user", id: "U_STAFF" }, "U_STAFF", staff);
    await handleNonText("video", staffVideo, depsWith(fakeSlip(), { defaultLang: "th" }));
    expect(visibleText(lastReply(staffVideo))).toContain("ลองพิมพ์ “คิวอาร์ 150”");
  });

  it("refuses a paging postback to a customer too", async () => {
    const tap = recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff);
    expect((await handlePostback("history 2026-11-22 page 2", tap, depsWith(fakeSlip()))).outcome).toBe("refused");
  });

  it("greets a customer who adds the bot with how to pay, and staff with the menu", async () => {
    const customer = recordingContext({ type: "user", id: "U_CUSTOMER" }, "U_CUSTOMER", staff);
    await handleGreeting(customer, depsWith(fakeSlip()));
    expect(quickReplyLabels(lastReply(customer)[0])).toEqual(["จ่ายด้วย QR", "วิธีจ่ายเงิน"]);
    const member = recordingContext({ type: "user", id: "U_STAFF" }, "U_STAFF", staff);
    await handleGreeting(member, depsWith(fakeSlip()));
    expect(quickReplyLabels(lastReply(member)[0])).toHaveLength(6);
  });
});

describe("service failures", () => {
  const cases: [string, () => AnySlipClientError, string, RegExp][] = [
    ["package_expired", () => new PackageExpiredError("GET /api/account/info", "Package expired"), "package_expired", /renew/],
    ["invalid_request", () => new InvalidRequestError("GET /api/account/info", "from must be a date"), "invalid_request", /from must be a date/],
    ["unauthorized", () => new UnauthorizedError("GET /api/account/info", 401, "Unauthorized"), "service_error", /SLIP_API_SECRET setting/],
    ["service_error", () => new ServiceError("GET /api/account/info", 200, "500123", "Internal"), "service_error", /answered with an error/],
    ["service_unavailable", () => new ServiceUnavailableError("GET /api/account/info", 3, 503, "HTTP 503"), "service_unavailable", /try again shortly/],
    ["response_shape", () => new ResponseShapeError("GET /api/account/info", 200, "data.tokens: expected a number"), "service_error", /cannot read/],
    [
      "qr_mismatch",
      () => new QrMismatchError("POST /api/promptpay-qr-url", [{ difference: "id", detail: "pays phone ending 1111, asked phone ending 5678" }]),
      "service_error",
      /another account or amount, so it is not shown.*SLIP_API_BASE_URL/,
    ],
  ];

  it.each(cases)("%s becomes the right reply and outcome", async (_kind, make, outcome, says) => {
    const slip = fakeSlip({
      fail: () => {
        throw make();
      },
    });
    const ctx = recordingContext(USER_CHAT, "U1111");
    expect(await handleText(text("balance"), ctx, deps(slip))).toEqual({ command: "balance", outcome });
    const seen = visibleText(lastReply(ctx));
    expect(seen).toMatch(says);
    expect(seen).not.toContain("GET /api");
  });

  it("answers in Thai for a Thai command and shows the service's message for a refused QR", async () => {
    const message = "accountNumber must be a 10-digit phone, 13-digit ID, or 15-digit e-wallet id";
    const slip = fakeSlip({
      fail: (operation) => {
        throw new InvalidRequestError(operation, message);
      },
    });
    const ctx = recordingContext(USER_CHAT, "U1111");
    expect(await handleText(text("คิวอาร์ 0812345678 10"), ctx, deps(slip))).toEqual({ command: "qr", outcome: "invalid_request" });
    expect(visibleText(lastReply(ctx))).toBe(`ระบบตรวจสลิปทำรายการนี้ไม่ได้ค่ะ ลองตรวจเลขพร้อมเพย์และยอดเงิน แล้วส่งใหม่อีกครั้งนะคะ\nระบบแจ้งว่า “${message}”\nถ้ายังไม่ได้ ส่งข้อความนี้ให้เจ้าของร้านดูนะคะ`);
  });

  it("lets a bug (not a service error) reach the dispatcher", async () => {
    const slip = fakeSlip({
      fail: () => {
        throw new TypeError("a bug");
      },
    });
    await expect(handleText(text("balance"), recordingContext(USER_CHAT, "U1111"), deps(slip))).rejects.toThrow("a bug");
  });
});

describe("postbacks and greetings", () => {
  it("ignores postback data that is no command", async () => {
    const ctx = recordingContext(USER_CHAT, "U1111");
    expect(await handlePostback("action=buy&item=1", ctx, deps(fakeSlip()))).toEqual({ command: "none", outcome: "ignored" });
    expect(ctx.sent).toEqual([]);
  });

  it("greets in the bot's language with the help quick replies", async () => {
    const ctx = recordingContext(GROUP_CHAT, undefined);
    expect(await handleGreeting(ctx, deps(fakeSlip(), { defaultLang: "en" }))).toEqual({ command: "none", outcome: "answered" });
    const reply = lastReply(ctx);
    expect(visibleText(reply)).toContain("Hello!");
    expect(quickReplyLabels(reply[0])).toEqual(["qr", "history", "summary", "summary yesterday", "balance", "help"]);
  });
});

describe("where the answer goes decides what it holds", () => {
  const CUSTOMER_GROUP = { type: "group", id: "C9999" } as const;

  it("a staff member's QR in a group with customers is the customers' card: no check-payment button, no watch", async () => {
    const watched: unknown[] = [];
    const ctx = recordingContext(CUSTOMER_GROUP, "U1111");
    const handlerDeps = { ...deps(fakeSlip(), { defaultLang: "en" }), watches: { watch: (w: unknown) => Promise.resolve(void watched.push(w)) } };
    expect(await handleText(text("qr 150"), ctx, handlerDeps)).toEqual({ command: "qr", outcome: "answered" });
    expect(ctx.answers.map((a) => [a.audience, a.kind])).toEqual([["public", "qr_card"]]);
    expect(JSON.stringify(lastReply(ctx))).not.toContain("postback");
    expect(watched).toEqual([]);

    const own = recordingContext(USER_CHAT, "U1111");
    expect(await handleText(text("qr 150"), own, handlerDeps)).toEqual({ command: "qr", outcome: "answered" });
    expect(own.answers.map((a) => [a.audience, a.kind])).toEqual([["staff", "qr_card_with_check"]]);
    expect(watched).toHaveLength(1);
  });

  it("a staff member in a group with customers hears a service failure in the customers' words, plus where to ask", async () => {
    const slip = fakeSlip({
      fail: (operation) => {
        throw new PackageExpiredError(operation, "Package expired");
      },
    });
    const ctx = recordingContext(CUSTOMER_GROUP, "U1111");
    expect(await handleText(text("qr 0812345678 150"), ctx, deps(slip, { defaultLang: "en" }))).toEqual({ command: "qr", outcome: "package_expired" });
    const said = visibleText(lastReply(ctx));
    expect(said).toMatch(/the shop will send you a way to pay[\s\S]*1:1 chat/);
    expect(said).not.toMatch(/package|renew/i);
  });

  it("tells a staff group who sees its data when someone joins; elsewhere says nothing", async () => {
    const staffGroup = recordingContext(GROUP_CHAT, undefined);
    expect(await handleMemberJoined(1, staffGroup, deps(fakeSlip(), { defaultLang: "en" }))).toEqual({ command: "none", outcome: "answered" });
    expect(visibleText(lastReply(staffGroup))).toMatch(/everyone in it sees the shop's data[\s\S]*STAFF_GROUP_IDS/);
    const customers = recordingContext(CUSTOMER_GROUP, undefined);
    expect(await handleMemberJoined(1, customers, deps(fakeSlip()))).toEqual({ command: "none", outcome: "ignored" });
    expect(customers.sent).toEqual([]);
  });
});
