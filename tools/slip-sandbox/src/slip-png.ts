// A transfer slip of one of the sandbox's checks, as a bank app shows it after a transfer: a header band,
// the amount and the reference written in a small digit font, grey lines standing for the names, and the
// slip's verification QR (its payload carries the check's transRef) in the lower right corner. An 8-bit
// grayscale PNG; the QR is drawn whole-pixel per module, as a phone's screen shows it.
import { buildSlipVerifyPayload } from "./emvco.js";
import { encodeGray8Png } from "./png.js";
import { qrMatrix } from "./qr-png.js";

export const SLIP_WIDTH = 720;
export const SLIP_HEIGHT = 1280;
/** The QR's side: about a quarter of the slip's width, as bank apps print it. */
const QR_SIDE = 220;

/** A 3x5 font of the characters a slip's amount and reference use, one row a string. */
const GLYPHS: Readonly<Record<string, readonly string[]>> = {
  "0": ["###", "#.#", "#.#", "#.#", "###"],
  "1": [".#.", "##.", ".#.", ".#.", "###"],
  "2": ["###", "..#", "###", "#..", "###"],
  "3": ["###", "..#", ".##", "..#", "###"],
  "4": ["#.#", "#.#", "###", "..#", "..#"],
  "5": ["###", "#..", "###", "..#", "###"],
  "6": ["###", "#..", "###", "#.#", "###"],
  "7": ["###", "..#", ".#.", ".#.", ".#."],
  "8": ["###", "#.#", "###", "#.#", "###"],
  "9": ["###", "#.#", "###", "..#", "###"],
  ".": ["...", "...", "...", "...", ".#."],
  ",": ["...", "...", "...", ".#.", "#.."],
  "-": ["...", "...", "###", "...", "..."],
};

class Page {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Uint8Array(width * height).fill(255);
  }

  fill(x: number, y: number, w: number, h: number, shade: number): void {
    for (let row = Math.max(0, y); row < Math.min(this.height, y + h); row++) {
      this.pixels.fill(shade, row * this.width + Math.max(0, x), row * this.width + Math.min(this.width, x + w));
    }
  }

  /** Text in the digit font, `scale` pixels a dot; characters it lacks leave a gap. */
  write(text: string, x: number, y: number, scale: number, shade = 30): void {
    let left = x;
    for (const char of text) {
      const glyph = GLYPHS[char];
      glyph?.forEach((line, row) => {
        for (let col = 0; col < line.length; col++) if (line[col] === "#") this.fill(left + col * scale, y + row * scale, scale, scale, shade);
      });
      left += 4 * scale;
    }
  }

  /** A QR of `text`, `side` px square with its quiet zone, at (x, y). */
  qr(text: string, x: number, y: number, side: number): void {
    const matrix = qrMatrix(text);
    const scale = Math.floor(side / matrix.length);
    const offset = Math.floor((side - scale * matrix.length) / 2);
    this.fill(x, y, side, side, 255);
    matrix.forEach((row, r) => row.forEach((dark, c) => dark && this.fill(x + offset + c * scale, y + offset + r * scale, scale, scale, 0)));
  }
}

function formatAmount(amountSatang: number): string {
  const baht = Math.floor(amountSatang / 100).toLocaleString("en-US");
  return `${baht}.${String(amountSatang % 100).padStart(2, "0")}`;
}

/**
 * The slip of a check: its amount (when it has one), its reference, and the verification QR carrying it
 * (`withQr` false: a slip whose QR was cut off, which no reader can look up).
 */
export function renderSlipPng(check: { transRef: string; amountSatang: number | null }, withQr = true): Buffer {
  const page = new Page(SLIP_WIDTH, SLIP_HEIGHT);
  page.fill(0, 0, SLIP_WIDTH, SLIP_HEIGHT, 244);
  page.fill(0, 0, SLIP_WIDTH, 150, 70); // the bank's header band
  page.fill(40, 190, SLIP_WIDTH - 80, SLIP_HEIGHT - 230, 255); // the slip's card
  // Sender, receiver and their accounts: grey lines where the names are written.
  for (const [y, w] of [
    [240, 360],
    [280, 220],
    [360, 400],
    [400, 240],
  ] as const)
    page.fill(80, y, w, 18, 190);
  if (check.amountSatang !== null) page.write(formatAmount(check.amountSatang), 80, 480, 14);
  page.write(check.transRef, 80, 620, 6, 90);
  if (withQr) page.qr(buildSlipVerifyPayload(check.transRef), SLIP_WIDTH - QR_SIDE - 70, SLIP_HEIGHT - QR_SIDE - 80, QR_SIDE);
  return encodeGray8Png(SLIP_WIDTH, SLIP_HEIGHT, page.pixels);
}
