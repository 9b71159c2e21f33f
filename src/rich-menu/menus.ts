// The rich menus, as data: which buttons each role gets, where they are, and what a tap does. Pure: the
// drawing (draw.ts) and the installing (install.ts) both read these designs, so the picture and the tap
// areas cannot drift apart. A command's button label comes from its definition (docs/thai.md's words).
import type { messagingApi } from "@line/bot-sdk";
import { COMMANDS, commandWord } from "../commands/registry.js";
import type { CommandName } from "../commands/types.js";
import type { MenuLabel } from "../commands/define.js";

/**
 * `staff`: linked to each staff user. `customer`: everyone else (the default). `staff_customer_view`: what
 * a staff member switches to for seeing the customers' menu, with a way back.
 */
export type MenuKind = "staff" | "customer" | "staff_customer_view";
export const MENU_KINDS: readonly MenuKind[] = ["staff", "customer", "staff_customer_view"];

export type MenuIcon = "qr" | "history" | "summary" | "balance" | "check_payment" | "help" | "contact" | "switch";

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface MenuButton {
  icon: MenuIcon;
  /** Thai, large. */
  label: string;
  /** English, under it. */
  sub: string;
  color: string;
  bounds: Bounds;
  action: messagingApi.Action;
}

export interface MenuDesign {
  kind: MenuKind;
  /** How install.ts recognises the menus it made (and leaves every other menu alone). */
  name: string;
  size: { width: number; height: number };
  chatBarText: string;
  /** Shown open when the chat opens. */
  selected: boolean;
  /** The band at the top: the shop's name, and for staff the switch between the two views. */
  header: { bounds: Bounds; shopName: string; switchTo?: MenuButton };
  buttons: MenuButton[];
}

/** Every menu this bot makes is named with this prefix; nothing else is touched. */
export const MENU_NAME_PREFIX = "slipline:";
/** The aliases the two staff views switch between. */
export const MENU_ALIASES = { staff: "slipline-staff", staff_customer_view: "slipline-staff-customer-view" } as const;

/**
 * Postback data of taps that only open the keyboard (the person types the amount next) or switch the
 * menu: no command to run. The bot says nothing to them, except to a customer whose "pay by QR" opened
 * the keyboard (see isQrKeyboardTap).
 */
export const MENU_TAP_PREFIX = "menu:";

export function isQuietMenuTap(data: string): boolean {
  return data.startsWith(MENU_TAP_PREFIX);
}

function keyboardData(what: "qr" | "paid"): string {
  return `${MENU_TAP_PREFIX}type ${what}`;
}

/** A tap that opened the keyboard with the QR word typed: a customer may not know the amount goes after it. */
export function isQrKeyboardTap(data: string): boolean {
  return data === keyboardData("qr");
}

const WIDTH = 2500;
const TALL = 1686;
const SHORT = 843;
const STAFF_HEADER = 236;
const CUSTOMER_HEADER = 200;

export const MENU_COLORS = {
  qr: "#06C755",
  history: "#1B6FD1",
  summary: "#7B4FD6",
  balance: "#E8871E",
  checkPayment: "#0F9D8A",
  help: "#6B7785",
  contact: "#E0457B",
} as const;

/** A tap that runs a command, shown in the chat as if the person had typed `displayText`. */
function command(data: string, displayText: string): messagingApi.PostbackAction {
  return { type: "postback", label: displayText.slice(0, 20), data, displayText };
}

/** A tap that opens the keyboard with `fillInText`, so the person types only what is missing. */
function keyboard(what: "qr" | "paid", fillInText: string, label: string): messagingApi.PostbackAction {
  return { type: "postback", label, data: keyboardData(what), inputOption: "openKeyboard", fillInText };
}

/** A command's button label for a role, from the registry; a menu naming a command without one stops at load. */
function labelOf(name: CommandName, role: "staff" | "customer"): MenuLabel {
  const label = COMMANDS[name].menu?.[role];
  if (label === undefined) throw new Error(`command ${name} has no ${role} menu label`);
  return label;
}

/** Splits `width` into `n` whole-pixel columns that add up exactly. */
function columns(n: number, x0: number, width: number): { x: number; width: number }[] {
  return Array.from({ length: n }, (_, i) => {
    const x = x0 + Math.round((width * i) / n);
    return { x, width: x0 + Math.round((width * (i + 1)) / n) - x };
  });
}

function grid(rows: number, cols: number, top: number, height: number): Bounds[] {
  const cells: Bounds[] = [];
  for (let r = 0; r < rows; r++) {
    const y = top + Math.round((height * r) / rows);
    const h = top + Math.round((height * (r + 1)) / rows) - y;
    for (const c of columns(cols, 0, WIDTH)) cells.push({ x: c.x, y, width: c.width, height: h });
  }
  return cells;
}

/** What changes the menus besides the shop's name. */
export interface MenuOptions {
  /**
   * The staff web app's LIFF URL (`https://liff.line.me/<LIFF id>`): when set, the staff menu's history
   * button opens the app (its first page is today's history, with search and export) instead of typing
   * the history command.
   */
  staffAppUrl?: string | undefined;
}

/** The LIFF URL that opens a LIFF app inside LINE. */
export function liffUrl(liffId: string): string {
  return `https://liff.line.me/${liffId}`;
}

