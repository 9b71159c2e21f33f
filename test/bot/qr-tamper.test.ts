// End to end: the bot's slip service is a tampering proxy in front of the real sandbox. Whatever it rewrites
// in a QR answer (the payload's id, its amount, its CRC, the image's host), the chat gets a refusal and no
// QR: staff are told what happened, customers to ask the staff, and the bot logs an error.
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { generate } from "promptparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedSend } from "@slipline/line-stand-in";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import { startSandbox } from "@slipline/slip-sandbox";
import type { RunningSandbox } from "@slipline/slip-sandbox";
import { startBotHarness } from "../kit/bot-harness.js";
import type { BotHarness } from "../kit/bot-harness.js";
import { shownText } from "../kit/messages.js";
import { chatIdOf, lineId, textEvent } from "../kit/webhook.js";
import type { TestSource } from "../kit/webhook.js";
import { PROMPTPARSE_TYPE, proxyArb } from "../promptpay/vectors.js";

const STAFF: TestSource = { type: "user", userId: lineId("U", 0x91) };
const CUSTOMER: TestSource = { type: "user", userId: lineId("U", 0x92) };
/** The harness's PROMPTPAY_ID: what `qr 150` asks the service for. */
const SHOP_ID = "0812345678";

const STAFF_REFUSAL = "The slip service returned a QR for another account or amount, so it is not shown. Please check the SLIP_API_BASE_URL setting.";
const CUSTOMER_REFUSAL = "Sorry, a payment QR cannot be made right now. Please leave a message here and the shop will send you a way to pay 🙏";

/** The `data` of a QR image link answer, as the proxy may rewrite it. */
interface QrData {
  qrCode: string;
  url: string;
  amount: number | null;
}
type Tamper = (data: QrData) => QrData;

interface TamperingProxy {
  readonly url: string;
  /** What the proxy does to the next QR answers; undefined passes them through. */
  tamper: Tamper | undefined;
  /** QR answers it rewrote, so a test knows its tamper ran. */
  readonly rewritten: number;
  close(): Promise<void>;
}

