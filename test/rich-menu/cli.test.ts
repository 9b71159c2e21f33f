// `npm run rich-menu` as a process: preview writes pictures and JSON without LINE; install and remove work
// on the channel the bot's variables name (here the LINE stand-in); mistakes are named.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { messagingApi } from "@line/bot-sdk";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it } from "vitest";
import { startLinePlatform } from "../../src/local-line/platform.js";
import type { LinePlatform } from "../../src/local-line/platform.js";
import { killLeftovers, startEntry } from "../helpers/entry-process.js";
import { lineId } from "../helpers/webhook.js";

const TOKEN = "rich-menu-cli-token";
const dirs: string[] = [];
const platforms: LinePlatform[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const p of platforms.splice(0)) await p.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], env: Record<string, string> = {}) => startEntry("src/rich-menu/main.ts", env, args);

describe("npm run rich-menu", { timeout: 90_000 }, () => {
  it("preview writes each menu's PNG and JSON, with the shop's name, without calling LINE", async () => {
    const dir = mkdtempSync(join(tmpdir(), "slipline-menus-"));
    dirs.push(dir);
    const preview = run(["preview", join(dir, "out"), "--shop-name", "ร้านทดสอบ"]);
    expect(await preview.exited).toBe(0);
    expect(readdirSync(join(dir, "out")).sort()).toEqual([
      "customer.json",
      "customer.png",
      "staff-customer-view.json",
      "staff-customer-view.png",
      "staff.json",
      "staff.png",
    ]);
    const staff = PNG.sync.read(readFileSync(join(dir, "out", "staff.png")));
    expect([staff.width, staff.height]).toEqual([2500, 1686]);
    const json = JSON.parse(readFileSync(join(dir, "out", "customer.json"), "utf8")) as messagingApi.RichMenuRequest;
    expect(json).toMatchObject({ size: { width: 2500, height: 843 }, name: "slipline:customer", chatBarText: "เมนู" });
    expect(preview.output()).toMatch(/staff\.png \(2500×1686, \d+ bytes\)/);
  });

  it("names a wrong command, and install without a LINE channel says which variables", async () => {
    const wrong = run(["instal"]);
    expect(await wrong.exited).toBe(2);
    expect(wrong.output()).toContain("unknown command instal");
    expect(wrong.output()).toContain("usage: npm run rich-menu");
    const noDir = run(["preview"]);
    expect(await noDir.exited).toBe(2);
    expect(noDir.output()).toContain("preview needs the folder to write to");
    const noLine = run(["install"]);
    expect(await noLine.exited).toBe(1);
    expect(noLine.output()).toContain("LINE_CHANNEL_SECRET and LINE_CHANNEL_ACCESS_TOKEN are not set");
  });

  it("install puts the menus on the configured channel and links the staff; remove takes them off; no secret is printed", async () => {
    const platform = await startLinePlatform({ channelAccessToken: TOKEN });
    platforms.push(platform);
    const owner = lineId("U", 0xb01);
    const env = {
      LINE_CHANNEL_SECRET: "0123456789abcdef0123456789abcdef",
      LINE_CHANNEL_ACCESS_TOKEN: TOKEN,
      LINE_API_BASE_URL: platform.url,
      LINE_DATA_API_BASE_URL: platform.url,
      SLIP_SANDBOX: "1",
      STAFF_USER_IDS: owner,
    };
    const api = new messagingApi.MessagingApiClient({ channelAccessToken: TOKEN, baseURL: platform.url });
    const install = run(["install", "--shop-name", "ร้านทดสอบ"], env);
    expect(await install.exited).toBe(0);
    expect(install.output()).toContain("installed for ร้านทดสอบ");
    expect(install.output()).toContain("staff menu linked to 1 staff users");
    expect((await api.getRichMenuList()).richmenus).toHaveLength(3);
    const staffMenu = (await api.getRichMenuAlias("slipline-staff")).richMenuId;
    expect((await api.getRichMenuIdOfUser(owner)).richMenuId).toBe(staffMenu);

    const again = run(["install", "--shop-name", "ร้านทดสอบ"], env);
    expect(await again.exited).toBe(0);
    expect(again.output()).toContain("replaced 3 menus from an earlier install");
    expect((await api.getRichMenuList()).richmenus).toHaveLength(3);

    const remove = run(["remove"], env);
    expect(await remove.exited).toBe(0);
    expect(remove.output()).toContain("removed 3 menus");
    expect((await api.getRichMenuList()).richmenus).toHaveLength(0);
    for (const p of [install, again, remove]) {
      expect(p.output()).not.toContain(TOKEN);
      expect(p.output()).not.toContain(env.LINE_CHANNEL_SECRET);
    }
  });
});
