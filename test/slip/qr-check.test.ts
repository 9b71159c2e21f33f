// The slip client refuses a QR that is not the one asked for: the check on its own (payload, id, amount,
// CRC, image link), then through the client against a scripted service (error kind, circuit, metrics, secret).
import { inspect } from "node:util";
import fc from "fast-check";
import { encode, generate, tag, withCrcTag } from "promptparse";
import { afterEach, describe, expect, it } from "vitest";
import { createSlipClient } from "../../src/slip/client.js";
import { QrMismatchError } from "../../src/slip/errors.js";
import { qrImageOrigins, qrMismatches } from "../../src/slip/qr-check.js";
import type { QrAnswer, QrImageOrigins } from "../../src/slip/qr-check.js";
import type { CircuitState, PromptPayQrRequest } from "../../src/slip/types.js";
import { sendData, startFaultServer } from "../kit/fault-server.js";
import type { FaultServer } from "../kit/fault-server.js";
import { amountSatangArb, PROMPTPARSE_TYPE, proxyArb, satangToBaht } from "../promptpay/vectors.js";
import { failure, QR_0812345678, QR_0812345678_150, SECRET } from "./fixtures.js";

const SERVICE = "https://slips.example.com";
const ORIGINS: QrImageOrigins = qrImageOrigins(SERVICE, []) ?? { keys: new Set(), shown: [] };

/** A payload built by promptparse (not by the code under test). */
function built(type: keyof typeof PROMPTPARSE_TYPE, digits: string, baht?: number): string {
  return generate.anyId({ type: PROMPTPARSE_TYPE[type], target: digits, ...(baht === undefined ? {} : { amount: baht }) });
}

function imageUrl(qrCode: string, origin = SERVICE): string {
  return `${origin}/api/qr-image?data=${encodeURIComponent(qrCode)}&size=1024`;
}

function differences(request: PromptPayQrRequest, answer: QrAnswer, origins = ORIGINS): string[] {
  return qrMismatches(request, answer, origins).map((m) => m.difference);
}

const ASKED_150: PromptPayQrRequest = { accountNumber: "0812345678", amount: 150 };
const RIGHT_150: QrAnswer = { qrCode: QR_0812345678_150, amount: 150, url: imageUrl(QR_0812345678_150) };

