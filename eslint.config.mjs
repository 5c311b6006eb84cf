import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The route files of the hot routes (lib/http/fast-routes.ts FAST_ROUTE_PATTERNS; the brackets
// escaped, as globs read them). lib/architecture.test.ts keeps this list equal to those patterns.
export const HOT_ROUTE_FILES = [
  "app/api/agents/[agent_id]/sessions/[session_id]/messages/[message_id]/route.ts",
  "app/api/agents/[agent_id]/runs/[run_id]/route.ts",
  "app/api/agents/webhook/[agent_id]/route.ts",
];

const REQUEST_SCOPE =
  "need Next's request scope (AsyncLocalStorage), which the fast path (lib/http/fast-routes.ts) does not set up: " +
  "on a hot route it would fail or read nothing. Take what the route needs from the route wrapper's context.";

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
    name: "hot-routes",
    files: HOT_ROUTE_FILES.map((f) => f.replace(/[[\]]/g, "\\$&")),
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "next/headers", message: `headers(), cookies() and draftMode() ${REQUEST_SCOPE}` },
            {
              name: "next/server",
              importNames: ["after", "connection"],
              message: `after() and connection() ${REQUEST_SCOPE}`,
            },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportExpression[source.value='next/headers']",
          message: `headers(), cookies() and draftMode() ${REQUEST_SCOPE}`,
        },
      ],
    },
  },
);
