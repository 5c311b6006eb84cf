import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The route files of the hot routes (the routes whose contract says `hot`; the brackets
// escaped, as globs read them). lib/architecture.test.ts keeps this list equal to those patterns.
export const HOT_ROUTE_FILES = [
  "app/api/agents/[agent_id]/sessions/[session_id]/messages/[message_id]/route.ts",
  "app/api/agents/[agent_id]/runs/[run_id]/route.ts",
  "app/api/agents/webhook/[agent_id]/route.ts",
];

const REQUEST_SCOPE =
  "need Next's request scope (AsyncLocalStorage), which the fast path (lib/server/fast-routes.ts) does not set up: " +
  "on a hot route it would fail or read nothing. Take what the route needs from the route wrapper's context.";

const TEST_SUPPORT = { group: ["**/test-support/**", "@/test-support/**"], message: "test-support is for tests." };

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
      "no-restricted-imports": ["error", { patterns: [TEST_SUPPORT] }],
    },
  },
  {
    // After the rule above: for these files this rule replaces it, so it carries its pattern too.
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
          patterns: [TEST_SUPPORT],
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
