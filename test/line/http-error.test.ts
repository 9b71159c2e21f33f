// LINE's refusals read alike from the bot's own calls and from the SDK's client (the rare calls).
import { HTTPFetchError } from "@line/bot-sdk";
import { describe, expect, it } from "vitest";
import { LineHttpError, lineHttpFailure } from "../../src/line-http.js";

describe("a LINE refusal", () => {
  const headers = new Headers({ "x-line-request-id": "req-1", "retry-after": "3" });
  const body = JSON.stringify({ message: "Invalid reply token" });

  it("reads the same from the bot's own error and the SDK's", () => {
    const ours = lineHttpFailure(new LineHttpError(400, headers, body));
    const sdk = lineHttpFailure(new HTTPFetchError("400 from LINE", { status: 400, statusText: "Bad Request", headers, body }));
    for (const read of [ours, sdk]) {
      expect(read?.status).toBe(400);
      expect(read?.body).toBe(body);
      expect(read?.headers.get("x-line-request-id")).toBe("req-1");
    }
  });

  it("is nothing for an error that is not LINE's answer", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const namedLikeIt = Object.assign(new Error("odd"), { name: "HTTPFetchError", status: "400" });
    expect([refused, namedLikeIt, "400", undefined].map(lineHttpFailure)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
