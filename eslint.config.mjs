import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "**/.next*/", "dist*/", "lib/generated/", "data/", "next-env.d.ts", "test-results/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        fetch: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        performance: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Fixtures (test databases, attack tables) live in test-support/ for tests and benchmarks only:
    // production code importing one would ship test code (lib/architecture.test.ts checks it too).
    files: ["app/**", "components/**", "lib/**", "scripts/**", "server.ts", "instrumentation.ts"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/test-support/**", "@/test-support/**"], message: "test-support is for tests." }] },
      ],
    },
  },
);
