// What the bot says, sealed with who may see it. The send boundary (line/outbox.ts) accepts nothing else,
// and a kind belongs to one audience, so a staff-only answer cannot be labelled public by mistake.
import type { messagingApi } from "@line/bot-sdk";
import { parseCommand } from "../commands/parse.js";
import { ANSWER_KINDS, COMMANDS } from "../commands/registry.js";
import type { CommandPublicKind, CommandStaffKind } from "../commands/registry.js";
import type { AnswerAudience } from "../commands/define.js";
import type { SharedPublicKind, SharedStaffKind } from "./kinds.js";

/**
 * Answers fine for anyone carry nothing of the shop's own data or settings, and no button for a staff
 * command; the customers' `help` and the `id` (ids, never the set-up) are such. Answers for staff places
 * only carry the shop's checks (payer names, references, amounts), summaries, token and package figures,
 * the configuration's names, and the buttons and pushes that lead to them. Each kind's audience is
 * declared once: by its command (commands/<name>/command.ts) or in privacy/kinds.ts.
 */
export type PublicKind = SharedPublicKind | CommandPublicKind;
export type StaffKind = SharedStaffKind | CommandStaffKind;
export type AnswerKind = PublicKind | StaffKind;

function kindsOf(audience: AnswerAudience): string[] {
  return [...ANSWER_KINDS].filter(([, of]) => of === audience).map(([kind]) => kind);
}

// The registry's index is built from the same declarations the two types are, so the lists match them.
/** Every public kind, and every staff kind. */
export const PUBLIC_KINDS = kindsOf("public") as readonly PublicKind[];
export const STAFF_KINDS = kindsOf("staff") as readonly StaffKind[];

export interface PublicAnswer {
  readonly audience: "public";
  readonly kind: PublicKind;
}

export interface StaffAnswer {
  readonly audience: "staff";
  readonly kind: StaffKind;
  /**
   * What goes instead when the destination turns out not to be a staff place (a bug the boundary stops):
   * what a customer would get there. None for pushes, which are then not sent at all.
   */
  readonly fallback: PublicAnswer | undefined;
}

export type Answer = PublicAnswer | StaffAnswer;

/** The messages of each answer, out of reach of everything but `messagesOf`. */
const sealed = new WeakMap<Answer, readonly messagingApi.Message[]>();

// The types already forbid a staff kind in a public answer; these checks hold at run time too, so a cast
// (`as any`, JSON from elsewhere) cannot relabel an answer either.
const PUBLIC = new Set<string>(PUBLIC_KINDS);
const STAFF = new Set<string>(STAFF_KINDS);

/** Whether an answer is really public: marked so, of a public kind, and made here. */
export function isPublic(answer: Answer): answer is PublicAnswer {
  return answer.audience === "public" && PUBLIC.has(answer.kind) && sealed.has(answer);
}

/** Reading a button's text needs no real day or zone: only which command it names matters. */
const READ_AS = { now: new Date(0), timeZone: "Asia/Bangkok", defaultLang: "th" } as const;

/**
 * The staff command a button or quick reply in these messages would send (`history …`, `เช็คยอด 150 …`),
 * read by the command parser itself (its normalising: full-width, zero-width, glued Thai, lead-ins), so
 * the guard reads every text as a chat would; undefined when there is none.
 */
function staffCommandIn(messages: readonly messagingApi.Message[]): string | undefined {
  const sent: string[] = [];
  actionTexts(messages, sent);
  return sent.find((text) => {
    const read = parseCommand(text, READ_AS);
    // A staff command with arguments that do not read is still a staff command's button.
    const name = read.ok ? read.command.kind : read.failure.kind === "usage" ? read.failure.command : undefined;
    return name !== undefined && COMMANDS[name].audience === "staff";
  });
}

/** What every action anywhere in a Flex tree would send (a message's text, a postback's data), in `sent`. */
function actionTexts(node: unknown, sent: string[]): void {
  if (typeof node !== "object" || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node as unknown[]) actionTexts(item, sent);
    return;
  }
  const record = node as Record<string, unknown>;
  if (record.type === "message" && typeof record.text === "string") sent.push(record.text);
  if (record.type === "postback" && typeof record.data === "string") sent.push(record.data);
  for (const key in record) if (Object.hasOwn(record, key)) actionTexts(record[key], sent);
}

export function publicAnswer(kind: PublicKind, messages: readonly messagingApi.Message[]): PublicAnswer {
  if (!PUBLIC.has(kind)) throw new TypeError(`${String(kind)} is not a public kind`);
  // A button or quick reply asking for the shop's data makes an answer staff, whatever else it says.
  const staffCommand = staffCommandIn(messages);
  if (staffCommand !== undefined) throw new TypeError(`a public answer (${kind}) cannot carry a button that sends the staff command "${staffCommand}"`);
  const answer: PublicAnswer = Object.freeze({ audience: "public", kind });
  sealed.set(answer, Object.freeze([...messages]));
  return answer;
}

export function staffAnswer(kind: StaffKind, messages: readonly messagingApi.Message[], fallback: PublicAnswer | undefined): StaffAnswer {
  if (!STAFF.has(kind)) throw new TypeError(`${String(kind)} is not a staff kind`);
  if (fallback !== undefined && !isPublic(fallback)) throw new TypeError(`the fallback of ${kind} is not a public answer`);
  const answer: StaffAnswer = Object.freeze({ audience: "staff", kind, fallback });
  sealed.set(answer, Object.freeze([...messages]));
  return answer;
}

/**
 * The messages of an answer. Only the send boundary (and tests) may call this: test/architecture.test.ts
 * holds it, so no other module can take a staff answer's messages and send or relabel them.
 */
export function messagesOf(answer: Answer): readonly messagingApi.Message[] {
  const messages = sealed.get(answer);
  if (messages === undefined) throw new TypeError(`answer of kind ${answer.kind} was not made by publicAnswer or staffAnswer`);
  return messages;
}

/** A public answer followed by another (a customer's answer, then the pointer for the staff who asked). */
export function followedBy(first: PublicAnswer, then: PublicAnswer): PublicAnswer {
  if (!isPublic(first) || !isPublic(then)) throw new TypeError("followedBy joins public answers only");
  return publicAnswer(first.kind, [...messagesOf(first), ...messagesOf(then)]);
}

/** A note (public) before an answer, in its audience: the note goes with the answer and with its fallback. */
export function afterNote(note: PublicAnswer, answer: Answer): Answer {
  if (!isPublic(note)) throw new TypeError("a note before an answer must be public");
  const messages = [...messagesOf(note), ...messagesOf(answer)];
  if (isPublic(answer)) return publicAnswer(answer.kind, messages);
  return staffAnswer(answer.kind, messages, answer.fallback === undefined ? undefined : followedBy(note, answer.fallback));
}
