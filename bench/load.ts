// Open-loop webhook load: signed requests sent on a fixed schedule whatever the bot's answers, so a slow
// bot cannot slow the load down and hide its own latency (no coordinated omission).
import { createHmac } from "node:crypto";
import { Pool } from "undici";
import type { Arrival } from "./line-stand-in.js";

export interface LoadTarget {
  webhookUrl: string;
  channelSecret: string;
  /** Control URL of the LINE stand-in child (bench/line-stand-in.ts). */
  lineControlUrl: string;
}

export interface StepPlan {
  eventsPerSecond: number;
  durationMs: number;
  /** Texts sent in rotation. */
  texts: readonly string[];
  /** Part of the events sent from a group chat (the rest from 1:1 chats). */
  groupShare: number;
  /** Every `batchEvery`-th request carries `batchSize` events; the others one. */
  batchEvery: number;
  batchSize: number;
  /** How long to wait for the last answers after the last request. */
  drainMs: number;
}

export interface StepMeasurement {
  eventsSent: number;
  requestsSent: number;
  ackErrors: number;
  /** Webhook answer latency per request, ms. */
  ackMs: number[];
  /** From sending the webhook to the answer arriving at the LINE stand-in, per answered event, ms. */
  endToEndMs: number[];
  /** End-to-end latency per answered event, keyed by the text it carried. */
  endToEndByText: Map<string, number[]>;
  eventsAnswered: number;
  eventsLost: number;
  rejectedByLine: number;
  /** Wall time from the first request to the last answer (or the drain deadline), ms. */
  elapsedMs: number;
}

interface PlannedEvent {
  chatId: string;
  userId: string;
  isGroup: boolean;
  text: string;
  eventId: string;
}

const now = () => performance.timeOrigin + performance.now();

function hex32(seed: number): string {
  return seed.toString(16).padStart(32, "0").slice(-32);
}

let eventSerial = 0;

function planEvents(plan: StepPlan): PlannedEvent[] {
  const count = Math.round((plan.eventsPerSecond * plan.durationMs) / 1000);
  const groupEvery = plan.groupShare > 0 ? Math.round(1 / plan.groupShare) : 0;
  const events: PlannedEvent[] = [];
  for (let i = 0; i < count; i += 1) {
    eventSerial += 1;
    const isGroup = groupEvery > 0 && i % groupEvery === 0;
    const userId = `U${hex32(eventSerial)}`;
    // A chat of its own per event, so an answer arriving at the stand-in names its event.
    const chatId = isGroup ? `C${hex32(eventSerial)}` : userId;
    const text = plan.texts[i % plan.texts.length] ?? "help";
    events.push({ chatId, userId, isGroup, text, eventId: `01BENCH${String(eventSerial).padStart(19, "0")}` });
  }
  return events;
}

function webhookBody(events: PlannedEvent[], tokens: Map<string, string>): string {
  const timestamp = Date.now();
  return JSON.stringify({
    destination: "Ubench0000000000000000000000000000",
    events: events.map((event) => ({
      type: "message",
      mode: "active",
      timestamp,
      webhookEventId: event.eventId,
      deliveryContext: { isRedelivery: false },
      replyToken: tokens.get(event.chatId),
      source: event.isGroup
        ? { type: "group", groupId: event.chatId, userId: event.userId }
        : { type: "user", userId: event.userId },
      message: { id: event.eventId.slice(-18), type: "text", text: event.text, quoteToken: "q" },
    })),
  });
}

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

async function issueTokens(lineControlUrl: string, chatIds: string[]): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  for (let start = 0; start < chatIds.length; start += 5_000) {
    const slice = chatIds.slice(start, start + 5_000);
    const { tokens: issued } = await postJson<{ tokens: string[] }>(`${lineControlUrl}/tokens`, { chatIds: slice });
    slice.forEach((chatId, index) => tokens.set(chatId, issued[index] ?? ""));
  }
  return tokens;
}

/** Sends one step of load and measures it. */
export async function runStep(target: LoadTarget, plan: StepPlan): Promise<StepMeasurement> {
  const events = planEvents(plan);
  const tokens = await issueTokens(
    target.lineControlUrl,
    events.map((event) => event.chatId),
  );
  await postJson(`${target.lineControlUrl}/drain`, {}); // forget anything from before this step

  // Group the events into requests; each request goes at the planned time of its first event.
  const requests: { events: PlannedEvent[]; atOffsetMs: number }[] = [];
  for (let i = 0; i < events.length; ) {
    const size = requests.length % plan.batchEvery === plan.batchEvery - 1 ? plan.batchSize : 1;
    requests.push({ events: events.slice(i, i + size), atOffsetMs: (i * 1000) / plan.eventsPerSecond });
    i += size;
  }
  const bodies = requests.map((request) => {
    const body = webhookBody(request.events, tokens);
    const signature = createHmac("sha256", target.channelSecret).update(body).digest("base64");
    return { body, signature };
  });

  const url = new URL(target.webhookUrl);
  const pool = new Pool(url.origin, { connections: 256, keepAliveTimeout: 30_000 });
  const sentAt = new Map<string, number>();
  const ackMs: number[] = [];
  let ackErrors = 0;
  const inFlight: Promise<void>[] = [];

  const start = now();
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = now() - start;
      while (next < requests.length && (requests[next]?.atOffsetMs ?? Infinity) <= elapsed) {
        const request = requests[next];
        const signed = bodies[next];
        next += 1;
        if (!request || !signed) continue;
        const sent = now();
        for (const event of request.events) sentAt.set(event.chatId, sent);
        inFlight.push(
          pool
            .request({
              method: "POST",
              path: url.pathname,
              headers: { "content-type": "application/json", "x-line-signature": signed.signature },
              body: signed.body,
            })
            .then(async (response) => {
              await response.body.dump();
              if (response.statusCode === 200) ackMs.push(now() - sent);
              else ackErrors += 1;
            })
            .catch(() => {
              ackErrors += 1;
            }),
        );
      }
      if (next < requests.length) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);

  // Collect answers until every event is answered or the drain time passes.
  const arrivals = new Map<string, number>();
  let rejectedByLine = 0;
  const drainDeadline = now() + plan.drainMs;
  let lastArrival = start;
  while (arrivals.size < events.length && now() < drainDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const drained = await postJson<{ arrivals: Arrival[]; rejected: number }>(`${target.lineControlUrl}/drain`, {});
    rejectedByLine += drained.rejected;
    for (const arrival of drained.arrivals) {
      if (!arrivals.has(arrival.chatId)) arrivals.set(arrival.chatId, arrival.at);
      lastArrival = Math.max(lastArrival, arrival.at);
    }
  }
  await pool.close();

  const endToEndMs: number[] = [];
  const endToEndByText = new Map<string, number[]>();
  for (const event of events) {
    const arrived = arrivals.get(event.chatId);
    const sent = sentAt.get(event.chatId);
    if (arrived === undefined || sent === undefined) continue;
    const latency = arrived - sent;
    endToEndMs.push(latency);
    const list = endToEndByText.get(event.text) ?? [];
    list.push(latency);
    endToEndByText.set(event.text, list);
  }

  return {
    eventsSent: events.length,
    requestsSent: requests.length,
    ackErrors,
    ackMs,
    endToEndMs,
    endToEndByText,
    eventsAnswered: endToEndMs.length,
    eventsLost: events.length - endToEndMs.length,
    rejectedByLine,
    elapsedMs: (arrivals.size === events.length ? lastArrival : now()) - start,
  };
}
