import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicAnswer } from "../../src/privacy/answer.js";
import { messagingApi } from "@line/bot-sdk";
import { installHttpTimeouts } from "../../src/line/http-timeouts.js";
import { createOutbox } from "../../src/line/outbox.js";
import { sdkLineApi } from "../kit/sdk-line-api.js";
import { createLogger } from "../../src/log.js";
import { startFaultServer } from "../kit/fault-server.js";
import type { FaultServer } from "../kit/fault-server.js";
import { captureLogs } from "../kit/log-capture.js";

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
    const sender = createOutbox({
      staff: () => ({ staffUserIds: new Set(), staffGroupIds: new Set() }),
      api: sdkLineApi(new messagingApi.MessagingApiClient({ channelAccessToken: "timeout-test-token", baseURL: hanging.url })),
      log: createLogger({ level: "debug", destination: logs }),
      attempts: 2,
      sleep: async () => undefined,
    });
    const outlet = sender.forEvent({ replyToken: undefined, chat: { type: "user", id: `U${"9".repeat(32)}` } });
    await outlet.send(publicAnswer("help", [{ type: "text", text: "hi" }]));
    expect(outlet.deliveries).toEqual([{ via: "none", reason: "line_down" }]);
    expect(hanging.count).toBe(2);
    expect(logs.text()).toContain("UND_ERR_HEADERS_TIMEOUT");
  });

  it("a reply LINE never answers is retried with the same token, then not pushed: it may have arrived", async () => {
    const logs = captureLogs();
    const before = hanging.count;
    const sender = createOutbox({
      staff: () => ({ staffUserIds: new Set(), staffGroupIds: new Set() }),
      api: sdkLineApi(new messagingApi.MessagingApiClient({ channelAccessToken: "timeout-test-token", baseURL: hanging.url })),
      log: createLogger({ level: "debug", destination: logs }),
      attempts: 2,
      sleep: async () => undefined,
    });
    const outlet = sender.forEvent({ replyToken: "slow-token", chat: { type: "user", id: `U${"9".repeat(32)}` } });
    await outlet.send(publicAnswer("help", [{ type: "text", text: "hi" }]));
    expect(outlet.deliveries).toEqual([{ via: "none", reason: "line_unknown" }]);
    // Two reply attempts and no push.
    expect(hanging.count - before).toBe(2);
    expect(hanging.requests.slice(before).map((r) => r.url)).toEqual(["/v2/bot/message/reply", "/v2/bot/message/reply"]);
  });
});
