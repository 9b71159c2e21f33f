// Installing on the LINE stand-in through the SDK, as on a real channel: one set of menus however often
// it runs, other menus left alone, staff linked; removing takes only ours; the bot keeps links current.
import { HTTPFetchError, messagingApi } from "@line/bot-sdk";
import { PNG } from "pngjs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startLinePlatform } from "@slipline/line-stand-in";
import type { LinePlatform } from "@slipline/line-stand-in";
import { createLogger } from "../../src/log.js";
import { buildMenus } from "../../src/rich-menu/build.js";
import type { BuiltMenus } from "../../src/rich-menu/build.js";
import { installMenus, removeMenus } from "../../src/rich-menu/install.js";
import type { RichMenuClients } from "../../src/rich-menu/install.js";
import { createMenuLinkKeeper } from "../../src/rich-menu/links.js";
import { rareLineCalls } from "../../src/line/rare-calls.js";
import { MENU_ALIASES } from "../../src/rich-menu/menus.js";
import { captureLogs } from "../kit/log-capture.js";
import { startBotHarness } from "../kit/bot-harness.js";
import { lineId, textEvent } from "../kit/webhook.js";

const TOKEN = "rich-menu-test-token";
const OWNER = lineId("U", 0xa01);
const CASHIER = lineId("U", 0xa02);
const CUSTOMER = lineId("U", 0xa03);

let platform: LinePlatform;
/** The install's clients, and the SDK's whole client for the test's own looks at the stand-in. */
let clients: RichMenuClients & { api: messagingApi.MessagingApiClient };
let built: BuiltMenus;
/** The same shop renamed: another set of pictures, so another version of the menus. */
let renamed: BuiltMenus;

beforeAll(async () => {
  built = await buildMenus("ร้านกาแฟดีใจ");
  renamed = await buildMenus("ร้านกาแฟดีใจ สาขา 2");
}, 60_000);
beforeEach(async () => {
  await platform?.close();
  platform = await startLinePlatform({ channelAccessToken: TOKEN });
  clients = {
    api: new messagingApi.MessagingApiClient({ channelAccessToken: TOKEN, baseURL: platform.url }),
    blob: new messagingApi.MessagingApiBlobClient({ channelAccessToken: TOKEN, baseURL: platform.url }),
  };
});
afterAll(async () => {
  await platform?.close();
});

/** Someone else's menu on the same channel (the shop's own, made in LINE's manager). */
async function foreignMenu(): Promise<string> {
  const { richMenuId } = await clients.api.createRichMenu({
    size: { width: 2500, height: 843 },
    selected: false,
    name: "shop's own menu",
    chatBarText: "Menu",
    areas: [{ bounds: { x: 0, y: 0, width: 2500, height: 843 }, action: { type: "message", text: "hello" } }],
  });
  const png = new PNG({ width: 2500, height: 843 });
  await clients.blob.setRichMenuImage(richMenuId, new Blob([PNG.sync.write(png)], { type: "image/png" }));
  return richMenuId;
}

/** The menu linked to a user; none when LINE answers 404 (no link). Any other failure fails the test. */
async function menuOf(userId: string): Promise<string | undefined> {
  try {
    return (await clients.api.getRichMenuIdOfUser(userId)).richMenuId;
  } catch (err) {
    if (err instanceof HTTPFetchError && err.status === 404) return undefined;
    throw err;
  }
}

