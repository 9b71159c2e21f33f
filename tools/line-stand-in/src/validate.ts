// Checks request bodies for the LINE stand-in against LINE's message limits, as LINE's Messaging API reference gives them.
// Pure: takes parsed JSON (`unknown`, it is outside input) and returns LINE-style error details.
import { graphemeCount, jsonBytes, LINE_LIMITS } from "../../../src/line-limits.js";
import { isLoopbackHostname } from "../../../src/loopback.js";

/** One entry of LINE's `details` array. `property` is a path like `messages[0].contents.body.contents[1].text`. */
export interface ValidationDetail {
  message: string;
  property: string;
}

export interface ValidateOptions {
  /** Accept `http://` image urls on loopback hosts (the local console serves sandbox QR images over http). */
  allowHttpLoopback: boolean;
}

const MESSAGE_TYPES = ["text", "textV2", "image", "video", "audio", "location", "sticker", "imagemap", "template", "flex", "coupon"] as const;
const COMPONENT_TYPES = ["box", "button", "image", "video", "icon", "text", "separator", "filler"] as const;
const ACTION_TYPES = ["postback", "message", "uri", "datetimepicker", "camera", "cameraRoll", "location", "richmenuswitch", "clipboard"] as const;
const QUICK_REPLY_ACTIONS = ["postback", "message", "uri", "datetimepicker", "camera", "cameraRoll", "location", "clipboard"];
const SPACINGS = ["none", "xs", "sm", "md", "lg", "xl", "xxl"];
const TEXT_SIZES = ["xxs", "xs", "sm", "md", "lg", "xl", "xxl", "3xl", "4xl", "5xl"];
const IMAGE_SIZES = [...TEXT_SIZES, "full"];
const BUBBLE_SIZES = ["nano", "micro", "deca", "hecto", "kilo", "mega", "giga"];

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Collects details while walking a body; paths are built the way LINE prints them. */
export class Checker {
  readonly details: ValidationDetail[] = [];
  constructor(readonly options: ValidateOptions) {}

  add(property: string, message: string): void {
    this.details.push({ property, message });
  }

  required(obj: Json, key: string, path: string): boolean {
    if (obj[key] === undefined || obj[key] === null) {
      this.add(join(path, key), "must be specified");
      return false;
    }
    return true;
  }

  string(obj: Json, key: string, path: string, opts: { required: boolean; min?: number; max?: number }): string | undefined {
    const value = obj[key];
    if (value === undefined || value === null) {
      if (opts.required) this.add(join(path, key), "must be specified");
      return undefined;
    }
    if (typeof value !== "string") {
      this.add(join(path, key), "must be a string");
      return undefined;
    }
    const min = opts.min ?? 0;
    if (value.length < min || (opts.max !== undefined && value.length > opts.max)) {
      this.add(join(path, key), min > 0 && value.length === 0 ? "May not be empty" : `Length must be between ${min} and ${opts.max ?? "∞"}`);
    }
    return value;
  }

  oneOf(obj: Json, key: string, path: string, allowed: readonly string[]): void {
    const value = obj[key];
    if (value === undefined) return;
    if (typeof value !== "string" || !allowed.includes(value)) {
      this.add(join(path, key), `Must be one of the following values: [${allowed.join(", ")}]`);
    }
  }

  /** A keyword from `allowed`, or a pixel / percent value where LINE allows one. */
  keywordOrLength(obj: Json, key: string, path: string, allowed: readonly string[], allowPercent = false): void {
    const value = obj[key];
    if (value === undefined) return;
    const pattern = allowPercent ? /^\d+(\.\d+)?(px|%)$/ : /^\d+(\.\d+)?px$/;
    if (typeof value !== "string" || !(allowed.includes(value) || pattern.test(value))) {
      this.add(join(path, key), `Must be one of the following values: [${allowed.join(", ")}] or a value in pixels`);
    }
  }

  color(obj: Json, key: string, path: string): void {
    const value = obj[key];
    if (value === undefined) return;
    if (typeof value !== "string" || !/^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(value)) {
      this.add(join(path, key), "Must be a color in the form #RRGGBB or #RRGGBBAA");
    }
  }

