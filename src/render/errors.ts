// Short replies for everything that is not a result: usage errors, unknown commands, service failures, refusals, greetings.
import type { CommandName, Lang, UsageProblem } from "../commands/types.js";
import { COMMANDS, commandWord } from "../commands/registry.js";
import type { SlipErrorKind } from "../slip/errors.js";
import type { Role } from "../roles/audience.js";
import { publicAnswer, staffAnswer } from "../privacy/answer.js";
import type { Answer, PublicAnswer, StaffAnswer } from "../privacy/answer.js";
import { customerQrExample, helpQuickReply } from "./quick-replies.js";
import { safeText, truncateText } from "./limits.js";
import { quickReply, textMessage } from "./messages.js";
import { ECHO_UNITS, texts } from "./text.js";

/** The commands an unknown word is pointed to: the ones staff use every day. */
const SUGGESTED: readonly CommandName[] = ["qr", "history", "summary"];

/** The service's own explanation is shown as is, but never at length. */
const SERVICE_MESSAGE_UNITS = 300;

/** The QR with an amount (`คิวอาร์ 150`, a command that works as it is), then the others' words. */
function suggestions(lang: Lang): string {
  return texts(lang).commandList(SUGGESTED.map((name) => (name === "qr" ? customerQrExample(lang) : commandWord(name, lang))));
}

function echo(input: string): string {
  return truncateText(input, ECHO_UNITS);
}

/** A usage problem with the user's input cut to a short echo. */
function shortened(problem: UsageProblem): UsageProblem {
  return "input" in problem ? { ...problem, input: echo(problem.input) } : problem;
}

/**
 * What was wrong, then how to type the command, from the registry: for staff, since customers never see a
 * command's error or notation (a customer place gets one example to pay with, or the friendly note).
 */
export function renderUsageError(failure: { lang: Lang; command: CommandName; problem: UsageProblem }): StaffAnswer {
  const t = texts(failure.lang);
  const info = COMMANDS[failure.command];
  return staffAnswer(
    "usage_error",
    [textMessage([t.usageProblem(shortened(failure.problem)), t.howToType(info.usage[failure.lang], info.example[failure.lang])].join("\n"))],
    failure.command === "qr" ? renderCustomerPayHint(failure.lang) : renderCustomerNote(failure.lang),
  );
}

/**
 * An unknown first word (`word`), or text with no command at all (no `word`), with the staff commands as
 * quick replies: for staff places (a customer place gets the friendly note).
 */
export function renderUnknownCommand(lang: Lang, word?: string): StaffAnswer {
  const t = texts(lang);
  const text = word === undefined || word === "" ? t.notUnderstood(suggestions(lang)) : t.unknownCommand(echo(word), suggestions(lang));
  return staffAnswer("unknown_command", [textMessage(text, helpQuickReply(lang, "staff"))], renderCustomerNote(lang));
}

/**
 * The slip service failed, told to staff: the package, the settings to check, the service's own words for a
 * request it refused (HTTP 400). A customer place gets "please ask the staff" instead.
 */
export function renderServiceFailure(failure: { kind: SlipErrorKind; serviceMessage?: string; command: CommandName }, lang: Lang): StaffAnswer {
  const t = texts(lang);
  const text = ((): string => {
    switch (failure.kind) {
      case "package_expired":
        return t.packageExpired;
      case "invalid_request":
        return t.invalidRequest(safeText(failure.serviceMessage ?? "", SERVICE_MESSAGE_UNITS), failure.command === "qr");
      case "unauthorized":
        return t.unauthorized;
      case "service_unavailable":
        return t.serviceUnavailable;
      case "service_error":
        return t.serviceError;
      case "response_shape":
        return t.responseShape;
      case "qr_mismatch":
        return t.qrMismatch;
    }
  })();
  // What a customer place would get instead: for a QR, "ask the staff"; for anything else, where to ask.
  return staffAnswer("service_failure", [textMessage(text)], failure.command === "qr" ? renderQrAskStaff(lang) : renderAskInPrivate(lang));
}

/** Staff asked for a QR without an id, and the shop has no default one: how to give it (it names the setting). */
export function renderNoPromptPayId(lang: Lang): StaffAnswer {
  return staffAnswer("no_promptpay_id", [textMessage(texts(lang).noPromptPayId(`${commandWord("qr", lang)} 0812345678 150`))], renderQrAskStaff(lang));
}

/**
 * A customer used a staff command's words (`ยอด 350 นะคะ`, `สลิป 350 ค่ะ`): to them these are talk, "I
 * paid, please check". Thanks, and the shop will look: never a refusal about staff or the set-up.
 */
export function renderCustomerThanks(lang: Lang): PublicAnswer {
  return publicAnswer("customer_thanks", [textMessage(texts(lang).customerThanks)]);
}

