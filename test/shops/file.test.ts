// The shops file: many shops, each with its own channel, service secret, staff and settings; `${NAME}` read
// from the environment; every problem at once, named by shop and field, with no secret quoted.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseShopsFile } from "../../src/shops/file.js";

const SECRET_A = "0123456789abcdef0123456789abcdef";
const SECRET_B = "fedcba9876543210fedcba9876543210";
const ENV = { CAFE_LINE_SECRET: SECRET_A, CAFE_LINE_TOKEN: "cafe-token-abcdefgh", CAFE_SLIP_SECRET: "cafe-slip-secret", NOODLE_LINE_TOKEN: "noodle-token-abcdefgh" };

function file(shops: unknown[]): string {
  return JSON.stringify({ shops });
}

const cafe = {
  id: "cafe",
  name: "ร้านกาแฟดีใจ",
  line: { channelSecret: "${CAFE_LINE_SECRET}", channelAccessToken: "${CAFE_LINE_TOKEN}" },
  slip: { baseUrl: "https://slip.example.com", apiSecret: "${CAFE_SLIP_SECRET}" },
  promptPayId: "0812345678",
  staff: { users: [`U${"a".repeat(32)}`], groups: [`C${"b".repeat(32)}`] },
  lang: "th",
  timeZone: "Asia/Bangkok",
  dailySummaryAt: "21:00",
  lowTokenAlertSlips: 50,
  expiryAlertDays: 7,
  watchPaymentsMinutes: 30,
};
const noodle = {
  id: "noodle",
  line: { channelSecret: SECRET_B, channelAccessToken: "${NOODLE_LINE_TOKEN}" },
  slip: { baseUrl: "https://slip.example.com", apiSecret: "noodle-slip-secret" },
};

