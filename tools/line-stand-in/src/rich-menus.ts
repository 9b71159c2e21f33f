// The stand-in's rich menus: LINE's rich menu endpoints (create, validate, images, default, per-user links,
// bulk links, aliases) over an in-memory store, and what the LINE app would show each user.
// `RichMenuStore` holds the state and LINE's rules; `richMenuRouter` puts it on LINE's paths.
import { randomBytes } from "node:crypto";
import express from "express";
import type { Request, Response, Router } from "express";
import type { messagingApi } from "@line/bot-sdk";
import { readImageInfo, sniffImageFormat } from "./image-info.js";
import type { ImageFormat } from "./image-info.js";
import { RICH_MENU_LIMITS } from "../../../src/line-limits.js";
import { isRichMenuAliasId, isRichMenuId, validateBulkUserIds, validateRichMenu } from "./rich-menu-validate.js";
import { Checker, isObject, isUserId, summarize } from "./validate.js";
import type { ValidationDetail } from "./validate.js";

export type RichMenu = messagingApi.RichMenuResponse;

export interface RichMenuImage {
  contentType: "image/png" | "image/jpeg";
  bytes: Buffer;
  width: number;
  height: number;
}

/** The menu the LINE app shows a user in the 1:1 chat, and why: their own link wins over the default. */
export interface ShownRichMenu {
  menu: RichMenu;
  source: "linked" | "default";
}

/** What a `richmenuswitch` tap reports in the postback event's `params.status`. */
export type RichMenuSwitchStatus = "SUCCESS" | "RICHMENU_ALIAS_ID_NOTFOUND" | "RICHMENU_NOTFOUND" | "FAILED";

/** Emitted whenever what some user would see may have changed. */
export interface RichMenuChange {
  kind: "created" | "image" | "deleted" | "default" | "linked" | "unlinked" | "alias";
  richMenuId?: string;
  richMenuAliasId?: string;
  /** The users concerned, when the change is theirs alone (links); absent when it can concern anyone. */
  userIds?: string[];
  /** The channel whose menus changed (set by the stand-in, which keeps each channel's menus apart). */
  channel?: string;
  at: number;
}

/** A LINE-like error answer: status and body (`message`, and `details` where LINE gives them). */
export class LineApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { message: string; details?: ValidationDetail[] },
    /** The chat the failed call was about, for the console (a user's link). */
    readonly chatId?: string,
  ) {
    super(body.message);
  }
}

const MENU_NOT_FOUND = "richmenu not found";
const ALIAS_NOT_FOUND = "richmenu alias not found";
const NEEDS_IMAGE = "must upload richmenu image before applying it to user";
const CONTENT_TYPES: Record<ImageFormat, RichMenuImage["contentType"]> = { png: "image/png", jpeg: "image/jpeg" };

const badBody = (details: ValidationDetail[]): LineApiError => new LineApiError(400, { message: summarize(details), details });
const notFound = (message: string, chatId?: string): LineApiError => new LineApiError(404, { message, details: [] }, chatId);

function invalidUserId(userId: string): LineApiError {
  return new LineApiError(400, { message: "The value for the 'userId' parameter is invalid" }, userId);
}

interface StoredMenu {
  menu: RichMenu;
  image?: RichMenuImage;
}

export class RichMenuStore {
  private readonly menus = new Map<string, StoredMenu>();
  private readonly links = new Map<string, string>();
  private readonly aliases = new Map<string, string>();
  private defaultId: string | undefined;

  constructor(
    private readonly now: () => number,
    private readonly changed: (change: RichMenuChange) => void,
  ) {}

  private emit(change: Omit<RichMenuChange, "at">): void {
    this.changed({ ...change, at: this.now() });
  }

  /** The menu, else 404; with `needsImage`, a menu without its image is a 400 (it cannot be shown). */
  private existing(richMenuId: string, needsImage: boolean, chatId?: string): StoredMenu {
    const stored = this.menus.get(richMenuId);
    if (stored === undefined) throw notFound(MENU_NOT_FOUND, chatId);
    if (needsImage && stored.image === undefined) throw new LineApiError(400, { message: NEEDS_IMAGE, details: [] }, chatId);
    return stored;
  }

  validate(body: unknown): void {
    const details = validateRichMenu(body);
    if (details.length > 0) throw badBody(details);
  }

