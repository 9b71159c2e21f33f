// Bundles the LIFF SDK (@line/liff from npm) into dist/staff-app/page/liff.js, which the staff app's page
// loads from the bot itself in LINE mode: nothing is fetched from elsewhere at run time but what LIFF needs.
import { build } from "esbuild";

await build({
  stdin: { contents: 'import liff from "@line/liff"; window.liff = liff;', resolveDir: process.cwd(), loader: "js" },
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2019"],
  outfile: "dist/staff-app/page/liff.js",
  legalComments: "linked",
  logLevel: "warning",
});
