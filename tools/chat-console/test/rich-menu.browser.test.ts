// Rich menus in the chat console, in headless Chromium: each person sees their own menu under the input box
// (a staff member's linked menu, a customer the default), taps do what the LINE app does, the menu follows
// links live, and a group chat shows none.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { messagingApi } from "@line/bot-sdk";
import type { webhook } from "@line/bot-sdk";
import { startLinePlatform } from "@slipline/line-stand-in";
import type { LinePlatform } from "@slipline/line-stand-in";
import { startConsole } from "../src/console.js";
import type { ChatConsole } from "../src/console.js";
import { DEMO_GROUPS, DEMO_PEOPLE } from "@slipline/line-stand-in";
import { CHROMIUM_PATH, openConsole } from "./console-driver.js";
import type { ConsolePage } from "./console-driver.js";
import { startStandInBot } from "./stand-in-bot.js";
import type { StandInBot } from "./stand-in-bot.js";
import { menuPng, menuRequest, pngBlob } from "../../line-stand-in/test/rich-menu-fixtures.js";

const SECRET = "rich-menu-browser-secret";
const somchai = DEMO_PEOPLE[0]!;
const nok = DEMO_PEOPLE[2]!;
const customersGroup = DEMO_GROUPS[1]!;

let platform: LinePlatform;
let bot: StandInBot;
let chat: ChatConsole;
let ui: ConsolePage;
let api: messagingApi.MessagingApiClient;
const menus = { staff: "", staffMore: "", customers: "" };

async function readyMenu(request: messagingApi.RichMenuRequest, colours: [number, number, number][]): Promise<string> {
  const blob = new messagingApi.MessagingApiBlobClient({ channelAccessToken: "t", baseURL: platform.url });
  const { richMenuId } = await api.createRichMenu(request);
  await blob.setRichMenuImage(richMenuId, pngBlob(menuPng(800, 270, colours)));
  return richMenuId;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: apt-get install -y chromium`);
  platform = await startLinePlatform();
  bot = await startStandInBot({ platformUrl: platform.url, channelSecret: SECRET });
  chat = await startConsole({ platform, botWebhookUrl: bot.webhookUrl, channelSecret: SECRET });
  api = new messagingApi.MessagingApiClient({ channelAccessToken: "t", baseURL: platform.url });

  menus.staff = await readyMenu(
    menuRequest(
      [
        { type: "postback", label: "Sales", data: "menu=sales", displayText: "Today's sales please" },
        { type: "postback", label: "Make a QR", data: "menu=qr", inputOption: "openKeyboard", fillInText: "qr " },
        { type: "richmenuswitch", label: "More", richMenuAliasId: "staff-more", data: "switch=more" },
      ],
      { name: "staff main", chatBarText: "Staff menu", selected: true },
    ),
    [
      [6, 199, 85],
      [66, 101, 154],
      [240, 163, 94],
    ],
  );
  menus.staffMore = await readyMenu(
    menuRequest(
      [
        { type: "richmenuswitch", label: "Back", richMenuAliasId: "staff-main", data: "switch=main" },
        { type: "postback", label: "Close menu", data: "menu=close", inputOption: "closeRichMenu" },
      ],
      { name: "staff more", chatBarText: "Staff menu", selected: true },
    ),
    [
      [120, 120, 120],
      [200, 60, 60],
    ],
  );
  menus.customers = await readyMenu(
    menuRequest(
      [
        { type: "message", label: "Help", text: "help" },
        { type: "uri", label: "Pay", uri: bot.imageUrl },
      ],
      { name: "customers", chatBarText: "Shop menu", selected: false },
    ),
    [
      [250, 210, 60],
      [90, 180, 220],
    ],
  );
  await api.createRichMenuAlias({ richMenuAliasId: "staff-main", richMenuId: menus.staff });
  await api.createRichMenuAlias({ richMenuAliasId: "staff-more", richMenuId: menus.staffMore });
  await api.setDefaultRichMenu(menus.customers);
  await api.linkRichMenuIdToUser(somchai.userId, menus.staff);

  ui = await openConsole(chat.url);
});

afterAll(async () => {
  await ui?.close();
  await chat?.close();
  await bot?.close();
  await platform?.close();
});

/** Waits until the page shows this menu (the page follows changes on its own, through the event stream). */
async function showsMenu(richMenuId: string, source: "linked" | "default"): Promise<void> {
  await ui.page.locator(`#rich-menu[data-rich-menu-id="${richMenuId}"][data-source="${source}"]`).waitFor();
}

