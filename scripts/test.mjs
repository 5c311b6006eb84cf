// npm test: builds the production server, then runs every Vitest project (unit and api) and the
// Playwright browser tests (e2e/ui) once on the database named by the environment: the embedded
// PGlite by default, or fresh PostgreSQL databases on the server given by TEST_DATABASE_URL.
// Ends with one line "N passed, N failed" (totals over all suites).
// Extra arguments go to Vitest (e.g. `npm test -- --project unit`) and skip the browser tests;
// SKIP_UI=1 skips them too; SKIP_BUILD=1 reuses the existing build. Without arguments Vitest runs
// twice: the unit and API projects, then the reliability and security ones; API_DONE_FILE=path is
// written between the two (.ci/run starts its PostgreSQL pass then). On PostgreSQL the upload, tus
// and download suites run once more on S3-compatible storage (s3rver); S3_TESTS=1 adds that pass to
// the embedded run, S3_TESTS=0 skips it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

/** One Vitest run with its JSON report; adds the report to the totals. */
function vitest(jsonFile, vitestArgs, env = {}) {
  rmSync(jsonFile, { force: true });
  const code = run(
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${jsonFile}`, ...vitestArgs],
    env,
  );
  countVitest(code, jsonFile);
  return code;
}

/** Adds a Vitest JSON report to the totals. */
function countVitest(code, jsonFile) {
  let failed = 0;
  if (existsSync(jsonFile)) {
    const report = JSON.parse(readFileSync(jsonFile, "utf8"));
    totals.passed += report.numPassedTests ?? 0;
    // A file that failed outside its tests (import error, hook) counts once.
    const brokenFiles = (report.testResults ?? []).filter(
      (f) => f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed"),
    ).length;
    failed = (report.numFailedTests ?? 0) + brokenFiles;
    totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
  if (code !== 0 && failed === 0) failed = 1; // the runner failed outside any test
  totals.failed += failed;
}
if (args.length > 0) vitest(vitestJson, args);
else {
  // The projects run in their groups' order (vitest.config.ts) in two runs, so that the end of the
  // API suites can be told: .ci/run starts its PostgreSQL pass beside the rest.
  vitest(vitestJson, ["--project", "unit", "--project", "api"]);
  if (process.env.API_DONE_FILE) writeFileSync(process.env.API_DONE_FILE, `${Date.now()}\n`);
  vitest(vitestJson.replace(/\.json$/, "-rest.json"), ["--project", "reliability", "--project", "security"]);
}

// The upload, tus, download and retention suites once more on S3-compatible storage (STORAGE_URL=s3://...,
// s3rver started in-process by e2e/api/global-setup.ts), on the PostgreSQL run only: the storage
// code does not depend on the database, and CI time matters. S3_TESTS=1 runs them on PGlite too.
const S3_SUITES = [
  "e2e/api/uploads.test.ts",
  "e2e/api/tus.test.ts",
  "e2e/api/tus-limits.test.ts",
  "e2e/api/tus-resume.test.ts",
  "e2e/api/files.test.ts",
  "e2e/api/retention.test.ts",
];
const withS3 =
  args.length === 0 && process.env.S3_TESTS !== "0" && (process.env.TEST_DATABASE_URL || process.env.S3_TESTS === "1");
if (withS3) {
  const started = Date.now();
  vitest(path.join(outDir, `vitest-${label}-s3.json`), ["--project", "api", ...S3_SUITES], { TEST_STORAGE: "s3" });
  console.log(`[${label}] storage suites on S3: ${Math.round((Date.now() - started) / 1000)} s`);
}

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
