// The help reply, generated from the command registry so it cannot drift from the parser.
// The staff's help (every command, the staff commands as quick replies) is a staff answer; the customers' is public.
import type { messagingApi } from "@line/bot-sdk";
import type { CommandName, Lang } from "../types.js";
import { COMMAND_NAMES, COMMANDS, commandWord } from "../registry.js";
import type { Role } from "../../roles/audience.js";
import { helpQuickReply } from "../../render/quick-replies.js";
import { cardBubble, flexMessage, textMessage } from "../../render/messages.js";
import { withSharedTexts } from "../../render/text.js";
import { HELP_TEXTS } from "./texts.js";
import { publicAnswer, staffAnswer } from "../../privacy/answer.js";
import type { Answer, PublicAnswer, StaffAnswer } from "../../privacy/answer.js";

/** The shared texts and `help`'s own, by language. */
const TEXTS = withSharedTexts(HELP_TEXTS);

/** The commands the staff's help lists: every one but "contact the shop", which means nothing to the shop's own staff. */
const STAFF_HELP_COMMANDS: readonly CommandName[] = COMMAND_NAMES.filter((name) => name !== "contact");

export interface HelpView {
  lang: Lang;
  role: Role;
  topic?: CommandName;
}

/** Customers see only what they can do: pay by QR, and ask the shop. */
function renderCustomerHelp(lang: Lang): PublicAnswer {
  const t = TEXTS[lang];
  const bubble = cardBubble([
    { type: "text", text: t.customerHelpTitle, weight: "bold", size: "md" },
    { type: "text", text: t.customerHelpPay(commandWord("qr", lang)), size: "sm", wrap: true },
    { type: "text", text: t.qrSendSlip, size: "sm", wrap: true },
    { type: "text", text: t.customerHelpAsk, size: "xs", color: "#888888", wrap: true },
  ]);
  return publicAnswer("help", [
    flexMessage(`${t.customerHelpTitle}: ${t.customerHelpPay(commandWord("qr", lang)).replaceAll("\n", " ")}`, bubble, helpQuickReply(lang, "customer")),
  ]);
}

function topicText(name: CommandName, lang: Lang): string {
  const t = TEXTS[lang];
  const info = COMMANDS[name];
  return [`${commandWord(name, lang)}: ${info.description[lang]}`, t.howToType(info.usage[lang], info.example[lang])].join("\n");
}

/** The helps made so far: at most two roles times two languages times one topic per command, and none. */
const made = new Map<string, Answer>();

export function renderHelp(view: HelpView & { role: "staff" }): StaffAnswer;
export function renderHelp(view: HelpView & { role: "customer" }): PublicAnswer;
export function renderHelp(view: HelpView): Answer;
export function renderHelp(view: HelpView): Answer {
  // The same for every shop and chat: made once per role, language and topic, then sent as it is (an
  // answer is frozen).
  const key = `${view.role} ${view.lang} ${view.topic ?? ""}`;
  let answer = made.get(key);
  if (answer === undefined) {
    answer = makeHelp(view);
    made.set(key, answer);
  }
  return answer;
}

function makeHelp(view: HelpView): Answer {
  const { lang } = view;
  const t = TEXTS[lang];
  if (view.role === "customer") return renderCustomerHelp(lang);
  const customers = renderCustomerHelp(lang);
  if (view.topic !== undefined) return staffAnswer("staff_help", [textMessage(topicText(view.topic, lang), helpQuickReply(lang, "staff"))], customers);

  const rows: messagingApi.FlexComponent[] = STAFF_HELP_COMMANDS.map((name) => ({
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
  const alt = t.helpAlt(STAFF_HELP_COMMANDS.map((name) => COMMANDS[name].example[lang]));
  return staffAnswer("staff_help", [flexMessage(alt, bubble, helpQuickReply(lang, "staff"))], customers);
}
