// `npm run bench:slip-photos` (and part of `npm run bench`): slip photos, measured.
// 1. The QR readers compared on the same images (the kit's: clean screenshots, degraded phone photos,
//    12-megapixel photos, photos without a QR): zxing-wasm (the bot's, reading the JPEG/PNG bytes itself)
//    and jsQR (which needs the pixels: decoded here with @napi-rs/canvas, timed apart); success and time.
// 2. The bot's path, the bot in its own process (LINE mode; the LINE stand-in serving the photo and the
//    sandbox answering by reference in this one): decode and lookup p50/p99 (from the bot's log) and the
//    time to the reply, for a screenshot and a 12-megapixel photo.
// 3. Other chats' `help` while 5 photos a second are read, against the same load without photos (goal: p99
//    within 1.2x), and the peak RSS with 20 photos in flight.
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import jsQRModule from "jsqr";
import { createQrDecoder } from "../src/slip-photo/decoder.js";
import { readFileSync } from "node:fs";
import { DEMO_SECRETS } from "@slipline/slip-sandbox";
import { killLeftovers } from "../test/kit/entry-process.js";
import { sendSigned, startBot, startWorld, waitUntil } from "../test/kit/loopback-world.js";
import type { BotProcess, World } from "../test/kit/loopback-world.js";
import { phonePhoto, photoWithoutQr, slipPayload, slipScreenshot } from "../test/kit/slip-images.js";
import { imageEvent, lineId, textEvent, webhookBody } from "../test/kit/webhook.js";
import { peakRssMiB } from "./processes.js";
import { quantile } from "./stats.js";

export interface SlipPhotoBenchOptions {
  /** Degraded phone photos in the comparison (each another turn, blur, grain and quality). Default 12. */
  photos?: number;
  /** Lookups timed through the bot for each kind of image. Default 20. */
  lookups?: number;
  /** Seconds of `help` load, with and without photos. Default 10. */
  loadSeconds?: number;
}

interface ReaderFigures {
  read: number;
  of: number;
  /** Milliseconds per image; jsQR's without and with the decoding of the image into pixels. */
  p50Ms: number;
  p99Ms: number;
  withPixelsP50Ms?: number;
}

export interface SlipPhotoBenchResult {
  comparison: Record<string, { zxing: ReaderFigures; jsqr: ReaderFigures }>;
  path: Record<"screenshot" | "photo12mp", { decodeP50Ms: number; decodeP99Ms: number; lookupP50Ms: number; lookupP99Ms: number; replyP50Ms: number; replyP99Ms: number }>;
  help: { withoutPhotosP99Ms: number; withPhotosP99Ms: number; ratio: number; photosRead: number; photosBusy: number; goalMet: boolean };
  peakRssMiB: { before: number; with20InFlight: number };
}

const REF = "2404141402000123";
// jsqr is CommonJS typed as an ES default export: under NodeNext the decoder is its `default`.
const jsQR = jsQRModule.default;

async function images(count: number): Promise<Record<string, { bytes: Buffer; hasSlip: boolean }[]>> {
  const payload = slipPayload(REF);
  const photos: { bytes: Buffer; hasSlip: boolean }[] = [];
  for (let i = 0; i < count; i++) {
    photos.push({
      bytes: await phonePhoto({ qrText: payload, degrees: 3 + (i % 6), blurPx: 0.8 + (i % 4) * 0.3, noise: 10 + (i % 4) * 5, quality: 50 + (i % 3) * 10, seed: i + 1 }),
      hasSlip: true,
    });
  }
  return {
    "screenshot 1080x2340": [{ bytes: await slipScreenshot({ qrText: payload }), hasSlip: true }],
    "phone photo 1600x1200": photos,
    "phone photo 12 MP": [0, 1, 2].map(() => ({ bytes: Buffer.alloc(0), hasSlip: true })),
    "no QR": [{ bytes: await photoWithoutQr(), hasSlip: false }],
  };
}