  flexRatio(obj: Json, key: string, path: string): void {
    const value = obj[key];
    if (value === undefined) return;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      this.add(join(path, key), "Must be an integer of 0 or more");
    }
  }

  /** Image and icon urls: https (or http on loopback when allowed), at most 2,000 characters. */
  imageUrl(obj: Json, key: string, path: string, required: boolean): void {
    const value = this.string(obj, key, path, { required, min: 1, max: LINE_LIMITS.urlChars });
    if (value === undefined || value.length === 0) return;
    if (!this.acceptableImageUrl(value)) {
      this.add(join(path, key), this.options.allowHttpLoopback ? "Must be an https URL (http only on loopback)" : "Must be an https URL");
    }
  }

  private acceptableImageUrl(value: string): boolean {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    if (url.protocol === "https:") return true;
    return this.options.allowHttpLoopback && url.protocol === "http:" && isLoopbackHostname(url.hostname);
  }
}

export function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/** Validates the body of POST /v2/bot/message/reply. */
export function validateReplyBody(body: unknown, options: ValidateOptions): ValidationDetail[] {
  const c = new Checker(options);
  if (!isObject(body)) {
    c.add("", "The request body must be a JSON object");
    return c.details;
  }
  c.string(body, "replyToken", "", { required: true, min: 1 });
  checkMessages(c, body);
  return c.details;
}

/** Validates the body of POST /v2/bot/message/push. */
export function validatePushBody(body: unknown, options: ValidateOptions): ValidationDetail[] {
  const c = new Checker(options);
  if (!isObject(body)) {
    c.add("", "The request body must be a JSON object");
    return c.details;
  }
  const to = c.string(body, "to", "", { required: true, min: 1 });
  if (to !== undefined && to.length > 0 && !isChatId(to)) c.add("to", "The value for the 'to' parameter is invalid");
  checkMessages(c, body);
  return c.details;
}

/** A LINE user, group or room id: U, C or R and 32 lower-case hex digits. */
export function isChatId(value: string): boolean {
  return /^[UCR][0-9a-f]{32}$/.test(value);
}

export { isUserId } from "../../../src/line-ids.js";

/** Validates an array of message objects on its own (what the renderers' tests want). */
export function validateMessages(messages: unknown, options: ValidateOptions): ValidationDetail[] {
  const c = new Checker(options);
  checkMessages(c, { messages });
  return c.details;
}

function checkMessages(c: Checker, body: Json): void {
  const messages = body["messages"];
  if (messages === undefined || messages === null) {
    c.add("messages", "must be specified");
    return;
  }
  if (!Array.isArray(messages)) {
    c.add("messages", "must be an array");
    return;
  }
  if (messages.length < 1 || messages.length > LINE_LIMITS.messagesPerRequest) {
    c.add("messages", `Size must be between 1 and ${LINE_LIMITS.messagesPerRequest}`);
  }
  messages.forEach((message, i) => checkMessage(c, message, `messages[${i}]`));
}

function checkMessage(c: Checker, message: unknown, path: string): void {
  if (!isObject(message)) {
    c.add(path, "must be an object");
    return;
  }
  const type = message["type"];
  if (typeof type !== "string" || !(MESSAGE_TYPES as readonly string[]).includes(type)) {
    c.add(join(path, "type"), `Must be one of the following values: [${MESSAGE_TYPES.join(", ")}]`);
    return;
  }
  switch (type) {
    case "text":
    case "textV2": {
      c.string(message, "text", path, { required: true, min: 1, max: LINE_LIMITS.textUtf16Units });
      const emojis = message["emojis"];
      if (Array.isArray(emojis) && emojis.length > LINE_LIMITS.textEmojis) {
        c.add(join(path, "emojis"), `Size must be between 0 and ${LINE_LIMITS.textEmojis}`);
      }
      break;
    }
    case "image":
      c.imageUrl(message, "originalContentUrl", path, true);
      c.imageUrl(message, "previewImageUrl", path, true);
      break;
    case "sticker":
      c.string(message, "packageId", path, { required: true, min: 1 });
      c.string(message, "stickerId", path, { required: true, min: 1 });
      break;
    case "flex":
      checkFlexMessage(c, message, path);
      break;
    default:
      // Types slipline never sends: the stand-in accepts them without a deep check.
      break;
  }
  checkQuickReply(c, message["quickReply"], join(path, "quickReply"));
  checkSender(c, message["sender"], join(path, "sender"));
}

function checkSender(c: Checker, sender: unknown, path: string): void {
  if (sender === undefined) return;
  if (!isObject(sender)) {
    c.add(path, "must be an object");
    return;
  }
  c.string(sender, "name", path, { required: false, min: 1, max: LINE_LIMITS.senderNameChars });
  c.imageUrl(sender, "iconUrl", path, false);
}

