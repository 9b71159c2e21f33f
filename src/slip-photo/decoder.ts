// Finds the QR codes in a photo off the event loop: ZXing's C++ reader compiled to WebAssembly (zxing-wasm,
// which reads the JPEG or PNG bytes itself) runs in worker threads, one photo at a time each, so other
// chats' commands keep their latency while a 12-megapixel photo is read. Photos wait in a bounded line; a
// full line, a photo larger than the bound, a reader that takes too long or fails are answers, never a
// hang. The wasm binary loads from node_modules (no CDN at run time).
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import type { ReaderOptions } from "zxing-wasm/reader";
import { imageSizeOf } from "./image-size.js";

export type DecodeOutcome =
  | { readonly kind: "read"; readonly texts: readonly string[]; readonly ms: number }
  /** More pixels than the bound: the header said so, nothing was decoded. */
  | { readonly kind: "too_large" }
  /** Neither a PNG nor a JPEG. */
  | { readonly kind: "not_an_image" }
  /** The line of photos waiting is full. */
  | { readonly kind: "busy" }
  /** The reader failed or took too long (its worker is replaced). */
  | { readonly kind: "failed"; readonly why: string };

export interface QrDecoder {
  /** The QR codes' texts in a JPEG or PNG. Never rejects. The bytes are handed over (transferred), not copied. */
  decode(image: Uint8Array): Promise<DecodeOutcome>;
  /** Photos being read or waiting now. */
  readonly inFlight: number;
  close(): Promise<void>;
}

export interface QrDecoderOptions {
  /** Worker threads. Default 1: the machine's other cores serve the webhooks and the other chats. */
  workers?: number;
  /** Photos that may wait for a worker; beyond them `busy`. Default 20. */
  maxWaiting?: number;
  /** One photo's reading at most, ms. Default 15 s. */
  timeoutMs?: number;
  /** Pixels at most (a 12-megapixel photo is 12e6). Default 24e6. */
  maxPixels?: number;
}

/** A slip's QR, found by a reader that tries hard (turned, small, in a corner) but only for QR codes. */
const READER_OPTIONS: ReaderOptions = { formats: ["QRCode"], tryHarder: true, tryRotate: true, tryDownscale: true, tryInvert: false, maxNumberOfSymbols: 4 };

// The worker's whole program: CommonJS, evaluated from this string so that it runs alike under tsx, vitest
// and the compiled bot, with the reader's paths resolved here.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const zxing = require(workerData.reader);
const ready = zxing.prepareZXingModule({ overrides: { wasmBinary: readFileSync(workerData.wasm) }, fireImmediately: true });
parentPort.on("message", (job) => {
  ready
    .then(() => zxing.readBarcodes(job.image, workerData.options))
    .then(
      (found) => parentPort.postMessage({ id: job.id, texts: found.filter((b) => b.isValid).map((b) => b.text) }),
      (error) => parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) }),
    );
});
`;

const require = createRequire(import.meta.url);
const READER_PATHS = { reader: require.resolve("zxing-wasm/reader"), wasm: require.resolve("zxing-wasm/reader/zxing_reader.wasm") };

interface Job {
  readonly id: number;
  readonly image: Uint8Array;
  readonly resolve: (outcome: DecodeOutcome) => void;
}

interface WorkerSlot {
  worker: Worker;
  job: Job | undefined;
  started: number;
  timer: NodeJS.Timeout | undefined;
}

type WorkerAnswer = { id: number; texts: string[] } | { id: number; error: string };

export function createQrDecoder(options: QrDecoderOptions = {}): QrDecoder {
  const workerCount = Math.max(1, options.workers ?? 1);
  const maxWaiting = options.maxWaiting ?? 20;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxPixels = options.maxPixels ?? 24_000_000;
  const slots: (WorkerSlot | undefined)[] = Array.from({ length: workerCount }, () => undefined);
  const waiting: Job[] = [];
  let nextId = 1;
  let closed = false;

  const finish = (slot: WorkerSlot, outcome: DecodeOutcome): void => {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    job?.resolve(outcome);
  };

  /** A worker that failed or took too long is replaced: its wasm memory goes with it. */
  const retire = (index: number, why: string): void => {
    const slot = slots[index];
    if (slot === undefined) return;
    slots[index] = undefined;
    finish(slot, { kind: "failed", why });
    void slot.worker.terminate();
    pump();
  };

  const spawn = (index: number): WorkerSlot => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ...READER_PATHS, options: READER_OPTIONS } });
    worker.unref();
    const slot: WorkerSlot = { worker, job: undefined, started: 0, timer: undefined };
    worker.on("message", (answer: WorkerAnswer) => {
      if (slot.job?.id !== answer.id) return;
      const ms = performance.now() - slot.started;
      finish(slot, "error" in answer ? { kind: "failed", why: answer.error } : { kind: "read", texts: answer.texts, ms });
      pump();
    });
    worker.on("error", (error) => {
      if (slots[index] === slot) retire(index, error.message);
    });
    worker.on("exit", () => {
      if (slots[index] === slot) retire(index, "the reader stopped");
    });
    slots[index] = slot;
    return slot;
  };

  function pump(): void {
    if (closed) return;
    for (let index = 0; index < slots.length && waiting.length > 0; index++) {
      const slot = slots[index] ?? spawn(index);
      if (slot.job !== undefined) continue;
      const job = waiting.shift();
      if (job === undefined) return;
      slot.job = job;
      slot.started = performance.now();
      slot.timer = setTimeout(() => retire(index, `no answer within ${timeoutMs} ms`), timeoutMs);
      slot.timer.unref();
      const bytes = job.image;
      // Handed over whole when the bytes fill their buffer (a download's do); else copied out first.
      const image = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
      slot.worker.postMessage({ id: job.id, image }, [image.buffer as ArrayBuffer]);
    }
  }

  const busySlots = (): number => slots.filter((slot) => slot?.job !== undefined).length;

  return {
    decode(image) {
      const size = imageSizeOf(image);
      if (size === undefined) return Promise.resolve({ kind: "not_an_image" });
      if (size.width * size.height > maxPixels) return Promise.resolve({ kind: "too_large" });
      if (closed) return Promise.resolve({ kind: "failed", why: "closed" });
      if (waiting.length >= maxWaiting) return Promise.resolve({ kind: "busy" });
      return new Promise<DecodeOutcome>((resolve) => {
        waiting.push({ id: nextId++, image, resolve });
        pump();
      });
    },
    get inFlight() {
      return waiting.length + busySlots();
    },
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.resolve({ kind: "failed", why: "closed" });
      await Promise.all(
        slots.map(async (slot, index) => {
          if (slot === undefined) return;
          slots[index] = undefined;
          finish(slot, { kind: "failed", why: "closed" });
          await slot.worker.terminate();
        }),
      );
    },
  };
}