const figures = (times: number[], read: number, of: number): ReaderFigures => ({ read, of, p50Ms: quantile(times, 0.5), p99Ms: quantile(times, 0.99) });

async function compare(set: Record<string, { bytes: Buffer; hasSlip: boolean }[]>): Promise<SlipPhotoBenchResult["comparison"]> {
  const payload = slipPayload(REF);
  const decoder = createQrDecoder({ maxWaiting: 100 });
  const out: SlipPhotoBenchResult["comparison"] = {};
  try {
    await decoder.decode(new Uint8Array(await slipScreenshot({ qrText: payload }))); // the worker and its wasm, warmed
    for (const [name, list] of Object.entries(set)) {
      const zx: number[] = [];
      const js: number[] = [];
      const jsWithPixels: number[] = [];
      let zxRead = 0;
      let jsRead = 0;
      for (let i = 0; i < list.length; i++) {
        const item = list[i];
        if (item === undefined) continue;
        const bytes = name === "phone photo 12 MP" ? await phonePhoto({ qrText: payload, width: 4000, height: 3000, seed: i + 11, degrees: 4 + i }) : item.bytes;
        const outcome = await decoder.decode(new Uint8Array(bytes));
        if (outcome.kind === "read") {
          zx.push(outcome.ms);
          if (outcome.texts.includes(payload) === item.hasSlip) zxRead++;
        }
        const started = performance.now();
        const image = await loadImage(bytes);
        const canvas = createCanvas(image.width, image.height);
        const context = canvas.getContext("2d");
        context.drawImage(image, 0, 0);
        const pixels = context.getImageData(0, 0, image.width, image.height);
        const decoded = performance.now();
        const found = jsQR(new Uint8ClampedArray(pixels.data.buffer), image.width, image.height);
        const done = performance.now();
        js.push(done - decoded);
        jsWithPixels.push(done - started);
        if ((found?.data === payload) === item.hasSlip) jsRead++;
      }
      out[name] = { zxing: figures(zx, zxRead, list.length), jsqr: { ...figures(js, jsRead, list.length), withPixelsP50Ms: quantile(jsWithPixels, 0.5) } };
    }
  } finally {
    await decoder.close();
  }
  return out;
}

const STAFF = lineId("U", 0xbe1);

/** The bot as it runs: its own process (LINE mode) against the stand-in and the sandbox in this one. */
interface Running {
  world: World;
  bot: BotProcess;
}

/** The bot's `slip photo looked up` lines so far (decode and lookup times, from its own log). */
function lookups(running: Running): { decodeMs: number; lookupMs: number }[] {
  return running.bot.process
    .stdout()
    .split("\n")
    .filter((line) => line.includes('"msg":"slip photo looked up"'))
    .map((line) => JSON.parse(line) as { decodeMs: number; lookupMs: number });
}

const busyAnswers = (running: Running): number =>
  running.bot.process
    .stdout()
    .split("\n")
    .filter((line) => line.includes('"reason":"busy"')).length;

/** Posts the events and resolves once `chatId` got an answer, with the time it took. */
async function answered(running: Running, events: unknown[], chatId: string): Promise<number> {
  const mark = running.world.platform.sent.length;
  const started = performance.now();
  const status = await sendSigned(running.bot.webhookUrl, webhookBody(events));
  if (status !== 200) throw new Error(`the bot answered ${status}`);
  await waitUntil(() => running.world.platform.sent.slice(mark).some((s) => s.chatId === chatId), 60_000);
  return performance.now() - started;
}

function photoEvent(running: Running, bytes: Buffer, type: "image/png" | "image/jpeg", chatId: string): unknown {
  const messageId = running.world.platform.addMessageContent(bytes, type);
  return imageEvent({ source: { type: "user", userId: chatId }, replyToken: running.world.platform.issueReplyToken(chatId), messageId });
}

