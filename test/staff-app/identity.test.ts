// Whose ID token opens which shop's staff app, past what LINE answers: a 200 from LINE for another channel is
// refused by the app itself, and a token verified for one shop never opens another shop's app, not from the
// app's memory of verified tokens either. LINE is the stand-in, behind a front that counts the verify calls
// and can be told to skip LINE's own audience check.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness, HarnessShop } from "../kit/bot-harness.js";
import { lineId } from "../kit/webhook.js";

const CAFE_LOGIN = { channelId: "1650000001", liffId: "1650000001-AbCdEfGh" } as const;
const NOODLE_LOGIN = { channelId: "1650000002", liffId: "1650000002-IjKlMnOp" } as const;
const ELSEWHERE = "1650009999";
/** Staff of both shops: what one shop's token cannot open is about the token, never the user. */
const STAFF = lineId("U", 0xe01);

interface VerifyCall {
  clientId: string;
  status: number;
  aud: unknown;
}

/** LINE as the bot reaches it: every request passed to the stand-in, the verify calls recorded. */
interface LineFront {
  readonly url: string;
  readonly verifies: VerifyCall[];
  /** Where requests go (the stand-in's address, known once the harness started it). */
  target: string;
  /** Pass each verify call with the token's own audience as `client_id`: LINE answers 200 for any channel's token. */
  skipAudienceCheck: boolean;
  close(): Promise<void>;
}

const audienceOf = (idToken: string): string | undefined => {
  try {
    const claims = JSON.parse(Buffer.from(idToken.split(".")[1] ?? "", "base64url").toString("utf8")) as { aud?: unknown };
    return typeof claims.aud === "string" ? claims.aud : undefined;
  } catch {
    return undefined;
  }
};

