// The shops file (SHOPS_FILE): many shops in one deployment, each with its own LINE channel, slip service
// secret, staff and settings. JSON; any string may be `${NAME}`, read from the environment, so secrets stay
// out of the file. Read with the same schema as the environment's one shop, and checked whole: every
// problem at once, named by shop and field, never quoting a secret.
import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { Env } from "../config.js";
import * as field from "../settings/fields.js";
import { shopSettingsSchema } from "../settings/shop.js";
import { giveWay } from "./give-way.js";
import { shopConfigOf, webhookPathOf } from "./shop.js";
import type { ShopConfig } from "./shop.js";

/** A shop's id: its webhook path (`/webhook/<id>`), its label in logs and metrics, its keys in Redis. */
export const SHOP_ID = /^[a-z0-9-]{1,32}$/;

/** A previous secret equal to the current one is a rotation half done: the old secret is not what it holds. */
export const SAME_AS_CURRENT = "is the same as channelSecret: during a rotation it holds the old secret; once the rotation is over, remove it";

const shopEntrySchema = z
  .object({
    id: z.string({ error: "is missing" }).regex(SHOP_ID, { error: "must be 1 to 32 of a-z, 0-9 and -" }),
    name: z.string({ error: "must be text" }).min(1, { error: "must not be empty" }).max(100, { error: "must be at most 100 characters" }).optional(),
    ...shopSettingsSchema.shape,
    // A file's shops are real ones: a LINE channel and the slip service each (local mode has its own demo shops).
    line: z
      .object({ channelSecret: field.channelSecret, channelAccessToken: field.channelAccessToken, previousChannelSecret: field.channelSecret.optional() }, { error: "is missing" })
      .strict()
      .refine((line) => line.previousChannelSecret !== line.channelSecret, { path: ["previousChannelSecret"], error: SAME_AS_CURRENT }),
    slip: z.object({ baseUrl: field.baseUrl, apiSecret: field.slipApiSecret }, { error: "is missing" }).strict(),
  })
  .strict();

const shopsFileSchema = z.object({ shops: z.array(z.unknown(), { error: "must be a list of shops" }).min(1, { error: "must list at least one shop" }) }).strict();

/** Fields whose values are secrets: a problem with one never quotes it. */
const SECRET_PATHS = new Set(["line.channelSecret", "line.channelAccessToken", "line.previousChannelSecret", "slip.apiSecret"]);

export type ShopsFileResult = { ok: true; shops: ShopConfig[] } | { ok: false; problems: string[] };

/**
 * Reads and checks the shops file; a file that cannot be read is one problem like any other. `whileServing`
 * (a reload): the check gives way to the events arriving meanwhile; at start-up nothing waits for it.
 */
export async function readShopsFile(path: string, env: Env, whileServing = true): Promise<ShopsFileResult> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    return { ok: false, problems: [`${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`] };
  }
  if (!whileServing) return parseShopsFile(text, env);
  // Checked while events keep arriving (a reload): a thousand shops take some 50 ms, given in slices.
  const checking = checkShopsFile(text, env);
  const slice = giveWay();
  for (;;) {
    const step = checking.next();
    if (step.done === true) return step.value;
    await slice();
  }
}

/** Checks a shops file's text against the environment (for `${NAME}`). Pure. */
export function parseShopsFile(text: string, env: Env): ShopsFileResult {
  const checking = checkShopsFile(text, env);
  for (;;) {
    const step = checking.next();
    if (step.done === true) return step.value;
  }
}

