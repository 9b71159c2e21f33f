// npm run docs:config: writes docs/configuration.md from the settings' schemas (src/settings/reference.ts).
import { writeFileSync } from "node:fs";
import { configurationReference } from "../src/settings/reference.js";

const page = new URL("../docs/configuration.md", import.meta.url);
writeFileSync(page, configurationReference());
console.log("docs/configuration.md written from the settings' schemas");
