// The stand-in's LINE Login and group membership, over HTTP: what the staff app relies on LINE to answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLinePlatform } from "../src/platform.js";
import type { LinePlatform } from "../src/platform.js";

const USER = "U5a1e0c7f3b2d4e6f8a9b0c1d2e3f4a5b";
const OTHER = "U7c3a2e9f5d4b6c8d0e1f2a3b4c5d6e7f";
const GROUP = "C1d4b3f0a6e5c7d9e1f2a3b4c5d6e7f80";
const TOKEN = "stand-in-access-token";
let clock = Date.parse("2026-11-20T06:00:00Z");
let platform: LinePlatform;

beforeAll(async () => {
  platform = await startLinePlatform({ channelAccessToken: TOKEN, now: () => clock, groupMembers: { [GROUP]: [USER] } });
});
afterAll(async () => {
  await platform.close();
});

const verify = (fields: Record<string, string>): Promise<Response> => fetch(`${platform.url}/oauth2/v2.1/verify`, { method: "POST", body: new URLSearchParams(fields) });

describe("POST /oauth2/v2.1/verify", () => {
  it("answers a good token with its claims", async () => {
    const res = await verify({ id_token: platform.issueIdToken(USER, "1650000001", { name: "Somchai" }), client_id: "1650000001" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ iss: "https://access.line.me", sub: USER, aud: "1650000001", name: "Somchai", exp: Math.floor(clock / 1000) + 3600 });
  });

  it.each([
    ["a token of another channel", () => ({ id_token: platform.issueIdToken(USER, "1650000002"), client_id: "1650000001" }), "Invalid IdToken Audience."],
    ["a made-up token", () => ({ id_token: "a.b.c", client_id: "1650000001" }), "Invalid IdToken."],
    ["no token", () => ({ client_id: "1650000001" }), "id_token is required"],
    ["no channel", () => ({ id_token: platform.issueIdToken(USER, "1650000001") }), "client_id is required"],
  ])("refuses %s with 400 and LINE's error body", async (_what, fields, description) => {
    const res = await verify(fields());
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_request", error_description: description });
  });

  it("refuses a token past its time", async () => {
    const token = platform.issueIdToken(USER, "1650000001", { ttlMs: 60_000 });
    clock += 61_000;
    try {
      const res = await verify({ id_token: token, client_id: "1650000001" });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "invalid_request", error_description: "IdToken expired." });
    } finally {
      clock -= 61_000;
    }
  });
});

describe("GET /v2/bot/group/{groupId}/member/{userId}", () => {
  const member = (userId: string, token = TOKEN): Promise<Response> =>
    fetch(`${platform.url}/v2/bot/group/${GROUP}/member/${userId}`, { headers: { authorization: `Bearer ${token}` } });

  it("answers 200 with the profile for a member, 404 for anyone else", async () => {
    const yes = await member(USER);
    expect(yes.status).toBe(200);
    expect(await yes.json()).toMatchObject({ userId: USER });
    expect((await member(OTHER)).status).toBe(404);
    platform.setGroupMembers(GROUP, [USER, OTHER]);
    expect((await member(OTHER)).status).toBe(200);
  });

  it("wants the channel's access token", async () => {
    expect((await member(USER, "wrong")).status).toBe(401);
  });
});
