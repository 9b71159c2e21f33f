// What `id` says, in Thai and English side by side (docs/thai.md's words and endings).
import type { Lang } from "../types.js";
import { quote } from "../quote.js";

/** The chats LINE has: a 1:1 chat (`user`), a group, a room. */
type ChatKind = "user" | "group" | "room";

export interface IdTexts {
  idYourUser: (userId: string) => string;
  idNoUser: string;
  idChat: (chatType: Exclude<ChatKind, "user">, chatId: string) => string;
  /** In a staff place: the asker (a 1:1 chat) or the group is on the staff lists already. */
  idOnStaffList: (chatType: ChatKind) => string;
  /** In a group customers read, instead of the sender's id: where to see it. */
  idUserInPrivate: (idWord: string) => string;
  /** Under the ids, while nobody is on the staff lists: the owner's set-up steps. */
  noStaffYet: (helpWord: string) => string;
}

export const ID_TEXTS: { readonly [L in Lang]: IdTexts } = {
  th: {
    idYourUser: (userId) => `ไอดีผู้ใช้ของคุณ: ${userId}`,
    idNoUser: "LINE ไม่ได้ส่งไอดีผู้ใช้ของคุณมา เพราะยังไม่ได้ยินยอมให้ใช้ข้อมูลโปรไฟล์ค่ะ",
    idChat: (chatType, chatId) => `ไอดี${chatType === "group" ? "กลุ่ม" : "ห้องแชท"}นี้: ${chatId}`,
    idOnStaffList: (chatType) => {
      if (chatType === "user") return "คุณอยู่ในรายชื่อพนักงานของบอทแล้วค่ะ";
      const here = chatType === "group" ? "กลุ่มนี้" : "ห้องแชทนี้";
      return `${here}เป็นกลุ่มพนักงานของบอทแล้ว ทุกคนใน${here}จะเห็นข้อมูลของร้านค่ะ`;
    },
    idUserInPrivate: (idWord) => `ดูไอดีผู้ใช้ของคุณได้ในแชทส่วนตัวกับร้าน โดยพิมพ์ ${quote(idWord)} ค่ะ`,
    noStaffYet: (helpWord) =>
      ["ยังไม่ได้ตั้งรายชื่อพนักงาน บอทจึงยังไม่แสดงข้อมูลร้านให้ใครดูค่ะ", "เจ้าของร้านทำตามนี้ได้เลยค่ะ", "1. เพิ่มไอดีด้านบนในรายชื่อพนักงานของบอท", `2. เริ่มบอทใหม่ แล้วพิมพ์ ${quote(helpWord)} ในแชทนี้`].join(
        "\n",
      ),
  },
  en: {
    idYourUser: (userId) => `Your user id: ${userId}`,
    idNoUser: "LINE did not send your user id (it needs your consent to share your profile).",
    idChat: (chatType, chatId) => `This ${chatType === "group" ? "group" : "room"}'s id: ${chatId}`,
    idOnStaffList: (chatType) =>
      chatType === "user" ? "You are on the bot's staff list." : `This ${chatType === "group" ? "group" : "room"} is a staff group: everyone in it sees the shop's data.`,
    idUserInPrivate: (idWord) => `To see your own user id, send ${quote(idWord)} in a 1:1 chat with the shop.`,
    noStaffYet: (helpWord) =>
      [
        "No staff are set up yet, so the shop's data is shown to nobody.",
        "Owner, to set it up:",
        "1. Add the id above to the bot's staff list",
        `2. Restart the bot, then send ${quote(helpWord)} here`,
      ].join("\n"),
  },
};
