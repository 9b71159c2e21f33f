// docs/configuration.md, written from the settings' schemas: every environment variable and every field of a
// shops file, with its type, default, example and meaning (each field's `.meta`). `npm run docs:config`
// writes the page; a test fails when the page and the schemas disagree.
import { z } from "zod";
import { VARIABLE_PLACES } from "../config.js";
import { shopEntrySchema } from "../shops/file.js";
import { processSettingsSchema } from "./process.js";
import { shopSettingsSchema } from "./shop.js";

/** A property of a schema as JSON Schema describes it, with the metadata our fields carry. */
interface Node {
  type?: string;
  description?: string;
  examples?: unknown[];
  properties?: Record<string, Node>;
  required?: string[];
  items?: Node;
}

/**
 * A schema as JSON Schema: the types of what one writes (the input), and the examples, which zod keeps only in
 * the output's description of a field that reads its text into something else.
 */
function jsonOf(schema: z.ZodType): Node {
  const input = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Node;
  const output = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Node;
  const merge = (a: Node, b: Node | undefined): Node => {
    const properties = a.properties === undefined ? undefined : Object.fromEntries(Object.entries(a.properties).map(([key, child]) => [key, merge(child, b?.properties?.[key])]));
    return { ...a, ...(properties === undefined ? {} : { properties }), description: a.description ?? b?.description, examples: a.examples ?? b?.examples };
  };
  return merge(input, output);
}

function nodeAt(root: Node, path: readonly string[]): Node {
  let node = root;
  for (const key of path) {
    const next = node.properties?.[key];
    if (next === undefined) throw new Error(`the settings have no ${path.join(".")}`);
    node = next;
  }
  return node;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** A field's meaning and example, or an error naming the field that lacks them. */
function described(node: Node, where: string): { description: string; example: unknown } {
  if (node.description === undefined || node.examples?.[0] === undefined) throw new Error(`${where} has no description or example in its schema (.meta)`);
  return { description: node.description, example: node.examples[0] };
}

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const code = (text: string): string => `\`${text}\``;

/** How an environment variable's text is read (a switch's default is a boolean). */
function envType(form: string, fallback: unknown): string {
  if (form === "integer") return "whole number";
  if (form === "list") return "comma-separated list";
  return typeof fallback === "boolean" ? "1 or 0" : "text";
}

/** A default as one writes it in the environment: a switch as 1 or 0, nothing as "unset". */
function envValue(value: unknown): string {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return "unset";
  if (typeof value === "boolean") return code(value ? "1" : "0");
  if (Array.isArray(value)) return code(value.join(","));
  return code(typeof value === "string" || typeof value === "number" ? String(value) : JSON.stringify(value));
}

function jsonType(node: Node, fallback: unknown): string {
  if (typeof fallback === "boolean") return 'text, "1" or "0"';
  if (node.type === "array") return `list of ${node.items?.type ?? "value"}s`;
  return node.type ?? "value";
}

/** A default as a shops file writes it: a switch is the text "1" or "0", as in the environment. */
function jsonValue(value: unknown): string {
  if (typeof value === "boolean") return code(JSON.stringify(value ? "1" : "0"));
  return code(JSON.stringify(value));
}

function exampleFor(example: unknown, env: boolean): string {
  if (env) return Array.isArray(example) ? code(example.join(",")) : code(String(example));
  return code(JSON.stringify(example));
}

export function configurationReference(): string {
  const shopJson = jsonOf(shopSettingsSchema);
  const processJson = jsonOf(processSettingsSchema);
  const entryJson = jsonOf(shopEntrySchema);
  const defaults = { shop: shopSettingsSchema.parse({}), process: processSettingsSchema.parse({}) };

  const envRows = VARIABLE_PLACES.map((variable) => {
    const node = nodeAt(variable.schema === "shop" ? shopJson : processJson, variable.path);
    const { description, example } = described(node, variable.name);
    const fallback = valueAt(defaults[variable.schema], variable.path);
    return `| ${code(variable.name)} | ${envType(variable.form, fallback)} | ${envValue(fallback)} | ${exampleFor(example, true)} | ${cell(description)} |`;
  });

  const variableOf = new Map(VARIABLE_PLACES.filter((v) => v.schema === "shop").map((v) => [v.path.join("."), v.name]));
  const fileRows: string[] = [];
  const walk = (node: Node, prefix: string[]): void => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const path = [...prefix, key];
      const name = path.join(".");
      const required = node.required?.includes(key) === true && valueAt(defaults.shop, path) === undefined;
      if (child.type === "object" && child.properties !== undefined) {
        fileRows.push(`| ${code(name)} | object | ${required ? "required" : "optional"} | | ${cell(child.description ?? "")} | |`);
        walk(child, path);
        continue;
      }
      const { description, example } = described(child, `the shops file's ${name}`);
      const fallback = valueAt(defaults.shop, path);
      const variable = variableOf.get(name);
      const presence = required ? "required" : fallback === undefined ? "optional" : jsonValue(fallback);
      fileRows.push(
        `| ${code(name)} | ${jsonType(child, fallback)} | ${presence} | ${exampleFor(example, false)} | ${cell(description)} | ${variable === undefined ? "" : code(variable)} |`,
      );
    }
  };
  walk(entryJson, []);

  return `# Configuration

<!-- Written by \`npm run docs:config\` from the settings' schemas (src/settings/, src/shops/file.ts): edit
     those, then run it. test/settings/reference.test.ts fails when this page and the schemas disagree. -->

Everything is read once, at start-up, from the environment (and, for many shops, from a shops file). A wrong
value stops the start (exit code 1) with one message that names every wrong variable and what is wrong
with it, such as \`BOT_LANG: "fr" is not supported: use th or en\`; it never repeats a secret's value. An
empty variable counts as unset. Secrets are never logged.

With nothing set, \`npm start\` runs local mode: the embedded sandbox, the LINE stand-in and the chat
console. With \`LINE_CHANNEL_SECRET\` and \`LINE_CHANNEL_ACCESS_TOKEN\` set the bot talks to LINE, and then
\`SLIP_API_BASE_URL\` and \`SLIP_API_SECRET\` are required: without them the bot refuses to start rather than
show real staff the demo shop.

## Environment variables

| variable | type | default | example | meaning |
|---|---|---|---|---|
${envRows.join("\n")}

## The shops file

With \`SHOPS_FILE\`, one deployment serves every shop the file lists (see [many shops](many-shops.md)):
\`{ "shops": [ { ... }, ... ] }\`, each shop an object of the fields below. Any string may be \`\${NAME}\`,
read from the environment, so the secrets stay out of the file. The last column names the variable that
sets the same for the one shop of a deployment without a shops file; a shop's own variables beside
\`SHOPS_FILE\` stop the start.

| field | type | default | example | meaning | one shop's variable |
|---|---|---|---|---|---|
${fileRows.join("\n")}
`;
}