async function path(running: Running, count: number, slipRef: string): Promise<SlipPhotoBenchResult["path"]> {
  const payload = slipPayload(slipRef);
  const kinds = {
    screenshot: { bytes: await slipScreenshot({ qrText: payload }), type: "image/png" as const },
    photo12mp: { bytes: await phonePhoto({ qrText: payload, width: 4000, height: 3000 }), type: "image/jpeg" as const },
  };
  const result = {} as SlipPhotoBenchResult["path"];
  for (const [name, { bytes, type }] of Object.entries(kinds) as [keyof typeof kinds, (typeof kinds)[keyof typeof kinds]][]) {
    const before = lookups(running).length;
    const replies: number[] = [];
    for (let i = 0; i < count; i++) replies.push(await answered(running, [photoEvent(running, bytes, type, STAFF)], STAFF));
    const logged = lookups(running).slice(before);
    const q = (values: number[], at: number): number => Math.round(quantile(values, at));
    result[name] = {
      decodeP50Ms: q(
        logged.map((l) => l.decodeMs),
        0.5,
      ),
      decodeP99Ms: q(
        logged.map((l) => l.decodeMs),
        0.99,
      ),
      lookupP50Ms: q(
        logged.map((l) => l.lookupMs),
        0.5,
      ),
      lookupP99Ms: q(
        logged.map((l) => l.lookupMs),
        0.99,
      ),
      replyP50Ms: q(replies, 0.5),
      replyP99Ms: q(replies, 0.99),
    };
  }
  return result;
}

/** `help` from many chats at 20 a second for `seconds`, with phone photos at 5 a second beside them or not: each help's time to its reply. */
async function helpLoad(running: Running, seconds: number, photo: Buffer | undefined): Promise<{ p99Ms: number; photosRead: number; photosBusy: number }> {
  const times: Promise<number>[] = [];
  const photos: Promise<number>[] = [];
  const readBefore = lookups(running).length;
  const busyBefore = busyAnswers(running);
  const started = performance.now();
  for (let tick = 0; performance.now() - started < seconds * 1000; tick++) {
    const chat = lineId("U", 0xc000 + tick);
    const help = textEvent({ source: { type: "user", userId: chat }, replyToken: running.world.platform.issueReplyToken(chat), text: "help" });
    times.push(answered(running, [help], chat));
    if (photo !== undefined && tick % 4 === 0) photos.push(answered(running, [photoEvent(running, photo, "image/jpeg", STAFF)], STAFF).catch(() => 0));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const all = await Promise.all(times);
  await Promise.all(photos);
  return { p99Ms: Math.round(quantile(all, 0.99)), photosRead: lookups(running).length - readBefore, photosBusy: busyAnswers(running) - busyBefore };
}

/** The bot process's resident memory before, and its peak once 20 12-megapixel photos went in at once. */
async function peakRss(running: Running, slipRef: string): Promise<SlipPhotoBenchResult["peakRssMiB"]> {
  const pid = running.bot.process.child.pid ?? 0;
  const status = (): string => readFileSync(`/proc/${pid}/status`, "utf8");
  const before = Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status())?.[1] ?? Number.NaN) / 1024);
  const photo = await phonePhoto({ qrText: slipPayload(slipRef), width: 4000, height: 3000 });
  const chats = Array.from({ length: 20 }, (_, i) => lineId("U", 0xe000 + i));
  const mark = running.world.platform.sent.length;
  const status200 = await sendSigned(running.bot.webhookUrl, webhookBody(chats.map((chat) => photoEvent(running, photo, "image/jpeg", chat))));
  if (status200 !== 200) throw new Error(`the bot answered ${status200}`);
  await waitUntil(() => running.world.platform.sent.length >= mark + 20, 120_000);
  return { before, with20InFlight: Math.round(peakRssMiB(pid)) };
}

