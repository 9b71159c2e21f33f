// Reading PromptPay payloads: the reference vectors of both libraries, every way a payload can be wrong, and
// round trips against promptparse and promptpay-qr over random proxies and amounts.
import fc from "fast-check";
import generatePayload from "promptpay-qr";
import { encode, generate, tag, withCrcTag } from "promptparse";
import { describe, expect, it } from "vitest";
import { crc16CcittFalse } from "../../src/promptpay/crc.js";
import { readPromptPayPayload } from "../../src/promptpay/payload.js";
import type { PayloadReading } from "../../src/promptpay/payload.js";
import { amountSatangArb, PROMPTPARSE_TYPE, proxyArb, satangToBaht, VECTORS } from "./vectors.js";

/** The proxy a vector's account number names, by its length (10 from 0, 13, 15). */
function proxyOf(digits: string): { type: "phone" | "citizen" | "ewallet"; digits: string } {
  return { type: digits.length === 10 ? "phone" : digits.length === 13 ? "citizen" : "ewallet", digits };
}

/** Tags in the order given, with a CRC from promptparse (not ours). */
function payloadOf(tags: readonly [string, string][], crcUpperCase = true): string {
  return withCrcTag(encode(tags.map(([id, value]) => tag(id, value))), "63", crcUpperCase);
}

const AID: [string, string] = ["00", "A000000677010111"];
const PHONE_TEMPLATE = encode([tag(...AID), tag("01", "0066812345678")]);
/** A valid static payload for 0812345678, tag by tag; each bad case below changes one thing. */
const BASE: [string, string][] = [
  ["00", "01"],
  ["01", "11"],
  ["29", PHONE_TEMPLATE],
  ["53", "764"],
  ["58", "TH"],
];

function replaced(id: string, value: string): [string, string][] {
  return BASE.map(([tagId, old]) => [tagId, tagId === id ? value : old]);
}

function problemOf(reading: PayloadReading): string {
  return reading.ok ? "ok" : reading.problem;
}

describe("crc16CcittFalse", () => {
  it("gives the CRC-16/CCITT-FALSE check value for 123456789", () => {
    expect(crc16CcittFalse("123456789")).toBe("29B1");
  });

  it("pads to four upper-case hex digits", () => {
    expect(crc16CcittFalse("")).toBe("FFFF");
    for (const text of ["A", "0002010102", "PromptPay", "x".repeat(300)]) {
      expect(crc16CcittFalse(text)).toMatch(/^[0-9A-F]{4}$/);
    }
  });
});

describe("readPromptPayPayload against the reference vectors", () => {
  it.each(VECTORS.map((v, i) => [i + 1, ...v] as const))("row %i: %s amount %s, in both libraries' tag orders", (_row, digits, baht, promptparsed, promptpayQr) => {
    const expected = { proxy: proxyOf(digits), amountSatang: baht === undefined ? undefined : Math.round(baht * 100) };
    expect(readPromptPayPayload(promptparsed)).toEqual({ ok: true, payload: expected });
    expect(readPromptPayPayload(promptpayQr)).toEqual({ ok: true, payload: expected });
  });

  it("reads the libraries' own published vectors", () => {
    expect(readPromptPayPayload("00020101021129370016A000000677010111011300668012345675802TH530376463046197")).toEqual({
      ok: true,
      payload: { proxy: { type: "phone", digits: "0801234567" }, amountSatang: undefined },
    });
    expect(readPromptPayPayload("00020101021229370016A000000677010111011300660000000005802TH530376454044.226304E469")).toEqual({
      ok: true,
      payload: { proxy: { type: "phone", digits: "0000000000" }, amountSatang: 422 },
    });
    expect(readPromptPayPayload("00020101021129370016A000000677010111021301234567890125802TH530376463040CBD")).toEqual({
      ok: true,
      payload: { proxy: { type: "citizen", digits: "0123456789012" }, amountSatang: undefined },
    });
  });

  it("reads amounts written without decimals or with one, as EMVCo allows", () => {
    const read = (amount: string) => {
      const reading = readPromptPayPayload(payloadOf([...BASE, ["54", amount]]));
      return reading.ok ? reading.payload.amountSatang : reading.problem;
    };
    expect([read("150"), read("150.5"), read("0.01"), read("9999999999.99")]).toEqual([15_000, 15_050, 1, 999_999_999_999]);
  });
});

