// The QR reader of slip photos: the QR codes of a screenshot and of a degraded phone photo; nothing in a
// photo without one; a photo larger than the bound refused from its header; a full line answered "busy";
// a reader that takes too long replaced; and the event loop free while a 12-megapixel photo is read.
import { afterEach, describe, expect, it } from "vitest";
import { createQrDecoder } from "../../src/slip-photo/decoder.js";
import type { QrDecoder } from "../../src/slip-photo/decoder.js";
import { imageSizeOf } from "../../src/slip-photo/image-size.js";
import { phonePhoto, photoWithoutQr, slipPayload, slipScreenshot } from "../kit/slip-images.js";

const PAYLOAD = slipPayload("2404141402000123");
const decoders: QrDecoder[] = [];
const reader = (options: Parameters<typeof createQrDecoder>[0] = {}): QrDecoder => {
  const decoder = createQrDecoder(options);
  decoders.push(decoder);
  return decoder;
};
afterEach(async () => {
  for (const decoder of decoders.splice(0)) await decoder.close();
});

/** A PNG header declaring `width` x `height`, with nothing after it. */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write("IHDR", 12, "latin1");
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return new Uint8Array(bytes);
}

describe("the slip photos' QR reader", { timeout: 120_000 }, () => {
  it("reads the QR of a clean screenshot and of a turned, blurred, grainy JPEG; none in a photo without one", async () => {
    const decoder = reader();
    const screenshot = await slipScreenshot({ qrText: PAYLOAD });
    expect(imageSizeOf(screenshot)).toEqual({ width: 1080, height: 2340 });
    expect(await decoder.decode(new Uint8Array(screenshot))).toMatchObject({ kind: "read", texts: [PAYLOAD] });
    const photo = await phonePhoto({ qrText: PAYLOAD });
    expect(imageSizeOf(photo)).toEqual({ width: 1600, height: 1200 });
    expect(await decoder.decode(new Uint8Array(photo))).toMatchObject({ kind: "read", texts: [PAYLOAD] });
    expect(await decoder.decode(new Uint8Array(await photoWithoutQr()))).toMatchObject({ kind: "read", texts: [] });
  });

  it("refuses from the header alone a photo of more pixels than the bound, and bytes that are no PNG or JPEG", async () => {
    const decoder = reader({ maxPixels: 24_000_000 });
    expect(await decoder.decode(pngHeader(6000, 4001))).toEqual({ kind: "too_large" });
    expect(await decoder.decode(new Uint8Array(Buffer.from("GIF89a not a slip")))).toEqual({ kind: "not_an_image" });
    expect(decoder.inFlight).toBe(0);
  });

  it("answers busy beyond the line of photos waiting, and reads the ones it took", async () => {
    const decoder = reader({ workers: 1, maxWaiting: 1 });
    const image = await slipScreenshot({ qrText: PAYLOAD });
    const outcomes = await Promise.all([0, 1, 2].map(() => decoder.decode(new Uint8Array(image))));
    expect(outcomes.map((o) => o.kind)).toEqual(["read", "read", "busy"]);
  });

  it("replaces a reader that takes too long, and the next photo is read", async () => {
    const decoder = reader({ timeoutMs: 1 });
    const outcome = await decoder.decode(new Uint8Array(await phonePhoto({ qrText: PAYLOAD, width: 4000, height: 3000 })));
    expect(outcome).toMatchObject({ kind: "failed" });
    const patient = reader();
    expect(await patient.decode(new Uint8Array(await slipScreenshot({ qrText: PAYLOAD })))).toMatchObject({ kind: "read", texts: [PAYLOAD] });
  });

  it("leaves the event loop free while a 12-megapixel photo is read", async () => {
    const decoder = reader();
    const photo = new Uint8Array(await phonePhoto({ qrText: PAYLOAD, width: 4000, height: 3000 }));
    let turns = 0;
    let reading = true;
    const turn = (): void => {
      turns += 1;
      if (reading) setImmediate(turn);
    };
    setImmediate(turn);
    const outcome = await decoder.decode(photo);
    reading = false;
    expect(outcome).toMatchObject({ kind: "read", texts: [PAYLOAD] });
    // A reader on this thread would give the loop a turn or two; one in a worker gives it one per task.
    expect(turns).toBeGreaterThan(50);
  });
});
