// Open-loop webhook load: signed requests sent on a fixed schedule whatever the bot's answers, so a slow
// bot cannot slow the load down and hide its own latency (no coordinated omission).
//
// The events come from staff (a pool of staff users and staff groups, listed in the bot's environment), so
// the bot does its full work for each: the service calls and the Flex cards, never a customer's refusal or
// silence. Chats are reused, in rotation, so an answer cannot name its event by its chat: each event's reply
// token is issued by the LINE stand-in for a label of that event alone, and the stand-in records a reply
// under that label (bench/line-stand-in.ts). A push (the bot's fallback when a reply fails) is matched by its
// retry key, which the bot derives from the event id.
import { signBody } from "../test/kit/webhook.js";
import { Pool } from "undici";
import { retryKeyFor } from "../src/line/outbox.js";
import type { Arrival } from "./line-stand-in.js";

export interface LoadTarget {
  /** The bot's webhook URLs; requests go to them in turn (one URL: a single instance). */
  webhookUrls: readonly string[];
  channelSecret: string;
  /** Each webhook URL's own channel secret (many shops: one channel each), else `channelSecret` for all. */
  channelSecrets?: readonly string[];
  /** Control URL of the LINE stand-in child (bench/line-stand-in.ts). */
  lineControlUrl: string;
}

/** Staff users (1:1 chats) and staff groups the events come from, in rotation. */
export interface StaffPool {
  users: readonly string[];
  groups: readonly string[];
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
  staff: StaffPool;
}

export interface StepMeasurement {
  eventsSent: number;
  requestsSent: number;
  /** Requests not answered 200 ... */
  ackErrors: number;
  /** ... by status (503: the bot refused the webhook, busy), or "error" when no status came. */
  ackErrorsByStatus: Record<string, number>;
  /** Webhook answer latency per request, ms. */
  ackMs: number[];
  /** From sending the webhook to the answer arriving at the LINE stand-in, per answered event, ms. */
  endToEndMs: number[];
  /** End-to-end latency per answered event, keyed by the text it carried. */
  endToEndByText: Map<string, number[]>;
  eventsAnswered: number;
  eventsLost: number;
  /** Of the events lost, those whose webhook was not answered 200 (refused, so never the bot's to answer). */
  eventsLostNotAcknowledged: number;
  /** Events whose first answer was a push (the reply failed), not a reply. */
  answeredByPush: number;
  /** Sends after an event's first answer (a second batch, or a duplicate). */
  extraSends: number;
  /** Sends the stand-in recorded that name no event of this step (a straggler of an earlier step). */
  unmatchedSends: number;
  rejectedByLine: number;
  /** Events sent while an earlier event of the same chat was still unanswered: how often chats overlapped. */
  sameChatInFlight: number;
  /** Wall time from the first request to the last answer (or the drain deadline), ms. */
  elapsedMs: number;
}

interface PlannedEvent {
  /** This event's own label: its reply token is issued for it, and its reply is recorded under it. */
  key: string;
  chatId: string;
  userId: string;
  isGroup: boolean;
  text: string;
  eventId: string;
}

/** Linux refuses an environment string (NAME=value) longer than 32 pages (128 KiB). */
const MAX_ENV_STRING = 128 * 1024;

const now = () => performance.timeOrigin + performance.now();

function hex32(seed: number): string {
  return seed.toString(16).padStart(32, "0").slice(-32);
}

/** `users` staff user ids and `groups` staff group ids, unlike any other id the benchmark makes. */
export function makeStaffPool(users: number, groups: number): StaffPool {
  return {
    users: Array.from({ length: users }, (_, i) => `U${hex32(0x5af0_0000_0000 + i)}`),
    groups: Array.from({ length: groups }, (_, i) => `C${hex32(0x5af1_0000_0000 + i)}`),
  };
}

