// The chat console as other packages use it: its app to mount on the bot's port (local mode), or a server
// of its own (tests).
export { createConsoleApp, startConsole } from "./console.js";
export type { ChatConsole, ConsoleApp, ConsoleEntry, ConsoleOptions, ConsoleRichMenu, ConsoleShop } from "./console.js";
