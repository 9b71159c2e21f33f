// Local mode's slip photos for the console: the slip of a shop's newest check (drawn by the sandbox, its QR
// carrying that check's reference), a slip the service never checked, and a slip whose QR was cut off.
import { renderSlipPng } from "./slip-png.js";

export type SlipPhotoChoice = "checked" | "unchecked" | "no_qr";

export interface SlipPhoto {
  png: Buffer;
  /** What the console shows as the photo sent. */
  caption: string;
}

/** The photos a persona can send to a shop whose service is this sandbox, with the shop's API secret. */
export function slipPhotosAt(sandboxUrl: string, apiSecret: string): (choice: SlipPhotoChoice) => Promise<SlipPhoto> {
  const headers = { authorization: `Bearer ${apiSecret}` };
  return async (choice) => {
    if (choice === "checked") {
      const history = await fetch(`${sandboxUrl}/api/slip-history?limit=1`, { headers });
      const body = (await history.json()) as { data?: { items?: { transRef?: string | null }[] }; message?: string };
      const transRef = body.data?.items?.[0]?.transRef;
      if (!history.ok || typeof transRef !== "string") throw new Error(body.message ?? "the shop has no check to photograph");
      const image = await fetch(`${sandboxUrl}/sandbox/slip-image?transRef=${encodeURIComponent(transRef)}`, { headers });
      if (!image.ok) throw new Error(`the sandbox drew no slip (HTTP ${image.status})`);
      return { png: Buffer.from(await image.arrayBuffer()), caption: `📷 the slip of the newest check (ref ${transRef})` };
    }
    // A reference the demo data never has: its references start with the check's date (yyMMdd), and 99 is no month.
    const transRef = `2699${String(Date.now()).slice(-16)}`;
    if (choice === "unchecked") return { png: renderSlipPng({ transRef, amountSatang: 15_000 }), caption: `📷 a slip never checked (ref ${transRef})` };
    return { png: renderSlipPng({ transRef, amountSatang: 15_000 }, false), caption: "📷 a slip photo without its QR" };
  };
}
