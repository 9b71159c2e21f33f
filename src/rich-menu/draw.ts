// Draws a menu design as the PNG LINE shows: a header band with the shop's name (and, for staff, the
// switch between views), then one card per button with its icon, its Thai label and an English line.
// The font is Noto Sans Thai from the @expo-google-fonts package (TTF files, installed by npm); nothing is
// read from the machine's own fonts, so the picture is the same everywhere.
import { createRequire } from "node:module";
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import type { SKRSContext2D } from "@napi-rs/canvas";
import { RICH_MENU_LIMITS } from "../line-limits.js";
import type { Bounds, MenuButton, MenuDesign, MenuIcon } from "./menus.js";

const FONT_BOLD = "SliplineMenuBold";
const FONT_REGULAR = "SliplineMenuRegular";

const BACKGROUND = "#F3F5F8";
const CARD = "#FFFFFF";
const HEADER = "#123B6D";
const LABEL = "#1F2933";
const SUBLABEL = "#6B7785";

let fontsLoaded = false;
function loadFonts(): void {
  if (fontsLoaded) return;
  const require = createRequire(import.meta.url);
  const files: [string, string][] = [
    ["@expo-google-fonts/noto-sans-thai/700Bold/NotoSansThai_700Bold.ttf", FONT_BOLD],
    ["@expo-google-fonts/noto-sans-thai/400Regular/NotoSansThai_400Regular.ttf", FONT_REGULAR],
  ];
  for (const [file, family] of files) {
    if (GlobalFonts.registerFromPath(require.resolve(file), family) === null) throw new Error(`could not load the font ${file}`);
  }
  fontsLoaded = true;
}

/** The largest size up to `max` at which `text` fits `width`; past `min` it is cut with an ellipsis. */
function fitText(g: SKRSContext2D, text: string, family: string, max: number, min: number, width: number): { text: string; size: number } {
  for (let size = max; size >= min; size -= 4) {
    g.font = `${size}px ${family}`;
    if (g.measureText(text).width <= width) return { text, size };
  }
  g.font = `${min}px ${family}`;
  const chars = [...new Intl.Segmenter("th", { granularity: "grapheme" }).segment(text)].map((s) => s.segment);
  while (chars.length > 1 && g.measureText(`${chars.join("")}…`).width > width) chars.pop();
  return { text: `${chars.join("")}…`, size: min };
}

function roundedRect(g: SKRSContext2D, x: number, y: number, w: number, h: number, r: number): void {
  g.beginPath();
  g.roundRect(x, y, w, h, r);
}

function ring(g: SKRSContext2D, cx: number, cy: number, radius: number, width: number): void {
  g.lineWidth = width;
  g.beginPath();
  g.arc(cx, cy, radius, 0, Math.PI * 2);
  g.stroke();
}