function checkQuickReply(c: Checker, quickReply: unknown, path: string): void {
  if (quickReply === undefined) return;
  if (!isObject(quickReply)) {
    c.add(path, "must be an object");
    return;
  }
  const items = quickReply["items"];
  if (!Array.isArray(items)) {
    c.add(join(path, "items"), "must be specified");
    return;
  }
  if (items.length < 1 || items.length > LINE_LIMITS.quickReplyItems) {
    c.add(join(path, "items"), `Size must be between 1 and ${LINE_LIMITS.quickReplyItems}`);
  }
  items.forEach((item, i) => {
    const itemPath = `${path}.items[${i}]`;
    if (!isObject(item)) {
      c.add(itemPath, "must be an object");
      return;
    }
    if (item["type"] !== "action") c.add(join(itemPath, "type"), "Must be one of the following values: [action]");
    c.imageUrl(item, "imageUrl", itemPath, false);
    if (!c.required(item, "action", itemPath)) return;
    checkAction(c, item["action"], join(itemPath, "action"), {
      allowed: QUICK_REPLY_ACTIONS,
      labelRequired: true,
      labelMax: LINE_LIMITS.quickReplyLabelGraphemes,
    });
  });
}

interface ActionRules {
  allowed: readonly string[];
  labelRequired: boolean;
  labelMax: number;
}

function checkAction(c: Checker, action: unknown, path: string, rules: ActionRules): void {
  if (!isObject(action)) {
    c.add(path, "must be an object");
    return;
  }
  const type = action["type"];
  if (typeof type !== "string" || !rules.allowed.includes(type)) {
    c.add(join(path, "type"), `Must be one of the following values: [${rules.allowed.join(", ")}]`);
    return;
  }
  const label = action["label"];
  if (label === undefined || label === null) {
    if (rules.labelRequired) c.add(join(path, "label"), "must be specified");
  } else if (typeof label !== "string") {
    c.add(join(path, "label"), "must be a string");
  } else {
    const n = graphemeCount(label);
    if (n < 1 || n > rules.labelMax) c.add(join(path, "label"), `Length must be between 1 and ${rules.labelMax}`);
  }
  switch (type) {
    case "postback": {
      c.string(action, "data", path, { required: true, min: 1, max: LINE_LIMITS.postbackDataChars });
      c.string(action, "displayText", path, { required: false, min: 1, max: LINE_LIMITS.postbackDisplayTextChars });
      c.string(action, "text", path, { required: false, min: 1, max: LINE_LIMITS.postbackDisplayTextChars });
      if (action["displayText"] !== undefined && action["text"] !== undefined) {
        c.add(join(path, "text"), "displayText and text cannot be specified together");
      }
      break;
    }
    case "message":
      c.string(action, "text", path, { required: true, min: 1, max: LINE_LIMITS.messageActionTextChars });
      break;
    case "uri": {
      const uri = c.string(action, "uri", path, { required: true, min: 1, max: LINE_LIMITS.uriActionChars });
      if (uri !== undefined && uri.length > 0 && !/^(https?|line|tel):/i.test(uri)) {
        c.add(join(path, "uri"), "invalid uri scheme");
      }
      break;
    }
    case "datetimepicker":
      c.string(action, "data", path, { required: true, min: 1, max: LINE_LIMITS.postbackDataChars });
      c.oneOf(action, "mode", path, ["date", "time", "datetime"]);
      c.required(action, "mode", path);
      break;
    case "clipboard":
      c.string(action, "clipboardText", path, { required: true, min: 1, max: 1000 });
      break;
    default:
      break;
  }
}

function checkFlexMessage(c: Checker, message: Json, path: string): void {
  const altText = c.string(message, "altText", path, { required: true, min: 1, max: LINE_LIMITS.altTextChars });
  if (altText !== undefined && altText.trim().length === 0 && altText.length > 0) {
    c.add(join(path, "altText"), "May not be blank");
  }
  if (!c.required(message, "contents", path)) return;
  const contents = message["contents"];
  const contentsPath = join(path, "contents");
  if (!isObject(contents)) {
    c.add(contentsPath, "must be an object");
    return;
  }
  if (contents["type"] === "bubble") {
    checkBubble(c, contents, contentsPath);
  } else if (contents["type"] === "carousel") {
    checkCarousel(c, contents, contentsPath);
  } else {
    c.add(join(contentsPath, "type"), "Must be one of the following values: [bubble, carousel]");
  }
}

