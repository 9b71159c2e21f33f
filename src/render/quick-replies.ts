// The command quick replies of each role, and the QR example customers are shown: from the command registry.
import type { messagingApi } from "@line/bot-sdk";
import type { CommandName, Lang } from "../commands/types.js";
import { formatRange } from "../commands/format.js";
import { commandWord } from "../commands/registry.js";
import type { Role } from "../roles/audience.js";
import { quickReply, type QuickReplyChoice } from "./messages.js";
import { texts } from "./text.js";

/** The words customers see on their "how to pay" button: the help they get is how to pay (docs/thai.md). */
const HOW_TO_PAY: { readonly [L in Lang]: string } = { th: "วิธีจ่ายเงิน", en: "How to pay" };

const QR_KEYBOARD_TAP = "quick:type qr ";

/**
 * The postback of the staff's QR quick reply, which opened the keyboard with the QR word typed: the bot
 * answers it with where the amount goes (on a LINE too old to open the keyboard, that is all that happens).
 */
export function qrKeyboardTapLang(data: string): Lang | undefined {
  if (!data.startsWith(QR_KEYBOARD_TAP)) return undefined;
  const lang = data.slice(QR_KEYBOARD_TAP.length);
  return lang === "th" || lang === "en" ? lang : undefined;
}

/** The choice for one command, as a role sees it. */
function choice(name: CommandName | "summary_yesterday", lang: Lang, role: Role): QuickReplyChoice {
  if (name === "summary_yesterday") {
    // `ยอดเมื่อวาน`: the Thai words run together as people type them; English keeps its space.
    const text = `${commandWord("summary", lang)}${lang === "th" ? "" : " "}${formatRange({ kind: "yesterday" }, lang)}`;
    return { label: text, text };
  }
  const word = commandWord(name, lang);
  if (name === "qr" && role === "customer") return { label: texts(lang).payByQrButton, text: word };
  // Staff who tap คิวอาร์ mean to give an amount: the keyboard opens with `คิวอาร์ ` typed, as the menu's button does.
  if (name === "qr") return { label: word, text: word, data: `${QR_KEYBOARD_TAP}${lang}`, fillIn: `${word} ` };
  // The help command runs (the postback's data); the chat shows the button's own words.
  if (name === "help" && role === "customer") return { label: HOW_TO_PAY[lang], text: HOW_TO_PAY[lang], data: word };
  return { label: word, text: word };
}

/** Commands offered as quick replies: each a complete, useful tap for that role. */
const QUICK_COMMANDS: Readonly<Record<Role, readonly (CommandName | "summary_yesterday")[]>> = {
  staff: ["qr", "history", "summary", "summary_yesterday", "balance", "help"],
  customer: ["qr", "help"],
};

/**
 * The commands as quick replies. A customer's QR button is labelled as the menu's is (`จ่ายด้วย QR`), the
 * name the customers' texts give it; the tap sends the QR word, a QR the payer fills the amount into.
 */
export function helpQuickReply(lang: Lang, role: Role): messagingApi.QuickReply {
  return quickReply(QUICK_COMMANDS[role].map((name) => choice(name, lang, role)));
}

/** `คิวอาร์ 150`: a QR to the shop, which is the only kind a customer gets. */
export function customerQrExample(lang: Lang): string {
  return `${commandWord("qr", lang)} 150`;
}
