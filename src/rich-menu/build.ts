// The three menus for a shop: their designs and their pictures, made together.
import { drawMenu } from "./draw.js";
import { designMenus, MENU_KINDS } from "./menus.js";
import type { MenuDesign, MenuKind, MenuOptions } from "./menus.js";

export interface BuiltMenus {
  designs: Record<MenuKind, MenuDesign>;
  images: Record<MenuKind, Buffer>;
}

export async function buildMenus(shopName: string, options: MenuOptions = {}): Promise<BuiltMenus> {
  const designs = designMenus(shopName, options);
  const drawn = await Promise.all(MENU_KINDS.map(async (kind) => [kind, await drawMenu(designs[kind])] as const));
  return { designs, images: Object.fromEntries(drawn) as Record<MenuKind, Buffer> };
}
