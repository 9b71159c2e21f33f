// The LINE SDK's own client behind the sender's LineApi. The bot sends over an undici pool (src/line/api.ts),
// which nock cannot intercept; tests that put nock in front of api.line.me (for faults a real server cannot
// easily make, such as a refused connection followed by an accepted one) go through the SDK's client, which
// uses global fetch. test/line/api.test.ts shows that the two answer the sender alike.
import type { messagingApi } from "@line/bot-sdk";
import type { LineApi, LineAnswer } from "../../src/line/api.js";

async function answer(call: () => Promise<{ httpResponse: Response }>): Promise<LineAnswer> {
  try {
    const { httpResponse } = await call();
    return { requestId: httpResponse.headers.get("x-line-request-id") };
  } catch (err) {
    // The SDK parses a 2xx body; one that is not JSON was still accepted by LINE.
    if (err instanceof SyntaxError) return { requestId: null };
    throw err;
  }
}

export function sdkLineApi(client: messagingApi.MessagingApiClient): LineApi {
  return {
    reply: (request) => answer(() => client.replyMessageWithHttpInfo(request)),
    push: (request, retryKey) => answer(() => client.pushMessageWithHttpInfo(request, retryKey)),
    showLoading: (request) => answer(() => client.showLoadingAnimationWithHttpInfo(request)),
    markAsRead: (request) => answer(() => client.markMessagesAsReadByTokenWithHttpInfo(request)),
  };
}
