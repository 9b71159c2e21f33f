// The opt-in pushes' short texts: low tokens, the package's expiry, a watched payment seen. Staff answers
// with no public form: pushed only to staff places, or not at all.
import type { CalendarDate, Lang } from "../commands/types.js";
import { staffAnswer } from "../privacy/answer.js";
import type { StaffAnswer } from "../privacy/answer.js";
import { formatBaht, formatCalendarDate, formatCount, formatTime } from "./format.js";
import { textMessage } from "./messages.js";
import { texts } from "./text.js";

export function renderLowTokensAlert(lang: Lang, slipsLeft: number, threshold: number): StaffAnswer {
  return staffAnswer("low_tokens_alert", [textMessage(texts(lang).alertLowTokens(formatCount(slipsLeft), formatCount(threshold)))], undefined);
}

export function renderExpiryAlert(lang: Lang, daysLeft: number, expiresOn: CalendarDate): StaffAnswer {
  return staffAnswer("expiry_alert", [textMessage(texts(lang).alertExpiry(daysLeft, formatCalendarDate(expiresOn, lang)))], undefined);
}

/** A staff QR's amount arrived: who paid and when. */
export function renderPaymentReceived(view: { lang: Lang; amountSatang: number; payer: string | null; at: Date; timeZone: string }): StaffAnswer {
  const text = texts(view.lang).alertPaymentReceived(formatBaht(view.amountSatang / 100, view.lang), view.payer ?? undefined, formatTime(view.at, view.timeZone));
  return staffAnswer("payment_received", [textMessage(text)], undefined);
}