async function startLineFront(): Promise<LineFront> {
  const front: LineFront = { url: "", verifies: [], target: "", skipAudienceCheck: false, close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        const path = req.url ?? "/";
        const isVerify = req.method === "POST" && path === "/oauth2/v2.1/verify";
        let body: string | undefined = chunks.length === 0 ? undefined : Buffer.concat(chunks).toString("utf8");
        const form = new URLSearchParams(body ?? "");
        const clientId = form.get("client_id") ?? "";
        if (isVerify && front.skipAudienceCheck) {
          form.set("client_id", audienceOf(form.get("id_token") ?? "") ?? clientId);
          body = form.toString();
        }
        const headers: Record<string, string> = {};
        for (const name of ["authorization", "content-type"]) {
          const value = req.headers[name];
          if (typeof value === "string") headers[name] = value;
        }
        const answer = await fetch(`${front.target}${path}`, { method: req.method ?? "GET", headers, ...(body === undefined ? {} : { body }) });
        const text = await answer.text();
        if (isVerify) front.verifies.push({ clientId, status: answer.status, aud: (JSON.parse(text) as { aud?: unknown }).aud });
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
        res.end(text);
      })().catch(() => {
        res.writeHead(502).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(front, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

let line: LineFront;
let bot: BotHarness;
let noodle: HarnessShop;

beforeAll(async () => {
  line = await startLineFront();
  bot = await startBotHarness({
    lineBaseUrl: line.url,
    login: CAFE_LOGIN,
    settings: { staffUserIds: new Set([STAFF]) },
    moreShops: [{ id: "noodle", login: NOODLE_LOGIN, settings: { staffUserIds: new Set([STAFF]) } }],
  });
  line.target = bot.platform.url;
  const more = bot.moreShops.get("noodle");
  if (more === undefined) throw new Error("the harness did not start the noodle shop");
  noodle = more;
});
afterAll(async () => {
  await bot?.close();
  await line?.close();
});

/** A token of its own for each use (a name in its claims): two made in the same second would be one token. */
const tokenFor = (channelId: string, use: string): string => bot.platform.issueIdToken(STAFF, channelId, { name: use });

const history = async (appUrl: string, token: string): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(`${appUrl}/api/history?limit=1`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe("the staff app's own audience check", () => {
  it("refuses a token LINE vouched for with 200 when its audience is another channel", async () => {
    line.skipAudienceCheck = true;
    try {
      const before = line.verifies.length;
      const answer = await history(`${bot.url}/app`, tokenFor(ELSEWHERE, "elsewhere"));
      // LINE did answer 200, for the other channel: the refusal is the app's own.
      expect(line.verifies.slice(before)).toEqual([{ clientId: CAFE_LOGIN.channelId, status: 200, aud: ELSEWHERE }]);
      expect(answer.status).toBe(401);
      expect([answer.body["error"], answer.body["reason"]]).toEqual(["invalid_token", "foreign"]);
      // The same way, the shop's own token opens the app: the front passes LINE's answers as they are.
      expect((await history(`${bot.url}/app`, tokenFor(CAFE_LOGIN.channelId, "cafe, past the front"))).status).toBe(200);
    } finally {
      line.skipAudienceCheck = false;
    }
  });
});

describe("a token of one shop at another shop", () => {
  it("opens only the shop whose login channel it was made for, also once that shop's app remembers it", async () => {
    const cafeToken = tokenFor(CAFE_LOGIN.channelId, "cafe");
    const before = line.verifies.length;
    expect((await history(`${bot.url}/app`, cafeToken)).status).toBe(200);
    // Remembered: asked again, the café's app does not ask LINE.
    expect((await history(`${bot.url}/app`, cafeToken)).status).toBe(200);
    expect(line.verifies.slice(before).map((v) => v.clientId)).toEqual([CAFE_LOGIN.channelId]);

    // At the noodle shop the remembered token counts for nothing: LINE is asked for the noodle channel, and says no.
    const atNoodle = await history(noodle.appUrl, cafeToken);
    expect(atNoodle.status).toBe(401);
    expect([atNoodle.body["error"], atNoodle.body["reason"]]).toEqual(["invalid_token", "foreign"]);
    expect(line.verifies.slice(before).map((v) => [v.clientId, v.status])).toEqual([
      [CAFE_LOGIN.channelId, 200],
      [NOODLE_LOGIN.channelId, 400],
    ]);

    // The noodle shop's own token opens the noodle app and not the café's: the user is staff of both.
    const noodleToken = tokenFor(NOODLE_LOGIN.channelId, "noodle");
    expect((await history(noodle.appUrl, noodleToken)).status).toBe(200);
    expect((await history(`${bot.url}/app`, noodleToken)).status).toBe(401);
    expect((await history(noodle.appUrl, cafeToken)).status).toBe(401);
  });
});

describe("a stranger's tokens", () => {
  // Last in the file: it spends the noodle app's allowance for this address.
  it("cost LINE one check each at most, and only a few a minute from one address; the rest are refused before LINE is asked", async () => {
    const forged = (n: number): string => `${Buffer.from('{"alg":"HS256"}').toString("base64url")}.${Buffer.from(`{"n":${n}}`).toString("base64url")}.c2lnbmF0dXJl`;
    const before = line.verifies.length;
    // The same refused token again and again: LINE is asked once.
    const again = [];
    for (let n = 0; n < 5; n++) again.push((await history(noodle.appUrl, forged(0))).status);
    expect(again).toEqual([401, 401, 401, 401, 401]);
    expect(line.verifies.length - before).toBe(1);
    // New tokens: 20 a minute from one address reach LINE (the tests above spent some of them), then 429
    // without a call.
    const statuses: number[] = [];
    for (let n = 1; n <= 25; n++) statuses.push((await history(noodle.appUrl, forged(n))).status);
    const checked = statuses.indexOf(429);
    expect(checked).toBeGreaterThanOrEqual(0);
    expect(checked).toBeLessThanOrEqual(19);
    expect(statuses).toEqual([...Array<number>(checked).fill(401), ...Array<number>(25 - checked).fill(429)]);
    expect(line.verifies.length - before).toBe(1 + checked);
  });
});
