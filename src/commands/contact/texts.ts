// What `contact` says, in Thai and English side by side (docs/thai.md's words and endings).
import type { Lang } from "../types.js";

export interface ContactTexts {
  /** The answer to `contact` (the rich menu's "contact the shop"). */
  contactShop: string;
}

export const CONTACT_TEXTS: { readonly [L in Lang]: ContactTexts } = {
  th: { contactShop: "พิมพ์ข้อความถึงร้านได้เลยค่ะ พนักงานจะรีบตอบในแชทนี้นะคะ 🙏" },
  en: { contactShop: "Write your message to the shop here; a staff member will answer in this chat soon 🙏" },
};