  create(body: unknown): { richMenuId: string } {
    this.validate(body);
    if (this.menus.size >= RICH_MENU_LIMITS.menusPerChannel) {
      throw new LineApiError(400, { message: `The maximum number of rich menus (${RICH_MENU_LIMITS.menusPerChannel}) has been reached; delete one first` });
    }
    const richMenuId = `richmenu-${randomBytes(16).toString("hex")}`;
    const input = body as messagingApi.RichMenuRequest & Required<Pick<messagingApi.RichMenuRequest, "size" | "areas">>;
    // The response object LINE gives back: the id and the menu's own fields, nothing else the request carried.
    const menu: RichMenu = {
      richMenuId,
      size: { width: input.size.width, height: input.size.height },
      selected: input.selected === true,
      name: String(input.name),
      chatBarText: String(input.chatBarText),
      areas: input.areas.map((area) => ({
        bounds: { x: area.bounds?.x, y: area.bounds?.y, width: area.bounds?.width, height: area.bounds?.height },
        action: structuredClone(area.action),
      })),
    };
    this.menus.set(richMenuId, { menu });
    this.emit({ kind: "created", richMenuId });
    return { richMenuId };
  }

  get(richMenuId: string): RichMenu {
    return structuredClone(this.existing(richMenuId, false).menu);
  }

  list(): RichMenu[] {
    return [...this.menus.values()].map((stored) => structuredClone(stored.menu));
  }

  /**
   * Deletes a menu, as LINE does: it stops being the default and is unlinked from its users (who then see the
   * default, if any). Aliases that point at it are kept, dangling, as on LINE: a `richmenuswitch` to one then
   * reports RICHMENU_NOTFOUND, and the alias can be pointed at another menu or deleted.
   */
  delete(richMenuId: string): void {
    this.existing(richMenuId, false);
    this.menus.delete(richMenuId);
    if (this.defaultId === richMenuId) this.defaultId = undefined;
    for (const [userId, linked] of this.links) {
      if (linked === richMenuId) this.links.delete(userId);
    }
    this.emit({ kind: "deleted", richMenuId });
  }

  /** Uploads the menu's image: PNG or JPEG of the menu's exact size, at most 1 MB, once per menu. */
  setImage(richMenuId: string, contentTypeHeader: string | undefined, bytes: Buffer): void {
    const stored = this.existing(richMenuId, false);
    const contentType = (contentTypeHeader ?? "").split(";")[0]!.trim().toLowerCase();
    if (contentType !== "image/png" && contentType !== "image/jpeg") {
      throw new LineApiError(415, { message: `Unsupported Content-Type '${contentType}': a rich menu image must be image/png or image/jpeg` });
    }
    if (stored.image !== undefined) throw new LineApiError(400, { message: "An image has already been uploaded to the richmenu" });
    if (bytes.length > RICH_MENU_LIMITS.imageBytes) {
      throw new LineApiError(400, {
        message: "The image file is too large for a richmenu",
        details: [{ property: "image", message: `must be at most 1 MB (${RICH_MENU_LIMITS.imageBytes} bytes); it is ${bytes.length} bytes` }],
      });
    }
    const sniffed = sniffImageFormat(bytes);
    const info = readImageInfo(bytes);
    if (sniffed === undefined || info === undefined) {
      throw new LineApiError(400, {
        message: "The image could not be read as a PNG or JPEG",
        details: [{ property: "image", message: "must be a PNG or JPEG file" }],
      });
    }
    if (CONTENT_TYPES[sniffed] !== contentType) {
      throw new LineApiError(400, {
        message: "The image does not match its Content-Type",
        details: [{ property: "image", message: `is a ${sniffed.toUpperCase()} file sent as ${contentType}` }],
      });
    }
    const { width, height } = stored.menu.size;
    if (info.width !== width || info.height !== height) {
      throw new LineApiError(400, {
        message: "The image size is not allowed for richmenu",
        details: [{ property: "image", message: `must be ${width}x${height} pixels (the rich menu's size); it is ${info.width}x${info.height}` }],
      });
    }
    stored.image = { contentType, bytes: Buffer.from(bytes), width: info.width, height: info.height };
    this.emit({ kind: "image", richMenuId });
  }

  image(richMenuId: string): RichMenuImage | undefined {
    return this.menus.get(richMenuId)?.image;
  }

