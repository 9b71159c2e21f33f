// LINE Login as the stand-in plays it: ID tokens for the console's personas (what `liff.getIDToken()` gives a
// page inside LINE), and POST /oauth2/v2.1/verify answering as LINE does: 200 with the token's claims, or
// 400 with LINE's error body for a malformed, expired or foreign (another channel's) token.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import express from "express";
import type { Router } from "express";

export interface IdTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  amr: string[];
  name?: string;
}

export interface LoginStandIn {
  /** An ID token of `userId` for a LINE Login channel; `ttlMs` from now (LINE's are good for an hour). */
  issueIdToken(userId: string, channelId: string, options?: { name?: string; ttlMs?: number }): string;
  readonly router: Router;
}

const base64url = (value: Buffer | string): string => Buffer.from(value).toString("base64url");

/** LINE's answer to a token it will not vouch for. */
function refusal(description: string): { error: string; error_description: string } {
  return { error: "invalid_request", error_description: description };
}

export function createLoginStandIn(now: () => number): LoginStandIn {
  // A JWT signed with a key only this stand-in knows: a page cannot make one up.
  const key = randomBytes(32);
  const sign = (data: string): string => base64url(createHmac("sha256", key).update(data).digest());

  const router = express.Router();
  router.post("/oauth2/v2.1/verify", express.urlencoded({ extended: false, limit: "16kb" }), (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const idToken = typeof body["id_token"] === "string" ? body["id_token"] : "";
    const clientId = typeof body["client_id"] === "string" ? body["client_id"] : "";
    if (idToken === "") return void res.status(400).json(refusal("id_token is required"));
    if (clientId === "") return void res.status(400).json(refusal("client_id is required"));
    const claims = readToken(idToken);
    if (claims === undefined) return void res.status(400).json(refusal("Invalid IdToken."));
    if (claims.exp * 1000 <= now()) return void res.status(400).json(refusal("IdToken expired."));
    if (claims.aud !== clientId) return void res.status(400).json(refusal("Invalid IdToken Audience."));
    res.status(200).json(claims);
  });

  function readToken(token: string): IdTokenClaims | undefined {
    const parts = token.split(".");
    if (parts.length !== 3) return undefined;
    const [header, payload, signature] = parts as [string, string, string];
    const wanted = Buffer.from(sign(`${header}.${payload}`));
    const given = Buffer.from(signature);
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as IdTokenClaims;
      return typeof claims.sub === "string" && typeof claims.aud === "string" && typeof claims.exp === "number" ? claims : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    router,
    issueIdToken(userId, channelId, options = {}) {
      const iat = Math.floor(now() / 1000);
      const claims: IdTokenClaims = {
        iss: "https://access.line.me",
        sub: userId,
        aud: channelId,
        exp: Math.floor((now() + (options.ttlMs ?? 3_600_000)) / 1000),
        iat,
        amr: ["linesso"],
        ...(options.name === undefined ? {} : { name: options.name }),
      };
      const head = `${base64url(JSON.stringify({ typ: "JWT", alg: "HS256" }))}.${base64url(JSON.stringify(claims))}`;
      return `${head}.${sign(head)}`;
    },
  };
}
