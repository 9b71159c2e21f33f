// Every LINE message limit the stand-in checks: at the limit accepted, past it a LINE-like 400 with details.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { messagingApi } from "@line/bot-sdk";
import { startLinePlatform } from "../src/platform.js";
import type { LinePlatform } from "../src/platform.js";
import { graphemeCount, jsonBytes } from "../../../src/line-limits.js";
import { validateMessages } from "../src/validate.js";

const USER = "U" + "a".repeat(32);
const IMG = "https://example.com/qr.png";
const LOOPBACK_IMG = "http://127.0.0.1:4000/api/qr-image?data=abc&size=512";

let platform: LinePlatform;
beforeAll(async () => {
  platform = await startLinePlatform();
});
afterAll(async () => {
  await platform.close();
});

async function push(messages: unknown): Promise<{ status: number; json: { message?: string; details?: { message: string; property: string }[] } }> {
  const response = await fetch(`${platform.url}/v2/bot/message/push`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer t" },
    body: JSON.stringify({ to: USER, messages }),
  });
  return { status: response.status, json: (await response.json()) as { message?: string; details?: { message: string; property: string }[] } };
}

function text(t: string): messagingApi.TextMessage {
  return { type: "text", text: t };
}

function bubble(body: messagingApi.FlexComponent[], extra: Partial<messagingApi.FlexBubble> = {}): messagingApi.FlexBubble {
  return { type: "bubble", body: { type: "box", layout: "vertical", contents: body }, ...extra };
}

function flex(contents: messagingApi.FlexContainer, altText = "summary"): messagingApi.FlexMessage {
  return { type: "flex", altText, contents };
}

function button(action: messagingApi.Action): messagingApi.FlexButton {
  return { type: "button", action };
}

function withQuickReply(items: messagingApi.QuickReplyItem[]): messagingApi.TextMessage {
  return { type: "text", text: "pick", quickReply: { items } };
}

function chip(label: string, text = "today"): messagingApi.QuickReplyItem {
  return { type: "action", action: { type: "message", label, text } };
}

/** A bubble whose JSON is exactly `bytes` long (UTF-8), padded with ASCII in one text. */
function bubbleOfBytes(bytes: number): messagingApi.FlexBubble {
  const base = bubble([{ type: "text", text: "" }]);
  const pad = bytes - jsonBytes(base);
  return bubble([{ type: "text", text: "x".repeat(pad) }]);
}

// A Thai consonant with a vowel and tone mark: one grapheme, three UTF-16 units.
const THAI_CLUSTER = "กี่";

interface Case {
  name: string;
  ok: unknown[];
  bad: unknown[];
  property: string;
  message?: RegExp;
}

