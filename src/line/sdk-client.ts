// The SDK's client for the calls a shop makes rarely (the message quota, each user's rich menu), loaded at
// the first such call rather than at start: @line/bot-sdk's index is some 375 modules, about 27 MB resident
// and 7 MB of heap in a process, and the calls on every event's path go over the bot's own pool (api.ts).
import type { messagingApi } from "@line/bot-sdk";

/** The rare calls a shop makes through the SDK. */
export type RareLineCalls = Pick<
  messagingApi.MessagingApiClient,
  "getMessageQuota" | "getMessageQuotaConsumption" | "getRichMenuAlias" | "getRichMenuIdOfUser" | "linkRichMenuIdToUser" | "unlinkRichMenuIdFromUser"
>;

export function rareLineCalls(options: { channelAccessToken: string; baseURL: string }): RareLineCalls {
  let client: Promise<messagingApi.MessagingApiClient> | undefined;
  const sdk = (): Promise<messagingApi.MessagingApiClient> =>
    (client ??= import("@line/bot-sdk").then(
      ({ messagingApi: api }) => new api.MessagingApiClient(options),
      (err: unknown) => {
        client = undefined; // tried again at the next call
        throw err;
      },
    ));
  return {
    getMessageQuota: () => sdk().then((c) => c.getMessageQuota()),
    getMessageQuotaConsumption: () => sdk().then((c) => c.getMessageQuotaConsumption()),
    getRichMenuAlias: (aliasId) => sdk().then((c) => c.getRichMenuAlias(aliasId)),
    getRichMenuIdOfUser: (userId) => sdk().then((c) => c.getRichMenuIdOfUser(userId)),
    linkRichMenuIdToUser: (userId, richMenuId) => sdk().then((c) => c.linkRichMenuIdToUser(userId, richMenuId)),
    unlinkRichMenuIdFromUser: (userId) => sdk().then((c) => c.unlinkRichMenuIdFromUser(userId)),
  };
}
