// What a parse result does for a person, in the natural messages' notation (natural-messages.ts): the command
// and its details where it runs, `none` where nothing is run. Written out here, apart from the parser.
import type { Command, ParseResult, RangeSpec } from "../../src/commands/types.js";
import type { Place } from "./natural-messages.js";

/** Commands that show the shop's data: a customer is never shown them (roles/admission.ts), whatever they typed. */
const STAFF_COMMANDS = new Set(["history", "summary", "export", "paid", "balance"]);

function baht(satang: number): string {
  const rest = satang % 100;
  return rest === 0 ? `${Math.floor(satang / 100)}` : `${Math.floor(satang / 100)}.${String(rest).padStart(2, "0")}`;
}

function days(range: RangeSpec): string {
  switch (range.kind) {
    case "days":
      return `${range.days}d`;
    case "dates": {
      const day = (d: { year: number; month: number; day: number }): string => (d.year === 2026 ? `${d.day}/${d.month}` : `${d.day}/${d.month}/${d.year}`);
      const same = range.from.year === range.to.year && range.from.month === range.to.month && range.from.day === range.to.day;
      return same ? day(range.from) : `${day(range.from)}-${day(range.to)}`;
    }
    default:
      return range.kind;
  }
}

function written(command: Command): string {
  const parts: string[] = [command.kind];
  switch (command.kind) {
    case "qr":
      if (command.id !== undefined) parts.push(`id:${command.id.digits}`);
      if (command.amount !== undefined) parts.push(baht(command.amount));
      break;
    case "paid":
      parts.push(baht(command.request.amount));
      if (command.request.range !== undefined) parts.push(days(command.request.range));
      break;
    case "history":
      if (command.request.by === "ref") parts.push(`ref:${command.request.transRef}`);
      else parts.push(days(command.request.range), ...(command.request.status === undefined ? [] : [command.request.status]));
      break;
    case "summary":
    case "export":
      parts.push(days(command.request.range), ...(command.request.status === undefined ? [] : [command.request.status]));
      break;
    default:
      break;
  }
  return parts.join(" ");
}

/**
 * What the result does in `place`, by the handlers' rules: a reading beyond the documented grammar runs only in
 * a staff place (a customer's words are talk), a talk word with an ending only where staff ask the bot alone,
 * and a customer is never shown a staff command.
 */
export function meantOf(result: ParseResult, place: Place): string {
  if (!result.ok) return "none";
  const how = "how" in result ? result.how : undefined;
  if (place === "customer_chat" && (how !== undefined || STAFF_COMMANDS.has(result.command.kind))) return "none";
  if (place === "staff_group" && how === "talk") return "none";
  return written(result.command);
}
