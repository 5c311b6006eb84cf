// npm run demo:scale: two app processes and two standalone workers on one PostgreSQL database
// under load, checking that they behave as one service (bench/scale.ts). Needs a build
// (`npm run build`; SERVER_DIST as for the tests) and PostgreSQL: TEST_DATABASE_URL or DATABASE_URL
// (an admin URL: a fresh database is created and dropped). Options: --triggers N (asynchronous
// triggers sent to each app, default 2000), --connections N (per app, default 16), --items N (workflow run, default 2000),
// --local (local disk instead of S3 through s3rver).
import { runScale } from "./scale";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const adminUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
if (!adminUrl) {
  console.error(
    "error: set TEST_DATABASE_URL or DATABASE_URL to a PostgreSQL admin URL (a fresh database is made there)",
  );
  process.exit(1);
}

const result = await runScale({
  adminUrl,
  triggers: arg("triggers", 2000),
  connections: arg("connections", 16),
  runItems: arg("items", 2000),
  runConcurrency: 8,
  itemDelayMs: 50,
  s3: process.argv.includes("--local") ? false : "auto",
  revocationSlackMs: 1_000,
  callbackWaitMs: 60_000,
  log: (line) => console.log(`  ${line}`),
});

const pad = (s: string, n: number) => s.padEnd(n);
console.log(`\nstorage: ${result.storage}\n`);
console.log("| app | triggers/s | seconds | p50 ms | p99 ms | requests | statuses | errors |");
console.log("|---|---|---|---|---|---|---|---|");
for (const { app, figure: f } of result.load) {
  console.log(
    `| ${app} | ${f.rps.toFixed(0)} | ${f.seconds.toFixed(1)} | ${f.p50} | ${f.p99} | ${f.requests} | ${f.statuses} | ${f.errors + f.timeouts} |`,
  );
}
const total = result.load.reduce((n, l) => n + l.figure.rps, 0);
console.log(`| A + B | ${total.toFixed(0)} | | | | ${result.load.reduce((n, l) => n + l.figure.requests, 0)} | | |\n`);
console.log("| check | result | detail |");
console.log("|---|---|---|");
for (const c of result.checks) {
  console.log(`| ${pad(c.name, 34)} | ${c.ok === undefined ? "skipped" : c.ok ? "PASS" : "FAIL"} | ${c.detail} |`);
}
if (result.checks.some((c) => c.ok === false)) process.exitCode = 1;