/** The check itself, shop by shop: it pauses (yields) after each shop, so a caller may give way between them. */
function* checkShopsFile(text: string, env: Env): Generator<void, ShopsFileResult> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: [notJson(text, err)] };
  }
  const file = shopsFileSchema.safeParse(json);
  if (!file.success) return { ok: false, problems: file.error.issues.map((issue) => `${issue.path.map(String).join(".") || "the file"}: ${issue.message}`) };

  const problems: string[] = [];
  const shops: ShopConfig[] = [];
  const seen = { ids: new Map<string, string>(), secrets: new Map<string, string>(), tokens: new Map<string, string>() };
  for (const [index, raw] of file.data.shops.entries()) {
    yield;
    const rawId = typeof raw === "object" && raw !== null ? (raw as { id?: unknown }).id : undefined;
    const label = `shops[${index}]${typeof rawId === "string" ? ` "${rawId.slice(0, 32)}"` : ""}`;
    const unset: string[] = [];
    const substituted = substitute(raw, env, [], unset);
    for (const path of unset) problems.push(`${label}: ${path}`);
    // Two shops on one id or one channel: told whatever else is wrong with either.
    const text = (value: unknown, ...path: string[]): string | undefined => {
      const found = path.reduce<unknown>((at, key) => (typeof at === "object" && at !== null ? (at as Record<string, unknown>)[key] : undefined), value);
      return typeof found === "string" && found !== "" ? found : undefined;
    };
    const same = (kind: keyof typeof seen, value: string | undefined, what: string): void => {
      if (value === undefined) return;
      const earlier = seen[kind].get(value);
      if (earlier === undefined) seen[kind].set(value, label);
      else duplicates.push(`${label}: ${what}`.replace("{earlier}", earlier));
    };
    const duplicates: string[] = [];
    same("ids", text(substituted, "id"), `id: "${text(substituted, "id") ?? ""}" is also {earlier}'s: each shop needs its own id`);
    // A channel secret, current or previous, is one shop's: a webhook signed with it must name one shop.
    same("secrets", text(substituted, "line", "channelSecret"), "line.channelSecret: the same as {earlier}'s: each shop needs its own LINE channel");
    const previous = text(substituted, "line", "previousChannelSecret");
    if (previous !== text(substituted, "line", "channelSecret")) {
      same("secrets", previous, "line.previousChannelSecret: the same as a channel secret of {earlier}: a previous secret must be this shop's own old one");
    }
    same("tokens", text(substituted, "line", "channelAccessToken"), "line.channelAccessToken: the same as {earlier}'s: each shop needs its own LINE channel");
    const entry = shopEntrySchema.safeParse(substituted);
    if (!entry.success) {
      for (const issue of entry.error.issues) {
        const path = issue.path.map(String).join(".");
        // A `${NAME}` already reported for this field says enough.
        if (unset.some((u) => u.startsWith(`${path}: `))) continue;
        const message = issue.code === "unrecognized_keys" ? `unknown field${issue.keys.length === 1 ? "" : "s"} ${issue.keys.join(", ")}` : issue.message;
        problems.push(`${label}: ${path === "" ? "" : `${path}: `}${SECRET_PATHS.has(path) ? message.replace(/"[^"]*"/g, "(not shown)") : message}`);
      }
      problems.push(...duplicates);
      continue;
    }
    problems.push(...duplicates);
    const shop = entry.data;
    shops.push(shopConfigOf({ id: shop.id, name: shop.name, webhookPath: webhookPathOf(shop.id) }, shop));
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, shops };
}

/**
 * Every string's `${NAME}` replaced by the environment's value. A name that is not set (or empty) is
 * written down with its path, as `line.channelSecret: ${NAME} is not set`; the value never is.
 */
function substitute(value: unknown, env: Env, path: readonly string[], unset: string[]): unknown {
  if (typeof value === "string") {
    // Most strings name nothing: the same string back (a reload of a thousand shops makes less garbage).
    if (!value.includes("${")) return value;
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_whole, name: string) => {
      const found = env[name]?.trim();
      if (found === undefined || found === "") {
        unset.push(`${path.join(".")}: \${${name}} is not set`);
        return "";
      }
      return found;
    });
  }
  // Arrays and objects are copied only when something inside them named a variable.
  if (Array.isArray(value)) {
    const items = value.map((item, i) => (typeof item === "string" && !item.includes("${") ? item : substitute(item, env, [...path, String(i)], unset)));
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    const replaced = entries.map(([key, item]) => [key, substitute(item, env, [...path, key], unset)] as const);
    return replaced.every(([, item], i) => item === entries[i]?.[1]) ? value : Object.fromEntries(replaced);
  }
  return value;
}

/**
 * Where a JSON syntax error is, by line and column, never what is written there: the parser's own message
 * quotes the text around it, and a shops file's text is secrets.
 */
function notJson(text: string, err: unknown): string {
  const position = /at position (\d+)/.exec(err instanceof Error ? err.message : "")?.[1];
  if (position === undefined) return "not JSON (a syntax error; check the file with a JSON validator)";
  const before = text.slice(0, Number(position));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return `not JSON: a syntax error at line ${line}, column ${column}`;
}
