// Puts the menus on a channel and takes them off again. Install makes a fresh set, points the aliases at
// it, makes the customer menu the default, links the staff menu to the staff, and only then deletes the set
// it made before: a failure half-way leaves the old menus working and removes what it had created. Menus
// whose name does not start with our prefix are never touched.
import { createHash } from "node:crypto";
import type { messagingApi } from "@line/bot-sdk";
import { lineHttpFailure } from "../line-http.js";
import { MENU_ALIASES, MENU_KINDS, MENU_NAME_PREFIX, richMenuRequest } from "./menus.js";
import type { MenuDesign, MenuKind } from "./menus.js";

export interface RichMenuClients {
  /** Only the rich menu calls: it can send nothing (the send boundary alone sends). */
  api: Pick<
    messagingApi.MessagingApiClient,
    | "getRichMenuList"
    | "getRichMenuAlias"
    | "createRichMenuAlias"
    | "updateRichMenuAlias"
    | "deleteRichMenuAlias"
    | "createRichMenu"
    | "deleteRichMenu"
    | "getDefaultRichMenuId"
    | "setDefaultRichMenu"
    | "cancelDefaultRichMenu"
    | "linkRichMenuIdToUsers"
  >;
  /** LINE's data host (api-data.line.me) serves the images. */
  blob: messagingApi.MessagingApiBlobClient;
}

export interface InstallReport {
  /** The set was on the channel already (same design, same pictures): nothing was made or removed. */
  alreadyInstalled: boolean;
  created: Record<MenuKind, string>;
  /** Our menus from an earlier install, deleted. */
  replaced: string[];
  staffLinked: number;
}

/** LINE takes at most this many users per bulk link. */
const BULK_LINK_MAX = 500;

export function isNotFound(err: unknown): boolean {
  return lineHttpFailure(err)?.status === 404;
}

