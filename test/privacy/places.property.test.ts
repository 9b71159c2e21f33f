// Privacy by construction, tried over the whole space rather than a few cases: every command word and
// button, chatter, greetings and typos, a message and its edit (LINE's messageEdited), a photo (a slip the
// service checked, one it never did, a photo without a QR, a payment QR, one LINE no longer has), in every place (staff
// 1:1, customer 1:1, staff group, customer group, staff room, customer room, a member LINE sends no id
// for), asked by staff or customers, with every answer the slip service can give (ok, 402, 401, 400, 5xx, a
// timeout, a malformed body), in Thai and English; then the scheduled pushes with staff lists that change
// under them. Every answer reaching a place that is not a staff place must be of a public kind and hold
// nothing of the shop's own data (the sandbox's payer names, references and amounts, token figures, the
// package), no setting's name, no button for a staff command, nothing only staff are told (their greeting,
// "did you mean", command errors, the set-up) and no member's user id; the send boundary must never have
// to stop anything (the harness fails on a block). What counts as public or staff-only is written out
// here, never read from the bot.
import type { ServerResponse } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import { startSandbox } from "@slipline/slip-sandbox";
import type { RunningSandbox } from "@slipline/slip-sandbox";
import type { RecordedSend } from "@slipline/line-stand-in";
import { createSlipClient } from "../../src/slip/client.js";
import type { ChatContext } from "../../src/handlers/context.js";
import { REAL_HANDLERS } from "../../src/event/handle-event.js";
import type { EventHandlers } from "../../src/event/handle-event.js";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { sendJson, startFaultServer } from "../kit/fault-server.js";
import type { FaultServer, RecordedRequest } from "../kit/fault-server.js";
import { actionsIn, shownText } from "../kit/messages.js";
import { photoWithoutQr, qrImage, slipPayload, slipScreenshot } from "../kit/slip-images.js";
import generatePayload from "promptpay-qr";
import { followEvent, imageEvent, joinEvent, lineId, otherEvent, postbackEvent, stickerEvent, textEvent } from "../kit/webhook.js";
import type { TestSource } from "../kit/webhook.js";

const STAFF = lineId("U", 0x5a1);
const CUSTOMER = lineId("U", 0x5a2);
const STAFF_GROUP = lineId("C", 0x5a3);
const CUSTOMER_GROUP = lineId("C", 0x5a4);
const STAFF_ROOM = lineId("R", 0x5a5);
const CUSTOMER_ROOM = lineId("R", 0x5a6);
const STAFF_PLACES = new Set([STAFF, STAFF_GROUP, STAFF_ROOM]);

type Outcome = "ok" | "402" | "401" | "400" | "500" | "timeout" | "malformed";
const OUTCOMES: readonly Outcome[] = ["ok", "402", "401", "400", "500", "timeout", "malformed"];

/** Every command word, in both languages, with and without arguments; chatter; typos. Written out, not read from the bot's tables. */
const TEXTS = [
  "qr 150",
  "qr 0812345678 150",
  "qr 0899999999 99.50",
  "qr",
  "pay 1,500",
  "promptpay 0812345678",
  "คิวอาร์ 150",
  "คิวอาร์ 0899999999 20",
  "พร้อมเพย์ 75.25",
  "จ่าย 20",
  "history",
  "history yesterday",
  "history 7d fraud",
  "history page 2",
  "h",
  "slips today",
  "ประวัติ",
  "ประวัติ เมื่อวาน ซ้ำ",
  "รายการ 7วัน",
  "history ref 0153XYZ",
  "summary",
  "summary yesterday",
  "sales 7d",
  "สรุป",
  "ยอดวันนี้",
  "ยอดขาย 7วัน",
  "สรุปยอด เดือนนี้",
  "paid 150",
  "paid 99.50",
  "received 150",
  "เช็คยอด 150",
  "ได้รับ 20",
  "balance",
  "credit",
  "tokens",
  "info",
  "โทเคน",
  "เครดิต",
  "คงเหลือ",
  "ยอด",
  "help",
  "?",
  "menu",
  "help history",
  "help qr",
  "ช่วยเหลือ",
  "วิธีใช้",
  "เมนู",
  "id",
  "whoami",
  "ไอดี",
  "contact",
  "ติดต่อร้าน",
  "hello",
  "สวัสดีค่ะ",
  "โอนแล้วนะคะ",
  "ขอบคุณนะ",
  "qrr 150",
  "histroy",
  "balanse",
  "hepl",
  "เชคยอด",
  "ประวัต",
  "ยอดค่ะ",
  "",
  "qr 0812345678 0",
  "qr 15o",
  "คิวอาร์ 1.234",
  "history page 0",
  "paid",
  "help nothing",
] as const;

