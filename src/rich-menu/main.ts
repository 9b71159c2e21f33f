// `npm run rich-menu -- install | remove | preview <dir> [--shop-name NAME]`: the rich menus on the
// configured LINE channel (the same variables as the bot), or their pictures and JSON in a folder.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { messagingApi } from "@line/bot-sdk";
import { ConfigError, loadConfig } from "../config.js";
import type { Config } from "../config.js";
import { DEMO_STORE_NAMES } from "../sandbox/demo.js";
import { createSlipClient } from "../slip/client.js";
import { buildMenus } from "./build.js";
import { describeLineError, installMenus, removeMenus } from "./install.js";
import { MENU_ALIASES, MENU_KINDS, richMenuRequest } from "./menus.js";

const USAGE = "usage: npm run rich-menu -- install [--shop-name NAME] | remove | preview <dir> [--shop-name NAME]";

type Task = { kind: "install"; shopName?: string } | { kind: "remove" } | { kind: "preview"; dir: string; shopName?: string };

function readTask(argv: readonly string[]): Task | string {
  const [verb, ...rest] = argv;
  let shopName: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    if (arg === "--shop-name") {
      shopName = rest[++i]?.trim();
      if (shopName === undefined || shopName === "") return "--shop-name needs the shop's name";
    } else if (arg.startsWith("--")) {
      return `unknown option ${arg}`;
    } else {
      positional.push(arg);
    }
  }
  const named = shopName === undefined ? {} : { shopName };
  switch (verb) {
    case "install":
      return positional.length === 0 ? { kind: "install", ...named } : `install takes no ${positional[0]}`;
    case "remove":
      return positional.length === 0 && shopName === undefined ? { kind: "remove" } : "remove takes nothing more";
    case "preview": {
      const [dir, extra] = positional;
      if (dir === undefined) return "preview needs the folder to write to, e.g. preview out/";
      return extra === undefined ? { kind: "preview", dir, ...named } : `preview takes one folder, not ${extra}`;
    }
    default:
      return verb === undefined ? "say what to do" : `unknown command ${verb}`;
  }
}

/** The name on the menus: given, else the slip service's name for the shop, else (no service set) the demo shop's. */
async function shopNameOf(task: { shopName?: string }, config: Config): Promise<string> {
  if (task.shopName !== undefined) return task.shopName;
  if (config.slip === undefined) return DEMO_STORE_NAMES.shop;
  const slip = createSlipClient({ baseUrl: config.slip.baseUrl, apiSecret: config.slip.apiSecret, accountCacheSeconds: 0 });
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
    const shopName = await shopNameOf(task, config);
    const { designs, images } = await buildMenus(shopName);
    mkdirSync(dir, { recursive: true });
    for (const kind of MENU_KINDS) {
      const file = kind.replaceAll("_", "-");
      writeFileSync(join(dir, `${file}.png`), images[kind]);
      writeFileSync(join(dir, `${file}.json`), `${JSON.stringify(richMenuRequest(designs[kind]), null, 2)}\n`);
      console.log(`rich-menu: ${join(dir, `${file}.png`)} (${designs[kind].size.width}×${designs[kind].size.height}, ${images[kind].length} bytes) and .json`);
    }
    return;
  }
  if (config.line === undefined) {
    throw new Error(
      "LINE_CHANNEL_SECRET and LINE_CHANNEL_ACCESS_TOKEN are not set: the menus go on that channel (`npm start` puts them on its local stand-in by itself)",
    );
  }
  const { channelAccessToken } = config.line;
  const clients = {
    api: new messagingApi.MessagingApiClient({ channelAccessToken, baseURL: config.lineApiBaseUrl }),
    blob: new messagingApi.MessagingApiBlobClient({ channelAccessToken, baseURL: config.lineDataApiBaseUrl }),
  };
  if (task.kind === "remove") {
    const report = await removeMenus(clients);
    console.log(
      `rich-menu: removed ${report.removed.length} menus and the aliases ${report.aliases.join(", ") || "(none)"}${report.defaultCleared ? "; the channel has no default menu now" : ""}`,
    );
    return;
  }
  const shopName = await shopNameOf(task, config);
  const { designs, images } = await buildMenus(shopName);
  const staff = [...config.settings.staffUserIds];
  const report = await installMenus(clients, designs, images, staff);
  console.log(`rich-menu: installed for ${shopName}: customer ${report.created.customer} (the default), staff ${report.created.staff}, staff's customer view ${report.created.staff_customer_view}`);
  console.log(`rich-menu: aliases ${MENU_ALIASES.staff} and ${MENU_ALIASES.staff_customer_view}; staff menu linked to ${report.staffLinked} staff users`);
  if (report.replaced.length > 0) console.log(`rich-menu: replaced ${report.replaced.length} menus from an earlier install`);
  if (staff.length === 0) console.log("rich-menu: STAFF_USER_IDS is empty, so everyone sees the customer menu; the bot links staff as they write once the list is set");
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
