// Who is asking the staff app: the LINE user an ID token names, verified by LINE itself (never a user id the
// page sends), and whether that user is the shop's staff by the chat's rules: a listed staff user, or a
// member of a listed staff group or room (asked of LINE, remembered briefly).
import { createHash } from "node:crypto";
import type { StaffLists } from "../roles/audience.js";

/** Why a request is refused: 401 for the token itself, 403 for a user who is not staff, 503 when LINE could not be asked. */
export type Identity =
  | { ok: true; userId: string }
  | { ok: false; status: 401; reason: "missing" | "malformed" | "expired" | "foreign" }
  /** Too many tokens LINE was asked about from one address lately: refused before asking LINE again. */
  | { ok: false; status: 429; reason: "too_many_checks" }
  | { ok: false; status: 503; reason: "line_unreachable" };

export interface IdentityOptions {
  /** LINE's API host (or the stand-in's): POST /oauth2/v2.1/verify and the group member endpoint. */
  lineApiBaseUrl: string;
  now?: () => number;
  /** How long a verified token and a membership answer are reused. Default 60 s. */
  rememberMs?: number;
  /** How long LINE may take. Default 5 s. */
  timeoutMs?: number;
  /** How long a token LINE refused is refused again without asking. Default 30 s. */
  rememberRefusedMs?: number;
  /** Tokens LINE is asked about per minute from one address, for one login channel. Default 20. */
  checksPerMinute?: number;
}

export interface IdentityChecker {
  /**
   * The user of an `Authorization: Bearer <ID token>` header, for a LINE Login channel. `from`: the
   * requester's address; LINE is asked about a new token only within that address's allowance.
   */
  verify(authorization: string | undefined, loginChannelId: string, from?: string): Promise<Identity>;
  /** Whether a user is staff of a shop; rejects when LINE could not be asked about a group. */
  isStaff(userId: string, staff: StaffLists, channelAccessToken: string): Promise<boolean>;
}

/** Entries remembered at most, so a flood of tokens cannot grow memory. */
const MAX_REMEMBERED = 10_000;

/** A map that forgets entries after their time, and its oldest ones past a bound. */
class Remembered<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  get(key: string, at: number): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= at) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }
  set(key: string, value: V, until: number): void {
    if (this.entries.size >= MAX_REMEMBERED) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, until });
  }
}

export function createIdentityChecker(options: IdentityOptions): IdentityChecker {
  const now = options.now ?? Date.now;
  const rememberMs = options.rememberMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 5_000;
  // Keyed by a hash: the tokens themselves are not kept.
  const tokens = new Remembered<{ userId: string; expiresAt: number }>();
  const members = new Remembered<boolean>();
  // A stranger's tokens cost LINE nothing more than their allowance: a token refused is refused again from
  // memory for a while, and an address gets a few new tokens checked a minute.
  const rememberRefusedMs = options.rememberRefusedMs ?? 30_000;
  const checksPerMinute = options.checksPerMinute ?? 20;
  const refused = new Remembered<"malformed" | "expired" | "foreign">();
  const checksBy = new Remembered<{ count: number }>();
  const withinAllowance = (loginChannelId: string, from: string, at: number): boolean => {
    const key = `${loginChannelId}|${from}`;
    const window = checksBy.get(key, at);
    if (window === undefined) {
      checksBy.set(key, { count: 1 }, at + 60_000);
      return true;
    }
    window.count += 1;
    return window.count <= checksPerMinute;
  };

  async function askLine(path: string, init: RequestInit): Promise<Response> {
    return fetch(`${options.lineApiBaseUrl}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  }

  return {
    async verify(authorization, loginChannelId, from = "") {
      const token = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? "")?.[1];
      if (token === undefined) return { ok: false, status: 401, reason: "missing" };
      if (token.length > 4096 || token.split(".").length !== 3) return { ok: false, status: 401, reason: "malformed" };
      const key = createHash("sha256").update(loginChannelId).update("\0").update(token).digest("base64url");
      const at = now();
      const known = tokens.get(key, at);
      if (known !== undefined) return known.expiresAt > at ? { ok: true, userId: known.userId } : { ok: false, status: 401, reason: "expired" };
      const refusedBefore = refused.get(key, at);
      if (refusedBefore !== undefined) return { ok: false, status: 401, reason: refusedBefore };
      if (!withinAllowance(loginChannelId, from, at)) return { ok: false, status: 429, reason: "too_many_checks" };
      const refuse = (reason: "malformed" | "expired" | "foreign"): Identity => {
        refused.set(key, reason, at + rememberRefusedMs);
        return { ok: false, status: 401, reason };
      };
      let response: Response;
      try {
        response = await askLine("/oauth2/v2.1/verify", { method: "POST", body: new URLSearchParams({ id_token: token, client_id: loginChannelId }) });
      } catch {
        return { ok: false, status: 503, reason: "line_unreachable" };
      }
      const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (response.status === 400) {
        const description = typeof body["error_description"] === "string" ? body["error_description"] : "";
        return refuse(/expired/i.test(description) ? "expired" : /audience/i.test(description) ? "foreign" : "malformed");
      }
      if (response.status !== 200) return { ok: false, status: 503, reason: "line_unreachable" };
      const { sub, aud, exp } = body;
      // LINE checked the audience; checked again, so an answer for another channel can never pass.
      if (aud !== loginChannelId) return refuse("foreign");
      if (typeof sub !== "string" || typeof exp !== "number") return refuse("malformed");
      const expiresAt = exp * 1000;
      if (expiresAt <= at) return refuse("expired");
      tokens.set(key, { userId: sub, expiresAt }, Math.min(expiresAt, at + rememberMs));
      return { ok: true, userId: sub };
    },

    async isStaff(userId, staff, channelAccessToken) {
      if (staff.staffUserIds.has(userId)) return true;
      // What one channel (shop) learnt is kept for that channel only: its token's digest is part of the key.
      const channel = createHash("sha256").update(channelAccessToken).digest("base64url").slice(0, 16);
      for (const groupId of staff.staffGroupIds) {
        const key = `${channel}|${groupId}|${userId}`;
        const at = now();
        let member = members.get(key, at);
        if (member === undefined) {
          const kind = groupId.startsWith("R") ? "room" : "group";
          const response = await askLine(`/v2/bot/${kind}/${encodeURIComponent(groupId)}/member/${encodeURIComponent(userId)}`, {
            headers: { authorization: `Bearer ${channelAccessToken}` },
          });
          await response.body?.cancel();
          if (response.status !== 200 && response.status !== 404) throw new Error(`LINE answered ${response.status} to the group member check`);
          member = response.status === 200;
          members.set(key, member, at + rememberMs);
        }
        if (member) return true;
      }
      return false;
    },
  };
}