const cases: Case[] = [
  {
    name: "messages per request",
    ok: Array.from({ length: 5 }, () => text("a")),
    bad: Array.from({ length: 6 }, () => text("a")),
    property: "messages",
    message: /Size must be between 1 and 5/,
  },
  { name: "no messages at all", ok: [text("a")], bad: [], property: "messages" },
  { name: "empty text", ok: [text("a")], bad: [text("")], property: "messages[0].text", message: /May not be empty/ },
  { name: "text of 5,000 UTF-16 units", ok: [text("😀".repeat(2500))], bad: [text("😀".repeat(2500) + "a")], property: "messages[0].text", message: /between 1 and 5000/ },
  { name: "text counts Thai marks as units", ok: [text("ก่".repeat(2500))], bad: [text("ก่".repeat(2500) + "่")], property: "messages[0].text" },
  { name: "unknown message type", ok: [text("a")], bad: [{ type: "bubble" }], property: "messages[0].type" },
  {
    name: "image url must be https",
    ok: [{ type: "image", originalContentUrl: IMG, previewImageUrl: IMG }],
    bad: [{ type: "image", originalContentUrl: "http://example.com/a.png", previewImageUrl: IMG }],
    property: "messages[0].originalContentUrl",
    message: /https/,
  },
  {
    name: "image http only on loopback",
    ok: [{ type: "image", originalContentUrl: LOOPBACK_IMG, previewImageUrl: LOOPBACK_IMG }],
    bad: [{ type: "image", originalContentUrl: LOOPBACK_IMG, previewImageUrl: "http://10.0.0.1/a.png" }],
    property: "messages[0].previewImageUrl",
  },
  {
    name: "image preview required",
    ok: [{ type: "image", originalContentUrl: IMG, previewImageUrl: IMG }],
    bad: [{ type: "image", originalContentUrl: IMG }],
    property: "messages[0].previewImageUrl",
    message: /must be specified/,
  },
  {
    name: "image url length 2,000",
    ok: [{ type: "image", originalContentUrl: IMG + "?" + "a".repeat(2000 - IMG.length - 1), previewImageUrl: IMG }],
    bad: [{ type: "image", originalContentUrl: IMG + "?" + "a".repeat(2000 - IMG.length), previewImageUrl: IMG }],
    property: "messages[0].originalContentUrl",
  },
  { name: "flex altText required", ok: [flex(bubble([text0("a")]))], bad: [{ type: "flex", contents: bubble([text0("a")]) }], property: "messages[0].altText" },
  { name: "flex altText empty", ok: [flex(bubble([text0("a")]), "a")], bad: [flex(bubble([text0("a")]), "")], property: "messages[0].altText" },
  { name: "flex altText 1,500", ok: [flex(bubble([text0("a")]), "a".repeat(1500))], bad: [flex(bubble([text0("a")]), "a".repeat(1501))], property: "messages[0].altText" },
  { name: "bubble JSON 30 KB", ok: [flex(bubbleOfBytes(30_000))], bad: [flex(bubbleOfBytes(30_001))], property: "messages[0].contents", message: /at most 30000 bytes/ },
  {
    name: "carousel of 12 bubbles",
    ok: [flex({ type: "carousel", contents: Array.from({ length: 12 }, () => bubble([text0("a")])) })],
    bad: [flex({ type: "carousel", contents: Array.from({ length: 13 }, () => bubble([text0("a")])) })],
    property: "messages[0].contents.contents",
    message: /between 1 and 12/,
  },
  {
    name: "carousel JSON 50 KB",
    ok: [flex({ type: "carousel", contents: [bubbleOfBytes(20_000), bubbleOfBytes(20_000)] })],
    bad: [flex({ type: "carousel", contents: [bubbleOfBytes(20_000), bubbleOfBytes(20_000), bubbleOfBytes(10_000)] })],
    property: "messages[0].contents",
    message: /at most 50000 bytes/,
  },
  { name: "bubble with no block", ok: [flex(bubble([]))], bad: [flex({ type: "bubble" })], property: "messages[0].contents" },
  {
    name: "box layout",
    ok: [flex(bubble([{ type: "box", layout: "baseline", contents: [text0("a")] }]))],
    bad: [flex(bubble([{ type: "box", layout: "grid" as "vertical", contents: [] }]))],
    property: "messages[0].contents.body.contents[0].layout",
  },
  { name: "empty flex text", ok: [flex(bubble([text0("a")]))], bad: [flex(bubble([text0("")]))], property: "messages[0].contents.body.contents[0].text" },
  {
    name: "colour format",
    ok: [flex(bubble([{ type: "text", text: "a", color: "#06C755" }]))],
    bad: [flex(bubble([{ type: "text", text: "a", color: "green" }]))],
    property: "messages[0].contents.body.contents[0].color",
  },
  {
    name: "image only in a baseline box when it is an icon",
    ok: [flex(bubble([{ type: "box", layout: "baseline", contents: [{ type: "icon", url: IMG }] }]))],
    bad: [flex(bubble([{ type: "box", layout: "baseline", contents: [{ type: "image", url: IMG }] }]))],
    property: "messages[0].contents.body.contents[0].contents[0].type",
  },
  {
    name: "hero image url https",
    ok: [flex(bubble([text0("a")], { hero: { type: "image", url: IMG } }))],
    bad: [flex(bubble([text0("a")], { hero: { type: "image", url: "ftp://x/a.png" } }))],
    property: "messages[0].contents.hero.url",
  },
  {
    name: "button label required",
    ok: [flex(bubble([button({ type: "postback", label: "Next", data: "p=2" })]))],
    bad: [flex(bubble([button({ type: "postback", data: "p=2" })]))],
    property: "messages[0].contents.body.contents[0].action.label",
    message: /must be specified/,
  },
  {
    name: "button label 40 graphemes",
    ok: [flex(bubble([button({ type: "message", label: THAI_CLUSTER.repeat(40), text: "x" })]))],
    bad: [flex(bubble([button({ type: "message", label: "a".repeat(41), text: "x" })]))],
    property: "messages[0].contents.body.contents[0].action.label",
    message: /between 1 and 40/,
  },
  {
    name: "postback data 300",
    ok: [flex(bubble([button({ type: "postback", label: "Next", data: "d".repeat(300) })]))],
    bad: [flex(bubble([button({ type: "postback", label: "Next", data: "d".repeat(301) })]))],
    property: "messages[0].contents.body.contents[0].action.data",
  },
  {
    name: "postback data required",
    ok: [flex(bubble([button({ type: "postback", label: "Next", data: "x" })]))],
    bad: [flex(bubble([button({ type: "postback", label: "Next" })]))],
    property: "messages[0].contents.body.contents[0].action.data",
  },
  {
    name: "postback displayText 300",
    ok: [flex(bubble([button({ type: "postback", label: "N", data: "x", displayText: "t".repeat(300) })]))],
    bad: [flex(bubble([button({ type: "postback", label: "N", data: "x", displayText: "t".repeat(301) })]))],
    property: "messages[0].contents.body.contents[0].action.displayText",
  },
  {
    name: "postback displayText and text together",
    ok: [flex(bubble([button({ type: "postback", label: "N", data: "x", text: "t" })]))],
    bad: [flex(bubble([button({ type: "postback", label: "N", data: "x", text: "t", displayText: "t" })]))],
    property: "messages[0].contents.body.contents[0].action.text",
  },
  {
    name: "message action text 300",
    ok: [flex(bubble([button({ type: "message", label: "Go", text: "m".repeat(300) })]))],
    bad: [flex(bubble([button({ type: "message", label: "Go", text: "m".repeat(301) })]))],
    property: "messages[0].contents.body.contents[0].action.text",
  },
  {
    name: "uri action scheme",
    ok: [flex(bubble([button({ type: "uri", label: "Open", uri: "https://example.com" })]))],
    bad: [flex(bubble([button({ type: "uri", label: "Open", uri: "javascript:alert(1)" })]))],
    property: "messages[0].contents.body.contents[0].action.uri",
  },
  {
    name: "button style",
    ok: [flex(bubble([{ type: "button", style: "link", action: { type: "message", label: "a", text: "a" } }]))],
    bad: [flex(bubble([{ type: "button", style: "ghost" as "link", action: { type: "message", label: "a", text: "a" } }]))],
    property: "messages[0].contents.body.contents[0].style",
  },
  {
    name: "quick reply 13 items",
    ok: [withQuickReply(Array.from({ length: 13 }, (_, i) => chip(`c${i}`)))],
    bad: [withQuickReply(Array.from({ length: 14 }, (_, i) => chip(`c${i}`)))],
    property: "messages[0].quickReply.items",
    message: /between 1 and 13/,
  },
  {
    name: "quick reply label 20 graphemes",
    ok: [withQuickReply([chip(THAI_CLUSTER.repeat(20))])],
    bad: [withQuickReply([chip("a".repeat(21))])],
    property: "messages[0].quickReply.items[0].action.label",
    message: /between 1 and 20/,
  },
  {
    name: "quick reply label required",
    ok: [withQuickReply([chip("x")])],
    bad: [withQuickReply([{ type: "action", action: { type: "message", text: "today" } }])],
    property: "messages[0].quickReply.items[0].action.label",
  },
  {
    name: "quick reply message text 300",
    ok: [withQuickReply([chip("x", "t".repeat(300))])],
    bad: [withQuickReply([chip("x", "t".repeat(301))])],
    property: "messages[0].quickReply.items[0].action.text",
  },
  {
    name: "quick reply postback data 300",
    ok: [withQuickReply([{ type: "action", action: { type: "postback", label: "n", data: "d".repeat(300) } }])],
    bad: [withQuickReply([{ type: "action", action: { type: "postback", label: "n", data: "d".repeat(301) } }])],
    property: "messages[0].quickReply.items[0].action.data",
  },
];

