// npm test: builds the production server, then runs every Vitest project (unit and api) once on the
// database named by the environment: the embedded PGlite by default, or fresh PostgreSQL databases
// on the server given by TEST_DATABASE_URL. Ends with one line "N passed, N failed, N skipped".
// Extra arguments go to Vitest (e.g. `npm test -- --project unit`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const label = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
const outDir = path.join(root, "test-results");
mkdirSync(outDir, { recursive: true });
const jsonFile = path.join(outDir, `vitest-${label}.json`);

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return r.status ?? 1;
}

const args = process.argv.slice(2);
const unitOnly = args.includes("unit") && args.includes("--project");
if (!unitOnly && run("npm", ["run", "-s", "build"]) !== 0) {
  console.error("build failed");
  console.log("0 passed, 1 failed");
  process.exit(1);
}

const code = run("npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${jsonFile}`,
  ...args,
]);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(jsonFile)) {
  const report = JSON.parse(readFileSync(jsonFile, "utf8"));
  passed = report.numPassedTests ?? 0;
  // A file that failed outside its tests (import error, hook) counts once.
  const brokenFiles = (report.testResults ?? []).filter(
    (f) => f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed"),
  ).length;
  failed = (report.numFailedTests ?? 0) + brokenFiles;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (code !== 0 && failed === 0) failed = 1; // the runner failed outside any test (setup, teardown)
console.log(`\n[${label}] ${passed} passed, ${failed} failed, ${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
