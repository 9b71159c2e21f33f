import { describe, expect, it } from "vitest";
import { readEvent } from "../../src/line/incoming.js";
import { imageEvent, lineId, otherEvent, postbackEvent, stickerEvent, textEvent } from "../kit/webhook.js";

const USER = lineId("U", 1);
const GROUP = lineId("C", 2);
const ROOM = lineId("R", 3);

describe("readEvent", () => {
  it("reads a 1:1 text message: chat is the user, mentions kept", () => {
    const e = readEvent(textEvent({ source: { type: "user", userId: USER }, replyToken: "r", eventId: "E1", text: "qr 150" }));
    expect(e).toMatchObject({
      type: "message",
      eventId: "E1",
      mode: "active",
      replyToken: "r",
      chat: { type: "user", id: USER },
      userId: USER,
      action: { kind: "text", text: "qr 150", mentionees: [] },
    });
  });

  it("uses the group id as the chat in a group, the room id in a room, and keeps a missing user missing", () => {
    const inGroup = readEvent(
      textEvent({
        source: { type: "group", groupId: GROUP },
        text: "@Bot qr",
        mentionees: [{ index: 0, length: 4, isSelf: true }],
      }),
    );
    expect(inGroup.chat).toEqual({ type: "group", id: GROUP });
    expect(inGroup.userId).toBeUndefined();
    expect(inGroup.action).toMatchObject({ kind: "text", text: "@Bot qr", mentionees: [{ index: 0, length: 4, isSelf: true }] });
    const inRoom = readEvent(textEvent({ source: { type: "room", roomId: ROOM, userId: USER }, text: "h" }));
    expect(inRoom.chat).toEqual({ type: "room", id: ROOM });
    expect(inRoom.userId).toBe(USER);
  });

  it("reads postbacks, stickers and images", () => {
    const source = { type: "user" as const, userId: USER };
    expect(readEvent(postbackEvent({ source, data: "history page 2" })).action).toEqual({ kind: "postback", data: "history page 2" });
    expect(readEvent(stickerEvent({ source })).action).toEqual({ kind: "non_text", messageType: "sticker" });
    expect(readEvent(imageEvent({ source, messageId: "468789577898262530" })).action).toEqual({ kind: "image", messageId: "468789577898262530" });
  });

  it("reads a photo's content id only when LINE keeps it and it has LINE's shape (it goes into a URL path)", () => {
    const source = { type: "user" as const, userId: USER };
    expect(readEvent(imageEvent({ source, messageId: "468789577898262530", external: true })).action).toEqual({ kind: "image", messageId: undefined });
    expect(readEvent(imageEvent({ source, messageId: "../../v2/bot/info" })).action).toEqual({ kind: "image", messageId: undefined });
  });

  it("ignores event types it does not know, without throwing", () => {
    const e = readEvent(otherEvent({ source: { type: "group", groupId: GROUP }, type: "messageReacted", extra: { message: { type: "text", text: "qr 1" } } }));
    expect(e.action).toEqual({ kind: "ignore", why: "event type messageReacted" });
  });

  it("reads an edited text with the message id it edits, and the message's own id and mark-as-read token", () => {
    const edited = readEvent(
      otherEvent({ source: { type: "group", groupId: GROUP, userId: USER }, type: "messageEdited", extra: { message: { type: "text", id: "5050", text: "qr 200" } } }),
    );
    expect(edited.action).toEqual({ kind: "edited_text", text: "qr 200", mentionees: [], messageId: "5050" });
    expect(edited.timestamp).toEqual(expect.any(Number));
    // An edited sticker, or an edit naming no message, is nothing to answer.
    const sticker = otherEvent({ source: { type: "group", groupId: GROUP }, type: "messageEdited", extra: { message: { type: "sticker", id: "5051" } } });
    expect(readEvent(sticker).action.kind).toBe("ignore");
    const noId = otherEvent({ source: { type: "group", groupId: GROUP }, type: "messageEdited", extra: { message: { type: "text", text: "qr 1" } } });
    expect(readEvent(noId).action.kind).toBe("ignore");

    const raw = textEvent({ source: { type: "user", userId: USER }, text: "qr 150" }) as unknown as { message: Record<string, unknown> };
    raw.message.id = "777";
    raw.message.markAsReadToken = "read-token-1";
    expect(readEvent(raw).action).toEqual({ kind: "text", text: "qr 150", mentionees: [], messageId: "777", markAsReadToken: "read-token-1" });
    // A message id that is not LINE's (digits) is not kept: it would go into a Redis key.
    raw.message.id = "7:7*";
    expect(readEvent(raw).action).toMatchObject({ messageId: undefined });
  });

  it.each([
    ["a user id of another shape", { type: "user", userId: "U123" }],
    ["an upper-case user id", { type: "user", userId: `U${"A".repeat(32)}` }],
    ["a path in a user id", { type: "user", userId: `U${"0".repeat(30)}/x` }],
    ["a group id of another shape", { type: "group", groupId: "C../../v2/bot/info", userId: USER }],
    ["a room id named as a group", { type: "group", groupId: `R${"0".repeat(32)}` }],
    ["a group id named as a room", { type: "room", roomId: `C${"0".repeat(32)}` }],
  ])("names no chat for %s (ids go into LINE's URL paths and Redis keys)", (_what, source) => {
    const e = readEvent({ ...(textEvent({ source: { type: "user", userId: USER }, text: "qr 1" }) as object), source });
    expect(e.chat).toBeUndefined();
  });

  it.each([null, 42, "text", [], {}, { type: "message" }, { type: "message", message: { type: "text" } }, { type: "postback", postback: {} }])(
    "never throws on junk %j",
    (junk) => {
      const e = readEvent(junk);
      expect(["ignore", "non_text"]).toContain(e.action.kind);
    },
  );

  it("drops malformed mentionees instead of passing them on", () => {
    const raw = textEvent({ source: { type: "user", userId: USER }, text: "@x qr" }) as unknown as { message: Record<string, unknown> };
    raw.message.mention = {
      mentionees: [
        { index: -1, length: 2 },
        { index: "0", length: 2 },
        { index: 0, length: 2, type: "user" },
      ],
    };
    expect(readEvent(raw).action).toMatchObject({ kind: "text", text: "@x qr", mentionees: [{ index: 0, length: 2 }] });
  });
});