describe("the QR payload against the request", () => {
  it("passes the QR asked for, with an amount or without, with the id spelled with dashes or spaces", () => {
    expect(differences(ASKED_150, RIGHT_150)).toEqual([]);
    expect(differences({ accountNumber: "081-234-5678" }, { qrCode: QR_0812345678, amount: null })).toEqual([]);
    expect(differences({ accountNumber: "081 234 5678" }, { qrCode: QR_0812345678, amount: null, targetType: "phone" })).toEqual([]);
    const taxId = built("citizen", "0105551234567", 20);
    expect(differences({ accountNumber: "0105551234567", amount: 20 }, { qrCode: taxId, amount: 20, targetType: "citizen" })).toEqual([]);
    const wallet = built("ewallet", "140000812345678", 42.42);
    expect(differences({ accountNumber: "140000812345678", amount: 42.42 }, { qrCode: wallet, amount: 42.42 })).toEqual([]);
  });

  it("passes every QR promptparse builds for the id and amount asked", () => {
    fc.assert(
      fc.property(proxyArb, amountSatangArb, (proxy, satang) => {
        const baht = satangToBaht(satang);
        const qrCode = built(proxy.type, proxy.digits, baht);
        const request = { accountNumber: proxy.digits, ...(baht === undefined ? {} : { amount: baht }) };
        expect(differences(request, { qrCode, amount: baht ?? null, targetType: proxy.type, url: imageUrl(qrCode) })).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses a QR for another id, of any kind, even with a correct CRC", () => {
    fc.assert(
      fc.property(proxyArb, proxyArb, (asked, other) => {
        fc.pre(asked.digits !== other.digits || asked.type !== other.type);
        const qrCode = built(other.type, other.digits, 150);
        expect(differences({ accountNumber: asked.digits, amount: 150 }, { qrCode, amount: 150, url: imageUrl(qrCode) })).toEqual(["id"]);
      }),
      { numRuns: 300 },
    );
  });

  it("names the id's kind and last 4 digits only", () => {
    const [mismatch] = qrMismatches(ASKED_150, { ...RIGHT_150, qrCode: built("phone", "0899991111", 150), url: undefined }, ORIGINS);
    expect(mismatch).toEqual({ difference: "id", detail: "pays phone ending 1111, asked phone ending 5678" });
  });

  it("refuses a QR whose amount differs, or has one when none was asked, or none when one was", () => {
    fc.assert(
      fc.property(amountSatangArb, amountSatangArb, (asked, found) => {
        fc.pre(asked !== found);
        const qrCode = built("phone", "0812345678", satangToBaht(found));
        const askedBaht = satangToBaht(asked);
        const request = { accountNumber: "0812345678", ...(askedBaht === undefined ? {} : { amount: askedBaht }) };
        // The echoed amount says what was asked: only the payload lies.
        expect(differences(request, { qrCode, amount: askedBaht ?? null, url: imageUrl(qrCode) })).toEqual(["amount"]);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses an answer whose echoed amount, which the card shows, is not the one asked", () => {
    expect(differences(ASKED_150, { ...RIGHT_150, amount: 1500 })).toEqual(["amount"]);
    expect(differences(ASKED_150, { ...RIGHT_150, amount: null })).toEqual(["amount"]);
    expect(differences(ASKED_150, { ...RIGHT_150, amount: 150.001 })).toEqual(["amount"]);
    expect(differences({ accountNumber: "0812345678" }, { qrCode: QR_0812345678, amount: 0 })).toEqual(["amount"]);
  });

  it("cannot pass a request whose amount no QR can hold", () => {
    for (const amount of [1.005, -1, Number.NaN, 1e13]) {
      expect(differences({ accountNumber: "0812345678", amount }, { qrCode: QR_0812345678_150, amount: 150 })).toEqual(["amount"]);
    }
  });

  it("refuses a wrong CRC, and still says what the payload would pay", () => {
    const wrongCrc = `${QR_0812345678_150.slice(0, -4)}0000`;
    expect(differences(ASKED_150, { qrCode: wrongCrc, amount: 150, url: imageUrl(wrongCrc) })).toEqual(["crc"]);
    const otherAndWrongCrc = `${built("phone", "0899991111", 150).slice(0, -4)}0000`;
    expect(differences(ASKED_150, { qrCode: otherAndWrongCrc, amount: 150 })).toEqual(["crc", "id"]);
  });

  it("refuses what is no PromptPay payload, whatever else it says", () => {
    const billPayment = withCrcTag(
      encode([tag("00", "01"), tag("01", "12"), tag("30", encode([tag("00", "A000000677010112"), tag("01", "099400016550100")])), tag("53", "764"), tag("58", "TH")]),
      "63",
    );
    for (const qrCode of ["", "000201", "hello", billPayment, `${QR_0812345678_150}00`]) {
      expect(differences(ASKED_150, { qrCode, amount: 150 })).toEqual(["payload"]);
    }
  });

  it("refuses an answer whose targetType is another kind, and any QR for a request naming no PromptPay id", () => {
    expect(differences({ accountNumber: "0812345678" }, { qrCode: QR_0812345678, amount: null, targetType: "citizen" })).toEqual(["id"]);
    expect(differences({ accountNumber: "12" }, { qrCode: QR_0812345678, amount: null })).toEqual(["id"]);
  });
});

describe("the image link", () => {
  it("must be on the service's origin, or one listed, and show the checked payload", () => {
    expect(differences(ASKED_150, { ...RIGHT_150, url: imageUrl(QR_0812345678_150, "https://images.example.net") })).toEqual(["image_host"]);
    expect(differences(ASKED_150, { ...RIGHT_150, url: imageUrl(QR_0812345678_150, "http://slips.example.com") })).toEqual(["image_host"]);
    expect(differences(ASKED_150, { ...RIGHT_150, url: imageUrl(QR_0812345678_150, "https://slips.example.com:8443") })).toEqual(["image_host"]);
    expect(differences(ASKED_150, { ...RIGHT_150, url: imageUrl(QR_0812345678_150, "https://user:pw@slips.example.com") })).toEqual(["image_host"]);
    expect(differences(ASKED_150, { ...RIGHT_150, url: imageUrl(QR_0812345678_150, "http://127.0.0.1:4000") })).toEqual(["image_host"]);
    const listed = qrImageOrigins(SERVICE, ["https://images.example.net/qr"]);
    expect(listed).toBeDefined();
    expect(differences(ASKED_150, { ...RIGHT_150, url: imageUrl(QR_0812345678_150, "https://images.example.net") }, listed)).toEqual([]);
  });

  it("names where the image was and where it may be", () => {
    const [mismatch] = qrMismatches(ASKED_150, { ...RIGHT_150, url: imageUrl(QR_0812345678_150, "https://images.example.net") }, ORIGINS);
    expect(mismatch).toEqual({ difference: "image_host", detail: "the image is on https://images.example.net, allowed: https://slips.example.com" });
  });

  it("must carry exactly the payload that was checked", () => {
    const other = built("phone", "0899991111", 150);
    expect(differences(ASKED_150, { ...RIGHT_150, url: imageUrl(other) })).toEqual(["image_data"]);
    expect(differences(ASKED_150, { ...RIGHT_150, url: `${imageUrl(QR_0812345678_150)}&data=${other}` })).toEqual(["image_data"]);
    expect(differences(ASKED_150, { ...RIGHT_150, url: `${SERVICE}/api/qr-image?size=1024` })).toEqual(["image_data"]);
    // Percent-encoding is only how the link spells it.
    const spelled = `${SERVICE}/api/qr-image?size=512&data=${QR_0812345678_150.replace(/A/g, "%41")}`;
    expect(differences(ASKED_150, { ...RIGHT_150, url: spelled })).toEqual([]);
  });

  it("allows http only on loopback, where this machine's names are one", () => {
    const local = qrImageOrigins("http://127.0.0.1:4000", []);
    expect(local?.shown).toEqual(["http://127.0.0.1:4000"]);
    const link = (origin: string) => ({ ...RIGHT_150, url: imageUrl(QR_0812345678_150, origin) });
    expect(differences(ASKED_150, link("http://localhost:4000"), local)).toEqual([]);
    expect(differences(ASKED_150, link("http://[::1]:4000"), local)).toEqual([]);
    expect(differences(ASKED_150, link("http://127.0.0.1:4001"), local)).toEqual(["image_host"]);
    expect(differences(ASKED_150, link("https://127.0.0.1:4000"), local)).toEqual(["image_host"]);
    // A service reached over plain http elsewhere has no origin images may come from.
    expect(qrImageOrigins("http://slips.example.com", [])?.shown).toEqual([]);
  });

  it("takes only https or loopback origins as extra image origins", () => {
    expect(qrImageOrigins(SERVICE, ["http://192.168.1.20:4000"])).toBeUndefined();
    expect(qrImageOrigins(SERVICE, ["not a url"])).toBeUndefined();
    expect(qrImageOrigins(SERVICE, ["ftp://images.example.net"])).toBeUndefined();
    expect(qrImageOrigins(SERVICE, ["https://u:p@images.example.net"])).toBeUndefined();
    expect(qrImageOrigins(SERVICE, ["http://localhost:4000", "https://images.example.net/"])?.shown).toEqual([SERVICE, "http://localhost:4000", "https://images.example.net"]);
  });
});

describe("through the client", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function serving(data: (server: FaultServer) => unknown, options: { qrImageOrigins?: string[] } = {}) {
    const server = await startFaultServer((_request, res) => sendData(res, data(server)));
    const calls: string[] = [];
    const circuit: CircuitState[] = [];
    const client = createSlipClient({
      baseUrl: server.url,
      apiSecret: SECRET,
      breakAfterFailures: 2,
      observer: { call: (_operation, outcome) => calls.push(outcome), circuit: (state) => circuit.push(state) },
      ...options,
    });
    cleanups.push(() => server.close());
    cleanups.push(() => client.close());
    return { server, client, calls, circuit };
  }

  it("rejects with QrMismatchError naming the differences; an answer, so the circuit stays closed", async () => {
    const { server, client, calls, circuit } = await serving(() => ({ qrCode: built("phone", "0899991111", 1500), amount: 150, url: "https://images.example.net/x.png" }));
    for (let i = 0; i < 5; i++) {
      const error = await failure(client.promptPayQrUrl({ accountNumber: "0812345678", amount: 150, size: 1024 }));
      expect(error).toBeInstanceOf(QrMismatchError);
      expect(error.kind === "qr_mismatch" && error.differences).toEqual(["id", "amount", "image_host", "image_data"]);
      expect(error.operation).toBe("POST /api/promptpay-qr-url");
    }
    expect(server.count).toBe(5);
    expect(calls).toEqual(Array(5).fill("qr_mismatch"));
    expect(circuit).toEqual([]);
  });

  it("checks promptPayQr too, and returns the QR asked for", async () => {
    const { client } = await serving(() => ({ qrCode: QR_0812345678_150, targetType: "phone", amount: 150 }));
    expect(await client.promptPayQr({ accountNumber: "0812345678", amount: 150 })).toEqual({ qrCode: QR_0812345678_150, targetType: "phone", amount: 150 });
    const error = await failure(client.promptPayQr({ accountNumber: "0812345678", amount: 15 }));
    expect(error.kind === "qr_mismatch" && error.differences).toEqual(["amount"]);
  });

  it("accepts images on a listed origin, and refuses a listed origin that is neither https nor loopback", async () => {
    const { client } = await serving(() => ({ qrCode: QR_0812345678, amount: null, url: imageUrl(QR_0812345678, "https://images.example.net") }), {
      qrImageOrigins: ["https://images.example.net"],
    });
    expect((await client.promptPayQrUrl({ accountNumber: "0812345678" })).qrCode).toBe(QR_0812345678);
    expect(() => createSlipClient({ baseUrl: SERVICE, apiSecret: SECRET, qrImageOrigins: ["http://192.168.1.20"] })).toThrow("`qrImageOrigins`");
  });

  it("never puts the secret in the error, even when the service puts it in the image's host name", async () => {
    const { client } = await serving(() => ({ qrCode: QR_0812345678, amount: null, url: imageUrl(QR_0812345678, `https://${SECRET}.example.net`) }));
    const error = await failure(client.promptPayQrUrl({ accountNumber: "0812345678" }));
    expect(error.kind === "qr_mismatch" && error.differences).toEqual(["image_host"]);
    for (const text of [error.message, error.stack ?? "", JSON.stringify(error), inspect(error, { depth: Infinity, showHidden: true })]) {
      expect(text.toLowerCase()).not.toContain(SECRET.toLowerCase());
    }
    expect(error.message).toContain("https://[redacted].example.net");
  });
});