describe("readPromptPayPayload refuses what a banking app would not read as it looks", () => {
  const valid = payloadOf(BASE);
  const body = valid.slice(0, -8);

  it.each([
    ["empty text", "", /start with tag 00/],
    ["a length that is not digits", valid.replace("0002", "00A2"), /tag 00 has no 2-digit length/],
    ["a length running past the end", `${body}63`, /no 2-digit length/],
    ["a value running past the end", `${body}6304AB`, /tag 63 runs past the end/],
    ["junk after the CRC", `${valid}00`, /tag 00 has no 2-digit length/],
    ["a lone character after the CRC", `${valid}0`, /no 2-digit tag at character/],
    ["no CRC tag", body, /CRC tag 6304/],
    ["the CRC not last", `${valid}5902AB`, /CRC tag 6304/],
    ["a CRC of 3 digits", `${body}6303ABC`, /CRC tag 6304/],
    ["tag 00 not first", payloadOf([["01", "11"], ["00", "01"], ...BASE.slice(2)]), /start with tag 00/],
    ["tag 00 not 01", payloadOf(replaced("00", "02")), /start with tag 00/],
    ["tag 01 neither 11 nor 12", payloadOf(replaced("01", "13")), /tag 01/],
    ["a tag twice", `${body}5802TH6304${crc16CcittFalse(`${body}5802TH6304`)}`, /tag 58 appears twice/],
    ["an empty tag", `${body}59006304${crc16CcittFalse(`${body}59006304`)}`, /tag 59 is empty/],
    ["another merchant account beside 29 (tag 30, bill payment)", payloadOf([...BASE, ["30", encode([tag("00", "A000000677010112"), tag("01", "0105551234567")])]]), /tag 30/],
    ["another merchant account beside 29 (tag 26)", payloadOf([...BASE, ["26", encode([tag(...AID), tag("01", "0066899999999")])]]), /tag 26/],
    ["a tip or fee (tag 55)", payloadOf([...BASE, ["55", "01"]]), /tag 55/],
    ["a fixed fee (tag 56)", payloadOf([...BASE, ["56", "10.00"]]), /tag 56/],
    ["an unreserved template (tag 81)", payloadOf([...BASE, ["81", "0006hello!"]]), /tag 81/],
    ["no tag 29", payloadOf(BASE.filter(([id]) => id !== "29")), /no PromptPay tag 29/],
    ["tag 29 of another scheme", payloadOf(replaced("29", encode([tag("00", "A000000677010112"), tag("01", "0066812345678")]))), /AID/],
    ["tag 29 without a proxy", payloadOf(replaced("29", encode([tag(...AID)]))), /exactly one of sub-tags 01, 02, 03, found none/],
    ["tag 29 with two proxies", payloadOf(replaced("29", encode([tag(...AID), tag("01", "0066812345678"), tag("02", "0105551234567")]))), /found 01, 02/],
    ["tag 29 with a bank account (04)", payloadOf(replaced("29", encode([tag(...AID), tag("04", "0041234567890")]))), /found 04/],
    ["tag 29 with an unknown sub-tag", payloadOf(replaced("29", encode([tag(...AID), tag("01", "0066812345678"), tag("05", "x")]))), /found 01, 05/],
    ["tag 29 with malformed sub-TLV", payloadOf(replaced("29", `${encode([tag(...AID)])}0113006681234`)), /tag 29: tag 01 runs past the end/],
    ["a phone not 0066 + 9 digits", payloadOf(replaced("29", encode([tag(...AID), tag("01", "0000812345678")]))), /29.01 \(phone\) is malformed/],
    ["a phone of 12 characters", payloadOf(replaced("29", encode([tag(...AID), tag("01", "006681234567")]))), /29.01 \(phone\) is malformed/],
    ["a citizen id of 12 digits", payloadOf(replaced("29", encode([tag(...AID), tag("02", "010555123456")]))), /29.02 \(citizen\) is malformed/],
    ["a citizen id with a letter", payloadOf(replaced("29", encode([tag(...AID), tag("02", "010555123456X")]))), /29.02 \(citizen\) is malformed/],
    ["an e-wallet id of 14 digits", payloadOf(replaced("29", encode([tag(...AID), tag("03", "14000081234567")]))), /29.03 \(ewallet\) is malformed/],
    ["currency not baht", payloadOf(replaced("53", "840")), /currency/],
    ["no currency", payloadOf(BASE.filter(([id]) => id !== "53")), /currency/],
    ["country not TH", payloadOf(replaced("58", "US")), /country/],
    ["a negative amount", payloadOf([...BASE, ["54", "-5.00"]]), /tag 54/],
    ["an amount in exponent form", payloadOf([...BASE, ["54", "1e+21"]]), /tag 54/],
    ["an amount with 3 decimals", payloadOf([...BASE, ["54", "1.005"]]), /tag 54/],
    ["an amount with a comma", payloadOf([...BASE, ["54", "1,000.00"]]), /tag 54/],
    ["an amount of 14 characters", payloadOf([...BASE, ["54", "10000000000.00"]]), /tag 54/],
    ["an amount ending in a point", payloadOf([...BASE, ["54", "150."]]), /tag 54/],
    ["characters outside printable ASCII", payloadOf([...BASE, ["59", "ร้าน"]]), /printable ASCII/],
    ["more than 512 characters", payloadOf([...BASE, ...["52", "59", "60", "61", "62"].map((id): [string, string] => [id, "9".repeat(99)])]), /512/],
  ] as const)("%s", (_name, payload, detail) => {
    const reading = readPromptPayPayload(payload);
    expect(problemOf(reading)).toBe("payload");
    expect(reading.ok ? "" : reading.detail).toMatch(detail);
  });

  it("keeps what a payload with a wrong CRC would pay, for the report, and refuses a lower-case CRC", () => {
    const wrong = `${valid.slice(0, -4)}${valid.slice(-4) === "0000" ? "0001" : "0000"}`;
    const reading = readPromptPayPayload(wrong);
    expect(reading.ok ? undefined : reading.problem).toBe("crc");
    expect(reading.ok ? "" : reading.detail).toContain(valid.slice(-4));
    expect("payload" in reading ? reading.payload : undefined).toEqual({ proxy: { type: "phone", digits: "0812345678" }, amountSatang: undefined });
    const lower = payloadOf(BASE, false);
    expect(lower).not.toBe(valid);
    expect(lower.toUpperCase()).toBe(valid);
    expect(problemOf(readPromptPayPayload(lower))).toBe("crc");
  });

  it("reads descriptive tags (name, city, reference) without letting them change the reading", () => {
    const named = payloadOf([...BASE, ["59", "COFFEE DEEJAI"], ["60", "BANGKOK"], ["62", encode([tag("05", "INV001")])]]);
    expect(readPromptPayPayload(named)).toEqual({ ok: true, payload: { proxy: { type: "phone", digits: "0812345678" }, amountSatang: undefined } });
  });
});

