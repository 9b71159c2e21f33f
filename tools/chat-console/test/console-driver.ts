// Drives the chat console in headless Debian Chromium (playwright-core) for browser tests:
// `openConsole(url)` gives send / waitForBotMessage / tapButton / tapQuickReply / tapRichMenuArea /
// screenshot helpers.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import type { BrowserContext, Locator, Page } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";
export const SCREENSHOT_DIR = fileURLToPath(new URL("../../../test-output/chat-console/", import.meta.url));

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// The tsconfig has no DOM lib; these are the few browser shapes the page functions below touch.
interface BrowserNode {
  textContent: string | null;
}
interface BrowserImage {
  complete: boolean;
  naturalWidth: number;
}
interface BrowserGlobal {
  document: { querySelectorAll(selector: string): ArrayLike<BrowserNode> };
}

export interface WaitOptions {
  timeoutMs?: number;
}

export interface ConsolePage {
  readonly page: Page;
  /** Picks who you are by the name shown in the list (e.g. "Somchai (staff)", "Customer Nok"). */
  chooseWho(name: string): Promise<void>;
  /** Picks the chat by its label ("Staff group", or "1:1" for the chat with the bot). */
  chooseChat(label: string): Promise<void>;
  /** Picks whose OA to talk to, by the shop's name, when the console plays several shops. */
  chooseShop(name: string): Promise<void>;
  /** Types and sends a message; later waits only look at bot messages that arrive after this. */
  send(text: string): Promise<void>;
  /** Waits for a bot message (one reply or push: all its messages) after the last action that contains `match`. */
  waitForBotMessage(match: string | RegExp, options?: WaitOptions): Promise<Locator>;
  /** Taps the last Flex button with this label (e.g. the newest "next page"). */
  tapButton(label: string | RegExp): Promise<void>;
  /** Taps a quick-reply chip. */
  tapQuickReply(label: string | RegExp): Promise<void>;
  quickReplyLabels(): Promise<string[]>;
  /** The rich menu under the input box (hidden in a group, or when the person sees none). */
  richMenu(): Locator;
  /** Taps a rich menu area by its accessible name (its action's label, displayText or text). */
  tapRichMenuArea(name: string | RegExp): Promise<void>;
  /** Waits until every image inside `scope` has loaded with real pixels; returns their natural widths. */
  waitForImages(scope: Locator, options?: WaitOptions): Promise<number[]>;
  /** Waits for a red notice of a message LINE refused. */
  waitForRejection(match?: string | RegExp, options?: WaitOptions): Promise<Locator>;
  /** Saves a screenshot to test-output/chat-console/<name>.png (the page, or just `scope`) and returns the path. */
  screenshot(name: string, scope?: Locator): Promise<string>;
  close(): Promise<void>;
}

/** This process's environment without libfaketime's variables (see openConsole). */
function browserEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && name !== "LD_PRELOAD" && !name.startsWith("FAKETIME")) env[name] = value;
  }
  return env;
}

export async function openConsole(url: string, options: { width?: number; height?: number } = {}): Promise<ConsolePage> {
  const userDataDir = await mkdtemp(join(tmpdir(), "slipline-chromium-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: options.width ?? 1200, height: options.height ?? 900 },
      env: browserEnv(),
    });
    // Under a shifted clock (`npm run test:hours`) the page gets this process's time from Playwright's
    // clock, since Chromium itself hangs under libfaketime; the clock then runs on from there.
    if (process.env.FAKETIME !== undefined) await context.clock.install({ time: Date.now() });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(url);
  const skewMs = Math.abs((await page.evaluate(() => Date.now())) - Date.now());
  if (skewMs > 60_000) throw new Error(`the page's clock is ${Math.round(skewMs / 1000)} s away from the test's`);
  await page.locator("body[data-ready=true]").waitFor();
  await page.locator("#connection[data-state=open]").waitFor();

  const botMessages = page.locator("#messages .msg.bot:not(.typing-row)");
  let mark = 0;
  const markNow = async (): Promise<void> => {
    mark = await botMessages.count();
  };

  const matcher = (match: string | RegExp): { source: string; flags: string } =>
    typeof match === "string" ? { source: match.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), flags: "" } : { source: match.source, flags: match.flags };

  return {
    page,
    async chooseWho(name) {
      await page.locator("#who").selectOption({ label: name });
      await markNow();
    },
    async chooseShop(name) {
      await page.locator("#shop").selectOption({ label: name });
      await markNow();
    },
    async chooseChat(label) {
      const options = await page.locator("#where option").allTextContents();
      const found = options.find((o) => o.includes(label));
      if (found === undefined) throw new Error(`no chat "${label}" in ${JSON.stringify(options)}`);
      await page.locator("#where").selectOption({ label: found });
      await markNow();
    },
    async send(text) {
      await markNow();
      await page.locator("#text").fill(text);
      await page.locator("#send").click();
    },
    async waitForBotMessage(match, waitOptions = {}) {
      const { source, flags } = matcher(match);
      const handle = await page.waitForFunction(
        ({ from, source: s, flags: f }) => {
          const re = new RegExp(s, f);
          const rows = Array.from((globalThis as unknown as BrowserGlobal).document.querySelectorAll("#messages .msg.bot:not(.typing-row)"));
          for (let i = from; i < rows.length; i++) {
            // An object, since index 0 would read as "not yet".
            if (re.test(rows[i]?.textContent ?? "")) return { index: i };
          }
          return false;
        },
        { from: mark, source, flags },
        { timeout: waitOptions.timeoutMs ?? 10_000 },
      );
      const { index } = (await handle.jsonValue()) as { index: number };
      return botMessages.nth(index);
    },
    async tapButton(label) {
      await markNow();
      await page.locator("#messages .msg.bot .flex-button", { hasText: label }).last().click();
    },
    async tapQuickReply(label) {
      await markNow();
      await page.locator("#quick-replies button", { hasText: label }).first().click();
    },
    richMenu() {
      return page.locator("#rich-menu");
    },
    async tapRichMenuArea(name) {
      await markNow();
      await page
        .locator("#rich-menu")
        .getByRole("button", { name, exact: typeof name === "string" })
        .click();
    },
    async quickReplyLabels() {
      if (await page.locator("#quick-replies").isHidden()) return [];
      return page.locator("#quick-replies button").allTextContents();
    },
    async waitForImages(scope, waitOptions = {}) {
      const images = scope.locator("img");
      await images.first().waitFor({ timeout: waitOptions.timeoutMs ?? 10_000 });
      await page.waitForFunction((nodes) => (nodes as unknown as BrowserImage[]).every((img) => img.complete && img.naturalWidth > 0), await images.elementHandles(), {
        timeout: waitOptions.timeoutMs ?? 10_000,
      });
      return images.evaluateAll((nodes) => (nodes as unknown as BrowserImage[]).map((img) => img.naturalWidth));
    },
    async waitForRejection(match, waitOptions = {}) {
      const notice = page.locator("#messages .notice.rejected", match === undefined ? {} : { hasText: match }).last();
      await notice.waitFor({ timeout: waitOptions.timeoutMs ?? 10_000 });
      return notice;
    },
    async screenshot(name, scope) {
      await mkdir(SCREENSHOT_DIR, { recursive: true });
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      if (scope === undefined) await page.screenshot({ path });
      else await scope.screenshot({ path });
      return path;
    },
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