export async function benchSlipPhotos(options: SlipPhotoBenchOptions = {}): Promise<SlipPhotoBenchResult> {
  const comparison = await compare(await images(options.photos ?? 12));
  const world = await startWorld(0);
  try {
    // Every chat is staff: the photos are looked up, and each of the 20 in flight is a chat of its own.
    const staff = [STAFF, ...Array.from({ length: 20 }, (_, i) => lineId("U", 0xe000 + i))];
    const bot = await startBot(world, { LINE_DATA_API_BASE_URL: world.platform.url, STAFF_USER_IDS: staff.join(","), BOT_LANG: "en" });
    const running = { world, bot };
    const res = await fetch(`${world.sandbox.url}/api/slip-history?limit=1`, { headers: { authorization: `Bearer ${DEMO_SECRETS.shop}` } });
    const slipRef = ((await res.json()) as { data: { items: { transRef: string }[] } }).data.items[0]?.transRef ?? REF;
    await answered(running, [photoEvent(running, await slipScreenshot({ qrText: slipPayload(slipRef) }), "image/png", STAFF)], STAFF); // warm
    const pathFigures = await path(running, options.lookups ?? 20, slipRef);
    const seconds = options.loadSeconds ?? 10;
    const phone = await phonePhoto({ qrText: slipPayload(slipRef) });
    // The help path warmed first (V8 compiles it over the first hundreds of events), then the two loads.
    await helpLoad(running, Math.max(2, seconds / 2), undefined);
    const without = await helpLoad(running, seconds, undefined);
    const withPhotos = await helpLoad(running, seconds, phone);
    const ratio = withPhotos.p99Ms / Math.max(1, without.p99Ms);
    const peakRssMiB = await peakRss(running, slipRef);
    await bot.process.stop();
    return {
      comparison,
      path: pathFigures,
      help: {
        withoutPhotosP99Ms: without.p99Ms,
        withPhotosP99Ms: withPhotos.p99Ms,
        ratio,
        photosRead: withPhotos.photosRead,
        photosBusy: withPhotos.photosBusy,
        goalMet: ratio <= 1.2,
      },
      peakRssMiB,
    };
  } finally {
    await killLeftovers();
    await world.close();
  }
}

export function slipPhotoLines(result: SlipPhotoBenchResult): string[] {
  const lines = ["QR readers on the same images (read correctly / images, ms per image p50 p99):"];
  for (const [name, { zxing, jsqr }] of Object.entries(result.comparison)) {
    lines.push(
      `  ${name}: zxing-wasm ${zxing.read}/${zxing.of}, ${Math.round(zxing.p50Ms)} / ${Math.round(zxing.p99Ms)} ms (bytes in, in its worker); ` +
        `jsQR ${jsqr.read}/${jsqr.of}, ${Math.round(jsqr.p50Ms)} / ${Math.round(jsqr.p99Ms)} ms (+ pixels: p50 ${Math.round(jsqr.withPixelsP50Ms ?? 0)} ms, on the event loop)`,
    );
  }
  for (const [name, f] of Object.entries(result.path)) {
    lines.push(
      `slip photo through the bot, ${name}: decode p50/p99 ${f.decodeP50Ms}/${f.decodeP99Ms} ms, lookup ${f.lookupP50Ms}/${f.lookupP99Ms} ms, photo to reply ${f.replyP50Ms}/${f.replyP99Ms} ms`,
    );
  }
  const h = result.help;
  lines.push(
    `help p99 of other chats at 20/s: ${h.withoutPhotosP99Ms} ms alone, ${h.withPhotosP99Ms} ms with 5 photos/s (${h.photosRead} read, ${h.photosBusy} busy): ` +
      `${h.ratio.toFixed(2)}x (goal <= 1.2x: ${h.goalMet ? "met" : "MISSED"})`,
  );
  lines.push(`the bot process's peak RSS with 20 12-megapixel photos in flight: ${result.peakRssMiB.with20InFlight} MiB (${result.peakRssMiB.before} MiB before)`);
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const quick = process.env.BENCH_QUICK === "1";
  const result = await benchSlipPhotos(quick ? { photos: 4, lookups: 5, loadSeconds: 3 } : {});
  for (const line of slipPhotoLines(result)) console.log(line);
  process.exit(0);
}
