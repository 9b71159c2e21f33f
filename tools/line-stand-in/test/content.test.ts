// The stand-in's data host as LINE's: GET /v2/bot/message/{messageId}/content answers the bytes of a photo
// sent to that channel's OA, with its content type, for the channel's token only; 404 for an id the
// channel does not have; 401 without a token; and the fault switch a LINE outage.
import { afterEach, describe, expect, it } from "vitest";
import { startLinePlatform } from "../src/platform.js";
import type { LinePlatform } from "../src/platform.js";

let platform: LinePlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe("the content endpoint", () => {
  it("answers a channel's photo to its token only, 404 for another channel's or an unknown id, 401 without a token", async () => {
    platform = await startLinePlatform({
      channels: [
        { name: "cafe", accessToken: "cafe-token" },
        { name: "second", accessToken: "second-token" },
      ],
    });
    const id = platform.addMessageContent(PNG, "image/png", "cafe");
    expect(id).toMatch(/^\d{18}$/);
    const at = (messageId: string, token?: string) =>
      fetch(`${platform?.url}/v2/bot/message/${messageId}/content`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
    const ok = await at(id, "cafe-token");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await ok.arrayBuffer())).toEqual(PNG);
    const other = await at(id, "second-token");
    expect([other.status, await other.json()]).toEqual([404, { message: "Not found" }]);
    expect((await at("123456789012345678", "cafe-token")).status).toBe(404);
    expect((await at(id)).status).toBe(401);
    expect(platform.contentRequests.map((r) => [r.channel, r.status])).toEqual([
      ["cafe", 200],
      ["second", 404],
      ["cafe", 404],
    ]);
  });

  it("answers the status of an outage while the fault switch is on", async () => {
    platform = await startLinePlatform({ channelAccessToken: "token" });
    const id = platform.addMessageContent(PNG, "image/png");
    platform.failContent(500);
    expect((await fetch(`${platform.url}/v2/bot/message/${id}/content`, { headers: { authorization: "Bearer token" } })).status).toBe(500);
    platform.failContent(undefined);
    expect((await fetch(`${platform.url}/v2/bot/message/${id}/content`, { headers: { authorization: "Bearer token" } })).status).toBe(200);
  });
});