describe("install and remove", { timeout: 60_000 }, () => {
  it("installs three menus, the customer one as default, the staff one linked to the staff, and two aliases", async () => {
    const report = await installMenus(clients, built.designs, built.images, [OWNER, CASHIER]);
    const { richmenus } = await clients.api.getRichMenuList();
    // Each name carries the set's version (12 hex digits), the same on all three.
    const names = richmenus.map((m) => m.name).sort();
    expect(names.map((name) => name.replace(/#[0-9a-f]{12}$/, ""))).toEqual(["slipline:customer", "slipline:staff", "slipline:staff-customer-view"]);
    expect(new Set(names.map((name) => name.slice(-12))).size).toBe(1);
    expect(report.alreadyInstalled).toBe(false);
    expect((await clients.api.getDefaultRichMenuId()).richMenuId).toBe(report.created.customer);
    expect(await menuOf(OWNER)).toBe(report.created.staff);
    expect(await menuOf(CASHIER)).toBe(report.created.staff);
    expect(await menuOf(CUSTOMER)).toBeUndefined();
    const { aliases } = await clients.api.getRichMenuAliasList();
    expect(aliases).toEqual(
      expect.arrayContaining([
        { richMenuAliasId: MENU_ALIASES.staff, richMenuId: report.created.staff },
        { richMenuAliasId: MENU_ALIASES.staff_customer_view, richMenuId: report.created.staff_customer_view },
      ]),
    );
  });

  it("the same set again changes nothing; a new set replaces ours and leaves the shop's own menu alone; remove takes only ours", async () => {
    const theirs = await foreignMenu();
    const first = await installMenus(clients, built.designs, built.images, [OWNER]);
    const same = await installMenus(clients, built.designs, built.images, [OWNER]);
    expect(same.alreadyInstalled).toBe(true);
    expect(same.created).toEqual(first.created);
    expect((await clients.api.getRichMenuList()).richmenus).toHaveLength(4);
    const second = await installMenus(clients, renamed.designs, renamed.images, [OWNER]);
    expect(second.alreadyInstalled).toBe(false);
    const ids = (await clients.api.getRichMenuList()).richmenus.map((m) => m.richMenuId).sort();
    expect(ids).toEqual([theirs, ...Object.values(second.created)].sort());
    expect(second.replaced).toHaveLength(3);
    expect(await menuOf(OWNER)).toBe(second.created.staff);
    expect((await clients.api.getRichMenuAlias(MENU_ALIASES.staff)).richMenuId).toBe(second.created.staff);

    const removed = await removeMenus(clients);
    expect(removed.removed.sort()).toEqual(Object.values(second.created).sort());
    expect((await clients.api.getRichMenuList()).richmenus.map((m) => m.richMenuId)).toEqual([theirs]);
    expect((await clients.api.getRichMenuAliasList()).aliases).toEqual([]);
    expect(removed.defaultCleared).toBe(true);
    await expect(clients.api.getDefaultRichMenuId()).rejects.toMatchObject({ status: 404 });
    expect(await menuOf(OWNER)).toBeUndefined();
  });

  it("a failure half-way takes back what it made and leaves the earlier menus working", async () => {
    const first = await installMenus(clients, built.designs, built.images, [OWNER]);
    // An image LINE refuses (the wrong size) stops the second run at its second menu.
    const broken = { ...built.images, customer: built.images.staff };
    await expect(installMenus(clients, built.designs, broken, [OWNER])).rejects.toMatchObject({ status: 400 });
    const ids = (await clients.api.getRichMenuList()).richmenus.map((m) => m.richMenuId).sort();
    expect(ids).toEqual(Object.values(first.created).sort());
    expect((await clients.api.getDefaultRichMenuId()).richMenuId).toBe(first.created.customer);
    expect(await menuOf(OWNER)).toBe(first.created.staff);
  });
});

describe("the bot keeping links current", { timeout: 60_000 }, () => {
  it("links the staff menu to a user newly on the staff list and unlinks one taken off, at their next message", async () => {
    const { created } = await installMenus(clients, built.designs, built.images, [OWNER]);
    const staff = new Set([OWNER]);
    const logs = captureLogs();
    // The bot's own rare calls (line/rare-calls.ts), as a shop makes them.
    const api = rareLineCalls({ baseUrl: platform.url, channelAccessToken: TOKEN });
    const keeper = createMenuLinkKeeper({ api, isStaff: (u) => staff.has(u), log: createLogger({ level: "info", destination: logs }), recheckMs: 0 });

    // The owner adds the cashier to STAFF_USER_IDS and takes themselves off (a restart with new lists).
    staff.add(CASHIER);
    staff.delete(OWNER);
    keeper.seen(CASHIER);
    keeper.seen(OWNER);
    keeper.seen(CUSTOMER);
    await keeper.settled();
    expect(await menuOf(CASHIER)).toBe(created.staff);
    expect(await menuOf(OWNER)).toBeUndefined();
    expect(await menuOf(CUSTOMER)).toBeUndefined();

    // A staff member on the customers' view (switched by the menu's own button) keeps it.
    await clients.api.linkRichMenuIdToUser(CASHIER, created.staff_customer_view);
    keeper.seen(CASHIER);
    await keeper.settled();
    expect(await menuOf(CASHIER)).toBe(created.staff_customer_view);
    expect(logs.entries().filter((e) => (e.level as number) >= 40)).toEqual([]);
  });

  it("does nothing, and says nothing, while the menus are not installed", async () => {
    const logs = captureLogs();
    const api = rareLineCalls({ baseUrl: platform.url, channelAccessToken: TOKEN });
    const keeper = createMenuLinkKeeper({ api, isStaff: () => true, log: createLogger({ level: "info", destination: logs }) });
    keeper.seen(OWNER);
    await keeper.settled();
    expect(await menuOf(OWNER)).toBeUndefined();
    expect(logs.entries()).toEqual([]);
  });
});

describe("in the bot", { timeout: 60_000 }, () => {
  it("a staff user's message (or tap) gets them the staff menu; a customer's leaves them on the default", async () => {
    const bot = await startBotHarness({ keepMenuLinks: true, settings: { staffUserIds: new Set([OWNER]) } });
    try {
      const api = new messagingApi.MessagingApiClient({ channelAccessToken: bot.accessToken, baseURL: bot.platform.url });
      const blob = new messagingApi.MessagingApiBlobClient({ channelAccessToken: bot.accessToken, baseURL: bot.platform.url });
      // Installed before the owner was listed: nobody is linked yet.
      const { created } = await installMenus({ api, blob }, built.designs, built.images, []);
      for (const userId of [OWNER, CUSTOMER]) {
        await bot.exchange([textEvent({ source: { type: "user", userId }, replyToken: bot.token(userId), text: "สวัสดีค่ะ" })]);
      }
      await bot.menuLinks?.settled();
      expect((await api.getRichMenuIdOfUser(OWNER)).richMenuId).toBe(created.staff);
      await expect(api.getRichMenuIdOfUser(CUSTOMER)).rejects.toMatchObject({ status: 404 });
    } finally {
      await bot.close();
    }
  });
});
