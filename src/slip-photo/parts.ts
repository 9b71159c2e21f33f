// What the slip photo handler is given by the composition root: the photo's bytes from LINE, the QR reader
// and the push to the shop's staff groups. Each never rejects: every failure is a result the handler answers.
import type { StaffAnswer } from "../privacy/answer.js";
import type { DecodeOutcome } from "./decoder.js";

export type PhotoBytes =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: "gone" | "too_large" | "not_an_image" | "unavailable"; readonly status?: number | undefined };

export interface SlipPhotoParts {
  /** The photo of a message, from LINE's content endpoint. */
  photo(messageId: string): Promise<PhotoBytes>;
  /** The QR codes' texts in the photo, read off the event loop. */
  decode(image: Uint8Array): Promise<DecodeOutcome>;
  /**
   * Pushes a staff answer to each of the shop's staff groups and rooms; `pushId` makes the retry key, so the
   * same slip is pushed once however often it is sent. Resolves with how many went out.
   */
  pushToStaffGroups(answer: StaffAnswer, pushId: string): Promise<number>;
}
