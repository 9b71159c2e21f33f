// One shop as the bot runs it: its id and webhook path, its LINE channel and slip service account, what its
// handlers need (PromptPay id, staff, language, time zone), its opt-in pushes. Made from the environment
// (one shop, on /webhook), from a shops file (many, each on /webhook/<id>), or by local mode (the demo shops).
import type { BotSettings, Config, StaffLogin } from "../config.js";
import type { ShopSettings } from "../settings/shop.js";

export interface ShopConfig {
  /** `default` for the environment's one shop; a shops file's `id` (1 to 32 of a-z 0-9 -) otherwise. */
  readonly id: string;
  /** The shop's name as the operator wrote it (logs, the console); the service's store name is its own. */
  readonly name: string | undefined;
  /** Where LINE posts its events: `/webhook`, or `/webhook/<id>` with a shops file. */
  readonly webhookPath: string;
  /** `previousChannelSecret`: during a rotation, the old secret, still accepted for webhook signatures. */
  readonly line: { readonly channelSecret: string; readonly channelAccessToken: string; readonly previousChannelSecret?: string | undefined };
  /** `qrImageOrigins`: origins besides the service's own that a QR image may come from (the sandbox's public URL). */
  readonly slip: { readonly baseUrl: string; readonly apiSecret: string; readonly qrImageOrigins: readonly string[] };
  readonly settings: BotSettings;
  readonly alerts: ShopAlerts;
  readonly accountCacheSeconds: number;
  readonly markAsRead: boolean;
  /** The staff web app's login (`/app/`); absent: the app is off for this shop. */
  readonly login?: StaffLogin | undefined;
}

export interface ShopAlerts {
  readonly dailySummaryAt: { readonly hour: number; readonly minute: number } | undefined;
  readonly lowTokenSlips: number | undefined;
  readonly expiryDays: number | undefined;
  readonly watchMinutes: number | undefined;
}

/** The environment's one shop: its id, and the path LINE posts to, as before shops files. */
export const DEFAULT_SHOP_ID = "default";
export const DEFAULT_WEBHOOK_PATH = "/webhook";

export function webhookPathOf(id: string): string {
  return `${DEFAULT_WEBHOOK_PATH}/${id}`;
}

/** A shop's settings, read and checked, as the bot runs them. */
export function shopConfigOf(
  identity: { id: string; name: string | undefined; webhookPath: string },
  settings: ShopSettings & { line: NonNullable<ShopSettings["line"]>; slip: NonNullable<ShopSettings["slip"]> },
  qrImageOrigins: readonly string[] = [],
): ShopConfig {
  return Object.freeze({
    ...identity,
    line: Object.freeze({ ...settings.line }),
    slip: Object.freeze({ ...settings.slip, qrImageOrigins: Object.freeze([...qrImageOrigins]) }),
    settings: Object.freeze({
      promptPayId: settings.promptPayId,
      staffUserIds: new Set(settings.staff.users),
      staffGroupIds: new Set(settings.staff.groups),
      defaultLang: settings.lang,
      timeZone: settings.timeZone,
      slipPhotoPush: settings.slipPhotoPush,
    }),
    alerts: Object.freeze({
      dailySummaryAt: settings.dailySummaryAt,
      lowTokenSlips: settings.lowTokenAlertSlips,
      expiryDays: settings.expiryAlertDays,
      watchMinutes: settings.watchPaymentsMinutes,
    }),
    accountCacheSeconds: settings.accountCacheSeconds,
    markAsRead: settings.markAsRead,
    login: settings.login === undefined ? undefined : Object.freeze({ ...settings.login }),
  });
}

/** The environment's one shop (LINE mode), on /webhook: its channel, its slip service, the settings the variables give. */
export function environmentShopOf(
  config: Config,
  line: ShopConfig["line"],
  slip: { readonly baseUrl: string; readonly apiSecret: string },
  qrImageOrigins: readonly string[] = [],
): ShopConfig {
  return shopConfigOf(
    { id: DEFAULT_SHOP_ID, name: undefined, webhookPath: DEFAULT_WEBHOOK_PATH },
    {
      line,
      slip,
      promptPayId: config.settings.promptPayId,
      staff: { users: [...config.settings.staffUserIds], groups: [...config.settings.staffGroupIds] },
      lang: config.settings.defaultLang,
      timeZone: config.settings.timeZone,
      dailySummaryAt: config.alerts.dailySummaryAt,
      lowTokenAlertSlips: config.alerts.lowTokenSlips,
      expiryAlertDays: config.alerts.expiryDays,
      watchPaymentsMinutes: config.alerts.watchMinutes,
      accountCacheSeconds: config.accountCacheSeconds,
      markAsRead: config.markAsRead,
      slipPhotoPush: config.settings.slipPhotoPush,
      login: config.login,
    },
    qrImageOrigins,
  );
}

/**
 * What a reload changes of a running shop, the one comparison of two configs: `none` (the same shop run the
 * same way: it is left as it is), `settings` (the same channel, service account, pushes and webhook: the
 * running shop takes its new staff, language, time zone, PromptPay id in place, its stores and watches
 * stay), or `parts` (it is built anew and the old one retired).
 */
export function shopChangeOf(running: ShopConfig, next: ShopConfig): "none" | "settings" | "parts" {
  if (running === next || writtenOut(running) === writtenOut(next)) return "none";
  return running.id === next.id && running.webhookPath === next.webhookPath && partsOf(running) === partsOf(next) ? "settings" : "parts";
}

// A config is frozen: it is written out once (a reload of a thousand shops compares each with the running one).
const written = new WeakMap<ShopConfig, string>();
function writtenOut(shop: ShopConfig): string {
  let text = written.get(shop);
  if (text === undefined) {
    const { staffUserIds, staffGroupIds } = shop.settings;
    text = JSON.stringify({ ...shop, settings: { ...shop.settings, staffUserIds: [...staffUserIds].sort(), staffGroupIds: [...staffGroupIds].sort() } });
    written.set(shop, text);
  }
  return text;
}

const partsWritten = new WeakMap<ShopConfig, string>();
function partsOf(shop: ShopConfig): string {
  let text = partsWritten.get(shop);
  if (text === undefined) {
    text = JSON.stringify([shop.line, shop.slip, shop.alerts, shop.accountCacheSeconds]);
    partsWritten.set(shop, text);
  }
  return text;
}
