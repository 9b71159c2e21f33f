import { messagesOf } from "../../src/privacy/answer.js";
import type { messagingApi } from "@line/bot-sdk";
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/commands/parse.js";
import type { HistoryItem } from "../../src/slip/types.js";
import { renderQr, withQrSize } from "../../src/commands/qr/render.js";
import { renderHistory, type HistoryView } from "../../src/commands/history/render.js";
import { renderBalance } from "../../src/commands/balance/render.js";
import { renderHelp } from "../../src/commands/help/render.js";
import { renderGreeting, renderNoPromptPayId, renderServiceFailure, renderCustomerThanks, renderUnknownCommand, renderUsageError } from "../../src/render/errors.js";
import { renderId } from "../../src/commands/id/render.js";
import { graphemeCount } from "../../src/line-limits.js";
import { lineLimitProblems, quickReplyLabels, quickReplyTexts, visibleText } from "./line-limits.js";
import { quickReplyTaps } from "../kit/messages.js";

const TZ = "Asia/Bangkok";
const NOW = new Date("2026-11-22T07:05:00.000Z"); // 22 Nov 2026 14:05 in Bangkok
const QR_URL = "https://slip.example/api/qr-image?data=00020101021229370016A000000677010111011300668123456785802TH53037646304ABCD&size=1024";

function flex(messages: messagingApi.Message[], index = 0): messagingApi.FlexMessage {
  const message = messages[index];
  if (message?.type !== "flex") throw new Error(`message ${index} is not flex`);
  return message;
}

function bubbleBytes(message: messagingApi.FlexMessage): number {
  return Buffer.byteLength(JSON.stringify(message.contents), "utf8");
}

/** The postback actions under `node`, in order. */
function postbacksIn(node: unknown): messagingApi.PostbackAction[] {
  const found: messagingApi.PostbackAction[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") {
      const record = value as Record<string, unknown>;
      const action = record.action as messagingApi.Action | undefined;
      if (action?.type === "postback") found.push(action);
      Object.values(record).forEach(walk);
    }
  };
  walk(node);
  return found;
}

/** The paging buttons under the bubble. */
function postbacks(message: messagingApi.FlexMessage): messagingApi.PostbackAction[] {
  return postbacksIn((message.contents as messagingApi.FlexBubble).footer);
}

/** The rows' tap actions. */
function rowPostbacks(message: messagingApi.FlexMessage): messagingApi.PostbackAction[] {
  return postbacksIn((message.contents as messagingApi.FlexBubble).body);
}

const parseContext = { now: NOW, timeZone: TZ, defaultLang: "th" as const };