describe("readPromptPayPayload over random input", () => {
  it("reads back every payload promptparse and promptpay-qr build", () => {
    fc.assert(
      fc.property(proxyArb, amountSatangArb, (proxy, amountSatang) => {
        const amount = satangToBaht(amountSatang);
        const fromPromptparse = generate.anyId({ type: PROMPTPARSE_TYPE[proxy.type], target: proxy.digits, ...(amount === undefined ? {} : { amount }) });
        const fromPromptpayQr = generatePayload(proxy.digits, amount === undefined ? {} : { amount });
        const expected = { ok: true, payload: { proxy, amountSatang } };
        expect(readPromptPayPayload(fromPromptparse)).toEqual(expected);
        expect(readPromptPayPayload(fromPromptpayQr)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("never reads a payload with one character changed as valid (the CRC catches every single change)", () => {
    const printable = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
    fc.assert(
      fc.property(proxyArb, amountSatangArb, fc.nat(), printable, (proxy, amountSatang, at, char) => {
        const amount = satangToBaht(amountSatang);
        const payload = generatePayload(proxy.digits, amount === undefined ? {} : { amount });
        const index = at % payload.length;
        fc.pre(payload[index] !== char);
        const changed = payload.slice(0, index) + char + payload.slice(index + 1);
        expect(readPromptPayPayload(changed).ok).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it("answers any string without throwing", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 600 }), fc.stringMatching(/^[0-9A-Z.]{0,120}$/)), (text) => {
        const reading = readPromptPayPayload(text);
        expect(typeof reading.ok).toBe("boolean");
      }),
      { numRuns: 2000 },
    );
  });
});
