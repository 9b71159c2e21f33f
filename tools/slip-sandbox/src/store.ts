// The sandbox's SQLite storage: schema, hashed secrets, the history query and bulk seeding.
import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import type { SlipStatus } from "../../../src/slip/types.js";
import { bulkChecks } from "./bulk.js";
import { DEMO_SECRETS, DEMO_SHOP_KEYS, demoShops, type ShopRecord } from "./demo.js";
import { paymentDraft, withIds, type CheckDraft, type CheckRecord, type SimulatedPayment } from "./demo-checks.js";
import { missingDemoChecks } from "./demo-stream.js";
import type { HistoryFilter } from "./params.js";

/** A shop as the server sees it: the secret itself is never read back. */
export type Shop = Omit<ShopRecord, "secret">;

export interface HistoryResult {
  items: CheckRecord[];
  total: number;
}

export interface SandboxStore {
  /** The shop owning this API secret, if any. */
  shopBySecret(secret: string): Shop | undefined;
  history(shopId: number, filter: HistoryFilter): HistoryResult;
  /** SQLite's query plans of the page and count statements for this filter (for tests and benchmarks). */
  explainHistory(filter: HistoryFilter): { page: string; count: string };
  /**
   * Brings the demo data up to `nowMs`, in one transaction: an empty database gets the demo shops; the
   * demo shops (known by their secrets; no other shop is touched) get their packages dated from today
   * and the checks their streams made since their newest check. Returns how many checks it added.
   */
  refreshDemo(nowMs: number): { seeded: boolean; added: number };
  /** Adds one valid check to the demo shop now (a simulated customer payment); returns it as stored. */
  addPayment(payment: SimulatedPayment): CheckRecord;
  /** Adds `count` checks for the demo shop over the last 90 days, in one transaction. */
  seedExtraChecks(count: number, nowMs: number): { firstId: number; count: number };
  checkCount(): number;
  close(): void;
}