/** Icons in white on a coloured disc, drawn from simple shapes around (cx, cy) within radius r. */
function drawIcon(g: SKRSContext2D, icon: MenuIcon, cx: number, cy: number, r: number, color: string): void {
  g.fillStyle = color;
  g.beginPath();
  g.arc(cx, cy, r, 0, Math.PI * 2);
  g.fill();
  g.fillStyle = "#FFFFFF";
  g.strokeStyle = "#FFFFFF";
  g.lineCap = "round";
  g.lineJoin = "round";
  const u = r / 10;
  switch (icon) {
    case "qr": {
      // Three finder squares and a scatter of modules.
      const s = 7 * u;
      for (const [x, y] of [
        [cx - 6 * u, cy - 6 * u],
        [cx + 6 * u - s, cy - 6 * u],
        [cx - 6 * u, cy + 6 * u - s],
      ] as const) {
        g.lineWidth = 1.2 * u;
        g.strokeRect(x + 0.6 * u, y + 0.6 * u, s - 1.2 * u, s - 1.2 * u);
        g.fillRect(x + 2.2 * u, y + 2.2 * u, s - 4.4 * u, s - 4.4 * u);
      }
      for (const [dx, dy] of [
        [1.5, 1.5],
        [3.5, 1.5],
        [1.5, 3.5],
        [4.5, 4.5],
        [2.5, 4.5],
        [4.5, 2.5],
      ] as const) {
        g.fillRect(cx + dx * u - 0.8 * u, cy + dy * u - 0.8 * u, 1.6 * u, 1.6 * u);
      }
      break;
    }
    case "history": {
      // A list: three bullets and lines.
      g.lineWidth = 1.4 * u;
      for (const dy of [-4, 0, 4]) {
        g.beginPath();
        g.arc(cx - 4.5 * u, cy + dy * u, 0.9 * u, 0, Math.PI * 2);
        g.fill();
        g.beginPath();
        g.moveTo(cx - 2 * u, cy + dy * u);
        g.lineTo(cx + 5.5 * u, cy + dy * u);
        g.stroke();
      }
      break;
    }
    case "summary": {
      // A bar chart on a base line.
      const base = cy + 5 * u;
      for (const [x, h] of [
        [-4.5, 5],
        [-1, 9],
        [2.5, 6.5],
      ] as const) {
        roundedRect(g, cx + x * u, base - h * u, 2.6 * u, h * u, 0.5 * u);
        g.fill();
      }
      g.lineWidth = 1 * u;
      g.beginPath();
      g.moveTo(cx - 6 * u, base + 0.8 * u);
      g.lineTo(cx + 6 * u, base + 0.8 * u);
      g.stroke();
      break;
    }
    case "balance": {
      // A coin with the baht sign.
      ring(g, cx, cy, 6 * u, 1.3 * u);
      g.font = `${Math.round(8 * u)}px ${FONT_BOLD}`;
      g.textAlign = "center";
      g.textBaseline = "middle";
      g.fillText("฿", cx, cy + 0.4 * u);
      break;
    }
    case "check_payment": {
      // A tick in a ring.
      ring(g, cx, cy, 6 * u, 1.3 * u);
      g.lineWidth = 1.6 * u;
      g.beginPath();
      g.moveTo(cx - 3 * u, cy + 0.2 * u);
      g.lineTo(cx - 0.8 * u, cy + 2.5 * u);
      g.lineTo(cx + 3.2 * u, cy - 2.5 * u);
      g.stroke();
      break;
    }
    case "help": {
      g.font = `${Math.round(13 * u)}px ${FONT_BOLD}`;
      g.textAlign = "center";
      g.textBaseline = "middle";
      g.fillText("?", cx, cy + 0.6 * u);
      break;
    }
    case "contact": {
      // A speech bubble with three dots.
      roundedRect(g, cx - 6 * u, cy - 4.5 * u, 12 * u, 8 * u, 2.5 * u);
      g.fill();
      g.beginPath();
      g.moveTo(cx - 3 * u, cy + 3 * u);
      g.lineTo(cx - 4.5 * u, cy + 6.5 * u);
      g.lineTo(cx, cy + 3 * u);
      g.fill();
      g.fillStyle = color;
      for (const dx of [-3, 0, 3]) {
        g.beginPath();
        g.arc(cx + dx * u, cy - 0.5 * u, 0.9 * u, 0, Math.PI * 2);
        g.fill();
      }
      break;
    }
    case "switch": {
      // Two arrows, one each way.
      g.lineWidth = 1.4 * u;
      for (const [y, dir] of [
        [-2.5, 1],
        [2.5, -1],
      ] as const) {
        g.beginPath();
        g.moveTo(cx - 5 * dir * u, cy + y * u);
        g.lineTo(cx + 5 * dir * u, cy + y * u);
        g.moveTo(cx + 2.5 * dir * u, cy + (y - 2.2) * u);
        g.lineTo(cx + 5 * dir * u, cy + y * u);
        g.lineTo(cx + 2.5 * dir * u, cy + (y + 2.2) * u);
        g.stroke();
      }
      break;
    }
  }
  g.textAlign = "left";
  g.textBaseline = "alphabetic";
}

