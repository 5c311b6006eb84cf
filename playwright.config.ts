// Browser tests of the console: Debian's Chromium (a Playwright browser download fails here)
// against the production server on a fresh database (e2e/ui/global-setup.ts), embedded or
// PostgreSQL like the API tests.
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "e2e/ui",
  outputDir: process.env.UI_RUN_DIR ? `${process.env.UI_RUN_DIR}/artifacts` : "test-results/ui-artifacts",
  globalSetup: "./e2e/ui/global-setup.ts",
  // One server is shared; one worker keeps timings predictable on 2 cores. No retries: a test
  // that passes only sometimes is a failure.
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [["list"]],
  use: {
    baseURL: process.env.UI_BASE_URL,
    viewport: { width: 1280, height: 800 },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    // A trace records every action's snapshots: real CPU on 2 cores, and CI keeps no artifacts.
    trace: process.env.CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium" }],
});