function staffMenu(shopName: string, options: MenuOptions): MenuDesign {
  const qr = commandWord("qr", "th");
  const paid = commandWord("paid", "th");
  const cells = grid(2, 3, STAFF_HEADER, TALL - STAFF_HEADER);
  const qrButton = labelOf("qr", "staff");
  const history = labelOf("history", "staff");
  const summary = labelOf("summary", "staff");
  const balance = labelOf("balance", "staff");
  const check = labelOf("paid", "staff");
  const help = labelOf("help", "staff");
  const buttons: Omit<MenuButton, "bounds">[] = [
    { icon: "qr", ...qrButton, color: MENU_COLORS.qr, action: keyboard("qr", `${qr} `, qrButton.label) },
    options.staffAppUrl === undefined
      ? {
          icon: "history",
          ...history,
          color: MENU_COLORS.history,
          action: command(`${commandWord("history", "th")} วันนี้`, history.label),
        }
      : {
          icon: "history",
          label: "แอปพนักงาน",
          sub: "Staff app: history, export",
          color: MENU_COLORS.history,
          action: { type: "uri", label: "แอปพนักงาน", uri: options.staffAppUrl },
        },
    { icon: "summary", ...summary, color: MENU_COLORS.summary, action: command(commandWord("summary", "th"), summary.label) },
    { icon: "balance", ...balance, color: MENU_COLORS.balance, action: command(commandWord("balance", "th"), balance.label) },
    { icon: "check_payment", ...check, color: MENU_COLORS.checkPayment, action: keyboard("paid", `${paid} `, check.label) },
    { icon: "help", ...help, color: MENU_COLORS.help, action: command(commandWord("help", "th"), help.label) },
  ];
  return {
    kind: "staff",
    name: `${MENU_NAME_PREFIX}staff`,
    size: { width: WIDTH, height: TALL },
    chatBarText: "เมนูพนักงาน",
    selected: true,
    header: {
      bounds: { x: 0, y: 0, width: WIDTH, height: STAFF_HEADER },
      shopName,
      switchTo: {
        icon: "switch",
        label: "ดูเมนูลูกค้า",
        sub: "Customer view",
        color: "#FFFFFF",
        bounds: { x: 1700, y: 0, width: WIDTH - 1700, height: STAFF_HEADER },
        action: { type: "richmenuswitch", label: "ดูเมนูลูกค้า", richMenuAliasId: MENU_ALIASES.staff_customer_view, data: `${MENU_TAP_PREFIX}switch customer-view` },
      },
    },
    buttons: buttons.map((b, i) => ({ ...b, bounds: cells[i] as Bounds })),
  };
}

function customerButtons(): Omit<MenuButton, "bounds">[] {
  const pay = labelOf("qr", "customer");
  const contact = labelOf("contact", "customer");
  const help = labelOf("help", "customer");
  return [
    { icon: "qr", ...pay, color: MENU_COLORS.qr, action: keyboard("qr", `${commandWord("qr", "th")} `, pay.label) },
    {
      icon: "contact",
      ...contact,
      color: MENU_COLORS.contact,
      action: { ...command(commandWord("contact", "th"), contact.label), inputOption: "openKeyboard" },
    },
    { icon: "help", ...help, color: MENU_COLORS.help, action: command(commandWord("help", "th"), help.label) },
  ];
}

function customerMenu(shopName: string, kind: "customer" | "staff_customer_view"): MenuDesign {
  const cells = grid(1, 3, CUSTOMER_HEADER, SHORT - CUSTOMER_HEADER);
  const header: MenuDesign["header"] = { bounds: { x: 0, y: 0, width: WIDTH, height: CUSTOMER_HEADER }, shopName };
  if (kind === "staff_customer_view") {
    header.switchTo = {
      icon: "switch",
      label: "กลับเมนูพนักงาน",
      sub: "Back to staff menu",
      color: "#FFFFFF",
      bounds: { x: 1600, y: 0, width: WIDTH - 1600, height: CUSTOMER_HEADER },
      action: { type: "richmenuswitch", label: "กลับเมนูพนักงาน", richMenuAliasId: MENU_ALIASES.staff, data: `${MENU_TAP_PREFIX}switch staff` },
    };
  }
  return {
    kind,
    name: `${MENU_NAME_PREFIX}${kind === "customer" ? "customer" : "staff-customer-view"}`,
    size: { width: WIDTH, height: SHORT },
    chatBarText: kind === "customer" ? "เมนู" : "เมนูลูกค้า",
    selected: true,
    header,
    buttons: customerButtons().map((b, i) => ({ ...b, bounds: cells[i] as Bounds })),
  };
}

/** The three menus, with the shop's name in their header. */
export function designMenus(shopName: string, options: MenuOptions = {}): Record<MenuKind, MenuDesign> {
  return {
    staff: staffMenu(shopName, options),
    customer: customerMenu(shopName, "customer"),
    staff_customer_view: customerMenu(shopName, "staff_customer_view"),
  };
}

/** What LINE is sent to create the menu: every button and the header's switch are tap areas. */
export function richMenuRequest(design: MenuDesign): messagingApi.RichMenuRequest {
  const tappable = [...design.buttons, ...(design.header.switchTo === undefined ? [] : [design.header.switchTo])];
  return {
    size: design.size,
    selected: design.selected,
    name: design.name,
    chatBarText: design.chatBarText,
    areas: tappable.map((b) => ({ bounds: b.bounds, action: b.action })),
  };
}
