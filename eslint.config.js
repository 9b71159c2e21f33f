// Lint: the recommended JavaScript and type-aware TypeScript rules, no `any`.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "bench/results/", "test-output/", "data/"] },
  js.configs.recommended,
  // Plain JavaScript run by Node (the echo-bot baseline, this file); the console page declares its own globals.
  { files: ["bench/**/*.mjs", "scripts/**/*.mjs", "*.js"], languageOptions: { globals: globals.node } },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
);
