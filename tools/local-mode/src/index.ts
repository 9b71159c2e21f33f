// Local mode as the bot's entry point loads it (by package name, dynamically: src/local-tools.ts): its world,
// and the embedded sandbox on its own beside a real LINE channel (SLIP_SANDBOX=1) with the demo shop's secret.
import type { LocalMode } from "../../../src/local-tools.js";
import type * as loaded from "./index.js";

export { startEmbeddedSandbox, startLocalWorld } from "./local-mode.js";
export { DEMO_SECRETS } from "@slipline/slip-sandbox";

/** What the entry point gets when it loads this package: the contract it names (checked when compiled). */
export type LoadedLocalMode = Conforming<typeof loaded>;
type Conforming<T extends LocalMode> = T;
