// `npm run rich-menu -- install | remove | preview <dir> [--shop-name NAME] [--shop ID | --all-shops]`: the
// rich menus on the configured LINE channel (the same variables as the bot), on one or every shop's channel
// of a shops file (SHOPS_FILE), or their pictures and JSON in a folder.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { HTTPFetchError, messagingApi } from "@line/bot-sdk";
import { ConfigError, loadConfig } from "../config.js";
import type { Config } from "../config.js";
import { DEMO_SHOP_NAME } from "../demo-shop.js";
import { SHOP_ID, readShopsFile } from "../shops/file.js";
import { createSlipClient } from "../slip/client.js";
import { buildMenus } from "./build.js";
import { describeLineError, installMenus, removeMenus } from "./install.js";
import type { RichMenuClients } from "./install.js";
import { liffUrl, MENU_ALIASES, MENU_KINDS, richMenuRequest } from "./menus.js";
import type { MenuOptions } from "./menus.js";

const USAGE = "usage: npm run rich-menu -- install [--shop-name NAME] [--shop ID | --all-shops] | remove [--shop ID | --all-shops] | preview <dir> [--shop-name NAME]";

/** With a shops file: one shop's channel, or every shop's. */
type Shops = { shop?: string; allShops?: true };
type Task = ({ kind: "install"; shopName?: string } & Shops) | ({ kind: "remove" } & Shops) | { kind: "preview"; dir: string; shopName?: string };

function readTask(argv: readonly string[]): Task | string {
  const [verb, ...rest] = argv;
  let shopName: string | undefined;
  const shops: Shops = {};
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    if (arg === "--shop-name") {
      shopName = rest[++i]?.trim();
      if (shopName === undefined || shopName === "") return "--shop-name needs the shop's name";
    } else if (arg === "--shop") {
      const id = rest[++i]?.trim();
      if (id === undefined || !SHOP_ID.test(id)) return "--shop needs a shop's id from the shops file";
      shops.shop = id;
    } else if (arg === "--all-shops") {
      shops.allShops = true;
    } else if (arg.startsWith("--")) {
      return `unknown option ${arg}`;
    } else {
      positional.push(arg);
    }
  }
  const named = shopName === undefined ? {} : { shopName };
  if (shops.shop !== undefined && shops.allShops === true) return "--shop and --all-shops: choose one";
  if (shops.allShops === true && shopName !== undefined) return "--shop-name names one shop: use it with --shop, not --all-shops";
  switch (verb) {
    case "install":
      return positional.length === 0 ? { kind: "install", ...named, ...shops } : `install takes no ${positional[0]}`;
    case "remove":
      return positional.length === 0 && shopName === undefined ? { kind: "remove", ...shops } : "remove takes nothing more";
    case "preview": {
      if (shops.shop !== undefined || shops.allShops === true) return "preview draws the menus, for no channel: give --shop-name instead";
      const [dir, extra] = positional;
      if (dir === undefined) return "preview needs the folder to write to, e.g. preview out/";
      return extra === undefined ? { kind: "preview", dir, ...named } : `preview takes one folder, not ${extra}`;
    }
    default:
      return verb === undefined ? "say what to do" : `unknown command ${verb}`;
  }
}

/** The name on the menus: given, else the slip service's name for the shop, else (no service set) the demo shop's. */
async function shopNameOf(task: { shopName?: string }, service: { baseUrl: string; apiSecret: string } | undefined): Promise<string> {
  if (task.shopName !== undefined) return task.shopName;
  if (service === undefined) return DEMO_SHOP_NAME;
  const slip = createSlipClient({ baseUrl: service.baseUrl, apiSecret: service.apiSecret, accountCacheSeconds: 0 });
  try {
    return (await slip.accountInfo()).storeName;
  } catch (err) {
    throw new Error(`could not read the shop's name from the slip service (${err instanceof Error ? err.message : String(err)}); pass --shop-name`);
  } finally {
    await slip.close();
  }
}

async function run(task: Task, config: Config): Promise<void> {
  if (task.kind === "preview") {
    const dir = resolve(task.dir);
    const shopName = await shopNameOf(task, config.slip);
    const { designs, images } = await buildMenus(shopName, menuOptionsOf(config.login?.liffId));
    mkdirSync(dir, { recursive: true });
    for (const kind of MENU_KINDS) {
      const file = kind.replaceAll("_", "-");
      writeFileSync(join(dir, `${file}.png`), images[kind]);
      writeFileSync(join(dir, `${file}.json`), `${JSON.stringify(richMenuRequest(designs[kind]), null, 2)}\n`);
      console.log(`rich-menu: ${join(dir, `${file}.png`)} (${designs[kind].size.width}×${designs[kind].size.height}, ${images[kind].length} bytes) and .json`);
    }
    return;
  }
  const targets = await channelsOf(task, config);
  let failed = 0;
  for (const target of targets) {
    const label = targets.length > 1 || target.id !== undefined ? `rich-menu [${target.id ?? "default"}]` : "rich-menu";
    try {
      // Each channel has its own budget (LINE allows 100 menu creations an hour per channel): a 429 waits
      // LINE's Retry-After (at most a minute, three times) and goes on with the same shop.
      await paced(label, () => (task.kind === "remove" ? removeFrom(target, config, label) : installOn(task, target, config, label)));
    } catch (err) {
      failed += 1;
      console.error(`${label}: ${task.kind} failed: ${describeLineError(err)}`);
    }
  }
  if (targets.length > 1)
    console.log(`rich-menu: ${task.kind} done for ${targets.length - failed} of ${targets.length} shops${failed > 0 ? " (run it again: shops already done are skipped)" : ""}`);
  if (failed > 0) process.exitCode = 1;
}