/** Texts that ask nothing of the service: greetings, chatter, typos of every command, `id`, mistyped commands. */
const TALK = [
  "hello",
  "Hi!",
  "สวัสดีค่ะ",
  "หวัดดีครับ",
  "ขอบคุณนะ",
  "whatever",
  "โอนแล้วนะคะ",
  "🙏",
  "histroy",
  "balanse",
  "blance",
  "summry",
  "hepl",
  "qrr 150",
  "เชคยอด",
  "ประวัต",
  "ยอดค่ะ",
  "สลิปค่ะ",
  "id",
  "whoami",
  "ไอดี",
  "ไอดีกลุ่ม",
  "help",
  "วิธีใช้",
  "history",
  "ยอด",
  "contact",
  "qr 0812345678 0",
  "qr 15o",
  "คิวอาร์ 1.234",
  "history page 0",
  "paid",
  "help nothing",
  "",
] as const;

/** Button data the bot writes (paging, "check payment", rich menu taps) and data it never wrote. */
const POSTBACKS = [
  "history 2026-11-01..2026-11-20 page 2",
  "ประวัติ เมื่อวาน หน้า 3",
  "paid 150 after 2026-11-20T07:05:00.000Z",
  "ได้รับ 150 หลัง 2026-11-20T07:05:00.000Z",
  "summary",
  "balance",
  "qr 150",
  "help",
  "slipline:type qr",
  "slipline:switch customer-view",
  "not our data",
] as const;

interface Place {
  name: string;
  chatId: string;
  source: (userId: string | undefined) => TestSource;
}

const direct = (name: string, userId: string): Place => ({ name, chatId: userId, source: () => ({ type: "user", userId }) });
const group = (name: string, groupId: string): Place => ({ name, chatId: groupId, source: (userId) => ({ type: "group", groupId, ...(userId === undefined ? {} : { userId }) }) });
const room = (name: string, roomId: string): Place => ({ name, chatId: roomId, source: (userId) => ({ type: "room", roomId, ...(userId === undefined ? {} : { userId }) }) });

const PLACES: readonly Place[] = [
  direct("staff 1:1", STAFF),
  direct("customer 1:1", CUSTOMER),
  group("staff group", STAFF_GROUP),
  group("customer group", CUSTOMER_GROUP),
  room("staff room", STAFF_ROOM),
  room("customer room", CUSTOMER_ROOM),
];

/** Who speaks: a listed staff user, a customer, or a member LINE gives no id for. */
const SPEAKERS = [STAFF, CUSTOMER, undefined] as const;

type Action =
  | { kind: "text"; text: string; addressed: boolean }
  /** A text, then LINE's messageEdited for it: the same message id, a later time, another text. */
  | { kind: "edit"; text: string; addressed: boolean; edited: string; editedAddressed: boolean }
  | { kind: "postback"; data: string }
  /** A photo: `photo` says what is in it (`missing`: LINE no longer has it). */
  | { kind: "image"; photo: Photo }
  | { kind: "sticker" | "follow" | "join" | "memberJoined" };

/** The photos people send: a slip of one of the shop's checks, a slip never checked, no QR, a payment QR, one gone. */
const PHOTOS = ["slip", "unchecked", "none", "payment", "missing"] as const;
type Photo = (typeof PHOTOS)[number];
const imageArb: fc.Arbitrary<Action> = fc.record({ kind: fc.constant("image" as const), photo: fc.constantFrom(...PHOTOS) });

