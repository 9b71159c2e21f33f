// id: the ids the owner needs for the staff lists.
import { ID_WORDS } from "./words.js";
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
  words: ID_WORDS.command,
  reading: ID_WORDS,
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
  // Ids, and where customers read it never a member's id nor the set-up: fine for anyone.
  kinds: { id: "public" },
  texts: ID_TEXTS,
});