function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS shops (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL UNIQUE,
  package_name TEXT NOT NULL,
  tokens REAL NOT NULL,
  credits REAL NOT NULL,
  rate_chat REAL NOT NULL,
  rate_api REAL NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS checks (
  id INTEGER PRIMARY KEY,
  shop_id INTEGER NOT NULL REFERENCES shops(id),
  status TEXT NOT NULL,
  amount_satang INTEGER,
  trans_ref TEXT NOT NULL,
  trans_date INTEGER,
  sender_name TEXT,
  receiver_name TEXT,
  receiver_account TEXT,
  source TEXT NOT NULL,
  tokens_charged REAL NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
-- transRefs are unique across all shops (docs/sandbox.md §15); this also serves the transRef filter.
CREATE UNIQUE INDEX IF NOT EXISTS checks_trans_ref ON checks (trans_ref);
-- Newest-first pages of one shop: an index range scanned backwards; the rowid (= id) breaks ties.
CREATE INDEX IF NOT EXISTS checks_shop_created ON checks (shop_id, created_at);
CREATE INDEX IF NOT EXISTS checks_shop_status_created ON checks (shop_id, status, created_at);
`;

const CHECK_COLUMNS = [
  "id",
  "shop_id",
  "status",
  "amount_satang",
  "trans_ref",
  "trans_date",
  "sender_name",
  "receiver_name",
  "receiver_account",
  "source",
  "tokens_charged",
  "created_at",
] as const;

/** Rows per multi-row INSERT: 64 x 12 parameters stays far below SQLite's limit of 32,766. */
const INSERT_BATCH = 64;

interface ShopRow {
  id: number;
  name: string;
  package_name: string;
  tokens: number;
  credits: number;
  rate_chat: number;
  rate_api: number;
  expires_at: number;
}

interface CheckRow {
  id: number;
  shop_id: number;
  status: string;
  amount_satang: number | null;
  trans_ref: string;
  trans_date: number | null;
  sender_name: string | null;
  receiver_name: string | null;
  receiver_account: string | null;
  source: string;
  tokens_charged: number;
  created_at: number;
}

function checkParams(c: CheckRecord): (string | number | null)[] {
  return [c.id, c.shopId, c.status, c.amountSatang, c.transRef, c.transDateMs, c.senderName, c.receiverName, c.receiverAccount, c.source, c.tokensCharged, c.createdAtMs];
}

function toCheck(row: CheckRow): CheckRecord {
  return {
    id: row.id,
    shopId: row.shop_id,
    // Only the six statuses are ever written.
    status: row.status as SlipStatus,
    amountSatang: row.amount_satang,
    transRef: row.trans_ref,
    transDateMs: row.trans_date,
    senderName: row.sender_name,
    receiverName: row.receiver_name,
    receiverAccount: row.receiver_account,
    source: row.source,
    tokensCharged: row.tokens_charged,
    createdAtMs: row.created_at,
  };
}

export function openStore(path: string): SandboxStore {
  const db = new Database(path);
  if (path !== ":memory:") {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
  }
  db.pragma("cache_size = -65536"); // 64 MiB: the indexes of a million-row shop stay in memory
  db.pragma("temp_store = MEMORY");
  db.exec(SCHEMA);

  const shopBySecretStmt = db.prepare<[string], ShopRow>("SELECT id, name, package_name, tokens, credits, rate_chat, rate_api, expires_at FROM shops WHERE secret_hash = ?");
  const insertShopStmt = db.prepare("INSERT INTO shops (id, name, secret_hash, package_name, tokens, credits, rate_chat, rate_api, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const rowPlaceholders = `(${CHECK_COLUMNS.map(() => "?").join(", ")})`;
  const insertPrefix = `INSERT INTO checks (${CHECK_COLUMNS.join(", ")}) VALUES `;
  const insertOneStmt = db.prepare(insertPrefix + rowPlaceholders);
  const insertBatchStmt = db.prepare(insertPrefix + Array.from({ length: INSERT_BATCH }, () => rowPlaceholders).join(", "));
  const shopCountStmt = db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM shops");
  const checkCountStmt = db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM checks");
  const maxIdStmt = db.prepare<[], { m: number | null }>("SELECT MAX(id) AS m FROM checks");
  const shopIdBySecretStmt = db.prepare<[string], { id: number }>("SELECT id FROM shops WHERE secret_hash = ?");
  const setExpiryStmt = db.prepare("UPDATE shops SET expires_at = ? WHERE id = ?");
  const newestCheckStmt = db.prepare<[number], { m: number | null }>("SELECT MAX(created_at) AS m FROM checks WHERE shop_id = ?");
  const countBetweenStmt = db.prepare<[number, number, number], { n: number }>("SELECT COUNT(*) AS n FROM checks WHERE shop_id = ? AND created_at >= ? AND created_at <= ?");

  /** The WHERE clause of a history query and its parameters, built in one walk so they cannot disagree. */
  function historyWhere(shopId: number, filter: HistoryFilter): { where: string; params: (string | number)[] } {
    const clauses = ["shop_id = ?"];
    const params: (string | number)[] = [shopId];
    const add = (clause: string, value: string | number | undefined): void => {
      if (value === undefined) return;
      clauses.push(clause);
      params.push(value);
    };
    add("status = ?", filter.status);
    add("trans_ref = ?", filter.transRef);
    add("created_at >= ?", filter.fromMs);
    add("created_at <= ?", filter.toMs);
    return { where: clauses.join(" AND "), params };
  }

  // One pair of prepared statements per WHERE clause (a combination of filters), made on first use.
  const historyStatements = new Map<string, { page: Database.Statement; count: Database.Statement; sql: { page: string; count: string } }>();

  function historyStatementsFor(where: string, filter: HistoryFilter) {
    let statements = historyStatements.get(where);
    if (statements === undefined) {
      // Without statistics the planner prefers the date index for a status filter and then reads every
      // row to test its status; the status index answers the same order directly.
      const index = filter.status !== undefined && filter.transRef === undefined ? " INDEXED BY checks_shop_status_created" : "";
      const sql = {
        page: `SELECT * FROM checks${index} WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        count: `SELECT COUNT(*) AS n FROM checks WHERE ${where}`,
      };
      statements = { page: db.prepare(sql.page), count: db.prepare(sql.count), sql };
      historyStatements.set(where, statements);
    }
    return statements;
  }

  function insertChecks(checks: Iterable<CheckRecord>): number {
    let batch: (string | number | null)[] = [];
    let inBatch = 0;
    let inserted = 0;
    for (const check of checks) {
      batch.push(...checkParams(check));
      inBatch++;
      if (inBatch === INSERT_BATCH) {
        insertBatchStmt.run(batch);
        inserted += inBatch;
        batch = [];
        inBatch = 0;
      }
    }
    for (let i = 0; i < inBatch; i++) {
      insertOneStmt.run(batch.slice(i * CHECK_COLUMNS.length, (i + 1) * CHECK_COLUMNS.length));
    }
    return inserted + inBatch;
  }

  const refreshDemoTx = db.transaction((nowMs: number) => {
    const seeded = (shopCountStmt.get()?.n ?? 0) === 0;
    const drafts: CheckDraft[] = [];
    for (const shop of demoShops(nowMs)) {
      const key = DEMO_SHOP_KEYS.find((k) => DEMO_SECRETS[k] === shop.secret);
      if (key === undefined) continue;
      const secretHash = hashSecret(shop.secret);
      if (seeded) {
        insertShopStmt.run(shop.id, shop.name, secretHash, shop.packageName, shop.tokens, shop.credits, shop.rateChat, shop.rateApi, shop.expiresAtMs);
      }
      const stored = shopIdBySecretStmt.get(secretHash);
      if (stored === undefined) continue;
      if (!seeded) setExpiryStmt.run(shop.expiresAtMs, stored.id);
      const state = {
        newestMs: newestCheckStmt.get(stored.id)?.m ?? undefined,
        countBetween: (fromMs: number, toMs: number) => countBetweenStmt.get(stored.id, fromMs, toMs)?.n ?? 0,
      };
      for (const draft of missingDemoChecks(key, state, nowMs)) drafts.push({ ...draft, shopId: stored.id });
    }
    const added = insertChecks(withIds(drafts, (maxIdStmt.get()?.m ?? 0) + 1));
    return { seeded, added };
  });

  const addPaymentTx = db.transaction((payment: SimulatedPayment): CheckRecord => {
    const stored = shopIdBySecretStmt.get(hashSecret(DEMO_SECRETS[payment.shop ?? "shop"]));
    if (stored === undefined) throw new Error("the demo shop is not in this database");
    const [check] = [...withIds([{ ...paymentDraft(payment), shopId: stored.id }], (maxIdStmt.get()?.m ?? 0) + 1)];
    if (check === undefined) throw new Error("no check made");
    insertOneStmt.run(checkParams(check));
    return check;
  });

  const seedExtraTx = db.transaction((count: number, nowMs: number) => {
    const firstId = (maxIdStmt.get()?.m ?? 0) + 1;
    // The seed follows the first id, so a second `--seed` run adds different checks.
    const inserted = insertChecks(bulkChecks({ shop: "shop", count, firstId, nowMs, seed: firstId }));
    return { firstId, count: inserted };
  });

  return {
    shopBySecret(secret) {
      const row = shopBySecretStmt.get(hashSecret(secret));
      if (row === undefined) return undefined;
      return {
        id: row.id,
        name: row.name,
        packageName: row.package_name,
        tokens: row.tokens,
        credits: row.credits,
        rateChat: row.rate_chat,
        rateApi: row.rate_api,
        expiresAtMs: row.expires_at,
      };
    },

    history(shopId, filter) {
      const { where, params } = historyWhere(shopId, filter);
      const statements = historyStatementsFor(where, filter);
      const total = (statements.count.get(params) as { n: number }).n;
      const offset = (filter.page - 1) * filter.limit;
      // A page past the end needs no scan.
      if (offset >= total) return { items: [], total };
      const rows = statements.page.all([...params, filter.limit, offset]) as CheckRow[];
      return { items: rows.map(toCheck), total };
    },

    explainHistory(filter) {
      const { where, params } = historyWhere(1, filter);
      const { sql } = historyStatementsFor(where, filter);
      const plan = (text: string, values: (string | number)[]): string =>
        (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(values) as { detail: string }[]).map((row) => row.detail).join(" | ");
      return { page: plan(sql.page, [...params, filter.limit, 0]), count: plan(sql.count, params) };
    },

    refreshDemo(nowMs) {
      return refreshDemoTx(nowMs);
    },

    seedExtraChecks(count, nowMs) {
      return seedExtraTx(count, nowMs);
    },

    addPayment(payment) {
      return addPaymentTx(payment);
    },

    checkCount() {
      return checkCountStmt.get()?.n ?? 0;
    },

    close() {
      db.close();
    },
  };
}
