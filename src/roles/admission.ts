// Whether a command is acted on, given who asked and where: the one place the roles' rules are written.
import type { CommandName } from "../commands/types.js";
import { COMMANDS } from "../commands/registry.js";
import type { Audience } from "./audience.js";

export type Admission =
  | { kind: "run" }
  /** Talk in a customer group that only looks like a command: no answer at all. */
  | { kind: "ignore" }
  /** Staff asked for private data where customers would see it: point them to a private place, show nothing. */
  | { kind: "ask_in_private" }
  /** Someone who is not staff asked for private data; `noStaffYet` when nobody is listed as staff at all. */
  | { kind: "staff_only"; noStaffYet: boolean };

export interface CommandUse {
  /** The command word came alone. */
  bare: boolean;
  /** The bot was mentioned, or the command came from one of the bot's own buttons. */
  addressed: boolean;
}

export function admitCommand(name: CommandName, use: CommandUse, audience: Audience, anyStaff: boolean): Admission {
  const info = COMMANDS[name];
  if (audience.place === "customer_group" && !use.addressed) {
    if (use.bare && !info.bareInCustomerGroup) return { kind: "ignore" };
    if (info.audience === "staff") return audience.role === "staff" ? { kind: "ask_in_private" } : { kind: "ignore" };
    return { kind: "run" };
  }
  if (info.audience === "everyone") return { kind: "run" };
  if (audience.role === "customer") return { kind: "staff_only", noStaffYet: !anyStaff };
  if (audience.place === "customer_group") return { kind: "ask_in_private" };
  return { kind: "run" };
}
