import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

// TEST_SUITES=database (CI's second pass, on PostgreSQL): only the files whose outcome can depend on
// the database. The rest (pure functions, the HTTP layer's own guards) already ran on the embedded
// pass and would run the same code again. A unit file depends on the database when it opens one.
const databaseOnly = process.env.TEST_SUITES === "database";
const OPENS_A_DATABASE = /openTestDatabase|openDatabase\(|createFreshPostgresDatabase|TEST_DATABASE_URL|prisma\(/;
const unitWithoutDatabase = databaseOnly
  ? ["lib", "scripts"].flatMap((dir) =>
      readdirSync(dir, { recursive: true, encoding: "utf8" })
        .map((f) => path.join(dir, f))
        .filter((f) => f.endsWith(".test.ts") && !OPENS_A_DATABASE.test(readFileSync(f, "utf8"))),
    )
  : [];
// Attacks on the HTTP layer that no query takes part in (headers, redirects, origins, upstream
// addresses, body limits, logs, the expression sandbox): the same code on either database.
const securityWithoutDatabase = databaseOnly
  ? ["headers", "redirects", "origin", "ssrf", "limits", "logs", "expressions"].map((n) => `e2e/security/${n}.test.ts`)
  : [];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // Groups run one after another: the unit files first, on every core (sequence.groupOrder);
          // in one group with the one-file-at-a-time projects they were run one at a time too.
          sequence: { groupOrder: 0 },
          include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "components/**/*.test.ts"],
          exclude: ["**/node_modules/**", ...unitWithoutDatabase],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          env: { NODE_ENV: "test", LOG_LEVEL: "silent" },
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          sequence: { groupOrder: 1 },
          include: ["e2e/api/**/*.test.ts"],
          environment: "node",
          globalSetup: ["e2e/api/global-setup.ts"],
          // Generous: these limits only catch a hang, and a loaded 2-core machine makes every
          // process start (CLI, server) several times slower; a tight limit fails by chance.
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // One server is shared by all API test files; files run one at a time so that timing
          // and kill/restart tests do not disturb one another on 2 cores.
          fileParallelism: false,
          env: { NODE_ENV: "test", LOG_LEVEL: "silent" },
        },
      },
      {
        extends: true,
        test: {
          // The threat model's tests (docs/security.md): each attacks the running production server
          // from outside, as an attacker would, and names the row of the threat model it proves.
          name: "security",
          sequence: { groupOrder: 3 },
          include: ["e2e/security/**/*.test.ts"],
          exclude: ["**/node_modules/**", ...securityWithoutDatabase],
          environment: "node",
          globalSetup: ["e2e/api/global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          env: { NODE_ENV: "test", LOG_LEVEL: "silent" },
        },
      },
      {
        extends: true,
        test: {
          // Crash, restart, fuzz and race suites. `npm test` runs their bounded CI size;
          // `npm run test:reliability` runs the full size (RELIABILITY=full, see e2e/reliability/scale.ts).
          name: "reliability",
          sequence: { groupOrder: 2 },
          include: ["e2e/reliability/**/*.test.ts"],
          environment: "node",
          globalSetup: ["e2e/api/global-setup.ts"],
          testTimeout: 900_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          env: { NODE_ENV: "test", LOG_LEVEL: "silent" },
        },
      },
    ],
  },
});
