// Checks rich menu objects (create / validate) and the ids the rich menu endpoints take, against the limits
// in LINE's Messaging API reference. Pure: parsed JSON in, LINE-style `details` out.
import { graphemeCount, RICH_MENU_LIMITS } from "../../../src/line-limits.js";
import { Checker, isObject, join } from "./validate.js";
import type { Json, ValidationDetail } from "./validate.js";

/** The action types LINE accepts in a rich menu area (camera, camera roll and location are quick reply only). */
export const RICH_MENU_ACTION_TYPES = ["postback", "message", "uri", "datetimepicker", "richmenuswitch"] as const;
export const INPUT_OPTIONS = ["closeRichMenu", "openRichMenu", "openKeyboard", "openVoice"] as const;

const RICH_MENU_ID = /^richmenu-[0-9a-f]{32}$/;
const ALIAS_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** What LINE's create endpoint hands out: `richmenu-` and 32 hex digits. */
export function isRichMenuId(value: unknown): value is string {
  return typeof value === "string" && RICH_MENU_ID.test(value);
}

/** 1 to 32 of a-z, A-Z, 0-9, `_` and `-`. */
export function isRichMenuAliasId(value: unknown): value is string {
  return typeof value === "string" && ALIAS_ID.test(value);
}

/** Validates the body of POST /v2/bot/richmenu and /v2/bot/richmenu/validate. */
export function validateRichMenu(body: unknown): ValidationDetail[] {
  const c = new Checker({ allowHttpLoopback: false });
  if (!isObject(body)) {
    c.add("", "The request body must be a JSON object");
    return c.details;
  }
  const size = checkSize(c, body);
  const selected = body["selected"];
  if (selected === undefined || selected === null) c.add("selected", "must be specified");
  else if (typeof selected !== "boolean") c.add("selected", "must be a boolean");
  // Lengths count UTF-16 units, as the stand-in does for message text: never fewer than LINE's characters.
  c.string(body, "name", "", { required: true, min: 1, max: RICH_MENU_LIMITS.nameChars });
  c.string(body, "chatBarText", "", { required: true, min: 1, max: RICH_MENU_LIMITS.chatBarTextChars });

  const areas = body["areas"];
  if (areas === undefined || areas === null) {
    c.add("areas", "must be specified");
    return c.details;
  }
  if (!Array.isArray(areas)) {
    c.add("areas", "must be an array");
    return c.details;
  }
  if (areas.length < 1 || areas.length > RICH_MENU_LIMITS.areas) {
    c.add("areas", `Size must be between 1 and ${RICH_MENU_LIMITS.areas}`);
  }
  areas.forEach((area, i) => {
    const path = `areas[${i}]`;
    if (!isObject(area)) {
      c.add(path, "must be an object");
      return;
    }
    if (c.required(area, "bounds", path)) checkBounds(c, area["bounds"], join(path, "bounds"), size);
    if (c.required(area, "action", path)) checkRichMenuAction(c, area["action"], join(path, "action"));
  });
  return c.details;
}

/** The menu's size when it is valid (the areas are checked against it), else undefined. */
function checkSize(c: Checker, body: Json): { width: number; height: number } | undefined {
  const size = body["size"];
  if (size === undefined || size === null) {
    c.add("size", "must be specified");
    return undefined;
  }
  if (!isObject(size)) {
    c.add("size", "must be an object");
    return undefined;
  }
  const width = integer(c, size, "width", "size");
  const height = integer(c, size, "height", "size");
  let ok = width !== undefined && height !== undefined;
  if (width !== undefined && (width < RICH_MENU_LIMITS.minWidth || width > RICH_MENU_LIMITS.maxWidth)) {
    c.add("size.width", `must be between ${RICH_MENU_LIMITS.minWidth} and ${RICH_MENU_LIMITS.maxWidth}`);
    ok = false;
  }
  if (height !== undefined && height < RICH_MENU_LIMITS.minHeight) {
    c.add("size.height", `must be ${RICH_MENU_LIMITS.minHeight} or more`);
    ok = false;
  }
  if (width === undefined || height === undefined) return undefined;
  if (ok && width / height < RICH_MENU_LIMITS.minAspectRatio) {
    c.add("size", `The aspect ratio (width / height) must be ${RICH_MENU_LIMITS.minAspectRatio} or more`);
    ok = false;
  }
  return ok ? { width, height } : undefined;
}

function integer(c: Checker, obj: Json, key: string, path: string): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) {
    c.add(join(path, key), "must be specified");
    return undefined;
  }
  if (typeof value !== "number" || !Number.isInteger(value)) {
    c.add(join(path, key), "must be an integer");
    return undefined;
  }
  return value;
}