describe("renderQr", () => {
  it("shows the amount, the masked payee with its type and the scan line, with the QR at 512 and an image message", () => {
    const messages = [...messagesOf(renderQr({ paysShop: true, lang: "th", payee: { type: "phone", digits: "0812345678" }, amount: 1500.5, url: QR_URL, forCustomers: false }))];
    expect(lineLimitProblems(messages)).toEqual([]);
    expect(messages).toHaveLength(2);
    const card = flex(messages);
    const bubble = card.contents as messagingApi.FlexBubble;
    expect(bubble.hero).toMatchObject({ type: "image", url: QR_URL.replace("size=1024", "size=512") });
    const text = visibleText(messages);
    expect(text).toContain("฿1,500.50");
    expect(text).toContain("081-xxx-5678");
    expect(text).not.toContain("0812345678");
    expect(text).toContain("เบอร์โทร");
    expect(text).toContain("สแกนจ่ายได้ทุกแอปธนาคาร หรือกดบันทึกรูปแล้วสแกนจากแอป");
    // In a staff place the customer is at the counter, not in this chat: no "send the slip here".
    expect(text).not.toContain("ส่งสลิป");
    // The card's big figure keeps ฿; the alt text is a sentence, so it says บาท.
    expect(card.altText).toBe("QR พร้อมเพย์ 1,500.50 บาท โอนเข้า 081-xxx-5678 (เบอร์โทร)");
    expect(messages[1]).toEqual({
      type: "image",
      originalContentUrl: QR_URL,
      previewImageUrl: QR_URL.replace("size=1024", "size=240"),
    });
  });

  it("says the payer enters the amount when there is none, in English", () => {
    const messages = [...messagesOf(renderQr({ paysShop: true, lang: "en", payee: { type: "citizen", digits: "0105551234567" }, amount: null, url: QR_URL, forCustomers: true }))];
    const text = visibleText(messages);
    expect(text).toContain("Payer enters the amount");
    expect(text).toContain("citizen/tax id");
    expect(text).not.toContain("0105551234567");
    expect(text).toContain("Scan it, or save the picture and pay from any Thai banking app");
    expect(text).toContain("Once paid, please send the slip in this chat 🙏");
  });

  it("fits the longest amount and an e-wallet payee", () => {
    const messages = [
      ...messagesOf(renderQr({ paysShop: true, lang: "en", payee: { type: "ewallet", digits: "140000123456789" }, amount: 9_999_999_999.99, url: QR_URL, forCustomers: true })),
    ];
    expect(lineLimitProblems(messages)).toEqual([]);
    expect(visibleText(messages)).toContain("฿9,999,999,999.99");
    expect(visibleText(messages)).toContain("e-wallet");
  });

  it("leaves the images out when the link is not https (LINE would refuse the whole reply) but keeps loopback http for the console", () => {
    const plain = [
      ...messagesOf(
        renderQr({
          paysShop: true,
          lang: "en",
          payee: { type: "phone", digits: "0812345678" },
          amount: 1,
          url: QR_URL.replace("https://slip.example", "http://slip.example"),
          forCustomers: true,
        }),
      ),
    ];
    expect(plain).toHaveLength(1);
    expect((flex(plain).contents as messagingApi.FlexBubble).hero).toBeUndefined();
    expect(lineLimitProblems(plain)).toEqual([]);

    const console = [
      ...messagesOf(
        renderQr({
          paysShop: true,
          lang: "en",
          payee: { type: "phone", digits: "0812345678" },
          amount: 1,
          url: "http://127.0.0.1:4000/api/qr-image?data=abc&size=1024",
          forCustomers: true,
        }),
      ),
    ];
    expect(console).toHaveLength(2);
    expect(console[1]).toMatchObject({ previewImageUrl: "http://127.0.0.1:4000/api/qr-image?data=abc&size=240" });
  });

  it("rewrites only the size parameter of the link", () => {
    expect(withQrSize("https://x.example/api/qr-image?data=a%26b%3D&size=1024", 240)).toBe("https://x.example/api/qr-image?data=a%26b%3D&size=240");
    expect(withQrSize("https://x.example/api/qr-image?data=abc", 512)).toBe("https://x.example/api/qr-image?data=abc&size=512");
  });
});

const LONG_THAI_NAME = "นางสาวสมหญิง ใจดีมากมายเหลือเกิน ".repeat(8).slice(0, 200);
const LONG_LATIN_NAME = "Mr. Bartholomew ".repeat(13).slice(0, 200);

function largeItem(i: number, status: string, source: string): HistoryItem {
  return {
    code: 200001,
    status,
    amount: 9_999_999_999.99,
    transRef: `${"9".repeat(30)}${i}`,
    transDate: "2026-11-22T06:00:00.000Z",
    senderName: LONG_THAI_NAME,
    receiverName: LONG_LATIN_NAME,
    receiverAccount: "xxx-x-x1234-x",
    source,
    tokensCharged: 1.5,
    createdAt: `2026-11-22T06:${String(i).padStart(2, "0")}:00.000Z`,
  };
}

const NULL_ITEM: HistoryItem = {
  code: null,
  status: null,
  amount: null,
  transRef: null,
  transDate: null,
  senderName: null,
  receiverName: null,
  receiverAccount: null,
  source: null,
  tokensCharged: null,
  createdAt: null,
};