/** The commands that reach the service wherever they are asked: where its failures could show. */
const QR_TEXTS = TEXTS.filter((text) => /^(qr|pay|promptpay|คิวอาร์|พร้อมเพย์|จ่าย)\b/u.test(text));

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("text" as const), text: fc.constantFrom(...TEXTS), addressed: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("text" as const), text: fc.constantFrom(...QR_TEXTS), addressed: fc.boolean() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("edit" as const),
      text: fc.constantFrom(...TEXTS),
      addressed: fc.boolean(),
      edited: fc.constantFrom(...TEXTS),
      editedAddressed: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("postback" as const), data: fc.constantFrom(...POSTBACKS) }) },
  { weight: 2, arbitrary: imageArb },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("sticker" as const, "follow" as const, "join" as const, "memberJoined" as const) }) },
);

/** The kinds of answer fine for anyone, written out here (the issue's list), not read from the bot's tables. */
const PUBLIC_ANSWER_KINDS: ReadonlySet<string> = new Set([
  "qr_card",
  "qr_shop_only",
  "qr_ask_staff",
  "help",
  "greeting",
  "customer_note",
  "contact",
  "id",
  "customer_thanks",
  "pay_hint",
  "ask_in_private",
  "apology",
  "restarting",
  "edited_note",
]);

/**
 * What a button or quick reply may send where customers read it: pay by QR, help, contact the shop. Any
 * other (history, ยอด, โทเคน, เช็คยอด, id, a history page, the check-payment button) is a staff one.
 */
const CUSTOMER_TAPS = /^(?:qr|คิวอาร์|help|วิธีใช้|contact|ติดต่อร้าน)(?:\s|$)/u;

