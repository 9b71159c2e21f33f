// The product as `npm start` runs it with nothing configured, driven end to end in headless Chromium:
// QR with the amount, history paging, the Thai balance, and the group rule, with screenshots of each.
import { zonedParts } from "../../src/time/calendar.js";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_GROUPS, DEMO_PEOPLE } from "@slipline/line-stand-in";
import { formatCalendarDate } from "../../src/render/format.js";
import { DEMO_SECRETS, DEMO_STORE_NAMES } from "@slipline/slip-sandbox";
import type { EntryProcess } from "../kit/entry-process.js";
import { startLocalModeMain } from "../kit/local-mode-main.js";
import { CHROMIUM_PATH, openConsole } from "../../tools/chat-console/test/console-driver.js";
import type { ConsolePage } from "../../tools/chat-console/test/console-driver.js";

const SCREENSHOT_DIR = fileURLToPath(new URL("../../test-output/browser/", import.meta.url));
/** Start-up compiles TypeScript on the fly on a shared 2-core machine: generous, but bounded. */
const START_TIMEOUT_MS = 60_000;
/** Bot replies go through the sandbox; waits are generous upper bounds, not speed checks. */
const REPLY = { timeoutMs: 20_000 } as const;
const staffGroup = DEMO_GROUPS.find((g) => g.staff)!;
const customerGroup = DEMO_GROUPS.find((g) => !g.staff)!;
const customer = DEMO_PEOPLE.find((p) => p.role === "customer")!;
// jsqr is CommonJS typed as an ES default export: under NodeNext the decoder is the module's `default`.
const jsQR = jsQRModule.default;

let product: EntryProcess | undefined;
let consoleUrl = "";
let sandboxUrl = "";
let ui: ConsolePage | undefined;

async function shoot(name: string, scope?: Locator): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  if (scope === undefined) await ui!.page.screenshot({ path });
  else await scope.screenshot({ path });
}

/** What each history row says (time, amount, status, names, ref), in order. */
async function historyRows(reply: Locator): Promise<string[]> {
  // The body box holds the summary, a separator, one vertical box per row, then the page line.
  return reply.locator(".flex-body > .flex-box > .flex-box[data-layout=vertical]").allTextContents();
}

/**
 * The card's "Page N of M" line, read from its own text element: the message's whole text also holds the
 * time it arrived, and "Page 1 of 1" followed by "09:13" once read as page 1 of 109.
 */
async function pageLine(reply: Locator): Promise<string> {
  const line = reply.locator(".flex-body .flex-text").filter({ hasText: /^Page \d+ of \d+$/ });
  await expect(line.count()).resolves.toBe(1);
  return (await line.textContent()) ?? "";
}

/** The card's "N checks" summary as a number. */
async function checkCount(reply: Locator): Promise<number> {
  const summary = reply.locator(".flex-body .flex-text").filter({ hasText: /^[\d,]+ checks?$/ });
  await expect(summary.count()).resolves.toBe(1);
  return Number(((await summary.textContent()) ?? "").replace(/[^\d]/g, ""));
}

/** `2026-11-24` for the Bangkok day `at` is in. */
function formatIsoDateInBangkok(at: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Bangkok" }).format(at);
}