function checkCarousel(c: Checker, carousel: Json, path: string): void {
  const bubbles = carousel["contents"];
  if (!Array.isArray(bubbles)) {
    c.add(join(path, "contents"), "must be specified");
    return;
  }
  if (bubbles.length < 1 || bubbles.length > LINE_LIMITS.carouselBubbles) {
    c.add(join(path, "contents"), `Size must be between 1 and ${LINE_LIMITS.carouselBubbles}`);
  }
  const size = jsonBytes(carousel);
  if (size > LINE_LIMITS.carouselJsonBytes) {
    c.add(path, `The carousel JSON must be at most ${LINE_LIMITS.carouselJsonBytes} bytes (it is ${size})`);
  }
  bubbles.forEach((bubble, i) => {
    const bubblePath = `${path}.contents[${i}]`;
    if (!isObject(bubble) || bubble["type"] !== "bubble") {
      c.add(join(bubblePath, "type"), "Must be one of the following values: [bubble]");
      return;
    }
    checkBubble(c, bubble, bubblePath);
  });
}

function checkBubble(c: Checker, bubble: Json, path: string): void {
  const size = jsonBytes(bubble);
  if (size > LINE_LIMITS.bubbleJsonBytes) {
    c.add(path, `The bubble JSON must be at most ${LINE_LIMITS.bubbleJsonBytes} bytes (it is ${size})`);
  }
  c.oneOf(bubble, "size", path, BUBBLE_SIZES);
  c.oneOf(bubble, "direction", path, ["ltr", "rtl"]);
  const blocks = ["header", "hero", "body", "footer"].filter((key) => bubble[key] !== undefined);
  if (blocks.length === 0) c.add(path, "At least one block must be specified");
  for (const key of ["header", "body", "footer"]) {
    const block = bubble[key];
    if (block === undefined) continue;
    if (!isObject(block) || block["type"] !== "box") {
      c.add(join(join(path, key), "type"), "Must be one of the following values: [box]");
      continue;
    }
    checkComponent(c, block, join(path, key), undefined);
  }
  const hero = bubble["hero"];
  if (hero !== undefined) {
    if (!isObject(hero) || !["box", "image", "video"].includes(String(hero["type"]))) {
      c.add(join(join(path, "hero"), "type"), "Must be one of the following values: [box, image, video]");
    } else {
      checkComponent(c, hero, join(path, "hero"), undefined);
    }
  }
  if (bubble["action"] !== undefined) checkFlexAction(c, bubble["action"], join(path, "action"), false);
  const styles = bubble["styles"];
  if (styles !== undefined) {
    if (!isObject(styles)) {
      c.add(join(path, "styles"), "must be an object");
    } else {
      for (const key of ["header", "hero", "body", "footer"]) {
        const style = styles[key];
        if (style === undefined) continue;
        const stylePath = join(join(path, "styles"), key);
        if (!isObject(style)) {
          c.add(stylePath, "must be an object");
          continue;
        }
        c.color(style, "backgroundColor", stylePath);
        c.color(style, "separatorColor", stylePath);
      }
    }
  }
}

function checkFlexAction(c: Checker, action: unknown, path: string, labelRequired: boolean): void {
  checkAction(c, action, path, { allowed: ACTION_TYPES, labelRequired, labelMax: LINE_LIMITS.actionLabelGraphemes });
}

