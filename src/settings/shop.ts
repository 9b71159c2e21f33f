// One shop's settings as one schema, in the shape a list of shops in a JSON file would give them; the
// environment variables of a single-shop deployment are read into the same shape (src/config.ts).
import { z } from "zod";
import * as field from "./fields.js";

export const DEFAULT_LANG = "th";
export const DEFAULT_TIME_ZONE = "Asia/Bangkok";
export const DEFAULT_ACCOUNT_CACHE_SECONDS = 30;

/**
 * A shop: its LINE channel, its slip service account, its PromptPay id, its staff, its language and time
 * zone, the opt-in alerts (each absent one is off), and how long its account info is cached.
 */
export const shopSettingsSchema = z.object({
  /** Absent: local mode, with the LINE stand-in. */
  line: z
    .object({
      channelSecret: field.channelSecret,
      channelAccessToken: field.channelAccessToken,
      /** During a rotation of the channel secret: the old one, still accepted for webhook signatures. */
      previousChannelSecret: field.channelSecret.optional(),
    })
    .refine((line) => line.previousChannelSecret !== line.channelSecret, {
      path: ["previousChannelSecret"],
      error: "is the same as the channel secret: during a rotation it holds the old secret; once the rotation is over, remove it",
    })
    .optional(),
  /** Absent: the embedded sandbox. */
  slip: z.object({ baseUrl: field.baseUrl, apiSecret: field.slipApiSecret }).optional(),
  /** The staff web app's LINE Login channel and LIFF app; absent: the app is off. */
  login: z.object({ channelId: field.loginChannelId, liffId: field.liffId }).optional(),
  promptPayId: field.promptPayId.optional(),
  staff: z.object({ users: field.staffUserIds.default([]), groups: field.staffGroupIds.default([]) }).default({ users: [], groups: [] }),
  lang: field.lang.default(DEFAULT_LANG),
  timeZone: field.timeZone.default(DEFAULT_TIME_ZONE),
  dailySummaryAt: field.clockTime.optional(),
  lowTokenAlertSlips: field.lowTokenAlertSlips.optional(),
  expiryAlertDays: field.expiryAlertDays.optional(),
  watchPaymentsMinutes: field.watchPaymentsMinutes.optional(),
  accountCacheSeconds: field.accountCacheSeconds.default(DEFAULT_ACCOUNT_CACHE_SECONDS),
  /** After a command in a 1:1 chat, mark the chat read (LINE honours it only with the OA's Chat on). */
  markAsRead: field.onOff.default(false),
  /** A customer's slip photo is looked up and pushed to the staff groups (once per slip); absent: off. */
  slipPhotoPush: field.onOff.optional(),
});

export type ShopSettings = z.output<typeof shopSettingsSchema>;
