// The id reply, by where it goes: ids to copy into the staff lists, never the set-up where customers read it.
import type { Lang } from "../types.js";
import { commandWord } from "../registry.js";
import type { Chat } from "../../roles/audience.js";
import { textMessage } from "../../render/messages.js";
import { publicAnswer } from "../../privacy/answer.js";
import type { PublicAnswer } from "../../privacy/answer.js";
import { ID_TEXTS } from "./texts.js";

export interface IdView {
  lang: Lang;
  userId: string | undefined;
  chat: Chat;
  /** The answer goes to a staff place (a listed staff user's 1:1 chat, a staff group or room). */
  staffPlace: boolean;
  /** Nobody is on the staff lists yet: the owner is setting up. */
  noStaffYet: boolean;
}

/**
 * A 1:1 chat is read by the person who asked alone: their user id, and while nobody is staff yet the
 * owner's set-up steps (no staff place exists to send them to). A staff group or room: the sender's id, the
 * group's, and that it is a staff group. Any other group or room, which customers read: the group's own
 * id (the owner needs it to list the group), no member's user id, no word of staff lists or settings, and
 * where to ask for one's own id.
 */
export function renderId(view: IdView): PublicAnswer {
  const t = ID_TEXTS[view.lang];
  const { chat } = view;
  const user = view.userId === undefined ? t.idNoUser : t.idYourUser(view.userId);
  const lines =
    chat.type === "user"
      ? [user, ...(view.staffPlace ? [t.idOnStaffList("user")] : view.noStaffYet ? [t.noStaffYet(commandWord("help", view.lang))] : [])]
      : view.staffPlace
        ? [user, t.idChat(chat.type, chat.id), t.idOnStaffList(chat.type)]
        : [t.idChat(chat.type, chat.id), t.idUserInPrivate(commandWord("id", view.lang))];
  return publicAnswer("id", [textMessage(lines.join("\n"))]);
}