function drawButton(g: SKRSContext2D, button: MenuButton, pad: number): void {
  const { x, y, width, height } = button.bounds;
  const card: Bounds = { x: x + pad, y: y + pad, width: width - 2 * pad, height: height - 2 * pad };
  g.save();
  roundedRect(g, card.x, card.y, card.width, card.height, 40);
  g.clip();
  g.fillStyle = CARD;
  g.fillRect(card.x, card.y, card.width, card.height);
  // A band of the button's colour along the bottom, inside the rounded corners.
  g.fillStyle = button.color;
  g.fillRect(card.x, card.y + card.height - 16, card.width, 16);
  g.restore();

  // Icon above, labels below, the whole group centred in the card.
  const r = Math.min(card.height * 0.2, 150);
  const labelSize = Math.min(112, Math.round(card.height * 0.15));
  const subSize = Math.round(labelSize * 0.56);
  const gap = labelSize * 0.35;
  const block = 2 * r + gap + labelSize * 1.25 + subSize * 1.3;
  const top = card.y + (card.height - block) / 2;
  drawIcon(g, button.icon, card.x + card.width / 2, top + r, r, button.color);

  g.textAlign = "center";
  g.fillStyle = LABEL;
  const label = fitText(g, button.label, FONT_BOLD, labelSize, 56, card.width - 80);
  g.font = `${label.size}px ${FONT_BOLD}`;
  g.fillText(label.text, card.x + card.width / 2, top + 2 * r + gap + labelSize);
  g.fillStyle = SUBLABEL;
  const sub = fitText(g, button.sub, FONT_REGULAR, subSize, 36, card.width - 80);
  g.font = `${sub.size}px ${FONT_REGULAR}`;
  g.fillText(sub.text, card.x + card.width / 2, top + 2 * r + gap + labelSize * 1.25 + subSize * 1.1);
  g.textAlign = "left";
}

function drawHeader(g: SKRSContext2D, design: MenuDesign): void {
  const { bounds, shopName, switchTo } = design.header;
  g.fillStyle = HEADER;
  g.fillRect(bounds.x, bounds.y, bounds.width, bounds.height);
  const nameRight = switchTo === undefined ? bounds.width - 80 : switchTo.bounds.x - 40;
  const name = fitText(g, shopName, FONT_BOLD, Math.round(bounds.height * 0.42), 48, nameRight - 80);
  g.font = `${name.size}px ${FONT_BOLD}`;
  g.fillStyle = "#FFFFFF";
  g.textBaseline = "middle";
  g.fillText(name.text, 80, bounds.y + bounds.height / 2);

  if (switchTo !== undefined) {
    // A pill with the arrows and the two labels.
    const b = switchTo.bounds;
    const pill = { x: b.x + 20, y: b.y + 34, width: b.width - 60, height: b.height - 68 };
    g.fillStyle = "#FFFFFF";
    roundedRect(g, pill.x, pill.y, pill.width, pill.height, pill.height / 2);
    g.fill();
    const r = pill.height * 0.34;
    drawIcon(g, "switch", pill.x + pill.height / 2 + 10, pill.y + pill.height / 2, r, HEADER);
    g.fillStyle = HEADER;
    const textX = pill.x + pill.height + 30;
    const label = fitText(g, switchTo.label, FONT_BOLD, Math.round(pill.height * 0.4), 36, pill.x + pill.width - 30 - textX);
    g.font = `${label.size}px ${FONT_BOLD}`;
    g.textBaseline = "alphabetic";
    g.fillText(label.text, textX, pill.y + pill.height * 0.5);
    const sub = fitText(g, switchTo.sub, FONT_REGULAR, Math.round(pill.height * 0.22), 28, pill.x + pill.width - 30 - textX);
    g.font = `${sub.size}px ${FONT_REGULAR}`;
    g.fillStyle = SUBLABEL;
    g.fillText(sub.text, textX, pill.y + pill.height * 0.84);
  }
  g.textBaseline = "alphabetic";
}

/** The menu's picture as a PNG of exactly its size. */
export async function drawMenu(design: MenuDesign): Promise<Buffer> {
  loadFonts();
  const canvas = createCanvas(design.size.width, design.size.height);
  const g = canvas.getContext("2d");
  g.fillStyle = BACKGROUND;
  g.fillRect(0, 0, design.size.width, design.size.height);
  drawHeader(g, design);
  for (const button of design.buttons) drawButton(g, button, 22);
  const png = await canvas.encode("png");
  if (png.length > RICH_MENU_LIMITS.imageBytes) throw new Error(`the ${design.kind} menu image is ${png.length} bytes, above LINE's 1 MB`);
  return png;
}
