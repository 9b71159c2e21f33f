// `npm run rich-menu` as a process: preview writes pictures and JSON without LINE; install and remove work
// on the channel the bot's variables name (here the LINE stand-in); mistakes are named.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { messagingApi } from "@line/bot-sdk";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it } from "vitest";
import { startLinePlatform } from "@slipline/line-stand-in";
import type { LinePlatform } from "@slipline/line-stand-in";
import { killLeftovers, startEntry } from "../kit/entry-process.js";
import { lineId } from "../kit/webhook.js";

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
    expect(readdirSync(join(dir, "out")).sort()).toEqual(["customer.json", "customer.png", "staff-customer-view.json", "staff-customer-view.png", "staff.json", "staff.png"]);
    const staff = PNG.sync.read(readFileSync(join(dir, "out", "staff.png")));
    expect([staff.width, staff.height]).toEqual([2500, 1686]);
    const json = JSON.parse(readFileSync(join(dir, "out", "customer.json"), "utf8")) as messagingApi.RichMenuRequest;
    expect(json).toMatchObject({ size: { width: 2500, height: 843 }, name: "slipline:customer", chatBarText: "เมนู" });
    expect(preview.output()).toMatch(/staff\.png \(2500×1686, \d+ bytes\)/);
  });

  it("names a wrong command, and install without a LINE channel says which variables", async () => {
    // Three separate runs, started together: none touches anything the others read.
    const [wrong, noDir, noLine] = [run(["instal"]), run(["preview"]), run(["install"])];
    expect(await wrong.exited).toBe(2);
    expect(wrong.output()).toContain("unknown command instal");
    expect(wrong.output()).toContain("usage: npm run rich-menu");
    expect(await noDir.exited).toBe(2);
    expect(noDir.output()).toContain("preview needs the folder to write to");
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
    expect(again.output()).toContain("the menus for ร้านทดสอบ are on the channel already; nothing to do");
    const renamed = run(["install", "--shop-name", "ร้านทดสอบ สาขา 2"], env);
    expect(await renamed.exited).toBe(0);
    expect(renamed.output()).toContain("replaced 3 menus from an earlier install");
    expect((await api.getRichMenuList()).richmenus).toHaveLength(3);

    // With the staff web app set up, the staff menu's history button opens it inside LINE (its LIFF URL);
    // the customers' menus are as they were.
    const uris = async (alias: string | undefined): Promise<string[]> => {
      const menus = (await api.getRichMenuList()).richmenus;
      const id = alias === undefined ? (await api.getDefaultRichMenuId()).richMenuId : (await api.getRichMenuAlias(alias)).richMenuId;
      const menu = menus.find((m) => m.richMenuId === id);
      return (menu?.areas ?? []).flatMap((a) => (a.action?.type === "uri" && a.action.uri !== undefined ? [a.action.uri] : []));
    };
    expect(await uris("slipline-staff")).toEqual([]);
    const withApp = run(["install", "--shop-name", "ร้านทดสอบ สาขา 2"], { ...env, LINE_LOGIN_CHANNEL_ID: "1657000001", LIFF_ID: "1657000001-AbCd1234" });
    expect(await withApp.exited).toBe(0);
    expect(withApp.output()).toContain("installed for ร้านทดสอบ สาขา 2");
    expect(await uris("slipline-staff")).toEqual(["https://liff.line.me/1657000001-AbCd1234"]);
    expect(await uris("slipline-staff-customer-view")).toEqual([]);
    expect(await uris(undefined)).toEqual([]);
    expect((await api.getRichMenuList()).richmenus).toHaveLength(3);

    const remove = run(["remove"], env);
    expect(await remove.exited).toBe(0);
    expect(remove.output()).toContain("removed 3 menus");
    expect((await api.getRichMenuList()).richmenus).toHaveLength(0);
    for (const p of [install, again, renamed, remove]) {
      expect(p.output()).not.toContain(TOKEN);
      expect(p.output()).not.toContain(env.LINE_CHANNEL_SECRET);
    }
  });

  it("with a shops file: --shop puts the menus on that shop's channel only, --all-shops on each, and a rerun after a failure does only what is left", async () => {
    const channels = { cafe: "cli-cafe-token-0001", noodle: "cli-noodle-token-0002", bakery: "cli-bakery-token-0003" };
    const platform = await startLinePlatform({ channels: Object.entries(channels).map(([name, accessToken]) => ({ name, accessToken })) });
    platforms.push(platform);
    const dir = mkdtempSync(join(tmpdir(), "slipline-menus-"));
    dirs.push(dir);
    const owner = lineId("U", 0xb02);
    const secrets = { cafe: "c".repeat(32), noodle: "d".repeat(32), bakery: "e".repeat(32) };
    // Each shop is named in the file, so the slip service (never called here) only has to be well formed.
    const shop = (id: keyof typeof channels, name: string, token: string) => ({
      id,
      name,
      line: { channelSecret: secrets[id], channelAccessToken: token },
      slip: { baseUrl: "http://127.0.0.1:9", apiSecret: `${id}-slip-secret` },
      promptPayId: "0812345678",
      staff: { users: id === "cafe" ? [owner] : [] },
    });
    const file = join(dir, "shops.json");
    // The bakery's token is wrong (a copy-paste slip): LINE refuses it, the other shops go ahead.
    const write = (bakeryToken: string) =>
      writeFileSync(
        file,
        JSON.stringify({ shops: [shop("cafe", "Café Dee", channels.cafe), shop("noodle", "Noodle Nai", channels.noodle), shop("bakery", "Bakery Baan", bakeryToken)] }),
      );
    write("not-the-bakery-token");
    const env = { SHOPS_FILE: file, LINE_API_BASE_URL: platform.url, LINE_DATA_API_BASE_URL: platform.url };
    const menusOn = async (id: keyof typeof channels) =>
      (await new messagingApi.MessagingApiClient({ channelAccessToken: channels[id], baseURL: platform.url }).getRichMenuList()).richmenus.length;

    // Both stop before calling LINE, so they run together.
    const [which, unknown] = [run(["install"], env), run(["install", "--shop", "tea"], env)];
    expect(await which.exited).toBe(1);
    expect(which.output()).toContain("with SHOPS_FILE, say which shop: --shop <id>, or --all-shops");
    expect(await unknown.exited).toBe(1);
    expect(unknown.output()).toContain('no shop "tea"');
    expect(unknown.output()).toContain("cafe, noodle, bakery");

    const one = run(["install", "--shop", "noodle"], env);
    expect(await one.exited).toBe(0);
    expect(one.output()).toContain("rich-menu [noodle]: installed for Noodle Nai");
    expect([await menusOn("cafe"), await menusOn("noodle"), await menusOn("bakery")]).toEqual([0, 3, 0]);

    const all = run(["install", "--all-shops"], env);
    expect(await all.exited).toBe(1);
    expect(all.output()).toContain("rich-menu [cafe]: installed for Café Dee");
    expect(all.output()).toContain("rich-menu [noodle]: the menus for Noodle Nai are on the channel already");
    expect(all.output()).toMatch(/rich-menu \[bakery\]: install failed: LINE answered 401/);
    expect(all.output()).toContain("install done for 2 of 3 shops (run it again: shops already done are skipped)");
    expect([await menusOn("cafe"), await menusOn("noodle"), await menusOn("bakery")]).toEqual([3, 3, 0]);
    const cafe = new messagingApi.MessagingApiClient({ channelAccessToken: channels.cafe, baseURL: platform.url });
    expect((await cafe.getRichMenuIdOfUser(owner)).richMenuId).toBe((await cafe.getRichMenuAlias("slipline-staff")).richMenuId);

    write(channels.bakery);
    const rerun = run(["install", "--all-shops"], env);
    expect(await rerun.exited).toBe(0);
    expect(rerun.output()).toContain("rich-menu [cafe]: the menus for Café Dee are on the channel already");
    expect(rerun.output()).toContain("rich-menu [bakery]: installed for Bakery Baan");
    expect(rerun.output()).toContain("install done for 3 of 3 shops");
    expect([await menusOn("cafe"), await menusOn("noodle"), await menusOn("bakery")]).toEqual([3, 3, 3]);

    const remove = run(["remove", "--shop", "cafe"], env);
    expect(await remove.exited).toBe(0);
    expect([await menusOn("cafe"), await menusOn("noodle"), await menusOn("bakery")]).toEqual([0, 3, 3]);
    for (const p of [which, unknown, one, all, rerun, remove]) {
      for (const token of Object.values(channels)) expect(p.output()).not.toContain(token);
    }
  });
});
