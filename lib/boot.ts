// Server start-up: open and migrate the database, seed a first start, start the in-process worker.
import { closeDatabase, database, type Database } from "./db";
import { advisoryLock } from "./db/advisory-lock";
import { env } from "./env";
import { log } from "./log";
import type { WorkerStop } from "./queue/worker";
import { seedFirstStart } from "./seed";
import { stopTracing } from "./tracing";

/**
 * Graceful shutdown (server.ts, on SIGTERM), in two steps: `__awsDrain` while the HTTP server lets
 * its requests in flight finish (the worker takes no more jobs; replies being produced here get up
 * to `ms` to finish), then `__awsShutdown`: running jobs get up to `ms`, then the database closes.
 */
const g = globalThis as unknown as {
  __awsBooted?: Promise<void>;
  __awsDrain?: (ms: number) => Promise<void>;
  __awsShutdown?: (ms?: number) => Promise<void>;
};

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
  g.__awsBooted ??= (async () => {
    const db = await database();
    log.info({ database: db.kind }, "database ready");
    if (env().NODE_ENV !== "test") await onlyOnce(db, seedFirstStart);
    const workers: WorkerStop[] = [];
    if (env().RUN_WORKER) {
      const { startWorker } = await import("./queue/worker");
      workers.push(await startWorker());
    }
    g.__awsDrain = async (ms) => {
      const { repliesSettled } = await import("./conversations/replies");
      await Promise.all([...workers.map((w) => w.pause().catch(() => {})), repliesSettled(ms)]);
    };
    g.__awsShutdown = async (ms) => {
      for (const stop of workers) await stop(ms).catch(() => {});
      // Expression evaluator processes (lib/expressions): what is still running is not waited for.
      (await import("./expressions")).closeExpressionEvaluator();
      // A server without an in-process worker may have started the queue to enqueue.
      const { stopQueue } = await import("./queue");
      await stopQueue(ms);
      await closeDatabase();
      await stopTracing();
    };
  })();
  return g.__awsBooted;
}