/** A customer's QR with a wrong amount or id: one example to copy, never a command's usage. */
export function renderCustomerPayHint(lang: Lang): PublicAnswer {
  return publicAnswer("pay_hint", [textMessage(texts(lang).customerPayHint(commandWord("qr", lang)), helpQuickReply(lang, "customer"))]);
}

/** The customers' "pay by QR" menu button opened the keyboard with `คิวอาร์ ` typed: add the amount. */
export function renderTypeAmountHint(lang: Lang): PublicAnswer {
  return publicAnswer("pay_hint", [textMessage(texts(lang).typeAmountHint(customerQrExample(lang)))]);
}

const askInPrivate: Partial<Record<Lang, PublicAnswer>> = {};

/** Staff asked for private data in a group customers are in: a pointer, nothing else. */
export function renderAskInPrivate(lang: Lang): PublicAnswer {
  // The fallback of most staff answers: made once per language (an answer is frozen).
  return (askInPrivate[lang] ??= publicAnswer("ask_in_private", [textMessage(texts(lang).askInPrivate)]));
}

/** Someone joined a staff group: everyone there sees the shop's data, and how to take the group off the list. */
export function renderStaffGroupNotice(lang: Lang): StaffAnswer {
  return staffAnswer("staff_group_notice", [textMessage(texts(lang).staffGroupNotice)], undefined);
}

/** A customer asked for a QR that would pay someone other than the shop. */
export function renderQrShopOnly(lang: Lang): PublicAnswer {
  return publicAnswer("qr_shop_only", [textMessage(texts(lang).qrShopOnly(customerQrExample(lang)), helpQuickReply(lang, "customer"))]);
}

/** A customer's QR cannot be made (no shop id, or the service refused): no reasons, just who to ask. */
export function renderQrAskStaff(lang: Lang): PublicAnswer {
  return publicAnswer("qr_ask_staff", [textMessage(texts(lang).qrAskStaff)]);
}

/** The once-in-a-while answer to a customer's words that are no command; its quick reply is the button it names. */
export function renderCustomerNote(lang: Lang): PublicAnswer {
  return publicAnswer("customer_note", [textMessage(texts(lang).customerNote(texts(lang).payByQrButton), helpQuickReply(lang, "customer"))]);
}

/** Staff said thanks or please: a warm short word back, with the staff commands to tap (customers get their note). */
export function renderThanksBack(lang: Lang): StaffAnswer {
  return staffAnswer("thanks_back", [textMessage(texts(lang).thanksBack, helpQuickReply(lang, "staff"))], renderCustomerNote(lang));
}

/**
 * What the bot thinks a message meant, written out with every detail understood (`เช็คยอด 150`), as a quick
 * reply that sends exactly it: for staff places (customers get no "did you mean").
 */
export function renderDidYouMean(lang: Lang, word: string, suggestion: string): StaffAnswer {
  return staffAnswer(
    "did_you_mean",
    [textMessage(texts(lang).didYouMean(echo(word), suggestion), quickReply([{ label: suggestion, text: suggestion }]))],
    renderCustomerNote(lang),
  );
}

/**
 * The greeting of a place: in a staff place what the bot does for the shop, with the staff commands as quick
 * replies; anywhere else how to pay, with the customers' ones.
 */
export function renderGreeting(lang: Lang, role: "staff"): StaffAnswer;
export function renderGreeting(lang: Lang, role: "customer"): PublicAnswer;
export function renderGreeting(lang: Lang, role: Role): Answer;
export function renderGreeting(lang: Lang, role: Role): Answer {
  const t = texts(lang);
  const customers = publicAnswer("greeting", [textMessage(t.customerGreeting(commandWord("qr", lang)), helpQuickReply(lang, "customer"))]);
  return role === "staff" ? staffAnswer("staff_greeting", [textMessage(t.greeting, helpQuickReply(lang, "staff"))], customers) : customers;
}

/**
 * A photo from staff in their 1:1 chat, most likely a slip: this bot reads none, so say where the shop's
 * slips are checked. Elsewhere photos get no answer, so its fallback is nothing.
 */
export function renderSlipPhotoHint(lang: Lang): StaffAnswer {
  return staffAnswer("slip_photo_hint", [textMessage(texts(lang).slipPhotoHint(commandWord("history", lang)), helpQuickReply(lang, "staff"))], undefined);
}

/** Before the answer to an edited message: it answers the new text. */
export function renderEditedNote(lang: Lang): PublicAnswer {
  return publicAnswer("edited_note", [textMessage(texts(lang).editedNote)]);
}

export function renderApology(lang: Lang): PublicAnswer {
  return publicAnswer("apology", [textMessage(texts(lang).apology)]);
}

/** An event the bot accepted but could not finish before it stopped: send it again. */
export function renderRestarting(lang: Lang): PublicAnswer {
  return publicAnswer("restarting", [textMessage(texts(lang).restarting)]);
}
