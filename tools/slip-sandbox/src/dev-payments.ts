// Local mode's "a customer pays the demo shop now", through the embedded sandbox's local-only route.
import { DEV_PAYMENTS_PATH } from "./app.js";

/** A customer paying one of the embedded sandbox's demo shops (the coffee shop by default), through its local-only route. */
export function simulatePaymentAt(sandboxUrl: string, shop: "shop" | "other" = "shop"): (amountSatang: number) => Promise<{ senderName: string }> {
  return async (amountSatang) => {
    const response = await fetch(`${sandboxUrl}${DEV_PAYMENTS_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: amountSatang / 100, shop }),
    });
    const body = (await response.json()) as { data?: { senderName?: string }; message?: string };
    if (!response.ok) throw new Error(body.message ?? `HTTP ${response.status}`);
    return { senderName: body.data?.senderName ?? "?" };
  };
}