function largestHistory(lang: "th" | "en"): HistoryView {
  const statuses = ["valid", "fraud", "a_status_nobody_listed_yet_with_a_long_name", "duplicate", "not_found"];
  const sources = ["line_oa_merchant", "some_new_channel_not_listed", "api"];
  const rows = Array.from({ length: 9 }, (_, i) => largeItem(i, statuses[i % statuses.length] ?? "valid", sources[i % sources.length] ?? "api"));
  rows.push(NULL_ITEM);
  return {
    lang,
    timeZone: TZ,
    scope: {
      by: "range",
      range: { kind: "days", days: 7 },
      fromDate: { year: 2026, month: 11, day: 16 },
      toDate: { year: 2026, month: 11, day: 22 },
      status: "valid",
    },
    page: 9_999,
    summary: {
      count: 999_999_999,
      validTotal: 9_999_999_999_999.99,
      byStatus: [
        { status: "valid", count: 999_999 },
        { status: "fraud", count: 999_999 },
        { status: "a_status_nobody_listed_yet_with_a_long_name", count: 5 },
      ],
      validTotalOver: 2_000,
    },
    rows,
  };
}

describe("renderHistory", () => {
  it.each(["th", "en"] as const)("keeps the largest page within every LINE limit (%s)", (lang) => {
    const messages = [...messagesOf(renderHistory(largestHistory(lang)))];
    expect(lineLimitProblems(messages)).toEqual([]);
    const card = flex(messages);
    expect(bubbleBytes(card)).toBeLessThanOrEqual(30_000);
    expect(card.altText.length).toBeLessThanOrEqual(1_500);
    for (const label of quickReplyLabels(card)) expect(graphemeCount(label)).toBeLessThanOrEqual(20);
    for (const action of postbacks(card)) expect(action.data?.length ?? 0).toBeLessThanOrEqual(300);
    // Every row is still shown: cutting names keeps the bubble small.
    expect(visibleText(messages).match(/฿9,999,999,999\.99/g)?.length).toBe(9);
    // Page 9,999 is the last the parser accepts, so there is no "next page" button past it.
    expect(postbacks(card).map((p) => p.data)).toEqual([lang === "th" ? "ประวัติ 16/11/2569 ถึง 22/11/2569 ผ่าน หน้า 9998" : "history 2026-11-16..2026-11-22 valid page 9998"]);
  });

  it("shows the rows a person needs: time, amount, coloured status word, names, full ref, source", () => {
    const view = largestHistory("th");
    const text = visibleText([...messagesOf(renderHistory(view))]);
    expect(text).toContain("ประวัติตรวจสลิป");
    expect(text).toContain("7 วันล่าสุด · 16–22 พ.ย. 2569");
    expect(text).toContain("สถานะ: ผ่าน");
    expect(text).toContain("22 พ.ย. 13:00"); // createdAt 06:00Z in Bangkok, with the day because the range spans days
    expect(text).toContain("LINE OA ของร้าน");
    expect(text).toContain("some_new_channel_no…"); // an unknown source, raw and cut
    expect(text).toContain(`อ้างอิง ${"9".repeat(30)}0`);
    expect(text).toContain("นางสาวสมหญิง");
    expect(text).not.toContain(LONG_THAI_NAME);
    expect(text).toContain("ยอดโอนเข้าคิดจาก 2,000 สลิปล่าสุดเท่านั้น");
    expect(text).toContain("ยอดโอนเข้า ฿");
  });

  it("gives unknown statuses a neutral colour and their raw word, and known ones their colour", () => {
    const card = flex([...messagesOf(renderHistory(largestHistory("en")))]);
    const json = JSON.stringify(card.contents);
    expect(json).toContain('"text":"a_status_nobody_lis…","size":"xs","weight":"bold","color":"#999999"');
    expect(json).toContain('"text":"Fraud","size":"xs","weight":"bold","color":"#D32F2F"');
    expect(json).toContain('"text":"Valid","size":"xs","weight":"bold","color":"#1DB446"');
  });

  it("shows what there is of an item with every field null", () => {
    const view: HistoryView = { ...largestHistory("en"), page: 1, rows: [NULL_ITEM], summary: { count: 1, validTotal: 0, byStatus: [] } };
    const messages = [...messagesOf(renderHistory(view))];
    expect(lineLimitProblems(messages)).toEqual([]);
    // A dash for the time, the amount and the status; the header's range has a dash too, so count whole lines.
    expect(visibleText(messages).match(/^–$/gm)).toHaveLength(3);
  });

  it("says plainly when there is nothing, with the filter quick replies", () => {
    const view: HistoryView = {
      lang: "en",
      timeZone: TZ,
      scope: { by: "range", range: { kind: "today" }, fromDate: { year: 2026, month: 11, day: 22 }, toDate: { year: 2026, month: 11, day: 22 } },
      page: 1,
      summary: { count: 0, validTotal: 0, byStatus: [] },
      rows: [],
    };
    const messages = [...messagesOf(renderHistory(view))];
    const card = flex(messages);
    expect(visibleText(messages)).toContain("No slip checks today.");
    // Said once: the empty line already is the page line.
    expect(card.altText).toBe("Slip checks Today · 22 Nov 2026: No slip checks today.");
    expect(postbacks(card)).toEqual([]);
    expect(quickReplyLabels(card)).toEqual(["Today", "Yesterday", "7 days", "Valid", "Fraud", "Duplicate"]);
    expect(quickReplyTexts(card)).toEqual(["history today", "history yesterday", "history 7d", "history today valid", "history today fraud", "history today duplicate"]);
  });

  it("pages with postbacks whose data parses back to the same absolute range and the next page", () => {
    const view: HistoryView = {
      lang: "th",
      timeZone: TZ,
      scope: { by: "range", range: { kind: "yesterday" }, fromDate: { year: 2026, month: 11, day: 21 }, toDate: { year: 2026, month: 11, day: 21 }, status: "fraud" },
      page: 2,
      summary: { count: 35, validTotal: 0, byStatus: [{ status: "fraud", count: 35 }] },
      rows: Array.from({ length: 10 }, (_, i) => largeItem(i, "fraud", "api")),
    };
    const card = flex([...messagesOf(renderHistory(view))]);
    const [previous, next] = postbacks(card);
    // The chat shows the command a person could type to get the same page.
    expect(next).toMatchObject({ label: "หน้าถัดไป", displayText: "ประวัติ 21/11/2569 ปลอม หน้า 3" });
    expect(previous).toMatchObject({ label: "หน้าก่อน", displayText: "ประวัติ 21/11/2569 ปลอม" });
    expect(next?.displayText).toBe(next?.data);
    expect(parseCommand(next?.data ?? "", parseContext)).toEqual({
      ok: true,
      command: {
        kind: "history",
        lang: "th",
        request: { by: "range", range: { kind: "dates", from: { year: 2026, month: 11, day: 21 }, to: { year: 2026, month: 11, day: 21 } }, status: "fraud", page: 3 },
      },
      bare: false,
    });
    expect(parseCommand(previous?.data ?? "", parseContext)).toMatchObject({ ok: true, command: { request: { page: 1 } } });
    expect(visibleText([card])).toContain("หน้า 2 จาก 4");
    expect(visibleText([card])).toMatch(/^13:00$/m); // a one-day range shows only the time
    expect(quickReplyTexts(card)).toContain("ประวัติ เมื่อวาน ซ้ำ");
    // Tapping a row shows that check alone: its reference's view, written as the person would type it.
    const rows = rowPostbacks(card);
    expect(rows).toHaveLength(10);
    for (const [i, row] of rows.entries()) {
      expect(row.displayText).toBe(row.data);
      expect(parseCommand(row.data ?? "", parseContext)).toMatchObject({
        ok: true,
        command: { kind: "history", request: { by: "ref", transRef: view.rows[i]?.transRef, page: 1 } },
      });
    }
  });

  it("has no next page on the last page, and a ref lookup pages by ref", () => {
    const view: HistoryView = {
      lang: "en",
      timeZone: TZ,
      scope: { by: "ref", transRef: "015326123456789ABCDEF" },
      page: 1,
      summary: { count: 1, validTotal: 150, byStatus: [{ status: "valid", count: 1 }] },
      rows: [largeItem(1, "valid", "api")],
    };
    const card = flex([...messagesOf(renderHistory(view))]);
    expect(postbacks(card)).toEqual([]);
    expect(rowPostbacks(card)).toEqual([]);
    expect(visibleText([card])).toContain("Ref 015326123456789ABCDEF");
    expect(visibleText([card])).toContain("Valid total ฿150.00");
  });
});

