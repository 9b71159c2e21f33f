// The slip service's own history, read straight from the sandbox: what the staff app's answers and exports are
// compared with (never the bot's own reading of it).

/** A history item as the service sends it (the fields the tests compare). */
export interface ServiceHistoryItem {
  status: string | null;
  amount: number | null;
  transRef: string | null;
  createdAt: string | null;
  transDate: string | null;
  senderName: string | null;
  receiverName: string | null;
  source: string | null;
}

/** The service's history of Bangkok days `from`..`to` (inclusive), every page, newest first. */
export async function sandboxHistory(service: { url: string; apiSecret: string }, from: string, to: string, extra: Record<string, string> = {}): Promise<ServiceHistoryItem[]> {
  const items: ServiceHistoryItem[] = [];
  for (let page = 1; ; page += 1) {
    const query = new URLSearchParams({ from: `${from}T00:00:00.000+07:00`, to: `${to}T23:59:59.999+07:00`, limit: "100", page: String(page), ...extra });
    const res = await fetch(`${service.url}/api/slip-history?${query.toString()}`, { headers: { authorization: `Bearer ${service.apiSecret}` } });
    if (!res.ok) throw new Error(`the sandbox answered ${res.status} for its history`);
    const body = (await res.json()) as { data: { items: ServiceHistoryItem[]; pagination: { pages: number } } };
    items.push(...body.data.items);
    if (page >= body.data.pagination.pages) return items;
  }
}
