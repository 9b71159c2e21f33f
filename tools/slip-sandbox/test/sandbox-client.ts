// Test helpers for the sandbox: a started sandbox on 127.0.0.1 port 0 at a fixed clock, and typed fetches.
import { DEMO_SECRETS } from "../src/demo.js";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../src/server.js";
import type { HistoryItem, HistoryPage } from "../../../src/slip/types.js";

/** 14:30 in Bangkok on Friday 20 November 2026: the demo data ends just before it. */
export const NOW = new Date("2026-11-20T07:30:00.000Z");

export async function startTestSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ now: () => NOW, ...options });
}

export interface Envelope<T = unknown> {
  code: string;
  message: string;
  data?: T;
}

export interface JsonResponse<T> {
  status: number;
  headers: Headers;
  body: Envelope<T>;
}

export function auth(secret: string): Record<string, string> {
  return { Authorization: `Bearer ${secret}` };
}

export const SHOP = auth(DEMO_SECRETS.shop);
export const OTHER = auth(DEMO_SECRETS.other);
export const EXPIRED = auth(DEMO_SECRETS.expired);

/** A request (GET unless `init` says otherwise) whose answer is read as the JSON envelope. */
export async function requestJson<T = unknown>(base: string, path: string, headers: Record<string, string> = SHOP, init: RequestInit = {}): Promise<JsonResponse<T>> {
  const res = await fetch(base + path, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as Envelope<T> };
}

export async function postJson<T = unknown>(base: string, path: string, body: unknown, headers: Record<string, string> = SHOP): Promise<JsonResponse<T>> {
  return requestJson<T>(
    base,
    path,
    { "Content-Type": "application/json", ...headers },
    {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
    },
  );
}

export async function history(base: string, query: string, headers = SHOP): Promise<JsonResponse<HistoryPage>> {
  return requestJson<HistoryPage>(base, `/api/slip-history${query === "" ? "" : `?${query}`}`, headers);
}

/** Every item of a shop, newest first, read page by page with limit=100. */
export async function allItems(base: string, headers = SHOP, filter = ""): Promise<HistoryItem[]> {
  const items: HistoryItem[] = [];
  for (let page = 1; page <= 1000; page++) {
    const res = await history(base, `limit=100&page=${page}${filter === "" ? "" : `&${filter}`}`, headers);
    if (res.status !== 200 || res.body.data === undefined) throw new Error(`history page ${page}: HTTP ${res.status}`);
    items.push(...res.body.data.items);
    if (page >= res.body.data.pagination.pages) break;
  }
  return items;
}

export function createdAtMs(item: HistoryItem): number {
  if (item.createdAt === null) throw new Error("item without createdAt");
  return Date.parse(item.createdAt);
}