/** A slip service that forwards everything to `target()` and rewrites the data of successful QR link answers. */
async function startTamperingProxy(target: () => string): Promise<TamperingProxy> {
  let rewritten = 0;
  const proxy: { tamper: Tamper | undefined } = { tamper: undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const name of ["authorization", "content-type"]) {
          const value = req.headers[name];
          if (typeof value === "string") headers[name] = value;
        }
        const answer = await fetch(`${target()}${req.url ?? "/"}`, {
          method: req.method ?? "GET",
          headers,
          ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) }),
        });
        let body = Buffer.from(await answer.arrayBuffer());
        const tamper = proxy.tamper;
        if (tamper !== undefined && req.url === "/api/promptpay-qr-url" && answer.status === 200) {
          const envelope = JSON.parse(body.toString("utf8")) as { code: string; data: QrData };
          if (envelope.code === "200001") {
            envelope.data = tamper(envelope.data);
            rewritten += 1;
            body = Buffer.from(JSON.stringify(envelope));
          }
        }
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/octet-stream", "content-length": body.length });
        res.end(body);
      })().catch((error: unknown) => res.destroy(error instanceof Error ? error : new Error(String(error))));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get tamper() {
      return proxy.tamper;
    },
    set tamper(next) {
      proxy.tamper = next;
    },
    get rewritten() {
      return rewritten;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The link with its `data` parameter set to `qrCode`, everything else as the service wrote it. */
function withData(url: string, qrCode: string): string {
  const link = new URL(url);
  link.searchParams.set("data", qrCode);
  return link.href;
}

/** A payload for another id or amount, built by promptparse with a correct CRC: a careful forger. */
function forged(type: keyof typeof PROMPTPARSE_TYPE, digits: string, baht: number): string {
  return generate.anyId({ type: PROMPTPARSE_TYPE[type], target: digits, amount: baht });
}

let sandbox: RunningSandbox;
let proxy: TamperingProxy;
let bot: BotHarness;

beforeAll(async () => {
  // The proxy comes first, so the sandbox can write image links on the proxy's origin, as a service on its own host would.
  let sandboxUrl = "";
  proxy = await startTamperingProxy(() => sandboxUrl);
  sandbox = await startSandbox({ publicUrl: proxy.url });
  sandboxUrl = sandbox.url;
  bot = await startBotHarness({
    slip: { baseUrl: proxy.url, apiSecret: DEMO_SECRETS.shop },
    settings: { staffUserIds: new Set([STAFF.userId ?? ""]), promptPayId: { type: "phone", digits: SHOP_ID } },
  });
});

afterAll(async () => {
  await bot.close();
  await proxy.close();
  await sandbox.close();
});

async function say(source: TestSource, text: string): Promise<RecordedSend[]> {
  return bot.exchange([textEvent({ source, replyToken: bot.token(chatIdOf(source)), text })]);
}

/** The QR errors logged so far. */
function qrErrors(): Record<string, unknown>[] {
  return bot.logs.entries().filter((entry) => entry.kind === "qr_mismatch");
}

/** `qr 150` from staff and from a customer: each gets one text reply, its refusal, and nothing else; each is logged as an error. */
async function expectRefused(difference: string): Promise<void> {
  const rewrittenBefore = proxy.rewritten;
  const errorsBefore = qrErrors().length;
  for (const [source, refusal] of [
    [STAFF, STAFF_REFUSAL],
    [CUSTOMER, CUSTOMER_REFUSAL],
  ] as const) {
    const sent = await say(source, "qr 150");
    expect(sent.map((s) => s.kind)).toEqual(["reply"]);
    const messages = sent.flatMap((s) => s.messages);
    // No image message and no Flex card: only the refusal's text.
    expect(messages.map((m) => m.type)).toEqual(["text"]);
    expect(shownText(messages)).toBe(refusal);
  }
  expect(proxy.rewritten - rewrittenBefore).toBe(2);
  const logged = qrErrors().slice(errorsBefore);
  expect(logged.map((entry) => entry.level)).toEqual([50, 50]);
  for (const entry of logged) expect(String(entry.reason)).toContain(`${difference}:`);
  expect(bot.logs.text()).not.toContain(DEMO_SECRETS.shop);
}

describe("a tampered QR answer is refused, with no image and no card", () => {
  it("the payload paying another id (with a correct CRC)", async () => {
    await fc.assert(
      fc.asyncProperty(proxyArb, async (other) => {
        fc.pre(other.digits !== SHOP_ID);
        proxy.tamper = (data) => {
          const qrCode = forged(other.type, other.digits, 150);
          return { ...data, qrCode, url: withData(data.url, qrCode) };
        };
        await expectRefused("id");
      }),
      { numRuns: 6 },
    );
  });

  it("the payload asking another amount (with a correct CRC), while the answer still says 150", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 99_999_999 }), async (satang) => {
        fc.pre(satang !== 15_000);
        proxy.tamper = (data) => {
          const qrCode = forged("phone", SHOP_ID, satang / 100);
          return { ...data, qrCode, url: withData(data.url, qrCode) };
        };
        await expectRefused("amount");
      }),
      { numRuns: 6 },
    );
  });

  it("the payload's CRC", async () => {
    const hex = fc.stringMatching(/^[0-9A-F]{4}$/);
    await fc.assert(
      fc.asyncProperty(hex, async (crc) => {
        proxy.tamper = (data) => {
          // Should the drawn CRC be the right one, one bit of it is flipped.
          const wrong = data.qrCode.endsWith(crc) ? (Number.parseInt(crc, 16) ^ 1).toString(16).toUpperCase().padStart(4, "0") : crc;
          const qrCode = data.qrCode.slice(0, -4) + wrong;
          return { ...data, qrCode, url: withData(data.url, qrCode) };
        };
        await expectRefused("crc");
      }),
      { numRuns: 6 },
    );
  });

  it("the image's host: another https host, or another port on this machine", async () => {
    const hosts = fc.oneof(
      fc.domain().map((domain) => `https://${domain}`),
      fc.integer({ min: 1024, max: 65_535 }).map((port) => `http://127.0.0.1:${port}`),
    );
    await fc.assert(
      fc.asyncProperty(hosts, async (origin) => {
        fc.pre(origin !== proxy.url);
        proxy.tamper = (data) => {
          const link = new URL(data.url);
          return { ...data, url: `${origin}${link.pathname}${link.search}` };
        };
        await expectRefused("image_host");
      }),
      { numRuns: 6 },
    );
  });

  it("tells Thai-speaking staff in Thai", async () => {
    proxy.tamper = (data) => {
      const qrCode = forged("phone", "0899991111", 150);
      return { ...data, qrCode, url: withData(data.url, qrCode) };
    };
    const sent = await say(STAFF, "คิวอาร์ 150");
    const messages = sent.flatMap((s) => s.messages);
    expect(messages.map((m) => m.type)).toEqual(["text"]);
    expect(shownText(messages)).toMatch(/^[\u0E00-\u0E7F].*SLIP_API_BASE_URL/);
  });
});

describe("the untampered sandbox", () => {
  it("passes: staff and customers get the card and the image, from the service's own origin", async () => {
    proxy.tamper = undefined;
    const errorsBefore = qrErrors().length;
    for (const source of [STAFF, CUSTOMER]) {
      const sent = await say(source, "qr 150");
      const messages = sent.flatMap((s) => s.messages);
      expect(messages.map((m) => m.type)).toEqual(["flex", "image"]);
      expect(shownText(messages)).toMatch(/฿150\.00/);
      const image = messages[1];
      expect(image?.type === "image" && new URL(image.originalContentUrl).origin).toBe(proxy.url);
    }
    expect(qrErrors().length).toBe(errorsBefore);
  });
});