/** Reads the QR in a PNG the way a phone camera would. */
function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: apt-get install -y chromium`);
  // `npm start` with nothing configured: no LINE_ or SLIP_ variables, a free port, a throwaway database.
  const local = await startLocalModeMain({}, START_TIMEOUT_MS);
  product = local.main;
  consoleUrl = `${local.url}/`;
  // The QR must come from the sandbox, whose address only the start-up log says.
  sandboxUrl = local.sandboxUrl;
  ui = await openConsole(consoleUrl, { width: 1200, height: 1600 });
}, START_TIMEOUT_MS + 30_000);

afterAll(async () => {
  try {
    await ui?.close();
  } finally {
    await product?.stop();
  }
}, 30_000);

describe("npm start with nothing configured, in a browser", { timeout: 90_000 }, () => {
  it("qr 150: a card with ฿150.00 and the QR loaded from the sandbox, plus the image to save", async () => {
    const c = ui!;
    await c.send("qr 150");
    const reply = await c.waitForBotMessage("฿150.00", REPLY);
    const bubble = reply.locator(".flex-bubble");
    await expect(bubble.textContent()).resolves.toMatch(/PromptPay QR[\s\S]*฿150\.00/);

    // Both images load with real pixels: the card's hero (512) and the separate image message's preview (240).
    const widths = await c.waitForImages(reply, REPLY);
    expect(widths.every((w) => w > 0)).toBe(true);
    const hero = bubble.locator(".flex-hero img");
    const image = reply.locator("[data-kind=image] img");
    await expect(hero.count()).resolves.toBe(1);
    await expect(image.count()).resolves.toBe(1);
    const heroWidth = await hero.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    const imageWidth = await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    expect(heroWidth).toBe(512);
    expect(imageWidth).toBe(240);

    // Both come from the embedded sandbox, and the QR a customer scans asks for 150.00 baht (EMVCo tag 54).
    const heroSrc = (await hero.getAttribute("src")) ?? "";
    const imageSrc = (await image.getAttribute("src")) ?? "";
    expect(heroSrc.startsWith(`${sandboxUrl}/`)).toBe(true);
    expect(imageSrc.startsWith(`${sandboxUrl}/`)).toBe(true);
    const png = Buffer.from(await (await fetch(heroSrc)).arrayBuffer());
    const payload = decodeQr(png);
    expect(payload).toMatch(/^000201/);
    expect(payload).toContain("5406150.00");

    await expect(reply.locator(".notice").count()).resolves.toBe(0);
    await shoot("qr-150-chat");
    await shoot("qr-150-reply", reply);
  });

  it("history: page 1, then the next-page button shows page 2 with other rows", async () => {
    const c = ui!;
    await c.send("history");
    const first = await c.waitForBotMessage(/Page 1 of \d+/, REPLY);
    // Expectations come from what the card itself says (its count of checks), never from the hour: the
    // sandbox keeps at least 25 checks in "today" at any hour, so there are always several pages.
    const total = await checkCount(first);
    expect(total).toBeGreaterThanOrEqual(25);
    const pages = Math.ceil(total / 10);
    await expect(pageLine(first)).resolves.toBe(`Page 1 of ${pages}`);
    const firstRows = await historyRows(first);
    expect(firstRows).toHaveLength(10);
    await expect(first.locator(".flex-header").textContent()).resolves.toContain("Slip checks");
    await shoot("history-page-1", first.locator(".flex-bubble"));

    await c.tapButton("Next page");
    const second = await c.waitForBotMessage(/Page 2 of \d+/, REPLY);
    await expect(pageLine(second)).resolves.toBe(`Page 2 of ${pages}`);
    await expect(second.locator(".flex-header").textContent()).resolves.toContain("Today ·");
    const secondRows = await historyRows(second);
    expect(secondRows).toHaveLength(Math.min(10, total - 10));
    // Each row carries its own transfer reference, so no row of page 2 repeats one of page 1.
    expect(secondRows.filter((row) => firstRows.includes(row))).toEqual([]);
    await expect(second.locator(".flex-button", { hasText: "Previous page" }).count()).resolves.toBe(1);
    // The paging filters are offered as chips, as in LINE.
    expect((await c.quickReplyLabels()).length).toBeGreaterThan(0);
    await shoot("history-page-2", second.locator(".flex-bubble"));
    await shoot("history-page-2-chat");
  });

  it("โทเคน: the balance card in Thai for the demo shop", async () => {
    const c = ui!;
    await c.send("โทเคน");
    const reply = await c.waitForBotMessage("ร้านกาแฟดีใจ", REPLY);
    const text = (await reply.locator(".flex-bubble").textContent()) ?? "";
    expect(text).toContain("โทเคน");
    // The expiry the sandbox itself reports, as a Thai date in the Buddhist era (2026 is 2569).
    const account = (await (await fetch(`${sandboxUrl}/api/account/info`, { headers: { Authorization: `Bearer ${DEMO_SECRETS.shop}` } })).json()) as {
      data: { expiresAt: string };
    };
    const expiry = zonedParts(new Date(account.data.expiresAt), "Asia/Bangkok");
    expect(text).toContain(formatCalendarDate(expiry, "th"));
    expect(formatCalendarDate(expiry, "th")).toContain(String(expiry.year + 543));
    await shoot("balance-th", reply.locator(".flex-bubble"));
    await shoot("balance-th-chat");
  });

  it("ยอดวันนี้ and has it arrived?: today's summary, then a simulated transfer found by the QR card's button and the ask-again chip", async () => {
    const c = ui!;
    await c.send("คิวอาร์ 321");
    const qr = await c.waitForBotMessage("฿321.00", REPLY);
    await expect(qr.locator(".flex-button", { hasText: "เช็คยอดเข้า" }).count()).resolves.toBe(1);
    await c.tapButton("เช็คยอดเข้า");
    // The tap shows what a person would type; the QR's time stays in the button's data.
    await c.page.locator("#messages .msg.user.mine", { hasText: "เช็คยอด 321" }).last().waitFor({ timeout: REPLY.timeoutMs });
    const notYet = await c.waitForBotMessage("ยังไม่พบสลิปยอดนี้ที่ผ่านการตรวจค่ะ", REPLY);
    await expect(notYet.textContent()).resolves.toMatch(/ยอด 321 บาท เข้าหรือยัง[\s\S]*วันนี้ ตั้งแต่ \d{2}:\d{2} น\./);
    await expect(c.page.locator("#messages").textContent()).resolves.not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    // The "ask again" chip: the chat shows the same typed words, never the QR's instant.
    expect(await c.quickReplyLabels()).toEqual(["เช็คอีกครั้ง"]);
    const userLines = c.page.locator("#messages .msg.user.mine", { hasText: "เช็คยอด 321" });
    const tapsSoFar = await userLines.count();
    await c.tapQuickReply("เช็คอีกครั้ง");
    await expect.poll(() => userLines.count(), { timeout: REPLY.timeoutMs }).toBe(tapsSoFar + 1);
    await c.waitForBotMessage("ยังไม่พบสลิปยอดนี้ที่ผ่านการตรวจค่ะ", REPLY);

    // A customer transfers ฿321 to the demo shop (the console's button, through the sandbox's local route).
    await c.page.fill("#pay-amount", "321");
    await c.page.click("#pay");
    await c.page.getByText(/paid ร้านกาแฟดีใจ ฿321\.00/).waitFor({ timeout: REPLY.timeoutMs });
    await c.tapButton("เช็คยอดเข้า");
    const arrived = await c.waitForBotMessage("เข้าแล้ว 1 รายการ", REPLY);
    await expect(arrived.locator(".flex-bubble").textContent()).resolves.toContain("ยอด 321 บาท เข้าหรือยัง");
    await expect(c.page.locator("#messages").textContent()).resolves.not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    await shoot("paid-arrived", arrived.locator(".flex-bubble"));

    await c.send("ยอดวันนี้");
    const summary = await c.waitForBotMessage("สรุปยอด", REPLY);
    // The same count the sandbox gives for today, asked for here over HTTP.
    const today = formatIsoDateInBangkok(new Date());
    const res = await fetch(`${sandboxUrl}/api/slip-history?from=${today}&to=${today}&limit=1`, {
      headers: { Authorization: `Bearer ${DEMO_SECRETS.shop}` },
    });
    const total = ((await res.json()) as { data: { pagination: { total: number } } }).data.pagination.total;
    await expect(summary.locator(".flex-bubble").textContent()).resolves.toContain(`ตรวจ ${total.toLocaleString("en-US")} สลิป`);
    await shoot("summary-today-th", summary.locator(".flex-bubble"));
  });

  it("rich menus with no set-up: staff see theirs, and a tap on ประวัติวันนี้ shows today's history", async () => {
    const c = ui!;
    const menu = c.richMenu();
    await menu.waitFor({ state: "visible", timeout: REPLY.timeoutMs });
    await expect(menu.locator(".rich-menu-bar").textContent()).resolves.toContain("เมนูพนักงาน");
    for (const name of ["สร้าง QR", "ประวัติวันนี้", "ยอดวันนี้", "โทเคนคงเหลือ", "เช็คยอดเข้า", "วิธีใช้", "ดูเมนูลูกค้า"]) {
      await expect(menu.getByRole("button", { name, exact: true }).count(), name).resolves.toBe(1);
    }
    await c.waitForImages(menu, REPLY);
    await shoot("rich-menu-staff");
    await c.tapRichMenuArea("ประวัติวันนี้");
    // The tap shows as the person's own words, and the bot answers it as the typed command.
    await c.page.locator("#messages .msg.user.mine", { hasText: "ประวัติวันนี้" }).last().waitFor({ timeout: REPLY.timeoutMs });
    await c.waitForBotMessage(/หน้า 1 จาก \d+/, REPLY);
    // "QR" opens the keyboard with the command word, for the amount.
    await c.tapRichMenuArea("สร้าง QR");
    await expect(c.page.locator("#text").inputValue()).resolves.toBe("คิวอาร์ ");
    await c.page.fill("#text", "");
  });

  it("in the staff group: @slipline help gets the help card, a plain chat line gets no answer", async () => {
    const c = ui!;
    await c.chooseChat(staffGroup.name);
    await expect(c.page.locator("#chat-id").textContent()).resolves.toBe(staffGroup.groupId);

    await c.send("@slipline help");
    const help = await c.waitForBotMessage("How to use", REPLY);
    await expect(help.locator(".flex-bubble").textContent()).resolves.toMatch(/qr[\s\S]*history[\s\S]*balance/);
    // The QR chip opens the keyboard with the QR word typed, and the bot says where the amount goes.
    await c.tapQuickReply(/^qr$/);
    await c.waitForBotMessage("Type the amount after it, like “qr 150”, and send.", REPLY);
    await expect(c.page.inputValue("#text")).resolves.toBe("qr ");
    await c.page.fill("#text", "");

    const bot = c.page.locator("#messages .msg.bot:not(.typing-row)");
    const before = await bot.count();
    await c.send("สวัสดีครับ ทุกคน");
    await c.page.locator("#messages .msg.user.mine", { hasText: "สวัสดีครับ ทุกคน" }).waitFor({ timeout: REPLY.timeoutMs });
    // The barrier: the bot handles a chat's events in order, so an answer to the chat line would come before
    // the answer to a command sent afterwards, which must be the only new bot message.
    await c.send("@slipline id");
    await c.waitForBotMessage(staffGroup.groupId, REPLY);
    expect(await bot.count()).toBe(before + 1);
    // LINE refused nothing (typing dots are for 1:1 chats only, for example).
    await expect(c.page.locator("#messages .notice").count()).resolves.toBe(0);
    await shoot("group-help-and-chat");
    await shoot("group-help", help.locator(".flex-bubble"));
  });

  it("as a customer: a QR that pays the shop, no balance, and in the group with customers nothing private", async () => {
    const c = ui!;
    await c.chooseWho(customer.name);
    await c.chooseChat("1:1");
    await c.send("ยอด");
    const refused = await c.waitForBotMessage("ทางร้านจะตรวจสอบแล้วรีบตอบกลับนะคะ", REPLY);
    await expect(refused.textContent()).resolves.not.toMatch(/ร้านกาแฟดีใจ|โทเคน/);
    await c.send("qr 0899999999 500");
    await c.waitForBotMessage("only make QR codes that pay this shop", REPLY);
    // The customers' menu: pay by QR, contact the shop, how to pay; nothing of the staff's.
    const menu = c.richMenu();
    await menu.getByRole("button", { name: "จ่ายด้วย QR", exact: true }).waitFor({ timeout: REPLY.timeoutMs });
    await expect(menu.locator(".rich-menu-bar-text").textContent()).resolves.toBe("เมนู");
    for (const name of ["จ่ายด้วย QR", "ติดต่อร้าน", "วิธีจ่ายเงิน"]) {
      await expect(menu.getByRole("button", { name, exact: true }).count(), name).resolves.toBe(1);
    }
    await expect(menu.getByRole("button", { name: "ประวัติวันนี้" }).count()).resolves.toBe(0);
    await shoot("rich-menu-customer");
    await c.tapRichMenuArea("วิธีจ่ายเงิน");
    await c.waitForBotMessage("ชำระเงินด้วย QR พร้อมเพย์", REPLY);

    await c.chooseChat(customerGroup.name);
    // LINE shows no rich menu in a group.
    await expect(c.richMenu().isHidden()).resolves.toBe(true);
    const bot = c.page.locator("#messages .msg.bot:not(.typing-row)");
    const before = await bot.count();
    await c.send("history");
    await c.page.locator("#messages .msg.user.mine", { hasText: "history" }).last().waitFor({ timeout: REPLY.timeoutMs });
    // The barrier, as in the staff group: the answer to the next message comes after any answer to this one.
    await c.send("@slipline ยอด");
    await c.waitForBotMessage("ทางร้านจะตรวจสอบแล้วรีบตอบกลับนะคะ", REPLY);
    expect(await bot.count()).toBe(before + 1);
    await c.send("คิวอาร์ 99");
    await c.waitForBotMessage("฿99.00", REPLY);
    await shoot("customer-group");
  });

  it("a staff member in the group with customers gets what customers get there; a newcomer in the staff group hears who sees its data", async () => {
    const c = ui!;
    const staffMember = DEMO_PEOPLE.find((p) => p.role === "staff")!;
    await c.chooseWho(staffMember.name);
    await c.chooseChat(customerGroup.name);
    const bot = c.page.locator("#messages .msg.bot:not(.typing-row)");
    await c.send("qr 150");
    const card = await c.waitForBotMessage("฿150.00", REPLY);
    // The customers' QR card: no "check payment" button (that, and the payment watch, are for staff places).
    await expect(card.locator(".flex-button").count()).resolves.toBe(0);
    await c.send("@slipline ยอดวันนี้");
    const pointer = await c.waitForBotMessage(/แชตส่วนตัว|แชทส่วนตัว/, REPLY);
    await expect(pointer.textContent()).resolves.not.toMatch(/฿|บาท|รายการ/);

    // Joining the group with customers: silence. The answer to the next message is the barrier: the bot
    // handles a chat's events in order, so anything the join brought would have come first.
    const before = await bot.count();
    await c.page.locator("#join-group").click();
    await c.page.locator("#messages .notice.system", { hasText: "joined the group" }).last().waitFor({ timeout: REPLY.timeoutMs });
    await c.send("@slipline qr 99");
    await c.waitForBotMessage("฿99.00", REPLY);
    expect(await bot.count()).toBe(before + 1);

    // Joining the staff group: the group is told, once, that everyone in it sees the shop's data.
    await c.chooseChat(staffGroup.name);
    await c.page.locator("#join-group").click();
    await c.waitForBotMessage("STAFF_GROUP_IDS", REPLY);
    await shoot("staff-group-newcomer");
  });

  it("editing a sent message in a group: the bot answers the new amount once, with a note", async () => {
    const c = ui!;
    await c.chooseWho(DEMO_PEOPLE.find((p) => p.role === "staff")!.name);
    await c.chooseChat(staffGroup.name);
    await c.send("qr 150");
    await c.waitForBotMessage("฿150.00", REPLY);
    const sent = c.page.locator("#messages .msg.user.mine", { hasText: "qr 150" }).last();
    const messageId = await sent.getAttribute("data-message-id");
    expect(messageId).toMatch(/^\d+$/);
    const mine = c.page.locator(`#messages .msg.user.mine[data-message-id="${messageId}"]`);
    await mine.locator(".edit-link").click();
    await expect(c.page.locator("#send").textContent()).resolves.toBe("Save edit");
    await c.page.locator("#text").fill("qr 250");
    await c.page.locator("#send").click();
    const answer = await c.waitForBotMessage("฿250.00", REPLY);
    await expect(answer.textContent()).resolves.toMatch(/แก้ไข|edited/);
    // The message shows its new text in place, marked as edited, as LINE shows it.
    await expect(mine.locator(".bubble-text").textContent()).resolves.toBe("qr 250");
    await expect(mine.locator(".edited").count()).resolves.toBe(1);
    await shoot("edited-message");
  });

  it("two shops as two OAs: each shop's staff see that shop's figures, staff of one are customers of the other, and the chats stay apart", async () => {
    const c = ui!;
    const [somchai, malee] = DEMO_PEOPLE.filter((p) => p.role === "staff");
    // Somchai is staff of the coffee shop only; Malee of both (local mode's demo lists).
    await c.chooseShop(DEMO_STORE_NAMES.other);
    await c.chooseWho(malee!.name);
    await c.chooseChat("1:1");
    await c.send("balance");
    const second = await c.waitForBotMessage(DEMO_STORE_NAMES.other, REPLY);
    expect(await second.textContent()).not.toContain(DEMO_STORE_NAMES.shop);
    await shoot("second-shop-balance", second);

    await c.chooseWho(somchai!.name);
    await c.chooseChat("1:1");
    await c.send("balance");
    // To the second shop, Somchai is a customer: an answer, and nothing of either shop's account.
    const asCustomer = await c.waitForBotMessage(/./, REPLY);
    const text = (await asCustomer.textContent()) ?? "";
    for (const privateWord of [DEMO_STORE_NAMES.other, DEMO_STORE_NAMES.shop, "Pro", "token", "โทเคน"]) expect(text).not.toContain(privateWord);

    // Back to the coffee shop: its own chat, without the second shop's messages, and its own figures.
    await c.chooseShop(DEMO_STORE_NAMES.shop);
    await c.chooseWho(malee!.name);
    await c.chooseChat("1:1");
    expect(await c.page.locator("#messages").textContent()).not.toContain(DEMO_STORE_NAMES.other);
    await c.send("balance");
    const cafe = await c.waitForBotMessage(DEMO_STORE_NAMES.shop, REPLY);
    expect(await cafe.textContent()).not.toContain(DEMO_STORE_NAMES.other);
    await shoot("coffee-shop-balance", cafe);
  });
});