describe("renderBalance", () => {
  const account = {
    storeName: "ร้านกาแฟดีใจ",
    packageName: "Pro",
    tokens: 12345.678,
    credits: 100,
    rate: { chat: 1, api: 1.5 },
    estimatedSlips: { chat: 12345, api: 8230 },
    expiresAt: "2027-01-31T16:59:59.000Z",
  };

  it("shows store, package, tokens (no .00 when whole), credits, estimates, rates and the expiry in BE with days left", () => {
    const messages = [...messagesOf(renderBalance({ lang: "th", timeZone: TZ, now: NOW, account }))];
    expect(lineLimitProblems(messages)).toEqual([]);
    const text = visibleText(messages);
    for (const part of ["ร้านกาแฟดีใจ", "Pro", "12,345.68", "100", "8,230 สลิป", "12,345 สลิป", "1.50 โทเคน", "31 ม.ค. 2570\n(เหลือ 70 วัน)"]) {
      expect(text).toContain(part);
    }
    expect(text).not.toContain("⚠️");
  });

  it("warns when the package ends within 7 days or the API estimate is under 50 slips", () => {
    const messages = [
      ...messagesOf(
        renderBalance({
          lang: "en",
          timeZone: TZ,
          now: NOW,
          account: { ...account, estimatedSlips: { chat: 60, api: 40 }, expiresAt: "2026-11-25T10:00:00.000Z" },
        }),
      ),
    ];
    const text = visibleText(messages);
    expect(text).toContain("25 Nov 2026\n(3 days left)");
    expect(text).toContain("⚠️ The package expires in 3 days. Please renew it.");
    expect(text).toContain("⚠️ Tokens are left for about 40 API checks. Please top up.");
    expect(flex(messages).altText).toContain("about 40 API checks");
  });

  it("says an expired package has expired", () => {
    const text = visibleText([...messagesOf(renderBalance({ lang: "en", timeZone: TZ, now: NOW, account: { ...account, expiresAt: "2026-11-20T00:00:00.000Z" } }))]);
    expect(text).toContain("expired 2 days ago");
    expect(text).toContain("⚠️ The package has expired. Please renew it.");
  });

  it("fits very long names", () => {
    const messages = [
      ...messagesOf(renderBalance({ lang: "th", timeZone: TZ, now: NOW, account: { ...account, storeName: LONG_THAI_NAME.repeat(30), packageName: LONG_LATIN_NAME } })),
    ];
    expect(lineLimitProblems(messages)).toEqual([]);
  });
});

