// The product as `npm start` runs it with nothing configured, driven end to end in headless Chromium:
// QR with the amount, history paging, the Thai balance, and the group rule, with screenshots of each.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_GROUPS } from "../../src/local-line/webhook-events.js";
import { CHROMIUM_PATH, openConsole } from "../local-line/console-driver.js";
import type { ConsolePage } from "../local-line/console-driver.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL("../../test-output/e2e/", import.meta.url));
/** Start-up compiles TypeScript on the fly on a shared 2-core machine: generous, but bounded. */
const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
/** Bot replies go through the sandbox; waits are generous upper bounds, not speed checks. */
const REPLY = { timeoutMs: 20_000 } as const;
/** How long a message the bot must ignore is given to (wrongly) produce an answer. */
const SETTLE_MS = 2_000;
const staffGroup = DEMO_GROUPS[0]!;
// jsqr is CommonJS typed as an ES default export: under NodeNext the decoder is the module's `default`.
const jsQR = jsQRModule.default;

interface Product {
  child: ChildProcess;
  output: () => string;
  exited: Promise<void>;
}

let product: Product | undefined;
let consoleUrl = "";
let sandboxUrl = "";
let ui: ConsolePage | undefined;

/** `node --import tsx src/main.ts` with only PATH and HOME from this environment: no LINE_ or SLIP_ variables. */
function startProduct(): Product {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", PORT: "0", SANDBOX_DB: ":memory:" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return { child, output: () => output, exited };
}

/** Resolves with the first match in the output; fails if the process exits or the time runs out first. */
function waitForOutput(p: Product, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const match = p.output().match(pattern);
      if (match !== null) {
        finish();
        resolve(match);
        return true;
      }
      return false;
    };
    const onData = (): void => void check();
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`no ${pattern} within ${timeoutMs} ms; output so far:\n${p.output()}`));
    }, timeoutMs);
    const finish = (): void => {
      clearTimeout(timer);
      p.child.stdout?.off("data", onData);
    };
    if (check()) return;
    p.child.stdout?.on("data", onData);
    void p.exited.then(() => {
      if (check()) return;
      finish();
      reject(new Error(`slipline exited (${p.child.exitCode ?? p.child.signalCode}) before ${pattern}:\n${p.output()}`));
    });
  });
}

/** SIGTERM (main closes its parts and exits), then SIGKILL if it is still there after the grace time. */
async function stopProduct(p: Product): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), STOP_GRACE_MS)));
  const result = await Promise.race([p.exited.then(() => "exited" as const), graceOver]);
  clearTimeout(timer);
  if (result === "late") {
    p.child.kill("SIGKILL");
    await p.exited;
  }
}

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

/** Reads the QR in a PNG the way a phone camera would. */
function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: apt-get install -y chromium`);
  product = startProduct();
  const [, url] = await waitForOutput(product, /slipline is running\. Open (http:\/\/127\.0\.0\.1:\d+\/) to chat with the bot\./, START_TIMEOUT_MS);
  consoleUrl = url ?? "";
  // The sandbox's address is only in the start-up log; the QR must come from there.
  const [, sandbox] = await waitForOutput(product, /"url":"(http:\/\/127\.0\.0\.1:\d+)[^"]*"[^\n]*embedded sandbox/, 5_000);
  sandboxUrl = sandbox ?? "";
  ui = await openConsole(consoleUrl, { width: 1200, height: 1600 });
}, START_TIMEOUT_MS + 30_000);

afterAll(async () => {
  try {
    await ui?.close();
  } finally {
    if (product !== undefined) await stopProduct(product);
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
    const pages = Number(/Page 1 of (\d+)/.exec((await first.textContent()) ?? "")?.[1]);
    expect(pages).toBeGreaterThanOrEqual(2);
    const firstRows = await historyRows(first);
    expect(firstRows).toHaveLength(10);
    await expect(first.locator(".flex-header").textContent()).resolves.toContain("Slip checks");
    await shoot("history-page-1", first.locator(".flex-bubble"));

    await c.tapButton("Next page");
    const second = await c.waitForBotMessage(/Page 2 of \d+/, REPLY);
    const secondRows = await historyRows(second);
    expect(secondRows.length).toBeGreaterThan(0);
    // Each row carries its own transfer reference, so no row of page 2 repeats one of page 1.
    expect(secondRows.filter((row) => firstRows.includes(row))).toEqual([]);
    await expect(second.locator(".flex-button", { hasText: "Previous page" }).count()).resolves.toBe(1);
    // The paging filters are offered as chips, as in LINE.
    expect((await c.quickReplyLabels()).length).toBeGreaterThan(0);
    await shoot("history-page-2", second.locator(".flex-bubble"));
    await shoot("history-page-2-chat");
  });

  it("ยอด: the balance card in Thai for the demo shop", async () => {
    const c = ui!;
    await c.send("ยอด");
    const reply = await c.waitForBotMessage("ร้านกาแฟดีใจ", REPLY);
    const text = (await reply.locator(".flex-bubble").textContent()) ?? "";
    expect(text).toContain("โทเคน");
    // Dates in Thai are in the Buddhist era.
    expect(text).toMatch(/25\d\d/);
    await shoot("balance-th", reply.locator(".flex-bubble"));
    await shoot("balance-th-chat");
  });

  it("in the staff group: @slipline help gets the help card, a plain chat line gets no answer", async () => {
    const c = ui!;
    await c.chooseChat(staffGroup.name);
    await expect(c.page.locator("#chat-id").textContent()).resolves.toBe(staffGroup.groupId);

    await c.send("@slipline help");
    const help = await c.waitForBotMessage("How to use", REPLY);
    await expect(help.locator(".flex-bubble").textContent()).resolves.toMatch(/qr[\s\S]*history[\s\S]*balance/);

    const bot = c.page.locator("#messages .msg.bot:not(.typing-row)");
    const before = await bot.count();
    await c.send("สวัสดีครับ ทุกคน");
    await c.page.locator("#messages .msg.user.mine", { hasText: "สวัสดีครับ ทุกคน" }).waitFor({ timeout: REPLY.timeoutMs });
    // Nothing can prove "never"; give a wrong answer a bounded chance to appear, then check with a barrier:
    // a command sent afterwards must be the only new bot message.
    await c.page.waitForTimeout(SETTLE_MS);
    expect(await bot.count()).toBe(before);
    await c.send("@slipline id");
    await c.waitForBotMessage(staffGroup.groupId, REPLY);
    expect(await bot.count()).toBe(before + 1);
    // LINE refused nothing (typing dots are for 1:1 chats only, for example).
    await expect(c.page.locator("#messages .notice").count()).resolves.toBe(0);
    await shoot("group-help-and-chat");
    await shoot("group-help", help.locator(".flex-bubble"));
  });
});
