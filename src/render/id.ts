// The id reply: the sender's user id and the group or room id, to copy into the staff lists.
import type { Lang } from "../commands/types.js";
import type { ChatType } from "../roles/audience.js";
import { textMessage } from "./messages.js";
import { texts } from "./text.js";
import { publicAnswer } from "../privacy/answer.js";
import type { PublicAnswer } from "../privacy/answer.js";

export interface IdView {
  lang: Lang;
  userId: string | undefined;
  chat: { type: ChatType; id: string };
}

export function renderId(view: IdView): PublicAnswer {
  const t = texts(view.lang);
  const lines = [view.userId === undefined ? t.idNoUser : t.idYourUser(view.userId)];
  if (view.chat.type !== "user") lines.push(t.idChat(view.chat.type, view.chat.id));
  lines.push(t.idHint);
  return publicAnswer("id", [textMessage(lines.join("\n"))]);
}