/** What only staff are told, as a person reads it (the bot's own words in both languages, written out). */
const STAFF_ONLY_WORDS: readonly [RegExp, string][] = [
  [/shows the shop's slip checks|ดูประวัติตรวจสลิป สรุปยอด/u, "the staff greeting"],
  [/Did you mean|หมายถึง “[^”]*” หรือเปล่า/u, "a did-you-mean"],
  [/Unknown command|ไม่รู้จักคำสั่ง|ดูคำสั่งทั้งหมด|send “help” to see every command/u, "unknown command"],
  [/“(?:history|summary|balance|paid|ประวัติ|ยอด|โทเคน|เช็คยอด)[^”]*”/u, "a staff command to type"],
  [/Usage:|Example:|พิมพ์ตามตัวอย่างนี้/u, "a command's notation"],
  [/does not read slip images|ตรวจสลิปจากรูปไม่ได้/u, "the staff's photo hint"],
  [
    /slip was checked|not been checked yet|No slip QR could be read|not a slip's QR|Could not get this photo|photos are waiting|สลิปนี้ตรวจแล้ว|ยังไม่เคยตรวจ|อ่าน QR ของสลิป|ไม่ใช่ QR ของสลิป|ดึงรูปนี้จาก LINE|รูปรออ่าน/u,
    "a slip photo's answer",
  ],
  [/No staff are set up|set it up|staff list|[Rr]estart the bot|ยังไม่ได้ตั้งรายชื่อพนักงาน|เจ้าของร้านทำตามนี้|รายชื่อพนักงาน|เริ่มบอทใหม่/u, "the set-up"],
  [/is a staff group|เป็นกลุ่มพนักงาน/u, "the staff lists"],
];

/** A LINE user id, as the staff lists hold them. */
const USER_ID = /U[0-9a-f]{32}/g;

/** The shop's own data, read from the sandbox (the outside source), never from the bot. */
interface Secrets {
  names: string[];
  refs: string[];
  /** A reference whose check carries a payer's name (the slip photo's, so that its answer has a name to leak). */
  namedRef: string;
  tokenFigures: string[];
}

let sandbox: RunningSandbox;
let proxy: FaultServer;
let outcome: Outcome = "ok";
let bot: BotHarness;
let secrets: Secrets;
/** The photos' bytes, made once: the slip is of one of the sandbox's checks (its reference is a secret). */
let photoBytes: Record<Exclude<Photo, "missing">, Buffer>;

/** The service as the case wants it: the sandbox's own answer, or one of its failures. */
async function serve(request: RecordedRequest, res: ServerResponse): Promise<void> {
  switch (outcome) {
    case "ok": {
      const answer = await fetch(`${sandbox.url}${request.url}`, {
        method: request.method,
        headers: { authorization: String(request.headers.authorization ?? ""), ...(request.method === "POST" ? { "content-type": "application/json" } : {}) },
        ...(request.method === "POST" ? { body: request.body } : {}),
      });
      const body = await answer.text();
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
      res.end(body);
      return;
    }
    case "402":
      return sendJson(res, 402, { code: "402001", message: "Package expired" });
    case "401":
      return sendJson(res, 401, { code: "401001", message: "Unauthorized" });
    case "400":
      return sendJson(res, 400, { code: "400001", message: "accountNumber must be a 10-digit phone, 13-digit ID, or 15-digit e-wallet id" });
    case "500":
      return sendJson(res, 500, { code: "500001", message: "Internal error" });
    case "timeout":
      return; // never answers: the client's deadline ends it
    case "malformed":
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"code":"200001","data":{"items":"nope"');
      return;
  }
}

async function readSecrets(): Promise<Secrets> {
  const slip = createSlipClient({ baseUrl: sandbox.url, apiSecret: DEMO_SECRETS.shop, accountCacheSeconds: 0 });
  try {
    const names = new Set<string>();
    const refs = new Set<string>();
    let namedRef: string | undefined;
    const from = new Date(Date.now() - 100 * 86_400_000);
    for (let page = 1; ; page++) {
      const result = await slip.slipHistory({ from, to: new Date(), limit: 100, page });
      for (const item of result.items) {
        for (const name of [item.senderName, item.receiverName]) if (name !== null && name.length >= 4) names.add(name);
        if (item.transRef !== null) refs.add(item.transRef);
        if (namedRef === undefined && item.transRef !== null && item.senderName !== null && item.senderName.length >= 4) namedRef = item.transRef;
      }
      if (page >= result.pagination.pages) break;
    }
    const account = await slip.accountInfo();
    const figure = (n: number, decimals: number): string => n.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    const tokenFigures = [figure(account.tokens, 2), figure(account.credits, 2), figure(account.estimatedSlips.api, 0), figure(account.estimatedSlips.chat, 0)].filter(
      (f) => f.replace(/\D/g, "").length >= 3, // "0" or "12" would match anything
    );
    expect(names.size).toBeGreaterThan(20);
    expect(refs.size).toBeGreaterThan(100);
    if (namedRef === undefined) throw new Error("the sandbox's history has no check with a payer's name");
    return { names: [...names], refs: [...refs], namedRef, tokenFigures };
  } finally {
    await slip.close();
  }
}

/** Every way the chat can read a send: what it shows and what its buttons carry. */
const readable = (send: RecordedSend): string => `${shownText(send.messages)}\n${JSON.stringify(send.messages)}`;

/** What a place that is not a staff place may never read, with the amount the case itself asked for allowed. */
function leaksIn(send: RecordedSend, askedBaht: readonly string[]): string[] {
  const text = readable(send);
  const shown = shownText(send.messages);
  const found: string[] = [];
  for (const name of secrets.names) if (text.includes(name)) found.push(`payer or receiver name ${name}`);
  for (const ref of secrets.refs) if (text.includes(ref)) found.push(`reference ${ref}`);
  for (const figure of secrets.tokenFigures) if (new RegExp(`(^|[^\\d,.])${figure.replace(/[.,]/g, "\\$&")}([^\\d]|$)`).test(text)) found.push(`token figure ${figure}`);
  if (/\bPro\b/.test(text.replace(/PromptPay|พร้อมเพย์/g, ""))) found.push("package name");
  // The package's state (expired, renew) is the shop's business, not its customers'.
  for (const word of shown.match(/package|แพ็กเกจ|expired|หมดอายุ|renew|ต่ออายุ/gi) ?? []) found.push(`package state "${word}"`);
  for (const setting of text.match(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g) ?? []) found.push(`setting ${setting}`);
  for (const action of actionsIn(send.messages)) {
    const sends = action.type === "message" ? action.text : action.type === "postback" ? action.data : undefined;
    if (sends !== undefined && !CUSTOMER_TAPS.test(sends)) found.push(`staff button or quick reply "${sends}"`);
  }
  for (const [pattern, what] of STAFF_ONLY_WORDS) if (pattern.test(shown)) found.push(`${what}: ${JSON.stringify(shown)}`);
  // A member's user id only to themselves, in their own 1:1 chat.
  for (const id of text.match(USER_ID) ?? []) if (id !== send.chatId) found.push(`user id ${id}`);
  // The "check payment" button (and any button or quick reply asking whether money arrived) is for staff.
  for (const action of JSON.stringify(send.messages).match(/"(?:data|text)":"(?:paid|received|ได้รับ|เช็ค\S*|เช็ก\S*|ยอดเข้า|เงินเข้า) [^"]*"/g) ?? []) {
    found.push(`payment check ${action}`);
  }
  // Money shown (฿1,500.00 or 1,500.00 บาท) may only be the amount asked for in this very message.
  for (const money of shown.matchAll(/฿\s?([\d,]+\.\d\d)|([\d,]+(?:\.\d\d)?)\s?บาท/g)) {
    const amount = (money[1] ?? money[2] ?? "").replace(/,/g, "");
    if (!askedBaht.some((asked) => Number(asked) === Number(amount))) found.push(`amount ${money[0]}`);
  }
  return found;
}

const MENTION = "@slipline ";

/** A text as LINE sends it: mentioning the bot at its start when addressed (in a group or room). */
function textOf(words: string, addressed: boolean, source: TestSource): { text: string; mentionees: { index: number; length: number; isSelf: boolean }[] } {
  if (!addressed || source.type === "user") return { text: words, mentionees: [] };
  return { text: `${MENTION}${words}`, mentionees: [{ index: 0, length: MENTION.length - 1, isSelf: true }] };
}

let lastMessageId = 7_000_000;

/** The events of an action; each takes a reply token for `chatId` from `token`. */
function eventsFor(action: Action, source: TestSource, token: () => string): unknown[] {
  const common = { source, replyToken: token() };
  switch (action.kind) {
    case "text":
      return [textEvent({ ...common, ...textOf(action.text, action.addressed, source) })];
    case "edit": {
      const id = String(++lastMessageId);
      const at = Date.now();
      const original = textEvent({ ...common, timestamp: at, ...textOf(action.text, action.addressed, source) });
      const edited = textOf(action.edited, action.editedAddressed, source);
      const mention = edited.mentionees.length === 0 ? {} : { mention: { mentionees: edited.mentionees.map((m) => ({ ...m, type: "user" })) } };
      return [
        { ...original, message: { ...original.message, id } },
        otherEvent({ source, replyToken: token(), timestamp: at + 1_000, type: "messageEdited", extra: { message: { type: "text", id, text: edited.text, ...mention } } }),
      ];
    }
    case "postback":
      return [postbackEvent({ ...common, data: action.data })];
    case "image": {
      // As LINE does, the photo is kept under its message's id; a `missing` one names an id LINE never had.
      const messageId = action.photo === "missing" ? "999999999999999990" : bot.platform.addMessageContent(photoBytes[action.photo], "image/png");
      return [imageEvent({ ...common, messageId })];
    }
    case "sticker":
      return [stickerEvent(common)];
    case "follow":
      return [followEvent(common)];
    case "join":
      return [joinEvent(common)];
    case "memberJoined":
      return [otherEvent({ ...common, type: "memberJoined", extra: { joined: { members: [{ type: "user", userId: lineId("U", 0x5af) }] } } })];
  }
}

/** The amounts (in baht, as typed) an action asks a QR for: the only money a customer place may read. */
function askedAmounts(action: Action): string[] {
  const text = action.kind === "text" ? action.text : action.kind === "edit" ? `${action.text} ${action.edited}` : action.kind === "postback" ? action.data : "";
  return [...text.matchAll(/(?:^|\s)([\d,]+(?:\.\d+)?)(?=\s|$)/g)].map((m) => (m[1] ?? "").replace(/,/g, "")).filter((n) => n.length > 0 && n.length <= 9);
}

/** Every answer the handlers gave, with its audience and kind, as the send boundary got it. */
const answered: { chatId: string; audience: string; kind: string }[] = [];

/** The bot's own handlers, each with a context that notes what it is given to send. */
const NOTING: EventHandlers = (() => {
  const noting = (ctx: ChatContext): ChatContext => ({
    ...ctx,
    send(answer) {
      answered.push({ chatId: ctx.chat.id, audience: answer.audience, kind: answer.kind });
      return ctx.send(answer);
    },
  });
  return {
    handleText: (input, ctx, deps) => REAL_HANDLERS.handleText(input, noting(ctx), deps),
    handleEditedText: (input, ctx, deps) => REAL_HANDLERS.handleEditedText(input, noting(ctx), deps),
    handleNonText: (type, ctx, deps) => REAL_HANDLERS.handleNonText(type, noting(ctx), deps),
    handleImage: (input, ctx, deps) => REAL_HANDLERS.handleImage(input, noting(ctx), deps),
    handlePostback: (data, ctx, deps) => REAL_HANDLERS.handlePostback(data, noting(ctx), deps),
    handleGreeting: (ctx, deps) => REAL_HANDLERS.handleGreeting(noting(ctx), deps),
    handleMemberJoined: (joined, ctx, deps) => REAL_HANDLERS.handleMemberJoined(joined, noting(ctx), deps),
  };
})();

beforeAll(async () => {
  sandbox = await startSandbox({});
  proxy = await startFaultServer(serve);
  secrets = await readSecrets();
  const small = { width: 540, height: 1170, qrSize: 150 };
  photoBytes = {
    slip: await slipScreenshot({ qrText: slipPayload(secrets.namedRef), ...small }),
    unchecked: await slipScreenshot({ qrText: slipPayload("2404149999000001"), ...small }),
    none: await photoWithoutQr(),
    payment: await qrImage(generatePayload("0812345678", { amount: 150 }), 300),
  };
  bot = await startBotHarness({
    slip: { baseUrl: proxy.url, apiSecret: DEMO_SECRETS.shop },
    slipTimeoutMs: 300,
    slipRetries: 0,
    // Every case gets the service's own answer, not an open circuit left by the case before.
    slipOptions: { breakAfterFailures: 1_000 },
    // A customer's slip is pushed to the staff group and room too: that push must go nowhere else.
    settings: { staffUserIds: new Set([STAFF]), staffGroupIds: new Set([STAFF_GROUP, STAFF_ROOM]), slipPhotoPush: true },
    handlers: NOTING,
  });
}, 60_000);
afterAll(async () => {
  await bot?.close();
  await proxy?.close();
  await sandbox?.close();
});

/**
 * Sends an action's events from `speaker` in `place` and checks what came back: where customers read it,
 * every answer of a public kind and no send with anything of `leaksIn`.
 */
async function expectOnlyPublic(action: Action, place: Place, speaker: string | undefined, chosen: Outcome): Promise<void> {
  answered.length = 0;
  const sends = await bot.exchange(eventsFor(action, place.source(speaker), () => bot.token(place.chatId)));
  const staffPlace = STAFF_PLACES.has(place.chatId);
  const where = { place: place.name, speaker: speaker ?? "no id", action, outcome: chosen };
  for (const answer of answered) {
    expect(answer.chatId).toBe(place.chatId);
    if (!staffPlace) expect({ ...where, answer, isPublic: answer.audience === "public" && PUBLIC_ANSWER_KINDS.has(answer.kind) }).toMatchObject({ isPublic: true });
  }
  for (const send of sends) {
    // Only a customer's slip photo sends elsewhere: its lookup, pushed to the staff places.
    if (send.chatId !== place.chatId && action.kind === "image" && !staffPlace) {
      expect({ ...where, pushedTo: send.chatId, kind: send.kind, toStaff: STAFF_PLACES.has(send.chatId) }).toMatchObject({ kind: "push", toStaff: true });
      continue;
    }
    expect(send.chatId).toBe(place.chatId);
    if (!staffPlace) expect({ ...where, leaks: leaksIn(send, askedAmounts(action)) }).toMatchObject({ leaks: [] });
  }
}

describe("what reaches a place that is not a staff place", { timeout: 300_000 }, () => {
  it("is never the shop's data or settings, for any command, place, speaker, service answer or language", async () => {
    await fc.assert(
      fc.asyncProperty(actionArb, fc.constantFrom(...PLACES), fc.constantFrom(...SPEAKERS), fc.constantFrom(...OUTCOMES), async (action, place, speaker, chosen) => {
        outcome = chosen;
        await expectOnlyPublic(action, place, speaker, chosen);
      }),
      { numRuns: 400 },
    );
  });

  // The talk that never reaches the service (greetings, chatter, typos, `id`, mistyped commands, a
  // message and its edit, photos), where the answer used to follow who wrote instead of where it went:
  // cheap, so tried often, and only where customers read.
  it("is what a customer gets there, whoever writes chatter, a greeting, a typo, `id`, a mistake or an edit", async () => {
    const talkArb: fc.Arbitrary<Action> = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant("text" as const), text: fc.constantFrom(...TALK), addressed: fc.boolean() }) },
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant("edit" as const),
          text: fc.constantFrom(...TALK, "qr 150"),
          addressed: fc.boolean(),
          edited: fc.constantFrom(...TALK, "qr 200"),
          editedAddressed: fc.boolean(),
        }),
      },
      { weight: 1, arbitrary: imageArb },
      { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("sticker" as const, "follow" as const, "join" as const) }) },
    );
    outcome = "ok";
    await fc.assert(
      fc.asyncProperty(talkArb, fc.constantFrom(...PLACES.filter((p) => !STAFF_PLACES.has(p.chatId))), fc.constantFrom(...SPEAKERS), (action, place, speaker) =>
        expectOnlyPublic(action, place, speaker, "ok"),
      ),
      { numRuns: 400 },
    );
  });

  it("still brings the shop's data to staff places (so the check above is not passed by silence)", async () => {
    outcome = "ok";
    for (const place of PLACES.filter((p) => STAFF_PLACES.has(p.chatId))) {
      const source = place.source(STAFF);
      const { chatId } = place;
      const history = (await bot.exchange([textEvent({ source, replyToken: bot.token(chatId), text: "history 7d" })])).map(readable).join("\n");
      expect(
        secrets.refs.some((ref) => history.includes(ref)),
        `${place.name}: history shows references`,
      ).toBe(true);
      const balance = (await bot.exchange([textEvent({ source, replyToken: bot.token(chatId), text: "balance" })])).map(readable).join("\n");
      expect(balance, `${place.name}: balance shows the package`).toMatch(/\bPro\b/);
      expect(
        secrets.tokenFigures.some((f) => balance.includes(f)),
        `${place.name}: balance shows token figures`,
      ).toBe(true);
    }
  });
});

