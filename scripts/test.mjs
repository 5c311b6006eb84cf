// npm test: builds the production server, then runs every Vitest project (unit and api) and the
// Playwright browser tests (e2e/ui) once on the database named by the environment: the embedded
// PGlite by default, or fresh PostgreSQL databases on the server given by TEST_DATABASE_URL.
// Ends with one line "N passed, N failed" (totals over all suites).
// Extra arguments go to Vitest (e.g. `npm test -- --project unit`) and skip the browser tests;
// SKIP_UI=1 skips them too; SKIP_BUILD=1 reuses the existing build.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const label = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
const outDir = path.join(root, "test-results");
mkdirSync(outDir, { recursive: true });
const vitestJson = path.join(outDir, `vitest-${label}.json`);
const playwrightJson = path.join(outDir, `playwright-${label}.json`);
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return r.status ?? 1;
}

const args = process.argv.slice(2);
const unitOnly = args.includes("unit") && args.includes("--project");
const withUi = args.length === 0 && process.env.SKIP_UI !== "1";
// SKIP_BUILD=1 reuses the build of a previous run in the same checkout (.ci/run's second database).
if (!unitOnly && process.env.SKIP_BUILD !== "1" && run("npm", ["run", "-s", "build"]) !== 0) {
  console.error("build failed");
  console.log("0 passed, 1 failed");
  process.exit(1);
}

const totals = { passed: 0, failed: 0, skipped: 0 };

rmSync(vitestJson, { force: true });
const vitestCode = run("npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestJson}`,
  ...args,
]);
let vitestFailed = 0;
if (existsSync(vitestJson)) {
  const report = JSON.parse(readFileSync(vitestJson, "utf8"));
  totals.passed += report.numPassedTests ?? 0;
  // A file that failed outside its tests (import error, hook) counts once.
  const brokenFiles = (report.testResults ?? []).filter(
    (f) => f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed"),
  ).length;
  vitestFailed = (report.numFailedTests ?? 0) + brokenFiles;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (vitestCode !== 0 && vitestFailed === 0) vitestFailed = 1; // the runner failed outside any test
totals.failed += vitestFailed;

if (withUi) {
  if (!existsSync(chromium)) {
    console.error(`browser tests need Chromium at ${chromium} (apt-get install -y chromium)`);
    totals.failed += 1;
  } else {
    rmSync(playwrightJson, { force: true });
    const code = run("npx", ["playwright", "test", "--reporter=list,json"], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
    });
    let uiFailed = 0;
    if (existsSync(playwrightJson)) {
      const stats = JSON.parse(readFileSync(playwrightJson, "utf8")).stats ?? {};
      totals.passed += stats.expected ?? 0;
      // A test that passed only on a retry is a failure: no retries are configured anyway.
      uiFailed = (stats.unexpected ?? 0) + (stats.flaky ?? 0);
      totals.skipped += stats.skipped ?? 0;
    }
    if (code !== 0 && uiFailed === 0) uiFailed = 1;
    totals.failed += uiFailed;
  }
}

console.log(`\n[${label}] ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);