/** A channel to put the menus on: its token, staff, and (for the name on the menus) the shop's service. */
interface Target {
  id: string | undefined;
  name: string | undefined;
  channelAccessToken: string;
  staff: readonly string[];
  service: { baseUrl: string; apiSecret: string } | undefined;
  /** The shop's staff web app, when it has one: the staff menu opens it. */
  liffId: string | undefined;
}

function menuOptionsOf(liffId: string | undefined): MenuOptions {
  return liffId === undefined ? {} : { staffAppUrl: liffUrl(liffId) };
}

/** The environment's one channel, or a shops file's shop (`--shop`) or every shop (`--all-shops`). */
async function channelsOf(task: Shops, config: Config): Promise<Target[]> {
  if (config.shopsFile === undefined) {
    if (task.shop !== undefined || task.allShops === true) throw new Error("--shop and --all-shops read the shops file: set SHOPS_FILE");
    if (config.line === undefined) {
      throw new Error("LINE_CHANNEL_SECRET and LINE_CHANNEL_ACCESS_TOKEN are not set: the menus go on that channel (`npm start` puts them on its local stand-in by itself)");
    }
    return [
      {
        id: undefined,
        name: undefined,
        channelAccessToken: config.line.channelAccessToken,
        staff: [...config.settings.staffUserIds],
        service: config.slip,
        liffId: config.login?.liffId,
      },
    ];
  }
  const read = await readShopsFile(config.shopsFile, process.env);
  if (!read.ok) throw new Error(`the shops file has problems:\n${read.problems.map((p) => `  ${p}`).join("\n")}`);
  if (task.shop === undefined && task.allShops !== true) throw new Error("with SHOPS_FILE, say which shop: --shop <id>, or --all-shops");
  const chosen = task.allShops === true ? read.shops : read.shops.filter((shop) => shop.id === task.shop);
  if (chosen.length === 0) throw new Error(`no shop "${task.shop ?? ""}" in ${config.shopsFile} (its shops: ${read.shops.map((s) => s.id).join(", ")})`);
  return chosen.map((shop) => ({
    id: shop.id,
    name: shop.name,
    channelAccessToken: shop.line.channelAccessToken,
    staff: [...shop.settings.staffUserIds],
    service: shop.slip,
    liffId: shop.login?.liffId,
  }));
}

function clientsOf(target: Target, config: Config): RichMenuClients {
  const { channelAccessToken } = target;
  return {
    api: new messagingApi.MessagingApiClient({ channelAccessToken, baseURL: config.lineApiBaseUrl }),
    blob: new messagingApi.MessagingApiBlobClient({ channelAccessToken, baseURL: config.lineDataApiBaseUrl }),
  };
}

async function installOn(task: { shopName?: string }, target: Target, config: Config, label: string): Promise<void> {
  const given = task.shopName ?? target.name;
  const shopName = await shopNameOf(given === undefined ? {} : { shopName: given }, target.service);
  const { designs, images } = await buildMenus(shopName, menuOptionsOf(target.liffId));
  const report = await installMenus(clientsOf(target, config), designs, images, target.staff);
  if (report.alreadyInstalled) {
    console.log(`${label}: the menus for ${shopName} are on the channel already; nothing to do`);
    return;
  }
  console.log(
    `${label}: installed for ${shopName}: customer ${report.created.customer} (the default), staff ${report.created.staff}, staff's customer view ${report.created.staff_customer_view}`,
  );
  console.log(`${label}: aliases ${MENU_ALIASES.staff} and ${MENU_ALIASES.staff_customer_view}; staff menu linked to ${report.staffLinked} staff users`);
  if (report.replaced.length > 0) console.log(`${label}: replaced ${report.replaced.length} menus from an earlier install`);
  if (target.staff.length === 0) console.log(`${label}: no staff listed, so everyone sees the customer menu; the bot links staff as they write once the list is set`);
}

async function removeFrom(target: Target, config: Config, label: string): Promise<void> {
  const report = await removeMenus(clientsOf(target, config));
  console.log(
    `${label}: removed ${report.removed.length} menus and the aliases ${report.aliases.join(", ") || "(none)"}${report.defaultCleared ? "; the channel has no default menu now" : ""}`,
  );
}

/** LINE's 429 on a channel: wait what it says (at most a minute), three times, then give up on that shop. */
async function paced(label: string, work: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await work();
      return;
    } catch (err) {
      if (!(err instanceof HTTPFetchError && err.status === 429) || attempt >= 3) throw err;
      const waitS = Math.min(60, Math.max(1, Number(err.headers.get("retry-after") ?? "10") || 10));
      console.log(`${label}: LINE says too many requests; waiting ${waitS} s`);
      await new Promise((resolve) => setTimeout(resolve, waitS * 1000));
    }
  }
}

async function main(): Promise<void> {
  const task = readTask(process.argv.slice(2));
  if (typeof task === "string") {
    console.error(`rich-menu: ${task}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : String(err));
    process.exitCode = 1;
    return;
  }
  try {
    await run(task, config);
  } catch (err) {
    console.error(`rich-menu: ${task.kind} failed: ${describeLineError(err)}`);
    process.exitCode = 1;
  }
}

await main();