  setDefault(richMenuId: string): void {
    this.existing(richMenuId, true);
    this.defaultId = richMenuId;
    this.emit({ kind: "default", richMenuId });
  }

  getDefault(): { richMenuId: string } {
    if (this.defaultId === undefined) throw notFound("no default richmenu");
    return { richMenuId: this.defaultId };
  }

  cancelDefault(): void {
    if (this.defaultId === undefined) return;
    const richMenuId = this.defaultId;
    this.defaultId = undefined;
    this.emit({ kind: "default", richMenuId });
  }

  link(userId: string, richMenuId: string): void {
    if (!isUserId(userId)) throw invalidUserId(userId);
    this.existing(richMenuId, true, userId);
    this.links.set(userId, richMenuId);
    this.emit({ kind: "linked", richMenuId, userIds: [userId] });
  }

  unlink(userId: string): void {
    if (!isUserId(userId)) throw invalidUserId(userId);
    if (this.links.delete(userId)) this.emit({ kind: "unlinked", userIds: [userId] });
  }

  /** The per-user link only: LINE's "get rich menu ID of user" does not fall back to the default. */
  linkOf(userId: string): { richMenuId: string } {
    if (!isUserId(userId)) throw invalidUserId(userId);
    const richMenuId = this.links.get(userId);
    if (richMenuId === undefined) throw notFound("the user has no richmenu", userId);
    return { richMenuId };
  }

  /** LINE processes bulk requests later; the stand-in applies them before answering 202. All or nothing. */
  bulkLink(body: unknown): void {
    const { userIds, richMenuId } = this.bulkBody(body, true);
    this.existing(richMenuId!, true);
    for (const userId of userIds) this.links.set(userId, richMenuId!);
    this.emit({ kind: "linked", richMenuId: richMenuId!, userIds });
  }

  bulkUnlink(body: unknown): void {
    const { userIds } = this.bulkBody(body, false);
    const unlinked = userIds.filter((userId) => this.links.delete(userId));
    if (unlinked.length > 0) this.emit({ kind: "unlinked", userIds: unlinked });
  }

  private bulkBody(body: unknown, withMenu: boolean): { userIds: string[]; richMenuId?: string } {
    if (!isObject(body)) throw badBody([{ property: "", message: "The request body must be a JSON object" }]);
    const c = new Checker({ allowHttpLoopback: false });
    if (withMenu) {
      const id = body["richMenuId"];
      if (id === undefined || id === null) c.add("richMenuId", "must be specified");
      else if (!isRichMenuId(id)) c.add("richMenuId", "invalid richMenuId");
    }
    const details = validateBulkUserIds(body, c);
    if (details.length > 0) throw badBody(details);
    const userIds = body["userIds"] as unknown[];
    const bad = userIds.findIndex((id) => typeof id !== "string" || !isUserId(id));
    if (bad >= 0) {
      throw new LineApiError(400, { message: `The property, 'userIds[${bad}]', in the request body is invalid (line: -, column: -)` });
    }
    return { userIds: [...new Set(userIds as string[])], ...(withMenu ? { richMenuId: body["richMenuId"] as string } : {}) };
  }

  createAlias(body: unknown): void {
    const { richMenuAliasId, richMenuId } = this.aliasBody(body, true);
    if (this.aliases.has(richMenuAliasId)) throw new LineApiError(400, { message: "conflict richmenu alias id", details: [] });
    if (this.aliases.size >= RICH_MENU_LIMITS.aliasesPerChannel) {
      throw new LineApiError(400, { message: `The maximum number of rich menu aliases (${RICH_MENU_LIMITS.aliasesPerChannel}) has been reached; delete one first` });
    }
    this.aliasTarget(richMenuId);
    this.aliases.set(richMenuAliasId, richMenuId);
    this.emit({ kind: "alias", richMenuAliasId, richMenuId });
  }

  updateAlias(richMenuAliasId: string, body: unknown): void {
    this.knownAlias(richMenuAliasId);
    const { richMenuId } = this.aliasBody(body, false);
    this.aliasTarget(richMenuId);
    this.aliases.set(richMenuAliasId, richMenuId);
    this.emit({ kind: "alias", richMenuAliasId, richMenuId });
  }

  deleteAlias(richMenuAliasId: string): void {
    this.knownAlias(richMenuAliasId);
    this.aliases.delete(richMenuAliasId);
    this.emit({ kind: "alias", richMenuAliasId });
  }

