// The chat's `export`: the download link of a range's checks (a staff answer: the link opens the shop's data),
// or what to set when the deployment has no public address.
import { commandWord } from "../registry.js";
import type { Lang, RangeSpec } from "../types.js";
import type { CalendarDate } from "../../time/calendar.js";
import { staffAnswer } from "../../privacy/answer.js";
import type { StaffAnswer } from "../../privacy/answer.js";
import { renderAskInPrivate } from "../../render/errors.js";
import { formatCalendarDate, formatDateRange } from "../../render/format.js";
import { textMessage } from "../../render/messages.js";
import { withSharedTexts } from "../../render/text.js";
import { EXPORT_TEXTS } from "./texts.js";

/** The shared texts and `export`'s own, by language. */
const TEXTS = withSharedTexts(EXPORT_TEXTS);

export type ExportView =
  | { kind: "link"; lang: Lang; range: RangeSpec; url: string; rawUrl: string; coveredFrom: CalendarDate; coveredTo: CalendarDate; askedFrom: CalendarDate }
  | { kind: "no_public_url"; lang: Lang }
  | { kind: "no_user"; lang: Lang };

export function renderExport(view: ExportView): StaffAnswer {
  const t = TEXTS[view.lang];
  let text: string;
  if (view.kind === "no_public_url") text = t.exportNeedsPublicUrl;
  else if (view.kind === "no_user") text = t.exportNoUser(commandWord("export", view.lang));
  else {
    const cut = view.askedFrom.year !== view.coveredFrom.year || view.askedFrom.month !== view.coveredFrom.month || view.askedFrom.day !== view.coveredFrom.day;
    // The first line names only the days the file holds: a cut range is written as its dates, not its name.
    const dates = formatDateRange(view.coveredFrom, view.coveredTo, view.lang);
    text = [
      t.exportReady(cut ? undefined : t.rangeName(view.range), dates),
      ...(cut ? [t.exportDaysCut(formatCalendarDate(view.coveredFrom, view.lang))] : []),
      t.exportOpen,
      view.url,
      t.exportEnglish,
      view.rawUrl,
      t.exportOnce,
    ].join("\n");
  }
  return staffAnswer("export_link", [textMessage(text)], renderAskInPrivate(view.lang));
}
