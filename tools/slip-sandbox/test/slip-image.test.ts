// The sandbox's slips: the slip of any of a shop's checks as a PNG whose verification QR carries that
// check's reference (the Bank of Thailand's slip-verification payload, read back with jsQR and promptparse),
// only for the shop's own checks and with its secret; and every demo reference fits a real slip QR.
import { validate } from "promptparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SECRETS } from "../src/demo.js";
import type { RunningSandbox } from "../src/server.js";
import { renderSlipPng } from "../src/slip-png.js";
import { decodeQrPng } from "./qr-decode.js";
import { startSandbox } from "../src/server.js";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({});
});
afterAll(async () => {
  await sandbox.close();
});

const get = (path: string, secret?: string): Promise<Response> => fetch(`${sandbox.url}${path}`, { headers: secret === undefined ? {} : { authorization: `Bearer ${secret}` } });

async function history(secret: string, limit: number): Promise<{ transRef: string }[]> {
  const body = (await (await get(`/api/slip-history?limit=${limit}`, secret)).json()) as { data: { items: { transRef: string }[] } };
  return body.data.items;
}

describe("the sandbox's slip of a check", () => {
  it("is a PNG whose verification QR carries the check's reference, with a good CRC", async () => {
    const [check] = await history(DEMO_SECRETS.shop, 1);
    const res = await get(`/sandbox/slip-image?transRef=${check?.transRef ?? ""}`, DEMO_SECRETS.shop);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const qr = decodeQrPng(Buffer.from(await res.arrayBuffer()));
    expect(qr.text === undefined ? null : validate.slipVerify(qr.text)).toEqual({ sendingBank: "004", transRef: check?.transRef });
  });

  it("is only the shop's own, asked with its secret: 404 for another shop's check or an unknown one, 401 without", async () => {
    const [check] = await history(DEMO_SECRETS.shop, 1);
    expect((await get(`/sandbox/slip-image?transRef=${check?.transRef ?? ""}`, DEMO_SECRETS.other)).status).toBe(404);
    expect((await get("/sandbox/slip-image?transRef=2699000000000000001", DEMO_SECRETS.shop)).status).toBe(404);
    expect((await get(`/sandbox/slip-image?transRef=${check?.transRef ?? ""}`)).status).toBe(401);
    expect((await get("/sandbox/slip-image", DEMO_SECRETS.shop)).status).toBe(400);
  });

  it("has every demo reference in a shape a real slip QR carries (letters and digits, at most 25)", async () => {
    for (const secret of [DEMO_SECRETS.shop, DEMO_SECRETS.other]) {
      const refs = (await history(secret, 100)).map((c) => c.transRef);
      expect(refs.length).toBeGreaterThan(50);
      expect(refs.filter((ref) => !/^[0-9A-Za-z]{6,25}$/.test(ref))).toEqual([]);
    }
  });

  it("can leave its QR out (a slip photographed without it): nothing to read", () => {
    expect(decodeQrPng(renderSlipPng({ transRef: "2404141402000123", amountSatang: 15_000 }, false)).text).toBeUndefined();
  });
});
