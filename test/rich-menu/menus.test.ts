// The menus as LINE gets them: sizes and tap areas within LINE's rules, every tap a command the bot
// parses (or a keyboard that opens with the command word), and pictures LINE accepts.
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/commands/parse.js";
import { buildMenus } from "../../src/rich-menu/build.js";
import { RICH_MENU_LIMITS } from "../../src/line-limits.js";
import { designMenus, isQuietMenuTap, MENU_ALIASES, MENU_KINDS, MENU_NAME_PREFIX, richMenuRequest } from "../../src/rich-menu/menus.js";
import type { Bounds } from "../../src/rich-menu/menus.js";

const graphemes = (s: string): number => [...new Intl.Segmenter("th", { granularity: "grapheme" }).segment(s)].length;
const overlap = (a: Bounds, b: Bounds): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const parse = (text: string) => parseCommand(text, { now: new Date("2026-11-20T07:30:00Z"), timeZone: "Asia/Bangkok", defaultLang: "th" });

describe("the menus' JSON", () => {
  const designs = designMenus("ร้านกาแฟดีใจ");

  it.each(MENU_KINDS)("%s: a size LINE takes, 20 areas at most, inside it and not overlapping, a chat bar text of 14 at most", (kind) => {
    const menu = richMenuRequest(designs[kind]);
    const size = menu.size ?? { width: 0, height: 0 };
    expect([1686, 843]).toContain(size.height);
    expect(size.width).toBe(2500);
    expect(menu.name?.startsWith(MENU_NAME_PREFIX)).toBe(true);
    expect(graphemes(menu.chatBarText ?? "")).toBeLessThanOrEqual(14);
    const areas = menu.areas ?? [];
    expect(areas.length).toBeGreaterThan(0);
    expect(areas.length).toBeLessThanOrEqual(20);
    for (const [i, area] of areas.entries()) {
      const b = area.bounds as Bounds;
      expect(b.x >= 0 && b.y >= 0 && b.x + b.width <= (size.width ?? 0) && b.y + b.height <= (size.height ?? 0), JSON.stringify(b)).toBe(true);
      for (const other of areas.slice(i + 1)) expect(overlap(b, other.bounds as Bounds)).toBe(false);
      const action = area.action;
      if (action?.label !== undefined) expect(graphemes(action.label)).toBeLessThanOrEqual(20);
    }
  });

  it("staff get QR, history today, summary, balance, check payment and help, plus a switch to the customers' view", () => {
    const menu = richMenuRequest(designs.staff);
    const taps = (menu.areas ?? []).map((a) => a.action);
    const commands = taps.flatMap((a) => (a?.type === "postback" && !isQuietMenuTap(a.data ?? "") ? [a] : []));
    const kindOf = (text: string | undefined) => {
      const parsed = parse(text ?? "");
      return parsed.ok ? parsed.command.kind : `no command: ${text}`;
    };
    expect(commands.map((a) => kindOf(a.data))).toEqual(["history", "summary", "balance", "help"]);
    // What the chat shows for each tap, as if the person had typed it.
    expect(commands.map((a) => a.displayText)).toEqual(["ประวัติวันนี้", "ยอดวันนี้", "โทเคนคงเหลือ", "วิธีใช้"]);
    // ...and what it shows is a command that would do the same if typed.
    expect(commands.map((a) => kindOf(a.displayText))).toEqual(["history", "summary", "balance", "help"]);
    const history = parse(commands[0]?.data ?? "");
    expect(history.ok && history.command.kind === "history" && "range" in history.command.request && history.command.request.range).toEqual({ kind: "today" });
    // QR and check payment open the keyboard with the command word, so staff type only the amount.
    const keyboards = taps.flatMap((a) => (a?.type === "postback" && a.inputOption === "openKeyboard" ? [a] : []));
    expect(keyboards.map((a) => a.fillInText)).toEqual(["คิวอาร์ ", "เช็คยอด "]);
    for (const k of keyboards) {
      const typed = parse(`${k.fillInText ?? ""}150`);
      expect(typed.ok).toBe(true);
    }
    expect(taps.filter((a) => a?.type === "richmenuswitch")).toEqual([expect.objectContaining({ richMenuAliasId: MENU_ALIASES.staff_customer_view })]);
  });

  it("with the staff app's LIFF URL, the staff's history button opens the app inside LINE instead; nothing else changes", () => {
    const url = "https://liff.line.me/1657000001-AbCd1234";
    const withApp = designMenus("ร้านกาแฟดีใจ", { staffAppUrl: url });
    const actions = (kind: (typeof MENU_KINDS)[number], d: typeof designs) => (richMenuRequest(d[kind]).areas ?? []).map((a) => a.action);
    const staff = actions("staff", withApp);
    expect(staff.filter((a) => a?.type === "uri")).toEqual([{ type: "uri", label: "แอปพนักงาน", uri: url }]);
    expect(staff.some((a) => a?.type === "postback" && a.data === "ประวัติ วันนี้")).toBe(false);
    // The other five buttons and the switch are the same as without the app.
    const without = actions("staff", designs);
    expect(staff.filter((a) => a?.type !== "uri")).toEqual(without.filter((a) => !(a?.type === "postback" && a.displayText === "ประวัติวันนี้")));
    for (const kind of ["customer", "staff_customer_view"] as const) expect(actions(kind, withApp)).toEqual(actions(kind, designs));
  });

  it("customers get pay by QR (the keyboard with the QR word), contact the shop and help; the staff's copy adds the way back", () => {
    const customer = (richMenuRequest(designs.customer).areas ?? []).map((a) => a.action);
    expect(customer.map((a) => (a?.type === "postback" ? (a.fillInText ?? a.data) : a?.type))).toEqual(["คิวอาร์ ", "ติดต่อร้าน", "วิธีใช้"]);
    for (const a of customer) if (a?.type === "postback" && !isQuietMenuTap(a.data ?? "")) expect(parse(a.data ?? "").ok).toBe(true);
    expect(customer.some((a) => a?.type === "richmenuswitch")).toBe(false);
    const view = (richMenuRequest(designs.staff_customer_view).areas ?? []).map((a) => a.action);
    expect(view.filter((a) => a?.type === "richmenuswitch")).toEqual([expect.objectContaining({ richMenuAliasId: MENU_ALIASES.staff })]);
  });
});

