// The slip service's data as the bot sees it (docs/slip-service.md), already validated.

export const SLIP_STATUSES = ["valid", "invalid", "fraud", "duplicate", "not_found", "error"] as const;
export type SlipStatus = (typeof SLIP_STATUSES)[number];

export function isSlipStatus(value: string): value is SlipStatus {
  return (SLIP_STATUSES as readonly string[]).includes(value);
}

/** Sources the service's API lists (they get a word of ours); others are as the service wrote them. */
export function isListedSource(source: string): source is ListedSource {
  return (LISTED_SOURCES as readonly string[]).includes(source);
}

/** The channels the service's API lists for `source`; the list is given as examples, so others occur. */
export const LISTED_SOURCES = ["api", "dashboard", "line_partner", "line_group", "line_oa_system", "line_oa_merchant", "facebook_page"] as const;
export type ListedSource = (typeof LISTED_SOURCES)[number];

/**
 * One earlier slip check. Any field may be missing for any status, so every field is nullable
 * (absent on the wire becomes null). `status` and `source` are usually one of the service's listed
 * values, but unknown strings pass through unchanged.
 */
export interface HistoryItem {
  code: number | null;
  status: string | null;
  amount: number | null;
  transRef: string | null;
  transDate: string | null;
  senderName: string | null;
  receiverName: string | null;
  receiverAccount: string | null;
  source: string | null;
  tokensCharged: number | null;
  createdAt: string | null;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export interface HistoryPage {
  items: HistoryItem[];
  pagination: Pagination;
}

/** Filters of GET /api/slip-history. Dates may be a Date or an ISO 8601 string. */
export interface HistoryQuery {
  page?: number;
  limit?: number;
  status?: SlipStatus;
  transRef?: string;
  from?: Date | string;
  to?: Date | string;
}

/** Body of POST /api/promptpay-qr. `amount` is in baht, as on the wire. */
export interface PromptPayQrRequest {
  accountNumber: string;
  amount?: number;
}

export interface PromptPayQrUrlRequest extends PromptPayQrRequest {
  /** Image size in pixels, 128..1024. */
  size?: number;
}

export interface PromptPayQr {
  qrCode: string;
  targetType: string;
  /** Baht; null when the QR lets the payer enter the amount. */
  amount: number | null;
}

export interface PromptPayQrUrl {
  qrCode: string;
  url: string;
  amount: number | null;
}

export interface AccountInfo {
  storeName: string;
  packageName: string;
  tokens: number;
  credits: number;
  rate: { chat: number; api: number };
  estimatedSlips: { chat: number; api: number };
  expiresAt: string;
}

/** The four operations. Every method resolves to the operation's `data` or rejects with a SlipClientError. */
export interface SlipClient {
  slipHistory(query?: HistoryQuery): Promise<HistoryPage>;
  promptPayQr(request: PromptPayQrRequest): Promise<PromptPayQr>;
  promptPayQrUrl(request: PromptPayQrUrlRequest): Promise<PromptPayQrUrl>;
  accountInfo(): Promise<AccountInfo>;
  close(): Promise<void>;
}

export type CircuitState = "closed" | "open" | "half_open";

/** What the client tells its watcher (the metrics): each operation's end, and each change of the circuit. */
export interface SlipObserver {
  /** `outcome`: `ok`, an error kind (`service_unavailable`, `package_expired`...), or `circuit_open`. */
  call(operation: string, outcome: string, seconds: number): void;
  circuit(state: CircuitState): void;
}
