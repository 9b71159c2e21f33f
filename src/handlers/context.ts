// What a handler knows about the event it answers, and what it may use: no raw events, no reply tokens.
import type { Logger } from "pino";
import type { CommandName, Lang } from "../commands/types.js";
import type { SummaryLoader } from "../summary/load.js";
import type { SlipClient, SlipStatus } from "../slip/types.js";
import type { CalendarDate } from "../time/calendar.js";
import type { BotSettings } from "../config.js";
import type { Audience, Chat } from "../roles/audience.js";
import type { QuietNotes } from "../stores/quiet-notes.js";
import type { MessageVersions } from "../stores/versions.js";
import type { Answer } from "../privacy/answer.js";
import type { SlipPhotoParts } from "../slip-photo/parts.js";

export interface ChatContext {
  /** Where the event came from; `id` is the push target (groupId, roomId or userId). */
  readonly chat: Chat;
  /** The sender; LINE may omit it in groups and rooms. */
  readonly userId: string | undefined;
  /** Who asked (staff or customer) and where the answer goes (a staff place or not): the place decides what may be shown. */
  readonly audience: Audience;
  /** The moment the event is handled, for date ranges. */
  readonly now: Date;
  /**
   * Answers this event: reply first, push when the reply token is no longer good. The send boundary
   * stops a staff answer on its way to a place that is not a staff place (and sends its fallback).
   */
  send(answer: Answer): Promise<void>;
  /** LINE's loading animation in a 1:1 chat; fire and forget, never fails the handler. */
  showLoading(): void;
}

export interface HandlerDeps {
  readonly slip: SlipClient;
  readonly settings: BotSettings;
  readonly log: Logger;
  /** Which customer chats got the friendly note lately. */
  readonly quietNotes: QuietNotes;
  /** Summaries of a range (also the balance's forecast), reused for a minute. */
  readonly summaries: SummaryLoader;
  /** When WATCH_PAYMENTS_MINUTES is set: watches for the payment of a staff QR's amount. */
  readonly watches?: PaymentWatches | undefined;
  /** What each group message asked for, to tell its edits apart; without it edits are not answered. */
  readonly versions?: MessageVersions | undefined;
  /** The staff app's signed CSV links (`export`); undefined without PUBLIC_URL. */
  readonly exportLinks?: ExportLinks | undefined;
  /** A slip photo's download, QR reader and push to the staff groups; without them a photo gets the hint to type `history`. */
  readonly slipPhotos?: SlipPhotoParts | undefined;
}

/** Makes the download link of a range's checks, signed for one user and good for 10 minutes. */
export interface ExportLinks {
  /** Days covered at most; a longer range's file holds its last days. */
  readonly maxDays: number;
  /** `format: "raw"`: the all-English file of the service's own fields, for accounting software. */
  link(request: { userId: string; fromDate: CalendarDate; toDate: CalendarDate; status: SlipStatus | undefined; format?: "raw" | undefined }, now: Date): string;
}

/** A staff QR's payment to watch for: a valid check of this amount made after the QR, pushed to its chat once. */
export interface PaymentToWatch {
  chatId: string;
  amountSatang: number;
  after: Date;
  lang: Lang;
}

export interface PaymentWatches {
  watch(payment: PaymentToWatch): Promise<void>;
}

/** What came of one event, for the structured log line. */
export interface HandlerOutcome {
  /** "none" when the text was no command; "slip_photo" for a photo read as a slip. */
  command: CommandName | "none" | "slip_photo";
  outcome:
    | "answered"
    | "usage_error"
    | "unknown_command"
    | "ignored"
    /** An edit that asks nothing new (or came after a newer one): not answered again. */
    | "edit_unchanged"
    | "refused"
    | "pointed_to_private"
    | "noted"
    | "package_expired"
    | "invalid_request"
    | "service_unavailable"
    | "service_error";
}
