// The id reply: the sender's user id and the group or room id, to copy into the staff lists.
import type { Lang } from "../commands/types.js";
import { commandWord } from "../commands/registry.js";
import type { ChatType } from "../roles/audience.js";
import { textMessage } from "./messages.js";
import { texts } from "./text.js";
import { publicAnswer } from "../privacy/answer.js";
import type { PublicAnswer } from "../privacy/answer.js";

export interface IdView {
  lang: Lang;
  userId: string | undefined;
  chat: { type: ChatType; id: string };
  /** Nobody is on the staff lists yet: the owner is setting up, and gets the steps. */
  noStaffYet?: boolean;
}

export function renderId(view: IdView): PublicAnswer {
  const t = texts(view.lang);
  const lines = [view.userId === undefined ? t.idNoUser : t.idYourUser(view.userId)];
  if (view.chat.type !== "user") lines.push(t.idChat(view.chat.type, view.chat.id));
  // Before any staff are listed, whoever asks for an id is most likely the owner setting up.
  lines.push(view.noStaffYet === true ? t.noStaffYet(commandWord("help", view.lang)) : t.idHint);
  return publicAnswer("id", [textMessage(lines.join("\n"))]);
}
