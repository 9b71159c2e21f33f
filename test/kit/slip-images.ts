// Images of slips as people send them, made here so every test and the bench reads the same ones: a bank
// app's screenshot (1080x2340, the verification QR about 180 px wide in a corner), a phone photo of a slip
// (scaled, turned about 6 degrees, blurred, grainy, JPEG quality about 60), a photo with no QR at all, a
// PromptPay payment QR, and a 12-megapixel photo for the bench. Drawn with @napi-rs/canvas, the QR's modules
// from `qrcode`, the payloads from promptparse (the format's own generator, not the bot's reader).
import { createCanvas, loadImage } from "@napi-rs/canvas";
import type { SKRSContext2D } from "@napi-rs/canvas";
import { slipVerify } from "promptparse/generate";
import QRCode from "qrcode";

/** A slip-verification payload (tag 00: 000001, the sending bank, the reference; 51: TH; 91: CRC). */
export function slipPayload(transRef: string, sendingBank = "004"): string {
  return slipVerify({ sendingBank, transRef });
}

/** A seeded source of noise, so an image is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

function drawQr(ctx: SKRSContext2D, text: string, x: number, y: number, size: number): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const modules = qr.modules.size;
  const quiet = 4;
  const scale = size / (modules + 2 * quiet);
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(x, y, size, size);
  ctx.fillStyle = "#000000";
  for (let row = 0; row < modules; row++) {
    for (let col = 0; col < modules; col++) {
      if (qr.modules.get(row, col) === 1) {
        // Whole device pixels per module edge, as a phone's renderer draws them.
        const left = Math.round(x + (col + quiet) * scale);
        const top = Math.round(y + (row + quiet) * scale);
        ctx.fillRect(left, top, Math.round(x + (col + 1 + quiet) * scale) - left, Math.round(y + (row + 1 + quiet) * scale) - top);
      }
    }
  }
}

/** A bank app's slip on a phone screen: header, the amount, names, and the QR in the lower right corner. */
function drawSlip(ctx: SKRSContext2D, width: number, height: number, qrText: string | undefined, qrSize: number, amount = "150.00"): void {
  ctx.fillStyle = "#f4f6f8";
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = "#138f2d";
  ctx.fillRect(0, 0, width, Math.round(height * 0.12));
  ctx.fillStyle = "#ffffff";
  ctx.font = `bold ${Math.round(width / 16)}px sans-serif`;
  ctx.fillText("Transfer successful", width * 0.08, height * 0.075);
  ctx.fillStyle = "#222222";
  ctx.font = `${Math.round(width / 24)}px sans-serif`;
  const lines = ["From  MR. SOMSAK JAIDEE", "xxx-x-x1234-x", "To  SLIPLINE COFFEE", "xxx-x-x5678-x", `Amount  ${amount} THB`, "Fee  0.00 THB", "Ref  2404141402000123"];
  lines.forEach((line, i) => ctx.fillText(line, width * 0.08, height * (0.2 + i * 0.06)));
  if (qrText !== undefined) drawQr(ctx, qrText, width - qrSize - Math.round(width * 0.06), height - qrSize - Math.round(height * 0.06), qrSize);
}

/** A clean screenshot of a slip (PNG, 1080x2340 by default) with its verification QR in a corner. */
export async function slipScreenshot(options: { qrText: string; width?: number; height?: number; qrSize?: number; amount?: string }): Promise<Buffer> {
  const width = options.width ?? 1080;
  const height = options.height ?? 2340;
  const canvas = createCanvas(width, height);
  drawSlip(canvas.getContext("2d"), width, height, options.qrText, options.qrSize ?? 180, options.amount);
  return canvas.encode("png");
}

/**
 * A phone photo of a slip shown on another screen or printed: the slip scaled into a larger frame, turned
 * `degrees`, blurred, with grain, saved as a JPEG of `quality`. `qrText` undefined: a slip with no QR.
 */
export async function phonePhoto(options: {
  qrText: string | undefined;
  width?: number;
  height?: number;
  degrees?: number;
  blurPx?: number;
  noise?: number;
  quality?: number;
  seed?: number;
}): Promise<Buffer> {
  const width = options.width ?? 1600;
  const height = options.height ?? 1200;
  // The slip as it was photographed: a screenshot with a larger QR, so that, scaled down, it stays near 180 px.
  const slip = createCanvas(1080, 2340);
  drawSlip(slip.getContext("2d"), 1080, 2340, options.qrText, 420);
  const slipImage = await loadImage(await slip.encode("png"));
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#5a4a3a"; // a table top
  ctx.fillRect(0, 0, width, height);
  ctx.save();
  ctx.translate(width / 2, height / 2);
  ctx.rotate(((options.degrees ?? 6) * Math.PI) / 180);
  ctx.filter = `blur(${options.blurPx ?? 1.2}px)`;
  const scale = (height * 0.95) / 2340;
  ctx.drawImage(slipImage, (-1080 * scale) / 2, (-2340 * scale) / 2, 1080 * scale, 2340 * scale);
  ctx.restore();
  const noise = options.noise ?? 18;
  if (noise > 0) {
    const random = seeded(options.seed ?? 7);
    const pixels = ctx.getImageData(0, 0, width, height);
    const data = pixels.data;
    for (let i = 0; i < data.length; i += 4) {
      const grain = (random() - 0.5) * 2 * noise;
      data[i] = Math.max(0, Math.min(255, (data[i] ?? 0) + grain));
      data[i + 1] = Math.max(0, Math.min(255, (data[i + 1] ?? 0) + grain));
      data[i + 2] = Math.max(0, Math.min(255, (data[i + 2] ?? 0) + grain));
    }
    ctx.putImageData(pixels, 0, 0);
  }
  return canvas.encode("jpeg", options.quality ?? 60);
}

/** A photo of something else (a cup on a table): no QR at all. */
export async function photoWithoutQr(): Promise<Buffer> {
  const canvas = createCanvas(1200, 900);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#c9b79c";
  ctx.fillRect(0, 0, 1200, 900);
  ctx.fillStyle = "#7b3f00";
  ctx.beginPath();
  ctx.arc(600, 450, 220, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = "#f5f0e6";
  ctx.beginPath();
  ctx.arc(600, 450, 160, 0, Math.PI * 2);
  ctx.fill();
  return canvas.encode("jpeg", 80);
}

/** A QR of any payload alone on white (a PromptPay payment QR, say), `size` px square, as a PNG. */
export async function qrImage(text: string, size = 600): Promise<Buffer> {
  const canvas = createCanvas(size + 80, size + 80);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, size + 80, size + 80);
  drawQr(ctx, text, 40, 40, size);
  return canvas.encode("png");
}