describe("the menus' pictures", { timeout: 60_000 }, () => {
  it("are PNGs of exactly the menu's size, under 1 MB, with the header and each button drawn where its tap area is", async () => {
    const { designs, images } = await buildMenus("ร้านข้าวมันไก่เจ๊หมวย สาขาตลาดนัดจตุจักร ประตู 3 (ชื่อยาวมาก)");
    for (const kind of MENU_KINDS) {
      const png = images[kind];
      expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
      expect(png.length).toBeLessThan(RICH_MENU_LIMITS.imageBytes);
      const image = PNG.sync.read(png);
      expect([image.width, image.height]).toEqual([designs[kind].size.width, designs[kind].size.height]);
      const pixel = (x: number, y: number): string => {
        const i = (Math.round(y) * image.width + Math.round(x)) * 4;
        return [image.data[i], image.data[i + 1], image.data[i + 2]].map((v) => (v ?? 0).toString(16).padStart(2, "0")).join("");
      };
      // The header band is the dark blue; each button's card is white with its colour along the bottom.
      expect(pixel(20, 20)).toBe("123b6d");
      for (const button of designs[kind].buttons) {
        const b = button.bounds;
        expect(pixel(b.x + 60, b.y + 60)).toBe("ffffff");
        expect(`#${pixel(b.x + b.width / 2, b.y + b.height - 22 - 6)}`.toUpperCase()).toBe(button.color.toUpperCase());
      }
    }
  });
});
