// id: the ids the owner needs for the staff lists.
import { defineCommand, noArguments } from "../define.js";
import { ID_TEXTS } from "./texts.js";
import type { Lang } from "../types.js";

declare module "../types.js" {
  interface CommandTypes {
    id: { kind: "id"; lang: Lang };
  }
}

export const id = defineCommand({
  name: "id",
  words: { en: ["id", "whoami"], th: ["ไอดี", "ไอดีกลุ่ม"] },
  usage: { en: ["id"], th: ["ไอดี"] },
  example: { en: "id", th: "ไอดี" },
  description: {
    en: "your user id and this group's id, for the staff lists",
    th: "ไอดีผู้ใช้และไอดีกลุ่มนี้ สำหรับเพิ่มในรายชื่อพนักงาน",
  },
  audience: "everyone",
  bareInCustomerGroup: true,
  keywords: [],
  parse: (args, lang, reader) => noArguments(args, reader, { kind: "id", lang }),
  // Where customers may read it, the group's id alone: fine for anyone. A staff place's form (a member's
  // user id, what the staff lists say) is staff, with the public form as its fallback.
  kinds: { id: "public", id_staff: "staff" },
  handler: async () => (await import("./handle.js")).handleId,
  texts: ID_TEXTS,
});