describe("renderHelp", () => {
  it.each(["th", "en"] as const)("lists every command with one example and offers the commands as quick replies (%s)", (lang) => {
    const messages = [...messagesOf(renderHelp({ lang, role: "staff" }))];
    expect(lineLimitProblems(messages)).toEqual([]);
    const text = visibleText(messages);
    const examples = lang === "th" ? ["เช่น คิวอาร์ 150", "เช่น ประวัติ เมื่อวาน\n", "เช่น ยอดเมื่อวาน", "เช่น เช็คยอด 150", "เช่น โทเคน"] : ["qr 150", "e.g. history yesterday\n", "balance"];
    for (const example of examples) expect(text).toContain(example);
    // "Contact the shop" is the customers' button: the shop's own staff are not shown it.
    expect(text).not.toContain(lang === "th" ? "ติดต่อร้าน" : "contact");
    expect(quickReplyLabels(messages[0])).toEqual(
      lang === "th" ? ["คิวอาร์", "ประวัติ", "ยอด", "ยอดเมื่อวาน", "โทเคน", "วิธีใช้"] : ["qr", "history", "summary", "summary yesterday", "balance", "help"],
    );
    // The QR opens the keyboard with its word typed (a postback, below); the others send a command that runs.
    const texts = quickReplyTexts(messages[0]).filter((t) => t !== "");
    expect(texts).toEqual(lang === "th" ? ["ประวัติ", "ยอด", "ยอดเมื่อวาน", "โทเคน", "วิธีใช้"] : ["history", "summary", "summary yesterday", "balance", "help"]);
    for (const commandText of texts) expect(parseCommand(commandText, parseContext).ok).toBe(true);
  });

  it.each([
    ["th", "คิวอาร์", "คิวอาร์ "],
    ["en", "qr", "qr "],
  ] as const)("offers staff a QR quick reply that opens the keyboard with the QR word typed (%s)", (lang, word, typed) => {
    const messages = [...messagesOf(renderHelp({ lang, role: "staff" }))];
    expect(messages.at(0)?.quickReply?.items?.at(0)?.action).toEqual({
      type: "postback",
      label: word,
      data: `quick:type qr ${lang}`,
      displayText: word,
      inputOption: "openKeyboard",
      fillInText: typed,
    });
  });

  it("explains one command when asked", () => {
    const text = visibleText([...messagesOf(renderHelp({ lang: "en", role: "staff", topic: "history" }))]);
    expect(text).toContain("Usage: history");
    expect(text).toContain("Example: history yesterday");
  });

  it("explains one command in Thai with real commands to copy, one a line, no notation", () => {
    expect(visibleText([...messagesOf(renderHelp({ lang: "th", role: "staff", topic: "history" }))])).toBe(
      [
        "ประวัติ: สลิปที่ตรวจในวันที่เลือก พร้อมยอดโอนเข้า เลือกดูตามสถานะได้: ผ่าน ไม่ผ่าน ปลอม ซ้ำ ไม่พบ ผิดพลาด",
        "พิมพ์ตามตัวอย่างนี้ได้เลยค่ะ",
        "ประวัติ เมื่อวาน",
        "ประวัติ 1/11 ถึง 15/11 ปลอม",
        "ประวัติ อ้างอิง 015326095622AQR01234",
      ].join("\n"),
    );
  });
});