describe("the check itself", { timeout: 60_000 }, () => {
  it("sees what it looks for: in staff places the same words bring what only staff are told", async () => {
    outcome = "ok";
    const cases: [Place, unknown, string][] = [
      [PLACES[0] as Place, "hello", "the staff greeting"],
      [PLACES[0] as Place, "hello", "staff button or quick reply"],
      [PLACES[0] as Place, "histroy", "a did-you-mean"],
      [PLACES[0] as Place, "whatever", "unknown command"],
      [PLACES[0] as Place, "history page 0", "a command's notation"],
      [PLACES[2] as Place, "วิธีใช้", "staff button or quick reply"],
      [PLACES[2] as Place, "id", "the staff lists"],
      [PLACES[2] as Place, "id", `user id ${STAFF}`],
      [PLACES[0] as Place, { kind: "image", photo: "slip" }, `reference ${secrets.namedRef}`],
      [PLACES[2] as Place, { kind: "image", photo: "slip" }, "payer or receiver name"],
      [PLACES[0] as Place, { kind: "image", photo: "unchecked" }, "a slip photo's answer"],
      [PLACES[4] as Place, { kind: "image", photo: "none" }, "a slip photo's answer"],
      [PLACES[0] as Place, { kind: "image", photo: "payment" }, "a slip photo's answer"],
      [PLACES[0] as Place, { kind: "image", photo: "missing" }, "a slip photo's answer"],
    ];
    for (const [place, said, flagged] of cases) {
      const source = place.source(STAFF);
      const event =
        typeof said === "string" ? textEvent({ source, replyToken: bot.token(place.chatId), text: said }) : eventsFor(said as Action, source, () => bot.token(place.chatId))[0];
      const sends = await bot.exchange([event]);
      expect(sends.flatMap((send) => leaksIn(send, [])).join("\n"), `${place.name}: ${JSON.stringify(said)}`).toContain(flagged);
    }
  });
});

