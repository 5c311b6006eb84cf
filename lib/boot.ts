// Server start-up: open and migrate the database, seed a first start, start the in-process worker.
import { closeDatabase, database, type Database } from "./db";
import { advisoryLock } from "./db/advisory-lock";
import { env } from "./env";
import { shutdownSteps } from "./lifecycle";
import { log } from "./log";
import { processOnce } from "./process-state";
import type { WorkerStop } from "./worker";
import { seedFirstStart } from "./seed";
import { stopTracing } from "./tracing";

/** Several server processes start together on PostgreSQL: the first start happens in one of them. */
async function onlyOnce(db: Database, task: () => Promise<unknown>) {
  if (db.kind !== "postgres") return task();
  const lock = await advisoryLock(db.connectionString!, "first-start", AbortSignal.timeout(120_000));
  try {
    await task();
  } finally {
    await lock.release();
  }
}

export function boot(): Promise<void> {
  return processOnce("booted", async () => {
    const db = await database();
    log.info({ database: db.kind }, "database ready");
    if (env().TEST_CLOCK_FILE) log.warn("TEST_CLOCK_FILE is set: key expiry and grace follow a test's clock");
    if (env().NODE_ENV !== "test") await onlyOnce(db, seedFirstStart);
    const workers: WorkerStop[] = [];
    if (env().RUN_WORKER) {
      const { startWorker } = await import("./worker");
      workers.push(await startWorker());
    }
    shutdownSteps.drain.set(async (ms) => {
      const { repliesSettled } = await import("./conversations/replies");
      await Promise.all([...workers.map((w) => w.pause().catch(() => {})), repliesSettled(ms)]);
    });
    shutdownSteps.shutdown.set(async (ms) => {
      for (const stop of workers) await stop(ms).catch(() => {});
      // Expression evaluator processes (lib/expressions): what is still running is not waited for.
      (await import("./expressions")).closeExpressionEvaluator();
      // A server without an in-process worker may have started the queue to enqueue.
      const { stopQueue } = await import("./queue");
      await stopQueue(ms);
      // Usage counts held in memory (lib/usage/recorder.ts) are written before the database closes.
      await (await import("./usage/recorder")).stopUsageRecorder().catch(() => {});
      await closeDatabase();
      await stopTracing();
    });
  });
}
