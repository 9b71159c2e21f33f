// The help reply and the help quick replies, generated from the command registry so they cannot drift from the parser.
// The staff's help (every command, the staff commands as quick replies) is a staff answer; the customers' is public.
import type { messagingApi } from "@line/bot-sdk";
import type { CommandName, Lang } from "../commands/types.js";
import { COMMAND_NAMES, COMMANDS, commandWord } from "../commands/registry.js";
import type { Role } from "../roles/audience.js";
import { cardBubble, flexMessage, quickReply, textMessage } from "./messages.js";
import { texts } from "./text.js";
import { publicAnswer, staffAnswer } from "../privacy/answer.js";
import type { Answer, PublicAnswer, StaffAnswer } from "../privacy/answer.js";

/** Commands offered as quick replies: each one's word alone is a complete, useful command for that role. */
const QUICK_COMMANDS: Readonly<Record<Role, readonly CommandName[]>> = {
  staff: ["qr", "history", "summary", "balance", "id", "help"],
  customer: ["qr", "help"],
};

/**
 * The commands as quick replies. A customer's QR button is labelled as the menu's is (`จ่ายด้วย QR`), the
 * name the customers' texts give it; the tap sends the QR word, a QR the payer fills the amount into.
 */
export function helpQuickReply(lang: Lang, role: Role): messagingApi.QuickReply {
  return quickReply(
    QUICK_COMMANDS[role].map((name) => {
      const word = commandWord(name, lang);
      return { label: role === "customer" && name === "qr" ? texts(lang).payByQrButton : word, text: word };
    }),
  );
}

/** `คิวอาร์ 150`: a QR to the shop, which is the only kind a customer gets. */
export function customerQrExample(lang: Lang): string {
  return `${commandWord("qr", lang)} 150`;
}

export interface HelpView {
  lang: Lang;
  role: Role;
  topic?: CommandName;
}

/** Customers see only what they can do: pay by QR, and ask the shop. */
function renderCustomerHelp(lang: Lang): PublicAnswer {
  const t = texts(lang);
  const bubble = cardBubble([
    { type: "text", text: t.customerHelpTitle, weight: "bold", size: "md" },
    { type: "text", text: t.customerHelpPay(commandWord("qr", lang)), size: "sm", wrap: true },
    { type: "text", text: t.qrSendSlip, size: "sm", wrap: true },
    { type: "text", text: t.customerHelpAsk, size: "xs", color: "#888888", wrap: true },
  ]);
  return publicAnswer("help", [flexMessage(`${t.customerHelpTitle}: ${t.customerHelpPay(commandWord("qr", lang)).replaceAll("\n", " ")}`, bubble, helpQuickReply(lang, "customer"))]);
}

function topicText(name: CommandName, lang: Lang): string {
  const t = texts(lang);
  const info = COMMANDS[name];
  return [`${commandWord(name, lang)}: ${info.description[lang]}`, t.howToType(info.usage[lang], info.example[lang])].join("\n");
}

export function renderHelp(view: HelpView & { role: "staff" }): StaffAnswer;
export function renderHelp(view: HelpView & { role: "customer" }): PublicAnswer;
export function renderHelp(view: HelpView): Answer;
export function renderHelp(view: HelpView): Answer {
  const { lang } = view;
  const t = texts(lang);
  if (view.role === "customer") return renderCustomerHelp(lang);
  const customers = renderCustomerHelp(lang);
  if (view.topic !== undefined) return staffAnswer("staff_help", [textMessage(topicText(view.topic, lang), helpQuickReply(lang, "staff"))], customers);

  const rows: messagingApi.FlexComponent[] = COMMAND_NAMES.map((name) => ({
    type: "box",
    layout: "vertical",
    margin: "md",
    spacing: "xs",
    contents: [
      { type: "text", text: commandWord(name, lang), weight: "bold", size: "sm", color: "#1B4F91" },
      { type: "text", text: COMMANDS[name].description[lang], size: "xs", color: "#555555", wrap: true },
      {
        type: "text",
        text: `${t.helpExampleLabel} ${COMMANDS[name].example[lang]}`,
        size: "xs",
        color: "#888888",
        wrap: true,
      },
    ],
  }));
  const bubble: messagingApi.FlexBubble = {
    type: "bubble",
    size: "mega",
    body: {
      type: "box",
      layout: "vertical",
      spacing: "sm",
      contents: [
        { type: "text", text: t.helpTitle, weight: "bold", size: "lg" },
        { type: "text", text: t.helpIntro, size: "xs", color: "#888888", wrap: true },
        { type: "separator", margin: "md" },
        ...rows,
        { type: "separator", margin: "md" },
        { type: "text", text: t.helpFooter, size: "xxs", color: "#AAAAAA", wrap: true, margin: "md" },
      ],
    },
  };
  const alt = t.helpAlt(COMMAND_NAMES.map((name) => COMMANDS[name].example[lang]));
  return staffAnswer("staff_help", [flexMessage(alt, bubble, helpQuickReply(lang, "staff"))], customers);
}
