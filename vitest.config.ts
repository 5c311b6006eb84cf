import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "scripts/**/*.test.ts"],
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
          include: ["e2e/security/**/*.test.ts"],
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
