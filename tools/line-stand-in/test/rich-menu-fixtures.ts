// Rich menus and images for the stand-in's tests: a valid menu object to vary, PNGs of an exact size
// (pngjs), a JPEG header of an exact size, and a way to read a LINE error out of the SDK's exception.
import { randomBytes } from "node:crypto";
import { PNG } from "pngjs";
import { HTTPFetchError } from "@line/bot-sdk";
import type { messagingApi } from "@line/bot-sdk";

export interface LineFailure {
  status: number;
  body: { message?: string; details?: { message: string; property: string }[] };
}

/** The LINE error an SDK call ended with (or throws, when the call succeeded or failed otherwise). */
export async function failure(call: Promise<unknown>): Promise<LineFailure> {
  const error = await call.then(
    () => new Error("the call succeeded"),
    (e: unknown) => e,
  );
  if (!(error instanceof HTTPFetchError)) throw error;
  return { status: error.status, body: JSON.parse(error.body) as LineFailure["body"] };
}

/** A valid menu: `width` x `height`, one area per action, side by side across the whole menu. */
export function menuRequest(
  actions: messagingApi.Action[] = [{ type: "postback", data: "menu=1" }],
  options: { width?: number; height?: number; name?: string; chatBarText?: string; selected?: boolean } = {},
): messagingApi.RichMenuRequest {
  const width = options.width ?? 800;
  const height = options.height ?? 270;
  const step = Math.floor(width / actions.length);
  return {
    size: { width, height },
    selected: options.selected ?? true,
    name: options.name ?? "test menu",
    chatBarText: options.chatBarText ?? "Menu",
    areas: actions.map((action, i) => ({
      bounds: { x: i * step, y: 0, width: i === actions.length - 1 ? width - i * step : step, height },
      action,
    })),
  };
}

/** A PNG of exactly `width` x `height`: one flat colour per area column, so screenshots tell menus apart. */
export function menuPng(width: number, height: number, colours: [number, number, number][] = [[6, 199, 85]]): Buffer {
  const png = new PNG({ width, height });
  const step = Math.ceil(width / colours.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = colours[Math.min(colours.length - 1, Math.floor(x / step))]!;
      // A thin darker line between columns.
      const edge = x % step === 0 && x > 0 ? 0.6 : 1;
      const i = (y * width + x) * 4;
      png.data[i] = Math.round(r * edge);
      png.data[i + 1] = Math.round(g * edge);
      png.data[i + 2] = Math.round(b * edge);
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/** A PNG of that size filled with noise: it hardly compresses, so it is large. */
export function noisyPng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  randomBytes(width * height * 4).copy(png.data);
  for (let i = 3; i < png.data.length; i += 4) png.data[i] = 255;
  return PNG.sync.write(png);
}

/** The start of a baseline JPEG of that size (SOI, JFIF APP0, SOF0, EOI): enough for the format and size checks. */
export function jpegHeader(width: number, height: number): Buffer {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
  const sof0 = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01];
  return Buffer.from([0xff, 0xd8, ...app0, ...sof0, 0xff, 0xd9]);
}

export function pngBlob(bytes: Buffer, type = "image/png"): Blob {
  return new Blob([new Uint8Array(bytes)], { type });
}
