// One shop's settings as one schema, in the shape a list of shops in a JSON file would give them; the
// environment variables of a single-shop deployment are read into the same shape (src/config.ts). Each
// says what it means and gives an example (`.meta`): docs/configuration.md is written from them.
import { z } from "zod";
import * as field from "./fields.js";

export const DEFAULT_LANG = "th";
export const DEFAULT_TIME_ZONE = "Asia/Bangkok";
export const DEFAULT_ACCOUNT_CACHE_SECONDS = 30;

/** The LINE channel's fields (a shops file's `line` takes the same). */
export const LINE_FIELDS = {
  channelSecret: field.channelSecret.meta({
    description: "The channel secret (LINE Developers Console, the channel's Basic settings): 32 hexadecimal characters. Secret: never logged.",
    examples: ["0123456789abcdef0123456789abcdef"],
  }),
  channelAccessToken: field.channelAccessToken.meta({
    description: "A long-lived channel access token (the Messaging API tab). Secret: never logged.",
    examples: ["<the token, about 170 characters>"],
  }),
  previousChannelSecret: field.channelSecret.optional().meta({
    description:
      "During a rotation of the channel secret: the old secret, still accepted for webhook signatures (the log says which one matched). With `REDIS_URL` it needs `REDIS_KEY_PREFIX`. Secret: never logged.",
    examples: ["fedcba9876543210fedcba9876543210"],
  }),
};

/** The slip service's fields (a shops file's `slip` takes the same). */
export const SLIP_FIELDS = {
  baseUrl: field.baseUrl.meta({
    description: "The slip verification service's address (`https`; `http` only on this machine).",
    examples: ["https://slip.example.com"],
  }),
  apiSecret: field.slipApiSecret.meta({
    description: "The shop's API secret, from the slip service's dashboard; sent as `Authorization: Bearer`. At least 8 characters. Secret: never logged.",
    examples: ["<the shop's API secret>"],
  }),
};

/**
 * A shop: its LINE channel, its slip service account, its PromptPay id, its staff, its language and time
 * zone, the opt-in alerts (each absent one is off), and how long its account info is cached.
 */
export const shopSettingsSchema = z.object({
  /** Absent: local mode, with the LINE stand-in. */
  line: z
    .object(LINE_FIELDS)
    .refine((line) => line.previousChannelSecret !== line.channelSecret, {
      path: ["previousChannelSecret"],
      error: "is the same as the channel secret: during a rotation it holds the old secret; once the rotation is over, remove it",
    })
    .optional()
    .meta({ description: "The shop's LINE channel (both values or neither). Absent: local mode with the LINE stand-in and the chat console." }),
  /** Absent: the embedded sandbox. */
  slip: z
    .object(SLIP_FIELDS)
    .optional()
    .meta({ description: "The slip service (both values or neither; required with a LINE channel). Absent: the embedded sandbox (local mode only)." }),
  /** The staff web app's LINE Login channel and LIFF app; absent: the app is off. */
  login: z
    .object({
      channelId: field.loginChannelId.meta({ description: "The staff web app's LINE Login channel id (digits, its Channel ID).", examples: ["1234567890"] }),
      liffId: field.liffId.meta({ description: "The staff web app's LIFF app id (the LIFF tab of that LINE Login channel).", examples: ["1234567890-AbcdEfgh"] }),
    })
    .optional()
    .meta({ description: "The staff web app at `/app/` (both values or neither). Absent: the app is off and says so." }),
  promptPayId: field.promptPayId.optional().meta({
    description: "The shop's PromptPay id, which `qr <amount>` pays and the only one customers get QR codes for: a phone, a 13-digit citizen or tax id, or a 15-digit e-wallet id.",
    examples: ["0812345678"],
  }),
  staff: z
    .object({
      users: field.staffUserIds
        .default([])
        .meta({ description: "LINE user ids of the staff (U and 32 hex digits; the bot's `id` command shows yours).", examples: [["U4af4980629c1d2e3f4a5b6c7d8e9f0a1"]] }),
      groups: field.staffGroupIds
        .default([])
        .meta({ description: "LINE ids of staff groups (C or R and 32 hex digits; `id` in the group shows it).", examples: [["Cb2ff1c7d8e9f0a1b2c3d4e5f6a7b8c9d"]] }),
    })
    .default({ users: [], groups: [] })
    .meta({ description: "Who is staff. Nobody listed: nobody is staff, so history, summaries and balance are refused to all (a warning at start-up)." }),
  lang: field.lang.default(DEFAULT_LANG).meta({ description: "The reply language when the command word does not decide it: `th` or `en`.", examples: ["en"] }),
  timeZone: field.timeZone.default(DEFAULT_TIME_ZONE).meta({ description: 'The shop\'s IANA time zone, for "today" and for the times shown.', examples: ["Asia/Bangkok"] }),
  dailySummaryAt: field.clockTime.optional().meta({ description: "`HH:MM` in the shop's time zone: push the day's summary to the staff then. Unset: off.", examples: ["21:00"] }),
  lowTokenAlertSlips: field.lowTokenAlertSlips
    .optional()
    .meta({ description: "Push one alert when the service's estimate of API checks left falls below this number (1 to 1,000,000). Unset: off.", examples: [200] }),
  expiryAlertDays: field.expiryAlertDays
    .optional()
    .meta({ description: "Push one alert a day while the package expires within this many days (1 to 365). Unset: off.", examples: [7] }),
  watchPaymentsMinutes: field.watchPaymentsMinutes.optional().meta({
    description: 'After a staff QR with an amount, watch this many minutes (1 to 1440) for its payment and push "received" to that chat. Unset: off.',
    examples: [30],
  }),
  accountCacheSeconds: field.accountCacheSeconds
    .default(DEFAULT_ACCOUNT_CACHE_SECONDS)
    .meta({ description: "How long account info (balance) is reused, in seconds (0 to 86400).", examples: [60] }),
  /** After a command in a 1:1 chat, mark the chat read (LINE honours it only with the OA's Chat on). */
  markAsRead: field.onOff.default(false).meta({
    description:
      "After a command in a 1:1 chat, mark the chat read (LINE honours it only when the OA's Chat is on in the LINE Official Account Manager). A failure never affects the answer.",
    examples: ["1"],
  }),
  slipPhotoPush: field.onOff.optional().meta({
    description: "`1`: a customer's slip photo is looked up and pushed to the shop's staff groups, once per slip. Unset: off (the customer is thanked, nothing more).",
    examples: ["1"],
  }),
});

export type ShopSettings = z.output<typeof shopSettingsSchema>;