function text0(t: string): messagingApi.FlexText {
  return { type: "text", text: t };
}

describe("message limits over HTTP", () => {
  it.each(cases)("$name", async ({ ok, bad, property, message }) => {
    const accepted = await push(ok);
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    const refused = await push(bad);
    expect(refused.status).toBe(400);
    const details = refused.json.details ?? [];
    expect(refused.json.message).toBe(`The request body has ${details.length} error(s)`);
    const hit = details.find((d) => d.property === property);
    expect(hit, JSON.stringify(details)).toBeDefined();
    if (message) expect(hit?.message).toMatch(message);
  });

  it("reports every error of a body at once", async () => {
    const refused = await push([text(""), { type: "image", originalContentUrl: "http://example.com/a.png" }, withQuickReply([chip("a".repeat(21))])]);
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      message: "The request body has 4 error(s)",
      details: [
        { message: "May not be empty", property: "messages[0].text" },
        { message: "Must be an https URL (http only on loopback)", property: "messages[1].originalContentUrl" },
        { message: "must be specified", property: "messages[1].previewImageUrl" },
        { message: "Length must be between 1 and 20", property: "messages[2].quickReply.items[0].action.label" },
      ],
    });
  });
});

describe("validate (pure)", () => {
  it("counts graphemes for labels and UTF-8 bytes for flex JSON", () => {
    expect(graphemeCount("กี่")).toBe(1);
    expect(graphemeCount("👍🏽a")).toBe(2);
    expect(jsonBytes({ t: "ก" })).toBe('{"t":""}'.length + 3);
  });

  it("rejects http loopback images when the option is off", () => {
    const image = { type: "image", originalContentUrl: LOOPBACK_IMG, previewImageUrl: LOOPBACK_IMG };
    expect(validateMessages([image], { allowHttpLoopback: true })).toEqual([]);
    expect(validateMessages([image], { allowHttpLoopback: false }).map((d) => d.property)).toEqual(["messages[0].originalContentUrl", "messages[0].previewImageUrl"]);
  });

  it("accepts a realistic QR reply", () => {
    const hero: messagingApi.FlexImage = { type: "image", url: IMG, size: "full", aspectRatio: "1:1", aspectMode: "fit" };
    const qr = flex(
      bubble(
        [
          { type: "text", text: "฿150.00", size: "3xl", weight: "bold", color: "#111111" },
          { type: "separator", margin: "md" },
          {
            type: "box",
            layout: "horizontal",
            spacing: "sm",
            contents: [
              { type: "text", text: "Payee", flex: 2, color: "#888888" },
              { type: "text", text: "081-xxx-5678", flex: 5, wrap: true, align: "end" },
            ],
          },
        ],
        {
          hero,
          footer: { type: "box", layout: "vertical", contents: [button({ type: "postback", label: "Next", data: "history page 2", displayText: "history page 2" })] },
          styles: { footer: { separator: true } },
        },
      ),
      "QR ฿150.00",
    );
    expect(validateMessages([qr, { type: "image", originalContentUrl: IMG, previewImageUrl: IMG }], { allowHttpLoopback: false })).toEqual([]);
  });
});
