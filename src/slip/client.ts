// The slip service client, composed: settings.ts checks the options, transport.ts sends, retry-loop.ts and
// answers.ts turn attempts into data or typed errors, qr-check.ts refuses a QR that is not the one asked for,
// circuit.ts stops calls during an outage, and identical calls and the account info are shared
// (in-flight.ts, account-cache.ts).
import { performance } from "node:perf_hooks";
import { isBrokenCircuitError } from "cockatiel";
import { memoryAccountCache } from "../stores/account-cache.js";
import { redactSecret } from "./answers.js";
import { createCircuit } from "./circuit.js";
import { InvalidRequestError, isSlipClientError, QrMismatchError, ServiceUnavailableError } from "./errors.js";
import { readAccountInfo, readHistoryPage, readPromptPayQr, readPromptPayQrUrl } from "./guards.js";
import { deepFreeze, InFlight } from "./in-flight.js";
import { qrMismatches } from "./qr-check.js";
import type { QrAnswer } from "./qr-check.js";
import { withRetries } from "./retry-loop.js";
import type { Call } from "./retry-loop.js";
import { readSettings } from "./settings.js";
import type { SlipClientOptions } from "./settings.js";
import { createTransport } from "./transport.js";
import type { AccountInfo, HistoryPage, HistoryQuery, PromptPayQr, PromptPayQrRequest, PromptPayQrUrl, PromptPayQrUrlRequest, SlipClient } from "./types.js";

export type { SlipClientOptions } from "./settings.js";

const HISTORY_PATH = "/api/slip-history";
const QR_PATH = "/api/promptpay-qr";
const QR_URL_PATH = "/api/promptpay-qr-url";
const ACCOUNT_PATH = "/api/account/info";

/** Builds the query string of GET /api/slip-history: only the given filters, Dates as ISO 8601 UTC. */
function buildHistoryQuery(query: HistoryQuery): string {
  const params = new URLSearchParams();
  const put = (name: string, value: string | number | Date | undefined): void => {
    if (value === undefined) return;
    params.set(name, value instanceof Date ? value.toISOString() : String(value));
  };
  put("page", query.page);
  put("limit", query.limit);
  put("status", query.status);
  put("transRef", query.transRef);
  put("from", query.from);
  put("to", query.to);
  return params.toString();
}

export function createSlipClient(options: SlipClientOptions): SlipClient {
  const settings = readSettings(options);
  const transport = createTransport(settings);
  const breaker = createCircuit(settings);
  const historyFlights = new InFlight<HistoryPage>();
  const accountFlights = new InFlight<AccountInfo>();
  const accountCache = options.accountCache ?? memoryAccountCache(settings.now);
  let closed = false;

  /**
   * The retries and the circuit around them, timed and reported once per operation. `check` may refuse the
   * data: inside the circuit, so a refusal counts as an answer, not an outage.
   */
  async function execute<T>(call: Call<T>, check?: (value: T, operation: string) => void): Promise<T> {
    if (closed) throw new Error("The slip client is closed");
    const operation = `${call.method} ${call.path}`;
    const started = performance.now();
    const report = (outcome: string): void => settings.observer?.call(operation, outcome, (performance.now() - started) / 1000);
    try {
      const value = await breaker.execute(async () => {
        const data = await withRetries(operation, call, transport, settings);
        check?.(data, operation);
        return data;
      });
      report("ok");
      return value;
    } catch (error) {
      if (isBrokenCircuitError(error)) {
        report("circuit_open");
        throw new ServiceUnavailableError(operation, 0, undefined, `circuit open after ${settings.breakAfterFailures} failures in a row`, error);
      }
      report(isSlipClientError(error) ? error.kind : "bug");
      throw error;
    }
  }

  function refuse(operation: string, problem: string): Promise<never> {
    return Promise.reject(new InvalidRequestError(operation, problem, undefined));
  }

  /** Every QR is compared with its request before anyone sees it: another account or amount must never show. */
  function checkQr(request: PromptPayQrRequest): (answer: QrAnswer, operation: string) => void {
    return (answer, operation) => {
      const mismatches = qrMismatches(request, answer, settings.qrImageOrigins);
      if (mismatches.length === 0) return;
      // The reasons quote the answer (an origin), which is outside input.
      throw new QrMismatchError(
        operation,
        mismatches.map((m) => ({ difference: m.difference, detail: redactSecret(m.detail, settings.secret) })),
      );
    };
  }

  return {
    slipHistory(query: HistoryQuery = {}): Promise<HistoryPage> {
      for (const name of ["from", "to"] as const) {
        const value = query[name];
        // toISOString throws on an invalid Date; say so as a request error instead of a RangeError.
        if (value instanceof Date && Number.isNaN(value.getTime())) return refuse(`GET ${HISTORY_PATH}`, `${name} is an invalid Date`);
      }
      const queryString = buildHistoryQuery(query);
      return historyFlights.run(queryString, () => execute({ method: "GET", path: HISTORY_PATH, query: queryString, body: undefined, read: readHistoryPage }));
    },

    promptPayQr(request: PromptPayQrRequest): Promise<PromptPayQr> {
      const payload = { accountNumber: request.accountNumber, ...(request.amount === undefined ? {} : { amount: request.amount }) };
      return execute({ method: "POST", path: QR_PATH, query: "", body: JSON.stringify({ payload }), read: readPromptPayQr }, checkQr(request));
    },

    promptPayQrUrl(request: PromptPayQrUrlRequest): Promise<PromptPayQrUrl> {
      const payload = {
        accountNumber: request.accountNumber,
        ...(request.amount === undefined ? {} : { amount: request.amount }),
        ...(request.size === undefined ? {} : { size: request.size }),
      };
      return execute({ method: "POST", path: QR_URL_PATH, query: "", body: JSON.stringify({ payload }), read: readPromptPayQrUrl }, checkQr(request));
    },

    async accountInfo(): Promise<AccountInfo> {
      if (settings.accountCacheMs > 0) {
        const cached = await accountCache.get().catch(() => undefined);
        if (cached !== undefined) return deepFreeze(cached);
      }
      return accountFlights.run("", async () => {
        const value = await execute({ method: "GET", path: ACCOUNT_PATH, query: "", body: undefined, read: readAccountInfo });
        // Only successes are cached: an expired package or an outage must be seen again on the next call.
        if (settings.accountCacheMs > 0) await accountCache.set(value, settings.accountCacheMs).catch(() => undefined);
        return value;
      });
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await transport.close();
    },
  };
}