/** STAFF_USER_IDS and STAFF_GROUP_IDS for the pool; throws when a list would not fit in an environment string. */
export function staffEnv(pool: StaffPool): { STAFF_USER_IDS: string; STAFF_GROUP_IDS: string } {
  const env = { STAFF_USER_IDS: pool.users.join(","), STAFF_GROUP_IDS: pool.groups.join(",") };
  for (const [name, value] of Object.entries(env)) {
    if (name.length + 1 + value.length + 1 > MAX_ENV_STRING) throw new Error(`${name} would be ${value.length} bytes: too long for one environment variable`);
  }
  return env;
}

let eventSerial = 0;
/** Rotation through the pool, carried over from step to step so a chat's next event is as late as can be. */
let userCursor = 0;
let groupCursor = 0;
let groupSpeakerCursor = 0;

function planEvents(plan: StepPlan): PlannedEvent[] {
  const count = Math.round((plan.eventsPerSecond * plan.durationMs) / 1000);
  const groupEvery = plan.groupShare > 0 ? Math.round(1 / plan.groupShare) : 0;
  const { users, groups } = plan.staff;
  if (users.length === 0 || (groupEvery > 0 && groups.length === 0)) throw new Error("the staff pool is empty");
  const events: PlannedEvent[] = [];
  for (let i = 0; i < count; i += 1) {
    eventSerial += 1;
    const isGroup = groupEvery > 0 && i % groupEvery === 0;
    let chatId: string;
    let userId: string;
    if (isGroup) {
      chatId = groups[groupCursor % groups.length] ?? "";
      userId = users[(groupSpeakerCursor * 7 + 3) % users.length] ?? "";
      groupCursor += 1;
      groupSpeakerCursor += 1;
    } else {
      userId = users[userCursor % users.length] ?? "";
      chatId = userId;
      userCursor += 1;
    }
    const text = plan.texts[i % plan.texts.length] ?? "help";
    events.push({ key: `E${eventSerial}`, chatId, userId, isGroup, text, eventId: `01BENCH${String(eventSerial).padStart(19, "0")}` });
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
      replyToken: tokens.get(event.key),
      source: event.isGroup ? { type: "group", groupId: event.chatId, userId: event.userId } : { type: "user", userId: event.userId },
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

/** One reply token per label (an event's key), issued by the stand-in for that label. */
async function issueTokens(lineControlUrl: string, labels: string[]): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  for (let start = 0; start < labels.length; start += 5_000) {
    const slice = labels.slice(start, start + 5_000);
    const { tokens: issued } = await postJson<{ tokens: string[] }>(`${lineControlUrl}/tokens`, { chatIds: slice });
    slice.forEach((label, index) => tokens.set(label, issued[index] ?? ""));
  }
  return tokens;
}

/** Sends one step of load and measures it. */
export async function runStep(target: LoadTarget, plan: StepPlan): Promise<StepMeasurement> {
  if (target.webhookUrls.length === 0) throw new Error("no webhook URL");
  const events = planEvents(plan);
  // A fresh stand-in (same port, no tokens, nothing recorded): the stand-in keeps at most 10,000 tokens.
  await postJson(`${target.lineControlUrl}/reset`, {});
  const tokens = await issueTokens(
    target.lineControlUrl,
    events.map((event) => event.key),
  );

  // Group the events into requests; each request goes at the planned time of its first event, to the
  // webhook URLs in turn.
  const requests: { events: PlannedEvent[]; atOffsetMs: number; urlIndex: number }[] = [];
  for (let i = 0; i < events.length;) {
    const size = requests.length % plan.batchEvery === plan.batchEvery - 1 ? plan.batchSize : 1;
    requests.push({ events: events.slice(i, i + size), atOffsetMs: (i * 1000) / plan.eventsPerSecond, urlIndex: requests.length % target.webhookUrls.length });
    i += size;
  }
  const bodies = requests.map((request) => {
    const body = webhookBody(request.events, tokens);
    const signature = signBody(body, target.channelSecrets?.[request.urlIndex] ?? target.channelSecret);
    return { body, signature };
  });

  const urls = target.webhookUrls.map((webhookUrl) => new URL(webhookUrl));
  // One pool per bot (origin): many shops' webhooks on one bot share its connections, as LINE's would.
  const poolOf = new Map<string, Pool>();
  const pools = urls.map((url) => {
    const pool = poolOf.get(url.origin) ?? new Pool(url.origin, { connections: 256, keepAliveTimeout: 30_000 });
    poolOf.set(url.origin, pool);
    return pool;
  });
  const sentAt = new Map<string, number>();
  const ackMs: number[] = [];
  let ackErrors = 0;
  const ackErrorsByStatus: Record<string, number> = {};
  const notAcknowledged = new Set<string>();
  const ackError = (key: string, events: readonly PlannedEvent[]) => {
    for (const event of events) notAcknowledged.add(event.key);
    ackErrors += 1;
    ackErrorsByStatus[key] = (ackErrorsByStatus[key] ?? 0) + 1;
  };
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
        const url = urls[request.urlIndex];
        const pool = pools[request.urlIndex];
        if (!url || !pool) continue;
        const sent = now();
        for (const event of request.events) sentAt.set(event.key, sent);
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
              else ackError(String(response.statusCode), request.events);
            })
            .catch(() => ackError("error", request.events)),
        );
      }
      if (next < requests.length) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);

  // Collect answers until every event is answered or the drain time passes.
  const keys = new Set(events.map((event) => event.key));
  let byRetryKey: Map<string, string> | undefined; // built at the first push only
  const arrivals = new Map<string, number>();
  let answeredByPush = 0;
  let extraSends = 0;
  let unmatchedSends = 0;
  let rejectedByLine = 0;
  const drainDeadline = now() + plan.drainMs;
  let lastArrival = start;
  while (arrivals.size < events.length && now() < drainDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const drained = await postJson<{ arrivals: Arrival[]; rejected: number }>(`${target.lineControlUrl}/drain`, {});
    rejectedByLine += drained.rejected;
    for (const arrival of drained.arrivals) {
      let key: string | undefined;
      if (arrival.kind === "reply") {
        key = keys.has(arrival.chatId) ? arrival.chatId : undefined;
      } else if (arrival.retryKey !== undefined) {
        byRetryKey ??= new Map(events.map((event) => [retryKeyFor(event.eventId, 0), event.key]));
        key = byRetryKey.get(arrival.retryKey.toLowerCase());
      }
      if (key === undefined) {
        unmatchedSends += 1;
        continue;
      }
      if (arrivals.has(key)) {
        extraSends += 1;
        continue;
      }
      arrivals.set(key, arrival.at);
      if (arrival.kind === "push") answeredByPush += 1;
      lastArrival = Math.max(lastArrival, arrival.at);
    }
  }
  await Promise.all([...poolOf.values()].map((pool) => pool.close()));

  const endToEndMs: number[] = [];
  const endToEndByText = new Map<string, number[]>();
  // Per chat, until when its latest earlier event was unanswered (Infinity: never answered).
  const chatBusyUntil = new Map<string, number>();
  let sameChatInFlight = 0;
  for (const event of events) {
    const arrived = arrivals.get(event.key);
    const sent = sentAt.get(event.key);
    if (sent !== undefined) {
      if (sent < (chatBusyUntil.get(event.chatId) ?? -Infinity)) sameChatInFlight += 1;
      chatBusyUntil.set(event.chatId, Math.max(chatBusyUntil.get(event.chatId) ?? -Infinity, arrived ?? Infinity));
    }
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
    ackErrorsByStatus,
    ackMs,
    endToEndMs,
    endToEndByText,
    eventsAnswered: endToEndMs.length,
    eventsLost: events.length - endToEndMs.length,
    eventsLostNotAcknowledged: events.filter((event) => notAcknowledged.has(event.key) && !arrivals.has(event.key)).length,
    answeredByPush,
    extraSends,
    unmatchedSends,
    rejectedByLine,
    sameChatInFlight,
    elapsedMs: (arrivals.size === events.length ? lastArrival : now()) - start,
  };
}