describe("renderHelp for customers", () => {
  it.each(["th", "en"] as const)("shows only how to pay the shop and offers qr and help (%s)", (lang) => {
    for (const topic of [undefined, "history", "balance", "qr"] as const) {
      const messages = [...messagesOf(renderHelp({ lang, role: "customer", topic }))];
      expect(lineLimitProblems(messages)).toEqual([]);
      const text = visibleText(messages);
      expect(text).toContain(lang === "th" ? "คิวอาร์ 150" : "qr 150");
      for (const staffWord of ["history", "balance", "ประวัติ", "โทเคน", "token", "แพ็กเกจ", "package", "0812345678"]) expect(text).not.toContain(staffWord);
      // "How to pay" runs the help (the postback's data), and the chat shows the button's words.
      expect(quickReplyLabels(messages[0])).toEqual(lang === "th" ? ["จ่ายด้วย QR", "วิธีจ่ายเงิน"] : ["Pay by QR", "How to pay"]);
      expect(quickReplyTaps(messages)).toEqual(
        lang === "th"
          ? [
              { shows: "คิวอาร์", sends: "คิวอาร์" },
              { shows: "วิธีจ่ายเงิน", sends: "วิธีใช้" },
            ]
          : [
              { shows: "qr", sends: "qr" },
              { shows: "How to pay", sends: "help" },
            ],
      );
    }
  });
});