  getAlias(richMenuAliasId: string): { richMenuAliasId: string; richMenuId: string } {
    return { richMenuAliasId, richMenuId: this.knownAlias(richMenuAliasId) };
  }

  listAliases(): { richMenuAliasId: string; richMenuId: string }[] {
    return [...this.aliases].map(([richMenuAliasId, richMenuId]) => ({ richMenuAliasId, richMenuId }));
  }

  private knownAlias(richMenuAliasId: string): string {
    if (!isRichMenuAliasId(richMenuAliasId)) {
      throw badBody([{ property: "richMenuAliasId", message: "invalid richMenuAliasId" }]);
    }
    const richMenuId = this.aliases.get(richMenuAliasId);
    if (richMenuId === undefined) throw notFound(ALIAS_NOT_FOUND);
    return richMenuId;
  }

  /** An alias may point only at a menu with its image; LINE answers both cases with 400 "richmenu not found". */
  private aliasTarget(richMenuId: string): void {
    if (this.menus.get(richMenuId)?.image === undefined) throw new LineApiError(400, { message: MENU_NOT_FOUND, details: [] });
  }

  private aliasBody(body: unknown, withAliasId: boolean): { richMenuAliasId: string; richMenuId: string } {
    if (!isObject(body)) throw badBody([{ property: "", message: "The request body must be a JSON object" }]);
    const c = new Checker({ allowHttpLoopback: false });
    const aliasId = body["richMenuAliasId"];
    if (withAliasId) {
      if (aliasId === undefined || aliasId === null) c.add("richMenuAliasId", "must be specified");
      else if (!isRichMenuAliasId(aliasId)) c.add("richMenuAliasId", "invalid richMenuAliasId: 1 to 32 of a-z, A-Z, 0-9, _ and -");
    }
    const id = body["richMenuId"];
    if (id === undefined || id === null) c.add("richMenuId", "must be specified");
    else if (!isRichMenuId(id)) c.add("richMenuId", "invalid richMenuId");
    if (c.details.length > 0) throw badBody(c.details);
    return { richMenuAliasId: String(aliasId), richMenuId: id as string };
  }

  /** What the LINE app shows this user under the 1:1 chat: their linked menu, else the default, else none. */
  shownTo(userId: string): ShownRichMenu | undefined {
    const linked = this.links.get(userId);
    const linkedMenu = linked === undefined ? undefined : this.menus.get(linked);
    if (linkedMenu?.image !== undefined) return { menu: structuredClone(linkedMenu.menu), source: "linked" };
    const defaultMenu = this.defaultId === undefined ? undefined : this.menus.get(this.defaultId);
    if (defaultMenu?.image !== undefined) return { menu: structuredClone(defaultMenu.menu), source: "default" };
    return undefined;
  }

  /** A `richmenuswitch` tap in the LINE app: links the alias's menu to the user. */
  switchTo(userId: string, richMenuAliasId: string): RichMenuSwitchStatus {
    if (!isUserId(userId)) return "FAILED";
    const richMenuId = this.aliases.get(richMenuAliasId);
    if (richMenuId === undefined) return "RICHMENU_ALIAS_ID_NOTFOUND";
    if (this.menus.get(richMenuId)?.image === undefined) return "RICHMENU_NOTFOUND";
    this.links.set(userId, richMenuId);
    this.emit({ kind: "linked", richMenuId, richMenuAliasId, userIds: [userId] });
    return "SUCCESS";
  }
}

export interface RichMenuRouteContext {
  /**
   * Answers a LINE error. Failed reads (GET) are ordinary answers ("the user has no richmenu") and are not
   * recorded as rejections; failed changes are, so the console shows them.
   */
  fail(req: Request, res: Response, error: LineApiError, record: boolean): void;
}

// Up to this much is read from an image upload; past 1 MB it is refused with a LINE-like 400, past this a 413.
const UPLOAD_READ_LIMIT = "10mb";

