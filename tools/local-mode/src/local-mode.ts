// Local mode, with nothing configured: the embedded sandbox, a LINE stand-in with one channel per demo
// shop, the chat console and the demo shops' settings, put around the one composition root (src/compose.ts).
// Loaded by main.ts only (dynamically, by package name), so a deployment never loads SQLite, the canvas or the demo data.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { messagingApi } from "@line/bot-sdk";
import type { Logger } from "pino";
import { createConsoleApp } from "@slipline/chat-console";
import type { ConsoleShop } from "@slipline/chat-console";
import { DEMO_GROUPS, DEMO_PEOPLE, startLinePlatform } from "@slipline/line-stand-in";
import type { LinePlatform } from "@slipline/line-stand-in";
import { DEMO_PROMPTPAY_ID, DEMO_SECRETS, DEMO_STORE_NAMES, simulatePaymentAt, slipPhotosAt, startSandbox } from "@slipline/slip-sandbox";
import type { RunningSandbox } from "@slipline/slip-sandbox";
import { parsePromptPayId } from "../../../src/commands/promptpay-id.js";
import type { Config } from "../../../src/config.js";
import type { LocalWorld } from "../../../src/local-tools.js";
import { hasStaff } from "../../../src/roles/audience.js";
import { shopConfigOf, webhookPathOf } from "../../../src/shops/shop.js";
import { appPathOf } from "../../../src/staff-app/router.js";
import type { ShopConfig } from "../../../src/shops/shop.js";

/** Local mode's made-up LINE Login channel ids: this, and one more for each further shop. */
const LOCAL_LOGIN_CHANNEL_BASE = 2_000_000_001;

/** Where the console opens a shop's staff app, and for which login channel. */
function staffAppOf(shop: ShopConfig | undefined): Pick<ConsoleShop, "staffApp"> {
  if (shop?.login === undefined) return {};
  return { staffApp: { path: `${appPathOf(shop.webhookPath)}/`, loginChannelId: shop.login.channelId } };
}

/** The second demo shop's PromptPay id (the bot's setting; the sandbox knows none). */
const SECOND_SHOP_PROMPTPAY_ID = "0898765432";

/**
 * The embedded sandbox with its demo shops (SQLite in SANDBOX_DB), for local mode and, with SLIP_SANDBOX=1,
 * beside a real LINE channel (a test channel only; no route that adds payments then).
 */
export async function startEmbeddedSandbox(config: Config, log: Logger, devRoutes: boolean): Promise<RunningSandbox> {
  const { dbPath, publicUrl } = config.sandbox;
  if (dbPath !== ":memory:") mkdirSync(dirname(resolve(dbPath)), { recursive: true });
  const sandbox = await startSandbox({ dbPath, devRoutes, ...(publicUrl === undefined ? {} : { publicUrl }) });
  log.info(
    { url: sandbox.url, dbPath, demoSeeded: sandbox.demo.seeded, demoChecksAdded: sandbox.demo.added },
    "no SLIP_API_BASE_URL: using the embedded sandbox and its demo shops",
  );
  return sandbox;
}

/**
 * Local mode's world. Two OAs, the sandbox's two active demo shops (the coffee shop and the second shop),
 * each a channel of the stand-in with secrets made up now; with SLIP_API_BASE_URL set, one OA on that service.
 * The console's staff personas and the staff group are the coffee shop's staff (unless STAFF_USER_IDS or
 * STAFF_GROUP_IDS say otherwise), and Malee alone the second shop's (no staff group there, since the staff
 * app counts a staff group's members as staff), so the console shows one person staff of one shop and a
 * customer of the other, and names each person by their role in the shop chosen.
 */
