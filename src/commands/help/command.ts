// help: every command with an example, or how to use one; customers get how to pay.
import { HELP_TEXTS } from "./texts.js";
import { defineCommand } from "../define.js";
import type { CommandName, Lang } from "../types.js";

declare module "../types.js" {
  interface CommandTypes {
    help: { kind: "help"; lang: Lang; topic?: CommandName };
  }
}

export const help = defineCommand({
  name: "help",
  // `วิธีใช้` first: it is the word every reply tells people to type, so the quick reply shows the same.
  // A customer's "how do I pay?" gets the customers' help, which is how to pay.
  words: {
    en: ["help", "?", "menu"],
    th: ["วิธีใช้", "วิธีใช้งาน", "ใช้ยังไง", "ช่วยเหลือ", "เมนู", "คำสั่ง", "จ่ายยังไง", "โอนยังไง", "ชำระยังไง", "ชำระเงินยังไง", "เลขบัญชี", "เลขพร้อมเพย์", "พร้อมเพย์อะไร"],
  },
  usage: { en: ["help [command]"], th: ["วิธีใช้", "วิธีใช้ ประวัติ"] },
  example: { en: "help history", th: "วิธีใช้ ประวัติ" },
  description: { en: "the commands, or how to use one", th: "คำสั่งทั้งหมด หรือวิธีใช้ทีละคำสั่ง" },
  audience: "everyone",
  bareInCustomerGroup: false,
  keywords: [],
  parse: (args, lang, reader) => {
    const [topic, extra] = reader.tokens(args);
    if (topic === undefined) return { ok: true, command: { kind: "help", lang } };
    const found = reader.lookup(topic.lower.replace(/^[/!]/u, ""));
    if (found === undefined) return { ok: false, problem: { code: "unexpected", input: topic.raw } };
    if (extra !== undefined) return { ok: false, problem: { code: "unexpected", input: extra.raw } };
    return { ok: true, command: { kind: "help", lang, topic: found.name } };
  },
  // A customer does not "use" the shop's chat: their button is how to pay, which is what its answer says.
  menu: { staff: { label: "วิธีใช้", sub: "Help" }, customer: { label: "วิธีจ่ายเงิน", sub: "How to pay" } },
  // The customers' help is how to pay; the staff's lists every command, with the staff ones as buttons.
  kinds: { help: "public", staff_help: "staff" },
  handler: async () => (await import("./handle.js")).handleHelp,
  texts: HELP_TEXTS,
});