describe("the scheduled pushes", { timeout: 300_000 }, () => {
  type Step =
    | { kind: "qr"; place: Place; speaker: string | undefined; baht: number }
    | { kind: "staff"; lists: "all" | "no user" | "no group" | "no room" | "none" }
    | { kind: "pay"; baht: number }
    | { kind: "tick"; minutes: number };
  const BAHT = [150, 275, 99.5] as const;
  const LISTS = {
    all: { staffUserIds: new Set([STAFF]), staffGroupIds: new Set([STAFF_GROUP, STAFF_ROOM]) },
    "no user": { staffUserIds: new Set<string>(), staffGroupIds: new Set([STAFF_GROUP, STAFF_ROOM]) },
    "no group": { staffUserIds: new Set([STAFF]), staffGroupIds: new Set([STAFF_ROOM]) },
    "no room": { staffUserIds: new Set([STAFF]), staffGroupIds: new Set([STAFF_GROUP]) },
    none: { staffUserIds: new Set<string>(), staffGroupIds: new Set<string>() },
  } as const;
  const stepArb: fc.Arbitrary<Step> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant("qr" as const), place: fc.constantFrom(...PLACES), speaker: fc.constantFrom(...SPEAKERS), baht: fc.constantFrom(...BAHT) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant("staff" as const),
        lists: fc.constantFrom("all" as const, "no user" as const, "no group" as const, "no room" as const, "none" as const),
      }),
    },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("pay" as const), baht: fc.constantFrom(...BAHT) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("tick" as const), minutes: fc.integer({ min: 1, max: 20 }) }) },
  );

  it("go only to places that are staff places when they go out, whatever the lists did since the QR", async () => {
    // 20:50 in Bangkok: the daily summary (21:00) and the watches both fall inside the runs.
    let clock = new Date("2026-11-20T13:50:00.000Z");
    const pushBot = await startBotHarness({
      now: () => clock,
      sandboxDevRoutes: true,
      alerts: { watchMinutes: 30, dailySummaryAt: { hour: 21, minute: 0 }, lowTokenSlips: 1_000_000, expiryDays: 365 },
      settings: LISTS.all,
    });
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 8 }), async (steps) => {
          let lists: (typeof LISTS)[keyof typeof LISTS] = LISTS.all;
          pushBot.setStaff(lists);
          for (const step of steps) {
            switch (step.kind) {
              case "qr": {
                const sends = await pushBot.exchange([
                  textEvent({ source: step.place.source(step.speaker), replyToken: pushBot.token(step.place.chatId), text: `qr ${step.baht}` }),
                ]);
                const staffPlace = lists.staffUserIds.has(step.place.chatId) || lists.staffGroupIds.has(step.place.chatId);
                if (!staffPlace) for (const send of sends) expect({ step, leaks: leaksIn(send, [String(step.baht)]) }).toMatchObject({ leaks: [] });
                break;
              }
              case "staff":
                lists = LISTS[step.lists];
                pushBot.setStaff(lists);
                break;
              case "pay": {
                const res = await fetch(`${pushBot.slipUrl}/dev/payments`, {
                  method: "POST",
                  headers: { "content-type": "application/json" },
                  body: JSON.stringify({ amount: step.baht, senderName: "นาง สุดา ผู้โอน" }),
                });
                expect(res.status).toBe(200);
                break;
              }
              case "tick": {
                clock = new Date(clock.getTime() + step.minutes * 60_000);
                const mark = pushBot.platform.sent.length;
                await pushBot.notifier?.tick();
                for (const push of pushBot.platform.sent.slice(mark)) {
                  const staffPlace = lists.staffUserIds.has(push.chatId) || lists.staffGroupIds.has(push.chatId);
                  expect({ step, to: push.chatId, staffPlace, said: shownText(push.messages) }).toMatchObject({ staffPlace: true });
                }
                break;
              }
            }
          }
        }),
        // First, one run that surely pushes a payer's name: staff ask for a QR in their 1:1, a minute later it is paid, a minute after that the watch looks.
        {
          numRuns: 40,
          examples: [
            [
              [
                { kind: "qr", place: PLACES[0] as Place, speaker: STAFF, baht: 150 },
                { kind: "tick", minutes: 1 },
                { kind: "pay", baht: 150 },
                { kind: "tick", minutes: 1 },
              ],
            ],
          ],
        },
      );
      // Not passed by silence: the pushes did go out to staff places along the way.
      const pushed = pushBot.platform.sent.filter((s) => s.kind === "push");
      expect(pushed.some((s) => shownText(s.messages).includes("นาง สุดา ผู้โอน"))).toBe(true);
      expect(pushed.length).toBeGreaterThan(3);
    } finally {
      await pushBot.close();
    }
  });
});