function checkBounds(c: Checker, bounds: unknown, path: string, size: { width: number; height: number } | undefined): void {
  if (!isObject(bounds)) {
    c.add(path, "must be an object");
    return;
  }
  const x = integer(c, bounds, "x", path);
  const y = integer(c, bounds, "y", path);
  const width = integer(c, bounds, "width", path);
  const height = integer(c, bounds, "height", path);
  let ok = true;
  for (const [key, value, min] of [
    ["x", x, 0],
    ["y", y, 0],
    ["width", width, 1],
    ["height", height, 1],
  ] as const) {
    if (value !== undefined && value < min) {
      c.add(join(path, key), `must be ${min} or more`);
      ok = false;
    }
  }
  if (!ok || size === undefined || x === undefined || y === undefined || width === undefined || height === undefined) return;
  if (x + width > size.width || y + height > size.height) {
    c.add(path, `The area must lie within the rich menu (${size.width}x${size.height}); it ends at x ${x + width}, y ${y + height}`);
  }
}

function checkRichMenuAction(c: Checker, action: unknown, path: string): void {
  if (!isObject(action)) {
    c.add(path, "must be an object");
    return;
  }
  const type = action["type"];
  if (typeof type !== "string" || !(RICH_MENU_ACTION_TYPES as readonly string[]).includes(type)) {
    c.add(join(path, "type"), `Must be one of the following values: [${RICH_MENU_ACTION_TYPES.join(", ")}]`);
    return;
  }
  // The label is optional in a rich menu (screen readers read it); at most 20 characters (grapheme clusters).
  const label = action["label"];
  if (label !== undefined && label !== null) {
    if (typeof label !== "string") c.add(join(path, "label"), "must be a string");
    else {
      const n = graphemeCount(label);
      if (n < 1 || n > RICH_MENU_LIMITS.labelGraphemes) c.add(join(path, "label"), `Length must be between 1 and ${RICH_MENU_LIMITS.labelGraphemes}`);
    }
  }
  switch (type) {
    case "postback":
      checkPostback(c, action, path);
      break;
    case "message":
      c.string(action, "text", path, { required: true, min: 1, max: RICH_MENU_LIMITS.messageTextChars });
      break;
    case "uri": {
      const uri = c.string(action, "uri", path, { required: true, min: 1, max: RICH_MENU_LIMITS.uriChars });
      if (uri !== undefined && uri.length > 0 && !/^(https?|line|tel):/i.test(uri)) c.add(join(path, "uri"), "invalid uri");
      break;
    }
    case "datetimepicker":
      c.string(action, "data", path, { required: true, min: 1, max: RICH_MENU_LIMITS.postbackDataChars });
      if (c.required(action, "mode", path)) c.oneOf(action, "mode", path, ["date", "time", "datetime"]);
      break;
    case "richmenuswitch":
      c.string(action, "richMenuAliasId", path, { required: true, min: 1, max: RICH_MENU_LIMITS.aliasIdChars });
      c.string(action, "data", path, { required: true, min: 1, max: RICH_MENU_LIMITS.postbackDataChars });
      break;
    default:
      break;
  }
}

function checkPostback(c: Checker, action: Json, path: string): void {
  c.string(action, "data", path, { required: true, min: 1, max: RICH_MENU_LIMITS.postbackDataChars });
  c.string(action, "displayText", path, { required: false, min: 1, max: RICH_MENU_LIMITS.displayTextChars });
  // `text` is the deprecated spelling of displayText; LINE still takes it, but not both.
  c.string(action, "text", path, { required: false, min: 1, max: RICH_MENU_LIMITS.displayTextChars });
  if (action["displayText"] !== undefined && action["text"] !== undefined) {
    c.add(join(path, "text"), "displayText and text cannot be specified together");
  }
  c.oneOf(action, "inputOption", path, INPUT_OPTIONS);
  const fillInText = c.string(action, "fillInText", path, { required: false, max: RICH_MENU_LIMITS.fillInTextChars });
  if (fillInText !== undefined && action["inputOption"] !== "openKeyboard") {
    c.add(join(path, "fillInText"), "can be specified only with inputOption openKeyboard");
  }
}

/** `userIds` of the bulk link and unlink bodies: 1 to 500 of them. Each id's format is checked apart (LINE words it differently). */
export function validateBulkUserIds(body: Json, c: Checker = new Checker({ allowHttpLoopback: false })): ValidationDetail[] {
  const userIds = body["userIds"];
  if (userIds === undefined || userIds === null) c.add("userIds", "must be specified");
  else if (!Array.isArray(userIds)) c.add("userIds", "must be an array");
  else if (userIds.length < 1 || userIds.length > RICH_MENU_LIMITS.bulkUserIds) {
    c.add("userIds", `Size must be between 1 and ${RICH_MENU_LIMITS.bulkUserIds}`);
  }
  return c.details;
}
