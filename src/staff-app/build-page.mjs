// `npm run build`'s step for the staff app's page (run after tsc): copies the page's files next to the compiled
// router (dist/staff-app/page/, so an image holding only dist serves them) and bundles the LIFF SDK (@line/liff
// from npm) into liff.js there, which the page loads from the bot itself in LINE mode. Kept in src/ because the
// image's build stage copies src/ only.
/* global process */
import { copyFileSync, mkdirSync } from "node:fs";
import { build } from "esbuild";

const out = "dist/staff-app/page";
mkdirSync(out, { recursive: true });
for (const file of ["index.html", "app.js", "texts.js", "app.css"]) copyFileSync(`src/staff-app/page/${file}`, `${out}/${file}`);

await build({
  stdin: { contents: 'import liff from "@line/liff"; window.liff = liff;', resolveDir: process.cwd(), loader: "js" },
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2019"],
  outfile: `${out}/liff.js`,
  legalComments: "linked",
  logLevel: "warning",
});