describe("the shops file", () => {
  it("reads the issue's example: each shop on its own webhook, secrets from the environment", () => {
    const read = parseShopsFile(file([cafe, noodle]), ENV);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const [a, b] = read.shops;
    expect(a).toMatchObject({
      id: "cafe",
      name: "ร้านกาแฟดีใจ",
      webhookPath: "/webhook/cafe",
      line: { channelSecret: SECRET_A, channelAccessToken: "cafe-token-abcdefgh" },
      slip: { baseUrl: "https://slip.example.com", apiSecret: "cafe-slip-secret" },
      settings: { promptPayId: { type: "phone", digits: "0812345678" }, defaultLang: "th", timeZone: "Asia/Bangkok" },
      alerts: { dailySummaryAt: { hour: 21, minute: 0 }, lowTokenSlips: 50, expiryDays: 7, watchMinutes: 30 },
    });
    expect([...(a?.settings.staffUserIds ?? [])]).toEqual([`U${"a".repeat(32)}`]);
    // The defaults of a shop that says little.
    expect(b).toMatchObject({
      id: "noodle",
      webhookPath: "/webhook/noodle",
      settings: { defaultLang: "th", timeZone: "Asia/Bangkok", promptPayId: undefined },
      alerts: { watchMinutes: undefined },
    });
  });

  it("reads a shop's staff app login, and names a wrong one", () => {
    const withLogin = parseShopsFile(file([{ ...cafe, login: { channelId: "1650000001", liffId: "1650000001-AbCdEfGh" } }, noodle]), ENV);
    expect(withLogin.ok && withLogin.shops.map((shop) => shop.login)).toEqual([{ channelId: "1650000001", liffId: "1650000001-AbCdEfGh" }, undefined]);
    const wrong = parseShopsFile(file([{ ...cafe, login: { channelId: "1650000001" } }]), ENV);
    expect(wrong).toEqual({ ok: false, problems: ['shops[0] "cafe": login.liffId: is missing'] });
  });

  it("takes a shop's previous channel secret during a rotation, and checks it like the current one without quoting it", () => {
    const rotating = { ...noodle, line: { ...noodle.line, previousChannelSecret: "${NOODLE_OLD_SECRET}" } };
    const read = parseShopsFile(file([rotating]), { ...ENV, NOODLE_OLD_SECRET: SECRET_A });
    expect(read.ok && read.shops[0]?.line).toEqual({ channelSecret: SECRET_B, channelAccessToken: "noodle-token-abcdefgh", previousChannelSecret: SECRET_A });
    const bad = parseShopsFile(file([{ ...noodle, line: { ...noodle.line, previousChannelSecret: "not-hex-and-secret" } }]), ENV);
    expect(bad.ok).toBe(false);
    expect(JSON.stringify(bad)).toContain("line.previousChannelSecret");
    expect(JSON.stringify(bad)).not.toContain("not-hex-and-secret");
  });

  it("reports every problem at once, by shop and field, and never quotes a secret", () => {
    const read = parseShopsFile(
      file([
        cafe,
        { ...noodle, line: { channelSecret: "${NOODLE_SECRET}", channelAccessToken: "${NOODLE_LINE_TOKEN}" } },
        { ...noodle, id: "cafe", line: { channelSecret: SECRET_A, channelAccessToken: "${CAFE_LINE_TOKEN}" }, promptPayId: "12345" },
        { id: "Bad Id!", line: { channelSecret: "not-hex-and-secret-123", channelAccessToken: "t o k e n" }, slip: { baseUrl: "http://slip.example.com", apiSecret: "short" } },
        {
          id: "typo",
          line: { channelSecret: "00000000000000000000000000000000", channelAccessToken: "typo-token-abcdefgh" },
          slip: noodle.slip,
          promptpayId: "0812345678",
          staf: {},
        },
      ]),
      ENV,
    );
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problems).toEqual([
      'shops[1] "noodle": line.channelSecret: ${NOODLE_SECRET} is not set',
      'shops[2] "cafe": promptPayId: "12345" is not a PromptPay id: use a phone number (10 digits starting with 0, or +66…), a 13-digit citizen or tax id, or a 15-digit e-wallet id',
      'shops[2] "cafe": id: "cafe" is also shops[0] "cafe"\'s: each shop needs its own id',
      'shops[2] "cafe": line.channelSecret: the same as shops[0] "cafe"\'s: each shop needs its own LINE channel',
      'shops[2] "cafe": line.channelAccessToken: the same as shops[0] "cafe"\'s: each shop needs its own LINE channel',
      'shops[3] "Bad Id!": id: must be 1 to 32 of a-z, 0-9 and -',
      'shops[3] "Bad Id!": line.channelSecret: must be the 32-character hexadecimal channel secret from the LINE Developers Console',
      'shops[3] "Bad Id!": line.channelAccessToken: must not contain spaces (copy the long-lived channel access token as it is)',
      'shops[3] "Bad Id!": slip.baseUrl: must be an https URL (http only on localhost/127.0.0.1), without query or fragment',
      'shops[3] "Bad Id!": slip.apiSecret: must be at least 8 characters, without spaces',
      'shops[4] "typo": unknown fields promptpayId, staf',
    ]);
    for (const secret of [SECRET_A, "cafe-token-abcdefgh", "not-hex-and-secret-123", "t o k e n", "short", "noodle-token-abcdefgh"]) {
      expect(read.problems.join("\n")).not.toContain(secret);
    }
  });

  it("refuses a previous channel secret that is the current one, or another shop's secret, without quoting either", () => {
    const sameAsOwn = parseShopsFile(file([{ ...noodle, line: { ...noodle.line, previousChannelSecret: SECRET_B } }]), ENV);
    expect(sameAsOwn).toEqual({
      ok: false,
      problems: ['shops[0] "noodle": line.previousChannelSecret: is the same as channelSecret: during a rotation it holds the old secret; once the rotation is over, remove it'],
    });
    // The café's current secret given as the noodle shop's previous one, and the other way round.
    const cafeAsNoodlePrevious = parseShopsFile(file([cafe, { ...noodle, line: { ...noodle.line, previousChannelSecret: SECRET_A } }]), ENV);
    const noodleAsCafePrevious = parseShopsFile(
      file([{ ...cafe, line: { channelSecret: "${CAFE_LINE_SECRET}", channelAccessToken: "${CAFE_LINE_TOKEN}", previousChannelSecret: SECRET_B } }, noodle]),
      ENV,
    );
    expect(cafeAsNoodlePrevious).toEqual({
      ok: false,
      problems: ['shops[1] "noodle": line.previousChannelSecret: the same as a channel secret of shops[0] "cafe": a previous secret must be this shop\'s own old one'],
    });
    expect(noodleAsCafePrevious).toEqual({ ok: false, problems: ['shops[1] "noodle": line.channelSecret: the same as shops[0] "cafe"\'s: each shop needs its own LINE channel'] });
    for (const read of [sameAsOwn, cafeAsNoodlePrevious, noodleAsCafePrevious]) {
      for (const secret of [SECRET_A, SECRET_B]) expect(JSON.stringify(read)).not.toContain(secret);
    }
  });

  it("names a JSON syntax error by line and column, never the text around it (a neighbouring secret)", () => {
    const cases: readonly { text: string; problem: string }[] = [
      { text: '{\n  "shops": [\n    { "secret": "0123456789abcdef0123456789abcdef" x }\n  ]\n}', problem: "not JSON: a syntax error at line 3, column 52" },
      { text: '{ "shops": [ { "apiSecret": "sk_live_very_secret_value" , } ] }', problem: "not JSON: a syntax error at line 1, column 59" },
      { text: '{ "shops": [ { "apiSecret": "sk_live_very_secret_value"', problem: "not JSON: a syntax error at line 1, column 56" },
      // The parser gives no position for this one (its message only quotes the text): said without one.
      { text: "sk_live_very_secret_value", problem: "not JSON (a syntax error; check the file with a JSON validator)" },
    ];
    for (const { text, problem } of cases) {
      const read = parseShopsFile(text, {});
      expect(read).toEqual({ ok: false, problems: [problem] });
      expect(JSON.stringify(read)).not.toMatch(/secret|0123456789abcdef|sk_live/);
    }
  });

  it("refuses what is no shops file at all, saying what is wrong", () => {
    expect(parseShopsFile("{ shops: [", {})).toMatchObject({ ok: false, problems: [expect.stringMatching(/^not JSON/)] });
    expect(parseShopsFile(JSON.stringify({ shops: [] }), {})).toEqual({ ok: false, problems: ["shops: must list at least one shop"] });
    expect(parseShopsFile(JSON.stringify({ shop: [] }), {})).toMatchObject({ ok: false });
    expect(parseShopsFile(JSON.stringify([cafe]), ENV)).toMatchObject({ ok: false });
  });

  it("never quotes a secret, whatever the secret (generated)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 40 }).filter((s) => s.trim().length >= 8 && !/^[0-9a-f]{32}$/.test(s)),
        (secret) => {
          const read = parseShopsFile(file([{ ...noodle, line: { channelSecret: secret, channelAccessToken: secret }, slip: { ...noodle.slip, apiSecret: `${secret} x` } }]), {});
          return !read.ok && !read.problems.join("\n").includes(secret);
        },
      ),
      { numRuns: 300 },
    );
  });
});
