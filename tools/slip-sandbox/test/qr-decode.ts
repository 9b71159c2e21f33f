// Test helper: reads a PNG with pngjs (which checks the chunk CRCs) and decodes its QR code with jsQR.
import jsQRModule from "jsqr";
import { PNG } from "pngjs";

// jsqr is CommonJS typed as an ES default export; under NodeNext its default import is module.exports,
// whose `default` property is the decoder function.
const jsQR = jsQRModule.default;

export interface DecodedQrPng {
  width: number;
  height: number;
  /** The QR code's text, or undefined when jsQR finds none. */
  text: string | undefined;
  /** true where the pixel is black */
  dark: (x: number, y: number) => boolean;
}

export function decodeQrPng(png: Buffer): DecodedQrPng {
  const image = PNG.sync.read(png);
  const rgba = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  const result = jsQR(rgba, image.width, image.height);
  return {
    width: image.width,
    height: image.height,
    text: result?.data,
    dark: (x, y) => (image.data[(y * image.width + x) * 4] ?? 255) < 128,
  };
}
