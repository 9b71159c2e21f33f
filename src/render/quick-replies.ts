// The command quick replies of each role, and the QR example customers are shown: from the command registry.
import type { messagingApi } from "@line/bot-sdk";
import type { CommandName, Lang } from "../commands/types.js";
import { commandWord } from "../commands/registry.js";
import type { Role } from "../roles/audience.js";
import { quickReply } from "./messages.js";
import { texts } from "./text.js";

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
