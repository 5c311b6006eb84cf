// Standalone worker (npm run worker): executes queued replies and workflow runs. Run any number of
// these against PostgreSQL (DATABASE_URL) and set RUN_WORKER=false on the web servers. On the
// embedded database the server's in-process worker does this; a second process is refused.
import { closeDatabase, database } from "../lib/db";
import { DataDirLockedError } from "../lib/db/lock";
import { log } from "../lib/log";
import { startWorker } from "../lib/queue/worker";

try {
  const db = await database();
  const stop = await startWorker();
  log.info({ database: db.kind }, "worker started");
  const shutdown = async (signal: string) => {
    log.info({ signal }, "worker stopping");
    await stop();
    await closeDatabase();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
} catch (e) {
  if (e instanceof DataDirLockedError) {
    console.error(`error: ${e.message}`);
    process.exit(1);
  }
  throw e;
}
