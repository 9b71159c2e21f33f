// Each command's handler, by its name: the router's table. A command's definition (commands/<name>/command.ts)
// is read by the renderers, so it cannot name its handler (which renders) without an import cycle; the table
// sits here, above both, and a command left out of it does not compile.
import type { Command, CommandName } from "../commands/types.js";
import type { ChatContext, HandlerDeps, HandlerOutcome } from "./context.js";
import { handleQr } from "../commands/qr/handle.js";
import { handleHistory } from "../commands/history/handle.js";
import { handleSummary } from "../commands/summary/handle.js";
import { handleExport } from "../commands/export/handle.js";
import { handlePaid } from "../commands/paid/handle.js";
import { handleBalance } from "../commands/balance/handle.js";
import { handleContact } from "../commands/contact/handle.js";
import { handleHelp } from "../commands/help/handle.js";
import { handleId } from "../commands/id/handle.js";

/** A handler takes exactly its own command, the chat and the bot's parts, and says what it did. */
export type RouteHandler<K extends CommandName> = (command: Extract<Command, { kind: K }>, ctx: ChatContext, deps: HandlerDeps) => Promise<HandlerOutcome>;

export const HANDLERS: { readonly [K in CommandName]: RouteHandler<K> } = {
  qr: handleQr,
  history: handleHistory,
  summary: handleSummary,
  export: handleExport,
  paid: handlePaid,
  balance: handleBalance,
  contact: handleContact,
  help: handleHelp,
  id: handleId,
};
