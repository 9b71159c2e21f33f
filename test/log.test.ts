import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLogger, secretScrubber } from "../src/log.js";
import { captureLogs } from "./kit/log-capture.js";

describe("logger", () => {
  it("writes JSON lines and redacts credentials and reply tokens wherever they sit", () => {
    const logs = captureLogs();
    const log = createLogger({ level: "info", destination: logs });
    log.info(
      {
        replyToken: "rt-top",
        event: { replyToken: "rt-nested" },
        events: [{ replyToken: "rt-in-array" }],
        req: { headers: { authorization: "Bearer abc.def", "x-line-signature": "sig==" } },
        config: { line: { channelSecret: "cs-value", channelAccessToken: "cat-value" }, slip: { apiSecret: "api-value" } },
      },
      "something happened",
    );
    const text = logs.text();
    for (const leaked of ["rt-top", "rt-nested", "rt-in-array", "abc.def", "sig==", "cs-value", "cat-value", "api-value"]) {
      expect(text).not.toContain(leaked);
    }
    expect(logs.entries()[0]).toMatchObject({ level: 30, msg: "something happened", replyToken: "[redacted]" });
  });

  it("scrubs known secret values even from error messages and stacks", () => {
    const logs = captureLogs();
    const secret = "9f8e7d6c5b4a39281706f5e4d3c2b1a0";
    const log = createLogger({ level: "info", destination: logs, secrets: [secret, undefined, "short"] });
    log.error({ err: new Error(`request with ${secret} failed`) }, `while using ${secret}`);
    expect(logs.text()).not.toContain(secret);
    expect(logs.text()).toContain("[redacted]");
  });

  it("scrubs a secret written escaped inside a JSON line (a quote or a backslash in it)", () => {
    const logs = captureLogs();
    const secret = 'sk_live"quote\\back';
    const log = createLogger({ level: "info", destination: logs, secrets: [secret] });
    log.error({ err: new Error(`refused ${secret}`) }, `while using ${secret}`);
    expect(logs.text()).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(logs.entries().map((e) => JSON.stringify(e))).not.toEqual(expect.arrayContaining([expect.stringContaining("quote")]));
  });

  it("respects the level", () => {
    const logs = captureLogs();
    const log = createLogger({ level: "warn", destination: logs });
    log.info("hidden");
    log.warn("shown");
    expect(logs.entries().map((e) => e.msg)).toEqual(["shown"]);
  });
});

describe("the secret scrubber", () => {
  /** The plain way, secret by secret (longest first), to compare with: slow with many secrets, but obviously right. */
  const naive = (secrets: readonly string[], line: string): string =>
    [...secrets].sort((a, b) => b.length - a.length).reduce((out, secret) => out.split(secret).join("[redacted]"), line);

  it("finds every secret among thousands, wherever it sits in the line, and changes nothing else", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: fc.constantFrom(..."abcdef0123456789-_.~xyz"), minLength: 8, maxLength: 40 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.oneof(fc.string({ maxLength: 30 }), fc.nat()), { maxLength: 12 }),
        (secrets, parts) => {
          // Secrets that contain one another are left out: then which one is hidden depends on the order.
          const distinct = secrets.filter((s) => !secrets.some((t) => t !== s && (t.includes(s) || s.includes(t))));
          const line = parts.map((part) => (typeof part === "number" ? distinct[part % distinct.length] : part)).join("");
          // Secrets of other shops, never in the line, so that there are many (the one-pass search).
          const others = Array.from({ length: 40 }, (_, i) => `QQQQ-other-shop-${i}-QQQQ`);
          for (const list of [distinct, [...distinct, ...others]]) {
            const scrubbed = secretScrubber(list)(line);
            for (const secret of distinct) expect(scrubbed).not.toContain(secret);
            expect(scrubbed).toBe(naive(distinct, line));
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("with 3,000 secrets (a thousand shops) finds the one in a line, and short ones are ignored", () => {
    const secrets = Array.from({ length: 3_000 }, (_, i) => `shop-token-${String(i).padStart(6, "0")}-${"k".repeat(i % 20)}`);
    const scrub = secretScrubber([...secrets, "short"]);
    expect(scrub(`{"msg":"LINE refused","err":"401 for ${secrets[2_345] ?? ""} at /v2/bot"}`)).toBe('{"msg":"LINE refused","err":"401 for [redacted] at /v2/bot"}');
    expect(scrub("a short word stays")).toBe("a short word stays");
  });
});
