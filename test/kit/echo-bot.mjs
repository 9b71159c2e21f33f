// The baseline: the official @line/bot-sdk echo-bot pattern (express, the SDK middleware, replyMessage
// echoing the text), kept as plain JavaScript like the SDK's own example so it measures the pattern, not us.
import express from "express";
import { messagingApi, middleware } from "@line/bot-sdk";

const config = {
  channelSecret: process.env.LINE_CHANNEL_SECRET,
  channelAccessToken: process.env.LINE_CHANNEL_ACCESS_TOKEN,
};
const client = new messagingApi.MessagingApiClient({
  channelAccessToken: config.channelAccessToken,
  baseURL: process.env.LINE_API_BASE_URL,
});

const app = express();

app.post("/webhook", middleware(config), (req, res) => {
  Promise.all(req.body.events.map(handleEvent))
    .then((result) => res.json(result))
    .catch((err) => {
      console.error(err);
      res.status(500).end();
    });
});

function handleEvent(event) {
  if (event.type !== "message" || event.message.type !== "text") {
    return Promise.resolve(null);
  }
  return client.replyMessage({
    replyToken: event.replyToken,
    messages: [{ type: "text", text: event.message.text }],
  });
}

const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(JSON.stringify({ ready: true, url: `http://127.0.0.1:${server.address().port}` }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
