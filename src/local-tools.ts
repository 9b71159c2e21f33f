// What the entry point asks of local mode, which lives outside the product (tools/local-mode, the workspace
// package @slipline/local-mode, a development-only tool): the product owns this contract and loads the
// package by name at run time only, so neither its build nor a production install needs the tools.
import type { Express } from "express";
import type { Logger } from "pino";
import type { Config } from "./config.js";
import type { ShopConfig } from "./shops/shop.js";

export interface LocalWorld {
  readonly shops: readonly ShopConfig[];
  readonly lineApiBaseUrl: string;
  /** Secrets made up for the local channels, for the log's scrubbing like real ones. */
  readonly secrets: readonly string[];
  /** Puts the console's page and API in front of the bot's routes. */
  mount(root: Express): void;
  /** Once the bot listens at `url`: the console learns where to post, and the rich menus go on the stand-in. */
  started(url: string): Promise<void>;
  close(): Promise<void>;
}

/** Local mode's package, as the entry point uses it. */
export interface LocalMode {
  /** Local mode's world: the sandbox, the LINE stand-in, the console and the demo shops. */
  readonly startLocalWorld: (config: Config, log: Logger) => Promise<LocalWorld>;
  /** The embedded sandbox alone, beside a real LINE channel (SLIP_SANDBOX=1). */
  readonly startEmbeddedSandbox: (config: Config, log: Logger, devRoutes: boolean) => Promise<{ readonly url: string }>;
  /** The demo shops' API secrets: the embedded sandbox's one shop is the demo shop. */
  readonly DEMO_SECRETS: { readonly shop: string };
}

/** In a variable, so that neither tsc nor a bundler follows it: the product builds without the tools. */
const LOCAL_MODE_PACKAGE: string = "@slipline/local-mode";

/** Loads local mode; fails with ERR_MODULE_NOT_FOUND when the install has no tools (or they are not built). */
export async function loadLocalMode(): Promise<LocalMode> {
  return (await import(LOCAL_MODE_PACKAGE)) as LocalMode;
}
