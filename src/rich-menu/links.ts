// Keeps each user's menu right as the staff list changes: a user newly in STAFF_USER_IDS gets the staff
// menu at their next message, and one taken off the list gets the default again. It looks at a user at
// most once every few minutes, off the reply's path, and does nothing until the menus are installed.
import { isUserId } from "../line-ids.js";
import type { messagingApi } from "@line/bot-sdk";
import type { Logger } from "pino";
import { isNotFound } from "./install.js";
import { MENU_ALIASES } from "./menus.js";

export interface MenuLinkKeeper {
  /** A user wrote or tapped: check their menu (in the background; never throws). */
  seen(userId: string): void;
  /** Resolves when the checks under way are done (for shutdown and tests). */
  settled(): Promise<void>;
}

export interface MenuLinkKeeperOptions {
  /** Only the rich menu calls it makes: it can send nothing (the send boundary alone sends). */
  api: Pick<messagingApi.MessagingApiClient, "getRichMenuAlias" | "getRichMenuIdOfUser" | "linkRichMenuIdToUser" | "unlinkRichMenuIdFromUser">;
  isStaff: (userId: string) => boolean;
  log: Logger;
  now?: () => number;
  /** How long a checked user is left alone. Default 10 minutes. */
  recheckMs?: number;
  /** How long the aliases' menu ids are trusted. Default 5 minutes. */
  aliasesMs?: number;
}

/** Users remembered at most; the oldest are forgotten first (they are then simply checked again). */
const MAX_REMEMBERED = 20_000;

export function createMenuLinkKeeper(options: MenuLinkKeeperOptions): MenuLinkKeeper {
  const { api, log } = options;
  const now = options.now ?? Date.now;
  const recheckMs = options.recheckMs ?? 10 * 60_000;
  const aliasesMs = options.aliasesMs ?? 5 * 60_000;
  const checkedUntil = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let staffMenus: { ids: ReadonlySet<string>; staff: string } | undefined;
  let staffMenusUntil = 0;

  /** The staff menus' ids, from the aliases; undefined while the menus are not installed. */
  async function readStaffMenus(): Promise<typeof staffMenus> {
    if (now() < staffMenusUntil) return staffMenus;
    try {
      const [staff, view] = await Promise.all([api.getRichMenuAlias(MENU_ALIASES.staff), api.getRichMenuAlias(MENU_ALIASES.staff_customer_view)]);
      staffMenus = { ids: new Set([staff.richMenuId, view.richMenuId]), staff: staff.richMenuId };
    } catch (err) {
      if (!isNotFound(err)) throw err;
      staffMenus = undefined;
    }
    staffMenusUntil = now() + aliasesMs;
    return staffMenus;
  }

  async function check(userId: string): Promise<void> {
    const menus = await readStaffMenus();
    if (menus === undefined) return;
    let current: string | undefined;
    try {
      current = (await api.getRichMenuIdOfUser(userId)).richMenuId;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    const hasStaffMenu = current !== undefined && menus.ids.has(current);
    if (options.isStaff(userId) && !hasStaffMenu) {
      await api.linkRichMenuIdToUser(userId, menus.staff);
      log.info({ userId }, "staff menu linked to a user on the staff list");
    } else if (!options.isStaff(userId) && hasStaffMenu) {
      await api.unlinkRichMenuIdFromUser(userId);
      log.info({ userId }, "staff menu unlinked from a user no longer on the staff list");
    }
  }

  return {
    seen(userId) {
      // The id goes into LINE's URL path: only one of LINE's shape (the webhook's reader checks it too).
      if (!isUserId(userId)) return;
      const at = now();
      if ((checkedUntil.get(userId) ?? 0) > at) return;
      checkedUntil.delete(userId);
      checkedUntil.set(userId, at + recheckMs);
      if (checkedUntil.size > MAX_REMEMBERED) checkedUntil.delete(checkedUntil.keys().next().value as string);
      const task = check(userId)
        .catch((err: unknown) => {
          // Tried again at the user's next message.
          checkedUntil.delete(userId);
          log.warn({ err, userId }, "could not check the user's rich menu");
        })
        .finally(() => running.delete(task));
      running.add(task);
    },
    async settled() {
      await Promise.all([...running]);
    },
  };
}
