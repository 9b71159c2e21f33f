// Lint: the recommended JavaScript rules, and for TypeScript the type-aware recommended set (floating
// promises, unsafe `any`, needless assertions...), with no `any` at all.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  { ignores: ["dist/", "tools/*/dist/", "node_modules/", "coverage/", "bench/results/", "test-output/", "data/"] },
  js.configs.recommended,
  { files: ["bench/**/*.mjs", "test/**/*.mjs", "scripts/**/*.mjs", "tools/*.mjs", "*.js"], languageOptions: { globals: globals.node } },
  {
    files: ["**/*.ts"],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-floating-promises": "error",
    },
  },
  // Test fakes implement async interfaces with nothing to wait for.
  { files: ["test/**/*.ts"], rules: { "@typescript-eslint/require-await": "off" } },
);
