// A tiny bot for the console's browser tests, so they exercise the console alone: verifies signatures like
// the real webhook, then answers through the LINE stand-in with text, an image, a Flex bubble and quick replies
// (and, for a postback that is not a page, "Postback <data> <params>").
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import QRCode from "qrcode";
import { messagingApi, validateSignature } from "@line/bot-sdk";
import type { webhook } from "@line/bot-sdk";

export interface StandInBot {
  readonly webhookUrl: string;
  readonly imageUrl: string;
  /** Every event of every correctly signed webhook, in arrival order. */
  readonly received: webhook.Event[];
  /** Webhooks refused for a bad signature. */
  readonly badSignatures: number;
  close(): Promise<void>;
}

function demoBubble(imageUrl: string): messagingApi.FlexBubble {
  return {
    type: "bubble",
    header: {
      type: "box",
      layout: "vertical",
      backgroundColor: "#06C755",
      contents: [{ type: "text", text: "Today's checks", color: "#FFFFFF", weight: "bold", size: "lg" }],
    },
    hero: { type: "image", url: imageUrl, size: "full", aspectRatio: "1:1", aspectMode: "fit" },
    body: {
      type: "box",
      layout: "vertical",
      spacing: "md",
      contents: [
        { type: "text", text: "฿1,500.00", size: "xl", weight: "bold", color: "#111111" },
        { type: "separator" },
        {
          type: "box",
          layout: "horizontal",
          contents: [
            { type: "text", text: "Total", flex: 1, color: "#888888" },
            { type: "text", text: "3 checks", flex: 2, align: "end", wrap: true },
          ],
        },
      ],
    },
    footer: {
      type: "box",
      layout: "vertical",
      contents: [
        {
          type: "button",
          style: "primary",
          color: "#FF0000",
          action: { type: "postback", label: "Next page", data: "page=2", displayText: "Next page please" },
        },
      ],
    },
    styles: { footer: { separator: true } },
  };
}

const todayChip: messagingApi.QuickReplyItem = { type: "action", action: { type: "message", label: "Today", text: "today" } };

function answer(event: webhook.Event, imageUrl: string): messagingApi.Message[] | undefined {
  if (event.type === "postback") {
    const page = /^page=(\d+)$/.exec(event.postback.data)?.[1];
    if (page !== undefined) return [{ type: "text", text: `Page ${page}`, quickReply: { items: [todayChip] } }];
    // Any other postback (a rich menu's): its data and params, so a test can see what arrived.
    const params = event.postback.params === undefined ? "" : ` ${JSON.stringify(event.postback.params)}`;
    return [{ type: "text", text: `Postback ${event.postback.data}${params}` }];
  }
  if (event.type === "follow" || event.type === "join") return [{ type: "text", text: `Hello from ${event.type}` }];
  if (event.type !== "message" || event.message.type !== "text") return undefined;
  const text = event.message.text;
  const mentioned = event.message.mention?.mentionees.some((m) => m.type === "user" && m.isSelf === true) ?? false;
  if (text === "today") return [{ type: "text", text: "Today: 3 checks" }];
  // A reply LINE refuses, to show how the console reports it.
  if (text === "bad") return [{ type: "text", text: "" }];
  if (text === "carousel") {
    const bubble = demoBubble(imageUrl);
    return [{ type: "flex", altText: "three bubbles", contents: { type: "carousel", contents: [bubble, bubble, bubble] } }];
  }
  return [
    { type: "text", text: `You said: ${text} (mention: ${mentioned ? "yes" : "no"})` },
    { type: "image", originalContentUrl: imageUrl, previewImageUrl: imageUrl },
    {
      type: "flex",
      altText: "Today's checks: 3",
      contents: demoBubble(imageUrl),
      quickReply: {
        items: [todayChip, { type: "action", action: { type: "postback", label: "Page 3", data: "page=3" } }],
      },
    },
  ];
}

export async function startStandInBot(options: { platformUrl: string; channelSecret: string }): Promise<StandInBot> {
  const client = new messagingApi.MessagingApiClient({ channelAccessToken: "stand-in-token", baseURL: options.platformUrl });
  const png = await QRCode.toBuffer("slipline stand-in bot", { width: 240, margin: 4 });
  const received: webhook.Event[] = [];
  let badSignatures = 0;
  const app = express();
  let imageUrl = "";

  app.get("/qr.png", (_req, res) => {
    res.type("png").send(png);
  });

  app.post("/webhook", express.raw({ type: "*/*" }), (req, res) => {
    const body = req.body as Buffer;
    const signature = req.get("x-line-signature") ?? "";
    if (!Buffer.isBuffer(body) || !validateSignature(body, options.channelSecret, signature)) {
      badSignatures += 1;
      res.status(401).end();
      return;
    }
    const request = JSON.parse(body.toString("utf8")) as webhook.CallbackRequest;
    res.status(200).end();
    for (const event of request.events) {
      received.push(event);
      const messages = answer(event, imageUrl);
      const replyToken = "replyToken" in event ? event.replyToken : undefined;
      if (messages === undefined || replyToken === undefined) continue;
      // The stand-in LINE records refusals itself; the bot only has to not crash on them.
      client.replyMessage({ replyToken, messages }).catch(() => undefined);
    }
  });

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(0, "127.0.0.1", (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  imageUrl = `http://127.0.0.1:${port}/qr.png`;
  return {
    webhookUrl: `http://127.0.0.1:${port}/webhook`,
    imageUrl,
    received,
    get badSignatures() {
      return badSignatures;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
