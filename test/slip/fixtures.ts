// Shared test material for the client: wire data shaped as the service's API says, and a helper to catch typed errors.
import { isSlipClientError } from "../../src/slip/errors.js";
import type { AnySlipClientError } from "../../src/slip/errors.js";
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

/** The typed error a call rejected with; fails the test when the call succeeds or throws something else. */
export async function failure(promise: Promise<unknown>): Promise<AnySlipClientError> {
  try {
    await promise;
  } catch (error) {
    if (isSlipClientError(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** PromptPay payloads for 0812345678 from the promptparse library (tags 53 before 58): no amount, and 150 baht. */
export const QR_0812345678 = "00020101021129370016A0000006770101110113006681234567853037645802TH6304823E";
export const QR_0812345678_150 = "00020101021229370016A0000006770101110113006681234567853037645802TH5406150.00630466EF";
