// The content of a message someone sent (a photo): `GET {data host}/v2/bot/message/{messageId}/content` with
// the shop's channel token. LINE answers the image's bytes (JPEG or PNG) for a while after the message; an
// unknown or expired id is 404. The bytes are read into memory up to a bound, so a huge upload cannot grow
// the process; nothing is kept after the caller is done with them.
import { request } from "undici";
import type { Dispatcher } from "undici";
import { isRetryableStatus } from "../retry.js";

/** The image types a slip photo may come as; anything else is not read. */
export const IMAGE_TYPES = ["image/jpeg", "image/png"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** LINE takes images of at most 10 MB in messages; a photo larger than this is not a slip worth reading. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export type ContentResult =
  | { readonly ok: true; readonly bytes: Uint8Array; readonly type: ImageType }
  /** `gone`: LINE has no such content (404: unknown, or no longer kept); `too_large`, `not_an_image`: not read; `unavailable`: LINE did not answer in time, or failed. */
  | { readonly ok: false; readonly reason: "gone" | "too_large" | "not_an_image" | "unavailable"; readonly status?: number | undefined };

export interface MessageContent {
  /** The image of a message. Never rejects: every failure is a result. */
  image(messageId: string): Promise<ContentResult>;
}

export interface MessageContentOptions {
  /** LINE's data host (LINE_DATA_API_BASE_URL), e.g. https://api-data.line.me. */
  baseUrl: string;
  channelAccessToken: string;
  /** Everything of one download (both attempts) within this. Default 10 s. */
  timeoutMs?: number;
  /** Default MAX_IMAGE_BYTES. */
  maxBytes?: number;
  /** A second attempt after a 5xx or a dropped connection waits this long. Default 300 ms. */
  retryDelayMs?: number;
  dispatcher?: Dispatcher | undefined;
}

const MESSAGE_ID = /^[0-9]{1,32}$/;

function headerOf(headers: Dispatcher.ResponseData["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function imageTypeOf(contentType: string | undefined): ImageType | undefined {
  const bare = contentType?.split(";")[0]?.trim().toLowerCase();
  return IMAGE_TYPES.find((type) => type === bare);
}

export function createMessageContent(options: MessageContentOptions): MessageContent {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? MAX_IMAGE_BYTES;
  const retryDelayMs = options.retryDelayMs ?? 300;
  const origin = options.baseUrl.replace(/\/+$/, "");

  async function once(messageId: string, signal: AbortSignal): Promise<ContentResult> {
    const answer = await request(`${origin}/v2/bot/message/${messageId}/content`, {
      method: "GET",
      headers: { authorization: `Bearer ${options.channelAccessToken}` },
      signal,
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    });
    const { statusCode, headers, body } = answer;
    if (statusCode !== 200) {
      await body.dump();
      if (statusCode === 404) return { ok: false, reason: "gone", status: statusCode };
      return { ok: false, reason: "unavailable", status: statusCode };
    }
    const type = imageTypeOf(headerOf(headers, "content-type"));
    if (type === undefined) {
      await body.dump();
      return { ok: false, reason: "not_an_image" };
    }
    const declared = Number(headerOf(headers, "content-length") ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      body.destroy();
      return { ok: false, reason: "too_large" };
    }
    // Read chunk by chunk, stopping at the bound: a body without a length cannot grow past it either.
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        body.destroy();
        return { ok: false, reason: "too_large" };
      }
      chunks.push(chunk);
    }
    return { ok: true, bytes: new Uint8Array(Buffer.concat(chunks, size)), type };
  }

  return {
    async image(messageId) {
      // The id goes into a URL path: only LINE's shape (decimal digits) is asked for.
      if (!MESSAGE_ID.test(messageId)) return { ok: false, reason: "gone" };
      const signal = AbortSignal.timeout(timeoutMs);
      for (let attempt = 1; ; attempt++) {
        let result: ContentResult;
        try {
          result = await once(messageId, signal);
        } catch {
          // A dropped connection or the deadline: no answer at all.
          result = { ok: false, reason: "unavailable" };
        }
        const retryable = !result.ok && result.reason === "unavailable" && (result.status === undefined || isRetryableStatus(result.status));
        if (!retryable || attempt === 2 || signal.aborted) return result;
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
      }
    },
  };
}
