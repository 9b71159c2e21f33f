// The id reply, by where it goes: ids to copy into the staff lists, never the set-up where customers read it.
import type { Lang } from "../types.js";
import { commandWord } from "../registry.js";
import type { Chat } from "../../roles/audience.js";
import { textMessage } from "../../render/messages.js";
import { publicAnswer, staffAnswer } from "../../privacy/answer.js";
import type { Answer, PublicAnswer } from "../../privacy/answer.js";
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
 *
 * The staff place's form is a staff answer (`id_staff`): a member's user id beside the group's, and what the
 * staff lists say, are set-up data for staff. If the place stops being a staff place before it goes out, the
 * send boundary sends its public form instead: what the same place would get as a customer place.
 */
export function renderId(view: IdView): Answer {
  const publicForm = renderPublicId(view);
  if (!view.staffPlace) return publicForm;
  const t = ID_TEXTS[view.lang];
  const { chat } = view;
  const lines = chat.type === "user" ? [userLine(view), t.idOnStaffList("user")] : [userLine(view), t.idChat(chat.type, chat.id), t.idOnStaffList(chat.type)];
  return staffAnswer("id_staff", [textMessage(lines.join("\n"))], publicForm);
}

function userLine(view: IdView): string {
  const t = ID_TEXTS[view.lang];
  return view.userId === undefined ? t.idNoUser : t.idYourUser(view.userId);
}

/** The form anyone may read: in a 1:1 chat the asker's own id; in a group or room, the group's id alone. */
function renderPublicId(view: IdView): PublicAnswer {
  const t = ID_TEXTS[view.lang];
  const { chat } = view;
  const lines =
    chat.type === "user"
      ? [userLine(view), ...(view.noStaffYet ? [t.noStaffYet(commandWord("help", view.lang))] : [])]
      : [t.idChat(chat.type, chat.id), t.idUserInPrivate(commandWord("id", view.lang))];
  return publicAnswer("id", [textMessage(lines.join("\n"))]);
}
