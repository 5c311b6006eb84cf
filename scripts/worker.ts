// Standalone worker (npm run worker): runs the queued workflow runs, takes over orphaned replies and
// runs the periodic sweeps (lib/worker). Run any number of
// these against PostgreSQL (DATABASE_URL) and set RUN_WORKER=false on the web servers. On the
// embedded database the server's in-process worker does this; a second process is refused.
// `npm run build` bundles it into dist/worker.mjs (scripts/prepare.mjs), which `npm run worker` runs.
//
// With WORKER_PORT set it answers GET /health, /ready and /metrics there (lib/server/worker-server.ts).
// On SIGTERM (or SIGINT), bounded by SHUTDOWN_TIMEOUT_MS (docs/deploy.md, At scale): /ready answers
// 503, the worker takes no more jobs, running jobs and replies get the rest of the bound to finish;
// jobs still running then are failed, so that another worker retries them; the database closes; exit 0.
// A start that fails prints why and exits 1.
import { closeDatabase, database } from "../lib/db";
import { DataDirLockedError } from "../lib/db/lock";
import { env } from "../lib/env";
import { closeExpressionEvaluator } from "../lib/expressions";
import { serveWorker, type WorkerServer } from "../lib/server/worker-server";
import { markShuttingDown } from "../lib/lifecycle";
import { log } from "../lib/log";
import { metrics } from "../lib/metrics";
import { startWorker } from "../lib/worker";

const settings = env();

try {
  const db = await database();
  metrics(); // Node's process metrics start with the process, not at the first scrape
  const stop = await startWorker();
  let listener: WorkerServer | undefined;
  if (settings.WORKER_PORT !== undefined) {
    listener = await serveWorker(settings.WORKER_PORT, settings.HOST);
    log.info({ port: listener.port }, "worker listening for /health, /ready and /metrics");
  }
  log.info({ database: db.kind }, "worker started");
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    markShuttingDown();
    const started = performance.now();
    const left = () => Math.max(0, settings.SHUTDOWN_TIMEOUT_MS - (performance.now() - started));
    log.info({ signal, timeout_ms: settings.SHUTDOWN_TIMEOUT_MS }, "worker stopping");
    await stop.pause(); // no more jobs
    const { repliesSettled } = await import("../lib/conversations/replies");
    await repliesSettled(left()); // replies this worker took over
    await stop(left()); // running jobs: finished, or failed to be retried elsewhere
    closeExpressionEvaluator();
    await listener?.close();
    // Usage counts held in memory (lib/usage/recorder.ts) are written before the database closes.
    await (await import("../lib/usage/recorder")).stopUsageRecorder().catch(() => {});
    await closeDatabase();
    log.info({ signal, ms: Math.round(performance.now() - started) }, "worker stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
} catch (e) {
  // Any start-up failure (the data folder's lock, the database, the migrations, the port): its message
  // and exit 1, so that a supervisor restarts the worker (docs/deploy.md, Start-up and exit codes).
  console.error(`error: ${(e as Error).message}`);
  if (!(e instanceof DataDirLockedError)) console.error((e as Error).stack);
  process.exit(1);
}
