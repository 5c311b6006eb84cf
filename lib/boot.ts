// Server start-up: open and migrate the database, seed a first start, start the in-process worker.
import { closeDatabase, database, type Database } from "./db";
import { advisoryLock } from "./db/advisory-lock";
import { env } from "./env";
import { log } from "./log";
import { seedFirstStart } from "./seed";

const g = globalThis as unknown as { __awsBooted?: Promise<void>; __awsShutdown?: () => Promise<void> };

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
    const workers: Array<() => Promise<void>> = [];
    if (env().RUN_WORKER) {
      const { startWorker } = await import("./queue/worker");
      workers.push(await startWorker());
    }
    g.__awsShutdown = async () => {
      for (const stop of workers) await stop().catch(() => {});
      await closeDatabase();
    };
  })();
  return g.__awsBooted;
}
