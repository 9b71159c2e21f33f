// The contact reply: the staff will answer here. No quick replies: the next thing to do is type.
import type { Lang } from "../types.js";
import { textMessage } from "../../render/messages.js";
import { publicAnswer } from "../../privacy/answer.js";
import type { PublicAnswer } from "../../privacy/answer.js";
import { CONTACT_TEXTS } from "./texts.js";

export function renderContact(lang: Lang): PublicAnswer {
  return publicAnswer("contact", [textMessage(CONTACT_TEXTS[lang].contactShop)]);
}