const areaNames = (): Promise<string[]> =>
  ui
    .richMenu()
    .locator(".rich-menu-area")
    .evaluateAll((nodes) => nodes.map((n) => (n as unknown as { ariaLabel: string }).ariaLabel));
const expanded = (): Promise<string | null> => ui.richMenu().locator(".rich-menu-bar").getAttribute("aria-expanded");
const lastEvent = (): webhook.Event | undefined => bot.received.at(-1);

describe("rich menus in the chat console", () => {
  it("a staff member sees their linked menu under the input box, open, scaled to the column, its areas over it", async () => {
    await showsMenu(menus.staff, "linked");
    const menu = ui.richMenu();
    await expect(menu.isVisible()).resolves.toBe(true);
    await expect(menu.locator(".rich-menu-bar").textContent()).resolves.toBe("Staff menu");
    await expect(expanded()).resolves.toBe("true");
    expect(await ui.waitForImages(menu)).toEqual([800]);
    expect(await areaNames()).toEqual(["Sales", "Make a QR", "More"]);

    // Below the input box, as wide as the chat column, and the areas where their bounds say.
    const composer = (await ui.page.locator("#composer").boundingBox())!;
    const image = (await menu.locator(".rich-menu-image").boundingBox())!;
    const column = (await ui.page.locator("#messages").boundingBox())!;
    expect(image.y).toBeGreaterThanOrEqual(composer.y + composer.height);
    expect(image.width).toBeCloseTo(column.width, 0);
    expect(image.height).toBeCloseTo((image.width * 270) / 800, 0);
    const areas = await menu.locator(".rich-menu-area").evaluateAll((nodes) =>
      nodes.map((n) => {
        const box = (n as unknown as { getBoundingClientRect(): { x: number; y: number; width: number; height: number } }).getBoundingClientRect();
        return { x: box.x, y: box.y, width: box.width, height: box.height };
      }),
    );
    const scale = image.width / 800;
    for (const [i, area] of areas.entries()) {
      expect(area.x - image.x, `area ${i} x`).toBeCloseTo(i * 266 * scale, 0);
      expect(area.width, `area ${i} width`).toBeCloseTo((i === 2 ? 268 : 266) * scale, 0);
      expect(area.y).toBeCloseTo(image.y, 0);
      expect(area.height).toBeCloseTo(image.height, 0);
    }
    await ui.screenshot("rich-menu-staff");
  });

  it("a postback area sends the postback; its displayText shows as the person's own message", async () => {
    await ui.tapRichMenuArea("Sales");
    await ui.page.locator("#messages .msg.user.mine", { hasText: "Today's sales please" }).waitFor();
    await ui.waitForBotMessage("Postback menu=sales");
    expect(lastEvent()).toMatchObject({ type: "postback", source: { type: "user", userId: somchai.userId }, postback: { data: "menu=sales" } });
  });

  it("an openKeyboard area fills the input, focuses it and closes the menu", async () => {
    await ui.tapRichMenuArea("Make a QR");
    await ui.waitForBotMessage("Postback menu=qr");
    await expect(ui.page.locator("#text").inputValue()).resolves.toBe("qr ");
    await expect(ui.page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id)).resolves.toBe("text");
    await expect(expanded()).resolves.toBe("false");
    await expect(ui.richMenu().locator(".rich-menu-panel").isHidden()).resolves.toBe(true);
    // The chat bar is still there to open it again.
    await expect(ui.richMenu().locator(".rich-menu-bar").isVisible()).resolves.toBe(true);
    await ui.page.locator("#text").fill("");
  });

  it("a richmenuswitch area switches the menu, and the bot gets the postback with its params", async () => {
    await ui.richMenu().locator(".rich-menu-bar").click();
    await expect(expanded()).resolves.toBe("true");
    await ui.tapRichMenuArea("More");
    await showsMenu(menus.staffMore, "linked");
    await ui.waitForBotMessage('Postback switch=more {"newRichMenuAliasId":"staff-more","status":"SUCCESS"}');
    expect(lastEvent()).toMatchObject({ postback: { data: "switch=more", params: { newRichMenuAliasId: "staff-more", status: "SUCCESS" } } });
    expect(platform.richMenuFor(somchai.userId)?.menu.richMenuId).toBe(menus.staffMore);
    // Still open, as in LINE when switching tabs.
    await expect(expanded()).resolves.toBe("true");
    expect(await areaNames()).toEqual(["Back", "Close menu"]);
    await ui.waitForImages(ui.richMenu());
    await ui.screenshot("rich-menu-switched");

    await ui.tapRichMenuArea("Close menu");
    await ui.waitForBotMessage("Postback menu=close");
    await expect(expanded()).resolves.toBe("false");

    // The areas are buttons a keyboard reaches: back to the main menu with Enter.
    await ui.richMenu().locator(".rich-menu-bar").press("Enter");
    await expect(expanded()).resolves.toBe("true");
    await ui.page.keyboard.press("Tab");
    await expect(ui.page.evaluate(() => (globalThis as unknown as { document: { activeElement: { ariaLabel: string } } }).document.activeElement.ariaLabel)).resolves.toBe("Back");
    await ui.page.keyboard.press("Enter");
    await showsMenu(menus.staff, "linked");
    await ui.waitForBotMessage("Postback switch=main");
  });

  it("a customer on the default menu sees it closed until the chat bar opens it; a message area speaks for them", async () => {
    await ui.chooseWho(nok.name);
    await showsMenu(menus.customers, "default");
    await expect(ui.richMenu().locator(".rich-menu-bar").textContent()).resolves.toBe("Shop menu");
    await expect(expanded()).resolves.toBe("false");
    await expect(ui.richMenu().locator(".rich-menu-panel").isHidden()).resolves.toBe(true);
    await ui.richMenu().locator(".rich-menu-bar").click();
    expect(await ui.waitForImages(ui.richMenu())).toEqual([800]);
    expect(await areaNames()).toEqual(["Help", "Pay"]);
    await ui.screenshot("rich-menu-customer");

    await ui.tapRichMenuArea("Help");
    await ui.page.locator("#messages .msg.user.mine", { hasText: "help" }).waitFor();
    await ui.waitForBotMessage("You said: help");
    expect(lastEvent()).toMatchObject({ type: "message", source: { type: "user", userId: nok.userId }, message: { type: "text", text: "help" } });
  });

  it("a uri area opens its link in a new tab", async () => {
    const received = bot.received.length;
    const popup = ui.page.waitForEvent("popup");
    await ui.tapRichMenuArea("Pay");
    const tab = await popup;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(bot.imageUrl);
    await tab.close();
    expect(bot.received).toHaveLength(received);
  });

  it("follows links and the default live", async () => {
    await api.linkRichMenuIdToUser(nok.userId, menus.staff);
    await showsMenu(menus.staff, "linked");
    await api.unlinkRichMenuIdFromUser(nok.userId);
    await showsMenu(menus.customers, "default");
    await api.cancelDefaultRichMenu();
    await ui.page.locator("#rich-menu[hidden]:not([data-rich-menu-id])").waitFor({ state: "attached" });
    await api.setDefaultRichMenu(menus.customers);
    await showsMenu(menus.customers, "default");
  });

  it("shows no menu in a group chat", async () => {
    await ui.chooseChat(customersGroup.name);
    await ui.page.locator("#rich-menu").waitFor({ state: "hidden" });
    await expect(ui.page.locator("#rich-menu .rich-menu-area").count()).resolves.toBe(0);
    await ui.chooseWho(somchai.name);
    await expect(ui.page.locator("#chat-id").textContent()).resolves.toBe(customersGroup.groupId);
    await ui.page.locator("#rich-menu").waitFor({ state: "hidden" });
    await ui.screenshot("rich-menu-group");
    await ui.chooseChat("1:1");
    await showsMenu(menus.staff, "linked");
  });
});
