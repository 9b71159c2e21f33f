// `npm run build:tools`: each tool package's src/index.ts bundled into its dist/index.js, which is what
// `node dist/main.js` loads in local mode (the packages' default export; tests and tsx take the sources
// through the "slipline-source" condition). Packages stay external; an import of the bot's own modules
// (../../../src/x.js) is pointed at the bot's build (dist/x.js), so local mode shares the bot's modules.
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const PRODUCT_SRC = join(ROOT, "src") + sep;
const PACKAGES = ["slip-sandbox", "line-stand-in", "chat-console", "local-mode"];

/** Imports that reach into the bot's src/ become imports of its compiled twin in dist/. */
const productFromBuild = (outdir) => ({
  name: "product-from-build",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, ({ path, resolveDir }) => {
      const target = join(resolveDir, path);
      if (!target.startsWith(PRODUCT_SRC)) return undefined;
      const built = join(ROOT, "dist", relative(PRODUCT_SRC, target));
      return { path: relative(outdir, built).split(sep).join("/"), external: true };
    });
  },
});

for (const name of PACKAGES) {
  const dir = join(ROOT, "tools", name);
  const outdir = join(dir, "dist");
  await build({
    entryPoints: [join(dir, "src/index.ts")],
    outdir,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
    plugins: [productFromBuild(outdir)],
  });
  console.log(`${relative(ROOT, dirname(outdir))}: dist/index.js`);
}
