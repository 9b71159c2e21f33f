// Test doubles for the handlers: a plain-object SlipClient over an in-memory list, and a ChatContext that records.
import { messagesOf } from "../../src/privacy/answer.js";
import type { Answer } from "../../src/privacy/answer.js";
import type { messagingApi } from "@line/bot-sdk";
import { pino } from "pino";
import type { BotSettings } from "../../src/config.js";
import type { ChatContext, HandlerDeps } from "../../src/handlers/context.js";
import { audienceOf, type Chat, type StaffLists } from "../../src/roles/audience.js";
import { createQuietNotes } from "../../src/stores/quiet-notes.js";
import { createSummaryLoader } from "../../src/summary/load.js";
import type { AccountInfo, HistoryItem, HistoryPage, HistoryQuery, PromptPayQrUrl, PromptPayQrUrlRequest, SlipClient } from "../../src/slip/types.js";

export const NOW = new Date("2026-11-22T07:05:00.000Z"); // 22 Nov 2026 14:05 in Bangkok

export const STATUS_CYCLE = ["valid", "valid", "valid", "fraud", "duplicate", "invalid", "not_found", "error"] as const;

/** `count` checks made today in Bangkok, newest first, one per 10 seconds back from 13:59:50 Bangkok time. */
export function makeItems(count: number): HistoryItem[] {
  const newest = new Date("2026-11-22T06:59:50.000Z").getTime();
  return Array.from({ length: count }, (_, i) => {
    const status = STATUS_CYCLE[i % STATUS_CYCLE.length] ?? "valid";
    const hasMoney = status !== "not_found" && status !== "error";
    const createdAt = new Date(newest - i * 10_000).toISOString();
    return {
      code: 200000 + i,
      status,
      amount: hasMoney ? 100 + (i % 7) * 10.25 : null,
      transRef: `REF${String(i).padStart(6, "0")}`,
      transDate: hasMoney ? createdAt : null,
      senderName: hasMoney ? `ผู้โอน ${i}` : null,
      receiverName: hasMoney ? "ร้านกาแฟดีใจ" : null,
      receiverAccount: hasMoney ? "xxx-x-x1234-x" : null,
      source: "line_oa_merchant",
      tokensCharged: 1,
      createdAt,
    };
  });
}

export interface FakeSlip extends SlipClient {
  historyCalls: HistoryQuery[];
  qrCalls: PromptPayQrUrlRequest[];
  accountCalls: number;
}

const ACCOUNT: AccountInfo = {
  storeName: "ร้านกาแฟดีใจ",
  packageName: "Pro",
  tokens: 1234.5,
  credits: 20,
  rate: { chat: 1, api: 1 },
  estimatedSlips: { chat: 1234, api: 1234 },
  expiresAt: "2027-01-31T16:59:59.000Z",
};

function toTime(value: Date | string | undefined): number | undefined {
  return value === undefined ? undefined : new Date(value).getTime();
}

/**
 * A SlipClient over `items` that filters and pages like the service (limit capped at 100), or calls
 * `fail(operation)` first, which may throw one of the real error classes.
 */
export function fakeSlip(options: { items?: HistoryItem[]; fail?: (operation: string) => void } = {}): FakeSlip {
  const items = options.items ?? [];
  const fake: FakeSlip = {
    historyCalls: [],
    qrCalls: [],
    accountCalls: 0,
    async slipHistory(query: HistoryQuery = {}): Promise<HistoryPage> {
      fake.historyCalls.push(query);
      options.fail?.("GET /api/slip-history");
      const from = toTime(query.from);
      const to = toTime(query.to);
      const matching = items.filter((item) => {
        const at = new Date(item.createdAt ?? 0).getTime();
        return (
          (query.status === undefined || item.status === query.status) &&
          (query.transRef === undefined || item.transRef === query.transRef) &&
          (from === undefined || at >= from) &&
          (to === undefined || at <= to)
        );
      });
      const limit = Math.min(query.limit ?? 20, 100);
      const page = query.page ?? 1;
      return {
        items: matching.slice((page - 1) * limit, page * limit),
        pagination: { page, limit, total: matching.length, pages: Math.ceil(matching.length / limit) },
      };
    },
    async promptPayQr() {
      throw new Error("the bot uses promptPayQrUrl");
    },
    async promptPayQrUrl(request: PromptPayQrUrlRequest): Promise<PromptPayQrUrl> {
      fake.qrCalls.push(request);
      options.fail?.("POST /api/promptpay-qr-url");
      const qrCode = `000201PAYLOAD${request.accountNumber}${request.amount ?? ""}`;
      return {
        qrCode,
        url: `https://slip.example/api/qr-image?data=${encodeURIComponent(qrCode)}&size=${request.size ?? 512}`,
        amount: request.amount ?? null,
      };
    },
    async accountInfo(): Promise<AccountInfo> {
      fake.accountCalls += 1;
      options.fail?.("GET /api/account/info");
      return ACCOUNT;
    },
    async close() {},
  };
  return fake;
}

export interface RecordingContext extends ChatContext {
  sent: messagingApi.Message[][];
  /** What was sent, as the send boundary gets it: with its audience and kind. */
  answers: Answer[];
  loadings: number;
}

export const USER_CHAT = { type: "user", id: "U1111" } as const;
export const GROUP_CHAT = { type: "group", id: "C2222" } as const;

/** The tests' staff unless they say otherwise: the user of USER_CHAT, and GROUP_CHAT as the staff group. */
export const TEST_STAFF: StaffLists = { staffUserIds: new Set([USER_CHAT.id]), staffGroupIds: new Set([GROUP_CHAT.id]) };

/** A context for `chat` and `userId`, whose role follows the staff lists (the same ones `deps` gets). */
export function recordingContext(chat: Chat, userId: string | undefined, staff: StaffLists = TEST_STAFF): RecordingContext {
  const ctx: RecordingContext = {
    chat,
    userId,
    audience: audienceOf(chat, userId, staff),
    now: NOW,
    sent: [],
    answers: [],
    loadings: 0,
    async send(answer) {
      ctx.sent.push([...messagesOf(answer)]);
      ctx.answers.push(answer);
    },
    showLoading() {
      ctx.loadings += 1;
    },
  };
  return ctx;
}

export function settings(overrides: Partial<BotSettings> = {}): BotSettings {
  return {
    promptPayId: { type: "phone", digits: "0812345678" },
    ...TEST_STAFF,
    defaultLang: "th",
    timeZone: "Asia/Bangkok",
    ...overrides,
  };
}

export function deps(slip: SlipClient, overrides: Partial<BotSettings> = {}): HandlerDeps {
  return { slip, settings: settings(overrides), log: pino({ level: "silent" }), quietNotes: createQuietNotes(), summaries: createSummaryLoader({ slip }) };
}
