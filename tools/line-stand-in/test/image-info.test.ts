// The image header reader behind the rich menu image checks: PNG IHDR and JPEG start-of-frame, without decoding.
import { describe, expect, it } from "vitest";
import { readImageInfo, sniffImageFormat } from "../src/image-info.js";
import { jpegHeader, menuPng } from "./rich-menu-fixtures.js";

describe("readImageInfo", () => {
  it("reads a PNG's size from its IHDR chunk", () => {
    expect(readImageInfo(menuPng(2500, 843))).toEqual({ format: "png", width: 2500, height: 843 });
  });

  it("reads a JPEG's size from its first frame, whatever segments come before it", () => {
    expect(readImageInfo(jpegHeader(1200, 405))).toEqual({ format: "jpeg", width: 1200, height: 405 });
    // A progressive frame (SOF2) after a comment segment and fill bytes, and a table (DHT, not a frame) first.
    const comment = [0xff, 0xfe, 0x00, 0x05, 0x68, 0x69, 0x21];
    const dht = [0xff, 0xc4, 0x00, 0x03, 0x00];
    const sof2 = [0xff, 0xff, 0xff, 0xc2, 0x00, 0x0b, 0x08, 0x01, 0x0e, 0x09, 0xc4, 0x01, 0x01, 0x11, 0x00];
    expect(readImageInfo(Buffer.from([0xff, 0xd8, ...comment, ...dht, ...sof2]))).toEqual({ format: "jpeg", width: 2500, height: 270 });
  });

  it("gives up on what it cannot read", () => {
    const png = menuPng(800, 270);
    expect(readImageInfo(png.subarray(0, 20))).toBeUndefined();
    expect(sniffImageFormat(png.subarray(0, 20))).toBe("png");
    // A JPEG whose scan starts before any frame, or that ends early.
    expect(readImageInfo(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02]))).toBeUndefined();
    expect(readImageInfo(jpegHeader(800, 270).subarray(0, 24))).toBeUndefined();
    expect(readImageInfo(Buffer.from("GIF89a"))).toBeUndefined();
    expect(readImageInfo(Buffer.alloc(0))).toBeUndefined();
  });
});