describe("error and other short replies", () => {
  it("shows what was wrong and the right usage", () => {
    const messages = [...messagesOf(renderUsageError({ lang: "en", command: "qr", problem: { code: "bad_amount", input: "abc" } }))];
    expect(visibleText(messages)).toBe("“abc” is not an amount. Use a number greater than 0, like 150 or 1,500.50.\nUsage: qr [promptpay-id] [amount]\nExample: qr 150");
  });

  it("shows what was wrong in Thai and real commands to copy", () => {
    const messages = [...messagesOf(renderUsageError({ lang: "th", command: "paid", problem: { code: "missing_amount" } }))];
    expect(visibleText(messages)).toBe("ใส่ยอดเงินที่จะเช็คด้วยค่ะ\nพิมพ์ตามตัวอย่างนี้ได้เลยค่ะ\nเช็คยอด 150\nเช็คยอด 1,500.50\nเช็คยอด 150 เมื่อวาน");
  });

  it("echoes at most a short piece of a huge input", () => {
    const messages = [...messagesOf(renderUsageError({ lang: "th", command: "history", problem: { code: "unexpected", input: "ก".repeat(5000) } }))];
    expect(lineLimitProblems(messages)).toEqual([]);
    expect(visibleText(messages).length).toBeLessThan(400);
  });

  it("points an unknown command to qr, history and summary", () => {
    expect(visibleText([...messagesOf(renderUnknownCommand("en", "qrr"))])).toBe("Unknown command “qrr”. Try qr 150, history, summary, or send “help”.");
    const thai = [...messagesOf(renderUnknownCommand("th"))];
    expect(visibleText(thai)).toBe("ลองพิมพ์ “คิวอาร์ 150”, “ประวัติ” หรือ “ยอด” นะคะ\nพิมพ์ “วิธีใช้” เพื่อดูคำสั่งทั้งหมดค่ะ");
    expect(quickReplyLabels(thai[0])).toHaveLength(6);
  });

  it.each([
    ["package_expired", "en", "The shop's slip-check package has expired. Please renew the package, then try again."],
    ["service_unavailable", "en", "The slip service is not answering right now. Please try again shortly."],
    ["unauthorized", "en", "The bot cannot sign in to the slip service. Please check the SLIP_API_SECRET setting."],
    ["service_error", "th", "ระบบตรวจสลิปขัดข้องค่ะ รอสักครู่แล้วลองใหม่นะคะ"],
    ["response_shape", "th", "บอทอ่านคำตอบจากระบบตรวจสลิปไม่ออกค่ะ รอสักครู่แล้วลองใหม่นะคะ"],
    ["response_shape", "en", "The slip service sent an answer the bot cannot read. Please try again shortly."],
    ["qr_mismatch", "en", "The slip service returned a QR for another account or amount, so it is not shown. Please check the SLIP_API_BASE_URL setting."],
    ["qr_mismatch", "th", "ระบบตรวจสลิปส่ง QR ของบัญชีอื่นหรือยอดเงินอื่นกลับมา บอทจึงไม่แสดง QR นี้ค่ะ เจ้าของร้านช่วยตรวจค่า SLIP_API_BASE_URL ในการตั้งค่าบอทด้วยนะคะ"],
  ] as const)("says what a %s failure means (%s)", (kind, lang, expected) => {
    expect(visibleText([...messagesOf(renderServiceFailure({ kind, command: "qr" }, lang))])).toBe(expected);
  });

  it("shows the service's message for a request it refused", () => {
    const message = "accountNumber must be a 10-digit phone, 13-digit ID, or 15-digit e-wallet id";
    expect(visibleText([...messagesOf(renderServiceFailure({ kind: "invalid_request", serviceMessage: message, command: "qr" }, "en"))])).toBe(
      `The slip service did not accept this. Check the PromptPay id and the amount, then send it again.\nThe service said: “${message}”\nIf it still fails, show this message to the shop's owner.`,
    );
  });

  it("says how to give the PromptPay id, thanks customers, greets and shows ids", () => {
    expect(visibleText([...messagesOf(renderNoPromptPayId("en"))])).toContain("qr 0812345678 150");
    expect(visibleText([...messagesOf(renderCustomerThanks("en"))])).toBe("Thank you 🙏 The shop will check and reply soon.");
    const greeting = [...messagesOf(renderGreeting("th", "staff"))];
    expect(quickReplyLabels(greeting[0])).toEqual(["คิวอาร์", "ประวัติ", "ยอด", "ยอดเมื่อวาน", "โทเคน", "วิธีใช้"]);
    // The greeting says to type “วิธีใช้”, and the help quick reply says the same word.
    expect(visibleText(greeting)).toContain("“วิธีใช้”");
    const customerGreeting = [...messagesOf(renderGreeting("th", "customer"))];
    // The customers' QR quick reply has the name the customers' texts give the button.
    expect(quickReplyLabels(customerGreeting[0])).toEqual(["จ่ายด้วย QR", "วิธีจ่ายเงิน"]);
    expect(quickReplyTaps(customerGreeting)).toEqual([
      { shows: "คิวอาร์", sends: "คิวอาร์" },
      { shows: "วิธีจ่ายเงิน", sends: "วิธีใช้" },
    ]);
    expect(visibleText(customerGreeting)).toContain("“คิวอาร์ 150”");
    expect(visibleText(customerGreeting)).not.toMatch(/ประวัติ|โทเคน/);
  });

  // The id reply by place: who reads it decides how much of the ids and the set-up it shows.
  it.each([
    [
      "a staff group",
      { type: "group", id: "C5678" },
      true,
      false,
      "Your user id: U1234\nThis group's id: C5678\nThis group is a staff group: everyone in it sees the shop's data.",
    ],
    ["a staff member's 1:1 chat", { type: "user", id: "U1234" }, true, false, "Your user id: U1234\nYou are on the bot's staff list."],
    // Customers read it: the group's own id (the owner lists it), no member's id, no staff list or setting.
    ["a group with customers", { type: "group", id: "C5678" }, false, false, "This group's id: C5678\nTo see your own user id, send “id” in a 1:1 chat with the shop."],
    [
      "a room with customers, before anyone is staff",
      { type: "room", id: "R5678" },
      false,
      true,
      "This room's id: R5678\nTo see your own user id, send “id” in a 1:1 chat with the shop.",
    ],
    ["a 1:1 chat that is no staff place", { type: "user", id: "U1234" }, false, false, "Your user id: U1234"],
    // Before anyone is staff no staff place exists; the asker alone reads a 1:1 chat: the owner's steps.
    [
      "a 1:1 chat before anyone is staff",
      { type: "user", id: "U1234" },
      false,
      true,
      "Your user id: U1234\nNo staff are set up yet, so the shop's data is shown to nobody.\nOwner, to set it up:\n1. Add the id above to the bot's staff list\n2. Restart the bot, then send “help” here",
    ],
  ] as const)("shows in %s only what its readers may see", (_where, chat, staffPlace, noStaffYet, expected) => {
    const answer = renderId({ lang: "en", userId: "U1234", chat, staffPlace, noStaffYet });
    // A staff place's form is staff (set-up data); everywhere else it is public.
    expect(answer).toMatchObject(staffPlace ? { audience: "staff", kind: "id_staff" } : { audience: "public", kind: "id" });
    expect(visibleText([...messagesOf(answer)])).toBe(expected);
  });

  it.each([
    ["a staff group", { type: "group", id: "C5678" }, "This group's id: C5678\nTo see your own user id, send “id” in a 1:1 chat with the shop."],
    ["a staff member's 1:1 chat", { type: "user", id: "U1234" }, "Your user id: U1234"],
  ] as const)("in %s, what goes instead if it stops being a staff place before sending: the customer place's form", (_where, chat, expected) => {
    const answer = renderId({ lang: "en", userId: "U1234", chat, staffPlace: true, noStaffYet: false });
    if (answer.audience !== "staff") throw new Error("a staff place's id answer is staff");
    expect(answer.fallback).toMatchObject({ audience: "public", kind: "id" });
    expect(visibleText([...messagesOf(answer.fallback ?? answer)])).toBe(expected);
  });
});
