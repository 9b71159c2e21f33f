import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messagingApi } from "@line/bot-sdk";
import { installHttpTimeouts } from "../../src/line/http-timeouts.js";
import { createLineSender } from "../../src/line/sender.js";
import { createLogger } from "../../src/log.js";
import { startFaultServer } from "../helpers/fault-server.js";
import type { FaultServer } from "../helpers/fault-server.js";
import { captureLogs } from "../helpers/log-capture.js";

let hanging: FaultServer;
beforeAll(async () => {
  // This file runs in its own worker, so the short global timeouts touch no other test.
  installHttpTimeouts({ connectTimeoutMs: 500, headersTimeoutMs: 300, bodyTimeoutMs: 300 });
  hanging = await startFaultServer(() => {
    // Never answer: LINE hanging.
  });
});
afterAll(async () => {
  await hanging.close();
});

describe("global fetch timeouts", () => {
  it("a LINE that never answers makes the SDK call fail (and the push give up) instead of hanging", async () => {
    const logs = captureLogs();
    const sender = createLineSender({
      api: new messagingApi.MessagingApiClient({ channelAccessToken: "timeout-test-token", baseURL: hanging.url }),
      log: createLogger({ level: "debug", destination: logs }),
      pushAttempts: 2,
      sleep: async () => undefined,
    });
    const outlet = sender.forEvent({ replyToken: undefined, chatId: `U${"9".repeat(32)}`, chatType: "user" });
    await outlet.send([{ type: "text", text: "hi" }]);
    expect(outlet.deliveries).toEqual([{ via: "none", reason: "gave_up" }]);
    expect(hanging.count).toBe(2);
    expect(logs.text()).toContain("UND_ERR_HEADERS_TIMEOUT");
  });
});