/** LINE's rich menu paths (api.line.me and api-data.line.me alike) over `store`. Mount after the bearer check. */
/** `storeOf`: the rich menus of the request's channel (each OA has its own). */
export function richMenuRouter(storeOf: (req: Request) => RichMenuStore, context: RichMenuRouteContext): Router {
  const router = express.Router();
  const json = express.json({ limit: "2mb", type: () => true });
  const raw = express.raw({ limit: UPLOAD_READ_LIMIT, type: () => true });

  /** Runs `work`; its result is the JSON answer with `status`, a LineApiError the LINE-like failure. */
  const answer =
    (status: number, work: (req: Request) => unknown) =>
    (req: Request, res: Response): void => {
      try {
        const body = work(req);
        res.status(status).json(body ?? {});
      } catch (error) {
        if (!(error instanceof LineApiError)) throw error;
        context.fail(req, res, error, req.method !== "GET");
      }
    };
  const param = (req: Request, name: string): string => String(req.params[name] ?? "");

  router.post(
    "/v2/bot/richmenu/validate",
    json,
    answer(200, (req) => void storeOf(req).validate(req.body)),
  );
  router.post(
    "/v2/bot/richmenu",
    json,
    answer(200, (req) => storeOf(req).create(req.body)),
  );
  router.get(
    "/v2/bot/richmenu/list",
    answer(200, (req) => ({ richmenus: storeOf(req).list() })),
  );

  router.post(
    "/v2/bot/richmenu/bulk/link",
    json,
    answer(202, (req) => void storeOf(req).bulkLink(req.body)),
  );
  router.post(
    "/v2/bot/richmenu/bulk/unlink",
    json,
    answer(202, (req) => void storeOf(req).bulkUnlink(req.body)),
  );

  router.get(
    "/v2/bot/richmenu/alias/list",
    answer(200, (req) => ({ aliases: storeOf(req).listAliases() })),
  );
  router.post(
    "/v2/bot/richmenu/alias",
    json,
    answer(200, (req) => void storeOf(req).createAlias(req.body)),
  );
  router.post(
    "/v2/bot/richmenu/alias/:aliasId",
    json,
    answer(200, (req) => void storeOf(req).updateAlias(param(req, "aliasId"), req.body)),
  );
  router.get(
    "/v2/bot/richmenu/alias/:aliasId",
    answer(200, (req) => storeOf(req).getAlias(param(req, "aliasId"))),
  );
  router.delete(
    "/v2/bot/richmenu/alias/:aliasId",
    answer(200, (req) => void storeOf(req).deleteAlias(param(req, "aliasId"))),
  );

  router.post(
    "/v2/bot/richmenu/:richMenuId/content",
    raw,
    answer(200, (req) => {
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      storeOf(req).setImage(param(req, "richMenuId"), req.get("content-type"), bytes);
    }),
  );
  router.get("/v2/bot/richmenu/:richMenuId/content", (req, res) => {
    const id = param(req, "richMenuId");
    try {
      storeOf(req).get(id);
    } catch (error) {
      if (!(error instanceof LineApiError)) throw error;
      context.fail(req, res, error, false);
      return;
    }
    const image = storeOf(req).image(id);
    if (image === undefined) {
      context.fail(req, res, notFound("the richmenu has no image"), false);
      return;
    }
    res.status(200).type(image.contentType).send(image.bytes);
  });
  router.get(
    "/v2/bot/richmenu/:richMenuId",
    answer(200, (req) => storeOf(req).get(param(req, "richMenuId"))),
  );
  router.delete(
    "/v2/bot/richmenu/:richMenuId",
    answer(200, (req) => void storeOf(req).delete(param(req, "richMenuId"))),
  );

  router.post(
    "/v2/bot/user/all/richmenu/:richMenuId",
    answer(200, (req) => void storeOf(req).setDefault(param(req, "richMenuId"))),
  );
  router.get(
    "/v2/bot/user/all/richmenu",
    answer(200, (req) => storeOf(req).getDefault()),
  );
  router.delete(
    "/v2/bot/user/all/richmenu",
    answer(200, (req) => void storeOf(req).cancelDefault()),
  );

  router.post(
    "/v2/bot/user/:userId/richmenu/:richMenuId",
    answer(200, (req) => void storeOf(req).link(param(req, "userId"), param(req, "richMenuId"))),
  );
  router.delete(
    "/v2/bot/user/:userId/richmenu",
    answer(200, (req) => void storeOf(req).unlink(param(req, "userId"))),
  );
  router.get(
    "/v2/bot/user/:userId/richmenu",
    answer(200, (req) => storeOf(req).linkOf(param(req, "userId"))),
  );

  return router;
}
