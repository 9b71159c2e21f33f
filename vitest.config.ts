import { defineConfig } from "vitest/config";

/** The tools' packages (tools/*) from their sources, as tsc and tsx take them; then Vite's own conditions. */
const conditions = ["slipline-source", "module", "node", "development|production"];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ["test/**/*.test.ts", "tools/*/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
