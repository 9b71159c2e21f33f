// The staff app page's texts module (plain JavaScript, served to the browser as it is), loaded and typed for
// the tests: its words, and how it writes dates, times, counts and money.
import { fileURLToPath } from "node:url";

export type PageLang = "th" | "en";
export type PageMode = "line" | "local";

/** The range the page looks at: a chip's name or `custom`, ISO days, the status word chosen, the search. */
export interface PageView {
  range: string;
  from: string;
  to: string;
  status?: string | undefined;
  q?: string | undefined;
}

/** What the API answers when it refuses. */
export interface ApiRefusal {
  error: string;
  message?: string;
  reason?: string;
  problem?: string;
  parameter?: string;
  userId?: string;
}

export interface PageTexts {
  TEXTS: Record<PageLang, Record<string, unknown>>;
  errorText(lang: PageLang, mode: PageMode, body: ApiRefusal): string;
  formatCount(n: number): string;
  formatMoney(satang: number): string;
  formatDate(isoDay: string, lang: PageLang): string;
  formatDayMonth(isoDay: string, lang: PageLang): string;
  formatDateRange(fromDay: string, toDay: string, lang: PageLang): string;
  formatDateTime(iso: string | null, lang: PageLang, timeZone: string): string;
  formatRowTime(iso: string | null, lang: PageLang, timeZone: string, rangeEndDay?: string): string;
  formatHour(hour: number): string;
}

// A path in a variable: TypeScript does not look for the module's types, which are the interface above.
const path = fileURLToPath(new URL("../../src/staff-app/page/texts.js", import.meta.url));

export async function loadPageTexts(): Promise<PageTexts> {
  return (await import(path)) as PageTexts;
}
