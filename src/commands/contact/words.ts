// The words of `contact` (pure data).
import type { CommandWords } from "../define.js";

export const CONTACT_WORDS: CommandWords = {
  command: { en: ["contact"], th: ["ติดต่อร้าน", "ติดต่อ", "ติดต่อแอดมิน", "คุยกับแอดมิน", "แอดมิน", "สอบถาม"] },
  // A customer's "I have a question" is talk to the shop, not a request of the bot: only the command words.
  family: { ติดต่อ: 2, แอดมิน: 2, สอบถาม: 1 },
  questions: [],
  takes: [],
  needsAmount: false,
};
