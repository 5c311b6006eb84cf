// `npm run bench -- exports`: the export job's memory does not grow with the rows it writes. For
// each size a fresh child process seeds that many audit events (an email in each, redacted) into a
// fresh PostgreSQL database (BENCH_DATABASE_URL, or the local server), runs the export job in
// process to CSV on the local disk, and samples its RSS every 20 ms; the figures are in
// docs/benchmarks.md (Exports). PostgreSQL rather than PGlite: the embedded database lives in the
// same process, and its own memory would hide the exporter's.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const SIZES = (process.env.EXPORT_BENCH_ROWS ?? "10000,1000000").split(",").map(Number);
/** The child's V8 old space (MB): far below what a million rows of audit events would take if kept. */
const OLD_SPACE_MB = Number(process.env.EXPORT_BENCH_OLD_SPACE_MB ?? 128);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function child(rows: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "awhs-export-bench-"));
  process.env.DATA_DIR = dataDir;
  const { createFreshPostgresDatabase } = await import("../test-support/postgres");
  const fresh = await createFreshPostgresDatabase(ADMIN_URL);
  process.env.DATABASE_URL = fresh.url;
  process.env.AUTH_SECRET = "export-bench-auth-secret-0123456789abcdef";
  const { openDatabase, setDatabase } = await import("../lib/db");
  const db = await openDatabase({ url: fresh.url });
  setDatabase(db);
  try {
    const prisma = db.prisma;
    await prisma.$executeRaw`INSERT INTO organizations (id, name) VALUES ('org_bench', 'bench')`;
    const seeded = Date.now();
    await prisma.$executeRaw`
      INSERT INTO audit_events (id, organization_id, actor_type, actor_label, action, action_group, target_type, target_id, data, created_at)
      SELECT 'evt_' || lpad(g::text, 22, '0'), 'org_bench', 'user', 'someone' || g || '@example.com', 'run.trigger', 'run',
             'run', 'run_' || g, jsonb_build_object('note', 'call +1 415 555 0123 or mail x' || g || '@example.org', 'n', g),
             now() - (g || ' milliseconds')::interval
      FROM generate_series(1, ${rows}) AS g`;
    const seedMs = Date.now() - seeded;
    await prisma.export.create({
      data: {
        id: "exp_bench",
        organizationId: "org_bench",
        kind: "audit",
        format: "csv",
        redact: { emails: true, phones: true, cards: false, fields: ["n"] },
        rulesApplied: ["emails", "phones", "field:n"],
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    const { produceExport } = await import("../lib/exports/produce");
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    const heapBaseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    // RSS says what the process holds, garbage included (V8 grows its heap lazily); the live heap
    // after a full collection, sampled every half second, says what the export keeps: flat from the
    // first quarter of the run to the last when memory does not grow with the rows.
    const live: number[] = [];
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const collector = setInterval(() => {
      global.gc?.();
      live.push(process.memoryUsage().heapUsed);
    }, 500);
    const started = Date.now();
    await produceExport("exp_bench");
    clearInterval(timer);
    clearInterval(collector);
    peak = Math.max(peak, process.memoryUsage().rss);
    const quarter = Math.max(1, Math.floor(live.length / 4));
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const done = await prisma.export.findUniqueOrThrow({ where: { id: "exp_bench" } });
    const mb = (n: number) => Math.round(n / 1024 / 1024);
    console.log(
      JSON.stringify({
        rows,
        status: done.status,
        rows_written: done.rowsWritten,
        file_mb: mb(Number(done.sizeBytes)),
        seed_s: seedMs / 1000,
        export_s: (Date.now() - started) / 1000,
        rss_before_mb: mb(baseline),
        rss_peak_mb: mb(peak),
        rss_growth_mb: mb(peak - baseline),
        heap_live_samples: live.length,
        heap_live_first_quarter_mb: mb(median(live.slice(0, quarter)) - heapBaseline),
        heap_live_last_quarter_mb: mb(median(live.slice(-quarter)) - heapBaseline),
        heap_live_max_mb: mb(Math.max(heapBaseline, ...live) - heapBaseline),
        max_old_space_mb: OLD_SPACE_MB,
      }),
    );
  } finally {
    await db.close();
    await fresh.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export default async function main() {
  for (const rows of SIZES) {
    // The child's old space is capped: an export that kept its rows would die of it at a million.
    const res = spawnSync(
      process.execPath,
      ["--expose-gc", `--max-old-space-size=${OLD_SPACE_MB}`, "--import", "tsx", import.meta.filename],
      {
        env: { ...process.env, EXPORT_BENCH_CHILD: String(rows) },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    if (res.status !== 0) console.log(JSON.stringify({ rows, failed: true, exit: res.status, signal: res.signal }));
    process.stdout.write(
      res.stdout
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .join("\n") + "\n",
    );
  }
}

if (process.env.EXPORT_BENCH_CHILD) {
  await child(Number(process.env.EXPORT_BENCH_CHILD));
  process.exit(0);
}
