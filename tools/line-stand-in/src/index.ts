// The LINE stand-in as other packages use it: the platform on a loopback port, the demo people and groups
// and the webhook events they send, and LINE's message checks.
export { startLinePlatform } from "./platform.js";
export type {
  BotInfo,
  LinePlatform,
  LinePlatformEvents,
  LinePlatformOptions,
  RecordedDuplicate,
  RecordedLoading,
  RecordedRead,
  RecordedRejection,
  RecordedSend,
  RichMenu,
  RichMenuChange,
  RichMenuImage,
  RichMenuSwitchStatus,
  ShownRichMenu,
} from "./platform.js";
export * from "./webhook-events.js";
export { isChatId, isUserId, validateMessages } from "./validate.js";
export type { ValidateOptions, ValidationDetail } from "./validate.js";
