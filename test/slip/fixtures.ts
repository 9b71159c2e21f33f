// Wire data the fault tests answer with: shaped as the contract says, with values like the sandbox's.
import type { AccountInfo, HistoryItem } from "../../src/slip/types.js";

export const SECRET = "test-secret-Zq81";

export const ACCOUNT: AccountInfo = {
  storeName: "ร้านกาแฟดีใจ",
  packageName: "Pro",
  tokens: 1234.5,
  credits: 10,
  rate: { chat: 1, api: 0.5 },
  estimatedSlips: { chat: 1234, api: 2469 },
  expiresAt: "2027-01-31T16:59:59.999Z",
};

export const VALID_ITEM: HistoryItem = {
  code: 200200,
  status: "valid",
  amount: 150,
  transRef: "015321120455AOR07189",
  transDate: "2026-11-20T07:04:55.000Z",
  senderName: "นาย สมชาย ใจดี",
  receiverName: "ร้านกาแฟดีใจ",
  receiverAccount: "xxx-x-x1234-x",
  source: "line_group",
  tokensCharged: 1,
  createdAt: "2026-11-20T07:05:01.123Z",
};

export function historyData(items: unknown[], total = items.length): unknown {
  return { items, pagination: { page: 1, limit: 20, total, pages: Math.ceil(total / 20) } };
}