/** LINE's own words for a refused request, without headers or tokens. */
export function describeLineError(err: unknown): string {
  const http = lineHttpFailure(err);
  if (http !== undefined) {
    let message = http.body;
    try {
      const body = JSON.parse(http.body) as { message?: string; details?: { message?: string; property?: string }[] };
      message = [body.message, ...(body.details ?? []).map((d) => `${d.property ?? ""}: ${d.message ?? ""}`)].filter(Boolean).join("; ");
    } catch {
      // not JSON: the body as it came
    }
    return `LINE answered ${http.status}: ${message.slice(0, 500)}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Our menus on the channel (by name prefix). */
export async function ourMenus(clients: RichMenuClients): Promise<messagingApi.RichMenuResponse[]> {
  const { richmenus } = await clients.api.getRichMenuList();
  return richmenus.filter((menu) => menu.name.startsWith(MENU_NAME_PREFIX));
}

async function pointAlias(clients: RichMenuClients, aliasId: string, richMenuId: string): Promise<void> {
  try {
    await clients.api.getRichMenuAlias(aliasId);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await clients.api.createRichMenuAlias({ richMenuAliasId: aliasId, richMenuId });
    return;
  }
  await clients.api.updateRichMenuAlias(aliasId, { richMenuId });
}

/**
 * The version of a set of menus: a digest of every design and picture, written into each menu's name, so
 * that an install that finds the same set on the channel can leave it (an interrupted `--all-shops` run
 * resumes where it stopped).
 */
export function menuSetVersion(designs: Record<MenuKind, MenuDesign>, images: Record<MenuKind, Buffer>): string {
  const hash = createHash("sha256");
  for (const kind of MENU_KINDS) hash.update(JSON.stringify(richMenuRequest(designs[kind]))).update(images[kind]);
  return hash.digest("hex").slice(0, 12);
}

const versioned = (design: MenuDesign, version: string): string => `${design.name}#${version}`;

export async function installMenus(
  clients: RichMenuClients,
  designs: Record<MenuKind, MenuDesign>,
  images: Record<MenuKind, Buffer>,
  staffUserIds: readonly string[],
): Promise<InstallReport> {
  const version = menuSetVersion(designs, images);
  const mine = await ourMenus(clients);
  const current = MENU_KINDS.map((kind) => mine.find((menu) => menu.name === versioned(designs[kind], version)));
  if (current.every((menu) => menu !== undefined) && (await aliasesPointAt(clients, current))) {
    const ids = Object.fromEntries(MENU_KINDS.map((kind, i) => [kind, current[i]?.richMenuId ?? ""])) as Record<MenuKind, string>;
    return { alreadyInstalled: true, created: ids, replaced: [], staffLinked: 0 };
  }
  const before = mine.map((menu) => menu.richMenuId);
  const created: Partial<Record<MenuKind, string>> = {};
  try {
    for (const kind of MENU_KINDS) {
      const { richMenuId } = await clients.api.createRichMenu({ ...richMenuRequest(designs[kind]), name: versioned(designs[kind], version) });
      created[kind] = richMenuId;
      await clients.blob.setRichMenuImage(richMenuId, new Blob([images[kind]], { type: "image/png" }));
    }
    const ids = created as Record<MenuKind, string>;
    await pointAlias(clients, MENU_ALIASES.staff, ids.staff);
    await pointAlias(clients, MENU_ALIASES.staff_customer_view, ids.staff_customer_view);
    await clients.api.setDefaultRichMenu(ids.customer);
    for (let i = 0; i < staffUserIds.length; i += BULK_LINK_MAX) {
      await clients.api.linkRichMenuIdToUsers({ richMenuId: ids.staff, userIds: staffUserIds.slice(i, i + BULK_LINK_MAX) });
    }
  } catch (err) {
    // Take back what this run made; the earlier menus (and aliases, unless already moved) still work.
    for (const id of Object.values(created)) await clients.api.deleteRichMenu(id).catch(() => undefined);
    throw err;
  }
  // Deleting a menu also unlinks it from its users, who then see the default (the new customer menu).
  for (const id of before) {
    await clients.api.deleteRichMenu(id).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }
  return { alreadyInstalled: false, created: created as Record<MenuKind, string>, replaced: before, staffLinked: staffUserIds.length };
}

/** Whether the aliases and the default point at this set (an install that stopped half-way left them elsewhere). */
async function aliasesPointAt(clients: RichMenuClients, menus: readonly (messagingApi.RichMenuResponse | undefined)[]): Promise<boolean> {
  const idOf = (kind: MenuKind): string | undefined => menus[MENU_KINDS.indexOf(kind)]?.richMenuId;
  const [customer, staff, customerView] = [idOf("customer"), idOf("staff"), idOf("staff_customer_view")];
  try {
    const [staffAlias, viewAlias, byDefault] = await Promise.all([
      clients.api.getRichMenuAlias(MENU_ALIASES.staff),
      clients.api.getRichMenuAlias(MENU_ALIASES.staff_customer_view),
      clients.api.getDefaultRichMenuId(),
    ]);
    return staffAlias.richMenuId === staff && viewAlias.richMenuId === customerView && byDefault.richMenuId === customer;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

export interface RemoveReport {
  removed: string[];
  aliases: string[];
  defaultCleared: boolean;
}

/** Takes our menus and aliases off the channel; others' menus (and a default that is not ours) stay. */
export async function removeMenus(clients: RichMenuClients): Promise<RemoveReport> {
  const ours = (await ourMenus(clients)).map((menu) => menu.richMenuId);
  const aliases: string[] = [];
  for (const aliasId of Object.values(MENU_ALIASES)) {
    try {
      await clients.api.deleteRichMenuAlias(aliasId);
      aliases.push(aliasId);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  let defaultCleared = false;
  try {
    const { richMenuId } = await clients.api.getDefaultRichMenuId();
    if (ours.includes(richMenuId)) {
      await clients.api.cancelDefaultRichMenu();
      defaultCleared = true;
    }
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  for (const id of ours) await clients.api.deleteRichMenu(id);
  return { removed: ours, aliases, defaultCleared };
}