function checkComponent(c: Checker, component: Json, path: string, parentLayout: string | undefined): void {
  const type = component["type"];
  if (typeof type !== "string" || !(COMPONENT_TYPES as readonly string[]).includes(type)) {
    c.add(join(path, "type"), `Must be one of the following values: [${COMPONENT_TYPES.join(", ")}]`);
    return;
  }
  if (parentLayout === "baseline" && !["text", "icon", "filler"].includes(type)) {
    c.add(join(path, "type"), "Must be one of the following values in a baseline box: [text, icon, filler]");
  }
  if (type === "icon" && parentLayout !== "baseline") {
    c.add(join(path, "type"), "An icon can only be placed in a baseline box");
  }
  c.flexRatio(component, "flex", path);
  c.keywordOrLength(component, "margin", path, SPACINGS);
  c.oneOf(component, "position", path, ["relative", "absolute"]);
  if (component["action"] !== undefined) checkFlexAction(c, component["action"], join(path, "action"), false);
  switch (type) {
    case "box":
      checkBox(c, component, path);
      break;
    case "text":
      checkText(c, component, path);
      break;
    case "button":
      if (c.required(component, "action", path)) checkFlexAction(c, component["action"], join(path, "action"), true);
      c.oneOf(component, "style", path, ["primary", "secondary", "link"]);
      c.oneOf(component, "height", path, ["sm", "md"]);
      c.oneOf(component, "gravity", path, ["top", "bottom", "center"]);
      c.color(component, "color", path);
      break;
    case "image": {
      c.imageUrl(component, "url", path, true);
      c.keywordOrLength(component, "size", path, IMAGE_SIZES, true);
      c.oneOf(component, "aspectMode", path, ["fit", "cover"]);
      c.oneOf(component, "align", path, ["start", "end", "center"]);
      c.oneOf(component, "gravity", path, ["top", "bottom", "center"]);
      c.color(component, "backgroundColor", path);
      const ratio = component["aspectRatio"];
      if (ratio !== undefined && (typeof ratio !== "string" || !/^\d+(\.\d+)?:\d+(\.\d+)?$/.test(ratio))) {
        c.add(join(path, "aspectRatio"), "Must be in the form {width}:{height}");
      }
      break;
    }
    case "icon":
      c.imageUrl(component, "url", path, true);
      c.keywordOrLength(component, "size", path, TEXT_SIZES);
      break;
    case "separator":
      c.color(component, "color", path);
      break;
    default:
      break;
  }
}

function checkBox(c: Checker, box: Json, path: string): void {
  const layout = box["layout"];
  if (layout === undefined) {
    c.add(join(path, "layout"), "must be specified");
  } else {
    c.oneOf(box, "layout", path, ["horizontal", "vertical", "baseline"]);
  }
  c.keywordOrLength(box, "spacing", path, SPACINGS);
  for (const key of ["paddingAll", "paddingTop", "paddingBottom", "paddingStart", "paddingEnd"]) {
    c.keywordOrLength(box, key, path, SPACINGS, true);
  }
  c.color(box, "backgroundColor", path);
  c.color(box, "borderColor", path);
  c.oneOf(box, "justifyContent", path, ["center", "flex-start", "flex-end", "space-between", "space-around", "space-evenly"]);
  c.oneOf(box, "alignItems", path, ["center", "flex-start", "flex-end"]);
  const contents = box["contents"];
  if (!Array.isArray(contents)) {
    c.add(join(path, "contents"), "must be specified");
    return;
  }
  contents.forEach((child, i) => {
    const childPath = `${path}.contents[${i}]`;
    if (!isObject(child)) {
      c.add(childPath, "must be an object");
      return;
    }
    checkComponent(c, child, childPath, typeof layout === "string" ? layout : undefined);
  });
}

function checkText(c: Checker, text: Json, path: string): void {
  const spans = text["contents"];
  if (Array.isArray(spans) && spans.length > 0) {
    spans.forEach((span, i) => {
      const spanPath = `${path}.contents[${i}]`;
      if (!isObject(span) || span["type"] !== "span") {
        c.add(join(spanPath, "type"), "Must be one of the following values: [span]");
        return;
      }
      c.string(span, "text", spanPath, { required: true, min: 1 });
      c.color(span, "color", spanPath);
      c.keywordOrLength(span, "size", spanPath, TEXT_SIZES);
      c.oneOf(span, "weight", spanPath, ["regular", "bold"]);
    });
  } else {
    // LINE sets no length of its own on flex text: the bubble's 30 KB bounds it.
    c.string(text, "text", path, { required: true, min: 1 });
  }
  c.keywordOrLength(text, "size", path, TEXT_SIZES);
  c.oneOf(text, "weight", path, ["regular", "bold"]);
  c.oneOf(text, "align", path, ["start", "end", "center"]);
  c.oneOf(text, "gravity", path, ["top", "bottom", "center"]);
  c.oneOf(text, "style", path, ["normal", "italic"]);
  c.oneOf(text, "decoration", path, ["none", "underline", "line-through"]);
  c.color(text, "color", path);
  const maxLines = text["maxLines"];
  if (maxLines !== undefined && (typeof maxLines !== "number" || !Number.isInteger(maxLines) || maxLines < 0)) {
    c.add(join(path, "maxLines"), "Must be an integer of 0 or more");
  }
  if (text["wrap"] !== undefined && typeof text["wrap"] !== "boolean") c.add(join(path, "wrap"), "must be a boolean");
}

/** LINE's summary line for a 400 with details. */
export function summarize(details: readonly ValidationDetail[]): string {
  return `The request body has ${details.length} error(s)`;
}