export async function startLocalWorld(config: Config, log: Logger): Promise<LocalWorld> {
  const closers: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const closer of closers.splice(0).reverse()) await closer().catch((err: unknown) => log.warn({ err }, "a local part did not close cleanly"));
  };
  try {
    const sandbox = config.slip === undefined ? await startEmbeddedSandbox(config, log, true) : undefined;
    if (sandbox !== undefined) closers.push(() => sandbox.close());
    const qrImageOrigins = config.sandbox.publicUrl === undefined ? [] : [config.sandbox.publicUrl];

    const staffPersonas = DEMO_PEOPLE.filter((p) => p.role === "staff");
    const staffGroups = DEMO_GROUPS.filter((g) => g.staff).map((g) => g.groupId);
    const ownLists = hasStaff(config.settings);
    type Demo = {
      id: string;
      name: string;
      slip: { baseUrl: string; apiSecret: string };
      promptPayId: string;
      staffUsers: string[];
      staffGroups: string[];
      pay?: "shop" | "other";
    };
    const demos: Demo[] =
      sandbox === undefined
        ? [
            {
              id: "cafe",
              name: DEMO_STORE_NAMES.shop,
              slip: config.slip ?? { baseUrl: "", apiSecret: "" },
              promptPayId: DEMO_PROMPTPAY_ID,
              staffUsers: staffPersonas.map((p) => p.userId),
              staffGroups,
            },
          ]
        : [
            {
              id: "cafe",
              name: DEMO_STORE_NAMES.shop,
              slip: { baseUrl: sandbox.url, apiSecret: DEMO_SECRETS.shop },
              promptPayId: DEMO_PROMPTPAY_ID,
              staffUsers: staffPersonas.map((p) => p.userId),
              staffGroups,
              pay: "shop",
            },
            {
              id: "second",
              name: DEMO_STORE_NAMES.other,
              slip: { baseUrl: sandbox.url, apiSecret: DEMO_SECRETS.other },
              promptPayId: SECOND_SHOP_PROMPTPAY_ID,
              staffUsers: staffPersonas.slice(1).map((p) => p.userId),
              staffGroups: [],
              pay: "other",
            },
          ];
    const channels = demos.map((demo) => ({ ...demo, channelSecret: randomBytes(16).toString("hex"), accessToken: randomBytes(32).toString("base64url") }));

    // Who is in the console's groups, for the staff app's group check: the staff group has the staff personas.
    const groupMembers = Object.fromEntries(DEMO_GROUPS.map((g) => [g.groupId, DEMO_PEOPLE.filter((p) => !g.staff || p.role === "staff").map((p) => p.userId)]));
    const platform: LinePlatform = await startLinePlatform({
      channels: channels.map((c) => ({ name: c.id, accessToken: c.accessToken, botInfo: { displayName: c.name } })),
      groupMembers,
    });
    closers.push(() => platform.close());
    log.info({ url: platform.url, shops: channels.map((c) => c.id) }, "no LINE channel configured: local mode with the LINE stand-in");

    // Made by the same maker as the environment's shop and a shops file's.
    const shops: ShopConfig[] = channels.map((c, i) =>
      shopConfigOf(
        { id: c.id, name: c.name, webhookPath: webhookPathOf(c.id) },
        {
          line: { channelSecret: c.channelSecret, channelAccessToken: c.accessToken },
          slip: c.slip,
          // The first shop takes the environment's own id and lists when set; the rest are the demo's.
          promptPayId: (i === 0 ? config.settings.promptPayId : undefined) ?? parsePromptPayId(c.promptPayId),
          staff: i === 0 && ownLists ? { users: [...config.settings.staffUserIds], groups: [...config.settings.staffGroupIds] } : { users: c.staffUsers, groups: c.staffGroups },
          lang: config.settings.defaultLang,
          timeZone: config.settings.timeZone,
          dailySummaryAt: config.alerts.dailySummaryAt,
          lowTokenAlertSlips: config.alerts.lowTokenSlips,
          expiryAlertDays: config.alerts.expiryDays,
          watchPaymentsMinutes: config.alerts.watchMinutes,
          accountCacheSeconds: config.accountCacheSeconds,
          markAsRead: config.markAsRead,
          // A customer's slip photo reaches the staff group, so the console shows it with no set-up.
          slipPhotoPush: config.settings.slipPhotoPush ?? true,
          // The staff app's LINE Login channel, played by the stand-in (made-up ids, one per shop).
          login: (i === 0 ? config.login : undefined) ?? { channelId: `${LOCAL_LOGIN_CHANNEL_BASE + i}`, liffId: `${LOCAL_LOGIN_CHANNEL_BASE + i}-localapp` },
        },
        qrImageOrigins,
      ),
    );

    let botUrl = "";
    const consoleShops: ConsoleShop[] = channels.map((c, i) => ({
      id: c.id,
      name: c.name,
      channel: c.id,
      webhookUrl: () => `${botUrl}${webhookPathOf(c.id)}`,
      channelSecret: c.channelSecret,
      ...(sandbox === undefined || c.pay === undefined ? {} : { simulatePayment: simulatePaymentAt(sandbox.url, c.pay) }),
      ...(sandbox === undefined ? {} : { slipPhoto: slipPhotosAt(sandbox.url, c.slip.apiSecret) }),
      ...staffAppOf(shops[i]),
      // The shop's own lists, so the console's labels say what the chat and the staff app will do.
      staff: { users: [...(shops[i]?.settings.staffUserIds ?? [])], groups: [...(shops[i]?.settings.staffGroupIds ?? [])] },
    }));
    const chat = createConsoleApp({ platform, shops: consoleShops, timeZone: config.settings.timeZone });
    closers.push(() => Promise.resolve(chat.close()));

    return {
      shops,
      lineApiBaseUrl: platform.url,
      secrets: channels.flatMap((c) => [c.channelSecret, c.accessToken]),
      mount(root) {
        // The console's page and API first; the webhooks, /healthz and the 404s are the bot's.
        root.use(chat.app);
      },
      async started(url) {
        botUrl = url;
        await Promise.all(shops.map((shop) => installLocalMenus(shop, platform.url, log)));
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The rich menus on the stand-in, so the console shows them with no set-up: each shop's own, with its
 * name, on its own channel. Drawing loads the canvas and the font, which a real deployment does only in
 * `npm run rich-menu`.
 */
async function installLocalMenus(shop: ShopConfig, platformUrl: string, log: Logger): Promise<void> {
  try {
    const [{ buildMenus }, { installMenus }] = await Promise.all([import("../../../src/rich-menu/build.js"), import("../../../src/rich-menu/install.js")]);
    const { designs, images } = await buildMenus(shop.name ?? shop.id);
    const channelAccessToken = shop.line.channelAccessToken;
    const api = new messagingApi.MessagingApiClient({ channelAccessToken, baseURL: platformUrl });
    const blob = new messagingApi.MessagingApiBlobClient({ channelAccessToken, baseURL: platformUrl });
    await installMenus({ api, blob }, designs, images, [...shop.settings.staffUserIds]);
    log.info({ shop: shop.id, shopName: shop.name }, "rich menus installed on the LINE stand-in");
  } catch (err) {
    log.warn({ err, shop: shop.id }, "rich menus not installed on the LINE stand-in; the console shows none");
  }
}
