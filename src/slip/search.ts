// A search over checks the service does not filter itself: their channel, and part of a reference or a name.
// The staff app's list, its export and its summary all keep the checks that match it.
import type { HistoryItem } from "./types.js";

export interface ChecksSearch {
  /** The channel a check came through (`source`), such as line_oa_merchant. */
  source?: string | undefined;
  /** Part of the reference or of the payer's or receiver's name, in any case. */
  q?: string | undefined;
}

/** Whether a check matches a search; an empty search matches every check. */
export function matchesSearch(item: HistoryItem, search: ChecksSearch): boolean {
  if (search.source !== undefined && item.source !== search.source) return false;
  if (search.q === undefined) return true;
  const wanted = search.q.normalize("NFC").toLowerCase();
  return [item.transRef, item.senderName, item.receiverName].some((field) => field !== null && field.normalize("NFC").toLowerCase().includes(wanted));
}
