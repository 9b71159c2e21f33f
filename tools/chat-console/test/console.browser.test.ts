// The chat console in headless Chromium against a stand-in bot: typing, rendering, chips, postbacks, groups.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { startLinePlatform } from "@slipline/line-stand-in";
import type { LinePlatform } from "@slipline/line-stand-in";
import { startConsole } from "../src/console.js";
import { DEMO_GROUPS, DEMO_PEOPLE } from "@slipline/line-stand-in";
import type { ChatConsole } from "../src/console.js";
import { CHROMIUM_PATH, openConsole } from "./console-driver.js";
import type { ConsolePage } from "./console-driver.js";
import { startStandInBot } from "./stand-in-bot.js";
import type { StandInBot } from "./stand-in-bot.js";

const SECRET = "console-test-secret";
const somchai = DEMO_PEOPLE[0]!;
const staffGroup = DEMO_GROUPS[0]!;

let platform: LinePlatform;
let bot: StandInBot;
let chat: ChatConsole;
let ui: ConsolePage;

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: apt-get install -y chromium`);
  platform = await startLinePlatform();
  bot = await startStandInBot({ platformUrl: platform.url, channelSecret: SECRET });
  chat = await startConsole({ platform, botWebhookUrl: bot.webhookUrl, channelSecret: SECRET });
  ui = await openConsole(chat.url);
});

afterAll(async () => {
  await ui?.close();
  await chat?.close();
  await bot?.close();
  await platform?.close();
});

describe("chat console in a browser", () => {
  it("shows what I type, and the bot's text, image, Flex bubble and quick replies", async () => {
    await ui.send("hi");
    await ui.page.locator("#messages .msg.user.mine", { hasText: "hi" }).waitFor();
    const reply = await ui.waitForBotMessage("You said: hi (mention: no)");

    expect(bot.badSignatures).toBe(0);
    const event = bot.received.at(-1);
    expect(event).toMatchObject({ type: "message", source: { type: "user", userId: somchai.userId }, message: { type: "text", text: "hi" } });
    expect(event?.webhookEventId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);

    // The image message and the hero image both load from the bot's http loopback server.
    const widths = await ui.waitForImages(reply);
    expect(widths).toEqual([240, 240]);

    const bubble = reply.locator(".flex-bubble");
    await expect(bubble.locator(".flex-header").textContent()).resolves.toBe("Today's checks");
    await expect(bubble.locator(".flex-body").textContent()).resolves.toContain("฿1,500.00");
    const button = bubble.locator(".flex-button", { hasText: "Next page" });
    await expect(button.evaluate((b) => (globalThis as unknown as StyleWindow).getComputedStyle(b).backgroundColor)).resolves.toBe("rgb(255, 0, 0)");

    expect(await ui.quickReplyLabels()).toEqual(["Today", "Page 3"]);
    await ui.screenshot("console-reply");
    await ui.screenshot("console-reply-bubble", bubble);
  });

  it("renders Flex layout: flex ratios, sizes, weights, colours, header colour and separators", async () => {
    const reply = ui.page.locator("#messages .msg.bot").last();
    const layout = await reply.evaluate((element) => {
      // The page's DOM, as far as this test reads it (the test's own types have no DOM).
      interface Node {
        getBoundingClientRect(): { width: number };
      }
      interface Root {
        querySelector(selector: string): Node | null;
        querySelectorAll(selector: string): ArrayLike<Node>;
      }
      const row = element as unknown as Root;
      const getComputedStyleOf = (node: unknown, property: string): string => (globalThis as unknown as StyleWindow).getComputedStyle(node).getPropertyValue(property);
      const q = (selector: string): Node => row.querySelector(selector) ?? { getBoundingClientRect: () => ({ width: 0 }) };
      const texts = Array.from(row.querySelectorAll(".flex-body .flex-box[data-layout=horizontal] > .flex-text"));
      const price = row.querySelector(".flex-body .flex-text");
      return {
        ratio:
          texts.length === 2
            ? q(".flex-body .flex-box[data-layout=horizontal] > .flex-text:nth-child(2)").getBoundingClientRect().width /
              q(".flex-body .flex-box[data-layout=horizontal] > .flex-text:nth-child(1)").getBoundingClientRect().width
            : 0,
        priceSize: price ? getComputedStyleOf(price, "font-size") : "",
        priceWeight: price ? getComputedStyleOf(price, "font-weight") : "",
        headerBackground: getComputedStyleOf(row.querySelector(".flex-header > .flex-box"), "background-color"),
        headerColor: getComputedStyleOf(row.querySelector(".flex-header .flex-text"), "color"),
        footerSeparator: getComputedStyleOf(row.querySelector(".flex-footer"), "border-top-style"),
        separators: row.querySelectorAll(".flex-body .flex-separator").length,
        bubbleWidth: q(".flex-bubble").getBoundingClientRect().width,
      };
    });
    expect(layout.ratio).toBeGreaterThan(1.9);
    expect(layout.ratio).toBeLessThan(2.1);
    expect(layout).toMatchObject({
      priceSize: "22px",
      priceWeight: "700",
      headerBackground: "rgb(6, 199, 85)",
      headerColor: "rgb(255, 255, 255)",
      footerSeparator: "solid",
      separators: 1,
      bubbleWidth: 300,
    });
  });

  it("a postback quick reply and a postback button each produce the next reply", async () => {
    await ui.tapQuickReply("Page 3");
    await ui.waitForBotMessage("Page 3");
    expect(bot.received.at(-1)).toMatchObject({ type: "postback", postback: { data: "page=3" } });
    // No displayText on that chip: nothing appears as sent by me.
    await expect(ui.page.locator("#messages .msg.user.mine").last().textContent()).resolves.not.toContain("Page 3");

    await ui.tapButton("Next page");
    await ui.page.locator("#messages .msg.user.mine", { hasText: "Next page please" }).waitFor();
    await ui.waitForBotMessage("Page 2");
    expect(bot.received.at(-1)).toMatchObject({ type: "postback", postback: { data: "page=2" } });
  });

  it("a message quick reply sends its text as me", async () => {
    expect(await ui.quickReplyLabels()).toEqual(["Today"]);
    await ui.tapQuickReply("Today");
    await ui.page.locator("#messages .msg.user.mine", { hasText: "today" }).waitFor();
    await ui.waitForBotMessage("Today: 3 checks");
    // The last bot message has no quick reply: the chips are gone, as in LINE.
    expect(await ui.quickReplyLabels()).toEqual([]);
  });

  it("shows a message LINE refuses as a red notice with the details", async () => {
    await ui.send("bad");
    const notice = await ui.waitForRejection("messages[0].text");
    await expect(notice.textContent()).resolves.toContain("May not be empty");
    await ui.screenshot("console-rejected");
  });

  it("renders a carousel side by side", async () => {
    await ui.send("carousel");
    const reply = await ui.waitForBotMessage("Today's checks");
    await expect(reply.locator(".flex-carousel > .flex-bubble").count()).resolves.toBe(3);
  });

  it("in a group, @slipline becomes a mention of the bot and replies go to the group", async () => {
    await ui.chooseChat(staffGroup.name);
    await expect(ui.page.locator("#chat-id").textContent()).resolves.toBe(staffGroup.groupId);
    await expect(ui.page.locator("#messages .msg").count()).resolves.toBe(0);
    await ui.send("@slipline hi");
    await ui.waitForBotMessage("You said: @slipline hi (mention: yes)");
    expect(bot.received.at(-1)).toMatchObject({
      source: { type: "group", groupId: staffGroup.groupId, userId: somchai.userId },
      message: { mention: { mentionees: [{ index: 0, length: 9, type: "user", isSelf: true }] } },
    });
    expect(platform.sent.at(-1)?.chatId).toBe(staffGroup.groupId);
    await ui.screenshot("console-group");
  });

  it("another person in the group: my messages on the left with a name, follow in 1:1", async () => {
    await ui.chooseWho("Customer Nok");
    await expect(ui.page.locator("#messages .msg.user:not(.mine)").first().textContent()).resolves.toContain("Somchai (staff)");
    await ui.chooseChat("1:1");
    await ui.page.locator("#greet").click();
    await ui.waitForBotMessage("Hello from follow");
    expect(bot.received.at(-1)).toMatchObject({ type: "follow", source: { type: "user", userId: DEMO_PEOPLE[2]!.userId } });
  });
});

/** The tsconfig has no DOM lib: the one browser function the page callbacks use. */
interface StyleWindow {
  getComputedStyle(node: unknown): { backgroundColor: string; getPropertyValue(property: string): string };
}
