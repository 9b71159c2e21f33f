// LINE's monthly message quota, read before each opt-in push: a push past it would be refused anyway.
import type { messagingApi } from "@line/bot-sdk";
import type { Logger } from "pino";
import type { QuotaState } from "./notifier.js";

/** Used up when the quota is limited and the month's usage has reached it; unknown counts as available. */
/** Only the quota calls: this module can send nothing (the send boundary alone sends). */
export type QuotaApi = Pick<messagingApi.MessagingApiClient, "getMessageQuota" | "getMessageQuotaConsumption">;

export async function readQuota(api: QuotaApi, log: Logger): Promise<QuotaState> {
  try {
    const [quota, consumption] = await Promise.all([api.getMessageQuota(), api.getMessageQuotaConsumption()]);
    return quota.type === "limited" && quota.value !== undefined && consumption.totalUsage >= quota.value ? "used_up" : "available";
  } catch (err) {
    log.warn({ err }, "could not read LINE's message quota; pushing anyway");
    return "available";
  }
}
