// The words of `id` (pure data).
import type { CommandWords } from "../define.js";

export const ID_WORDS: CommandWords = {
  command: { en: ["id", "whoami"], th: ["ไอดี", "ไอดีกลุ่ม"] },
  family: { ไอดี: 2, id: 2 },
  questions: [],
  takes: [],
  needsAmount: false,
};
