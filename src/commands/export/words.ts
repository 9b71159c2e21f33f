// The words of `export` (a CSV file of the checks): what starts it, and what asks for it in a message (pure data).
import type { CommandWords } from "../define.js";

export const EXPORT_WORDS: CommandWords = {
  command: { en: ["export", "csv"], th: ["ส่งออก", "ส่งออกไฟล์"] },
  family: { ไฟล์: 3, โหลดไฟล์: 3, ดาวน์โหลด: 2, ดาวโหลด: 2, โหลด: 2, excel: 3, เอ็กเซล: 3, เอกเซล: 3, เอ็กเซลล์: 3, xlsx: 3, file: 3, download: 2, spreadsheet: 3 },
  questions: [],
  takes: ["range", "status"],
  needsAmount: false,
};
