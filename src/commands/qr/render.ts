// The QR reply: a Flex card with the QR, amount and masked payee, plus an image message a customer can save.
import type { messagingApi } from "@line/bot-sdk";
import type { Lang, PromptPayId } from "../types.js";
import { formatPaidCommand } from "../format.js";
import { maskPromptPayId } from "../promptpay-id.js";
import { formatBaht, formatMoney, toSatang } from "../../render/format.js";
import { isUsableImageUrl, safeText } from "../../render/limits.js";
import { cardBubble, flexMessage, postbackButton } from "../../render/messages.js";
import { publicAnswer, staffAnswer } from "../../privacy/answer.js";
import type { Answer } from "../../privacy/answer.js";
import { withSharedTexts } from "../../render/text.js";
import { QR_TEXTS } from "./texts.js";
import { renderQrShopOnly } from "../../render/errors.js";

/** The shared texts and `qr`'s own, by language. */
const TEXTS = withSharedTexts(QR_TEXTS);

export const QR_SIZES = { original: 1024, hero: 512, preview: 240 } as const;

export interface QrView {
  lang: Lang;
  payee: PromptPayId;
  /** The payee is the shop's own PromptPay id (PROMPTPAY_ID): then the card may go anywhere. */
  paysShop: boolean;
  /** Baht as the service echoed it; null when the payer enters the amount. */
  amount: number | null;
  /** The service's image link (`...?data=<qrCode>&size=<size>`). */
  url: string;
  /**
   * In a staff place: the command a "check payment" button sends (has this QR's amount arrived since?).
   * The button makes the card a staff answer; without it the card is for anyone.
   */
  checkPayment?: string | undefined;
  /** The card goes to a customer place: it also says to send the slip here once paid. */
  forCustomers: boolean;
}

/**
 * The same link at another pixel size. Only the `size` parameter is touched, so the percent-encoded
 * payload stays byte for byte as the service wrote it.
 */
export function withQrSize(url: string, size: number): string {
  const hashAt = url.indexOf("#");
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : url.slice(hashAt);
  if (/[?&]size=[^&]*/.test(base)) return base.replace(/([?&]size=)[^&]*/, `$1${size}`) + hash;
  return `${base}${base.includes("?") ? "&" : "?"}size=${size}${hash}`;
}

export function renderQr(view: QrView): Answer {
  const t = TEXTS[view.lang];
  const payee = maskPromptPayId(view.payee);
  const payeeType = t.payeeType[view.payee.type];
  const amount = view.amount === null ? undefined : formatMoney(view.amount);
  const hero = withQrSize(view.url, QR_SIZES.hero);
  const original = withQrSize(view.url, QR_SIZES.original);
  const preview = withQrSize(view.url, QR_SIZES.preview);
  // A link LINE cannot load would make it reject the whole reply, so the images are left out instead.
  const imagesUsable = [hero, original, preview].every(isUsableImageUrl);

  /** The card, with the customers' "send the slip here" line when `customers`. */
  const bubbleFor = (customers: boolean): messagingApi.FlexBubble =>
    cardBubble([
      { type: "text", text: t.qrTitle, weight: "bold", size: "sm", color: "#1B4F91" },
      amount === undefined
        ? { type: "text", text: t.qrPayerEntersAmount, size: "lg", weight: "bold", wrap: true }
        : { type: "text", text: safeText(amount, 40), size: "xxl", weight: "bold", adjustMode: "shrink-to-fit" },
      {
        type: "box",
        layout: "vertical",
        spacing: "xs",
        contents: [
          { type: "text", text: t.qrPayeeLabel, size: "xs", color: "#888888" },
          { type: "text", text: payee, size: "md", weight: "bold" },
          { type: "text", text: payeeType, size: "xs", color: "#888888" },
        ],
      },
      { type: "separator" },
      { type: "text", text: t.qrScanHint, size: "xs", color: "#666666", wrap: true },
      ...(customers ? [{ type: "text", text: t.qrSendSlip, size: "sm", weight: "bold", wrap: true } as messagingApi.FlexText] : []),
    ]);
  const withHero = (bubble: messagingApi.FlexBubble): messagingApi.FlexBubble =>
    imagesUsable ? { ...bubble, hero: { type: "image", url: hero, size: "full", aspectRatio: "1:1", aspectMode: "fit" } } : bubble;
  const bubble = withHero(bubbleFor(view.forCustomers));
  const image: messagingApi.Message[] = imagesUsable ? [{ type: "image", originalContentUrl: original, previewImageUrl: preview }] : [];
  // The alt text is a sentence: 150 บาท, where the card's big figure keeps ฿150.00.
  const alt = t.qrAlt(view.amount === null ? undefined : formatBaht(view.amount, view.lang), payee, payeeType);
  // Only a QR that pays the shop itself is for anyone; one to another id (staff may ask for it in a staff
  // place) falls back to "only the shop's own" wherever it should not go.
  const messages = [flexMessage(alt, bubble), ...image];
  const card = view.paysShop ? publicAnswer("qr_card", messages) : staffAnswer("qr_card_other_payee", messages, renderQrShopOnly(view.lang));
  // Should a staff card be stopped on its way to a customer place, the customers' card (or the refusal) goes instead.
  const customersCard = card.audience === "staff" ? card.fallback : view.forCustomers ? card : publicAnswer("qr_card", [flexMessage(alt, withHero(bubbleFor(true))), ...image]);
  // The chat shows what a person would type (`เช็คยอด 150`); the data keeps the QR's instant.
  const typed = view.amount === null ? t.qrCheckPayment : formatPaidCommand({ amount: toSatang(view.amount) }, view.lang);
  const checkButton = view.checkPayment === undefined ? undefined : postbackButton(t.qrCheckPayment, view.checkPayment, typed, "primary");
  if (checkButton === undefined) return card;
  const withCheck: messagingApi.FlexBubble = { ...bubble, footer: { type: "box", layout: "vertical", contents: [checkButton] } };
  return staffAnswer("qr_card_with_check", [flexMessage(alt, withCheck), ...image], customersCard);
}
