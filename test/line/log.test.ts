import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { captureLogs } from "../helpers/log-capture.js";

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
