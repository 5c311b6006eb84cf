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
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One server is shared by all API test files; files run one at a time so that timing
          // and kill/restart tests do not disturb one another on 2 cores.
          fileParallelism: false,
          env: { NODE_ENV: "test", LOG_LEVEL: "silent" },
        },
      },
    ],
  },
});
