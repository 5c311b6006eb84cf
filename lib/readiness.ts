// Readiness (GET /api/ready), as opposed to liveness (/api/health): this process should be sent
// traffic. Ready when the database answers a query and the job queue is started (started here if it
// was not: a server with RUN_WORKER=false starts it at its first enqueue), each within
// READY_TIMEOUT_MS so that a probe never hangs; not ready once a graceful shutdown has begun.
import { database } from "./db";
import { ApiError } from "./errors";
import { isShuttingDown, TimeoutError, within } from "./lifecycle";
import { queue } from "./queue";

export const READY_TIMEOUT_MS = 2_000;

type Check = "ok" | "failed" | "timeout";

const outcome = (r: PromiseSettledResult<unknown>): Check =>
  r.status === "fulfilled" ? "ok" : r.reason instanceof TimeoutError ? "timeout" : "failed";

export async function readiness(): Promise<{ status: "ready"; checks: { database: "ok"; queue: "ok" } }> {
  if (isShuttingDown()) {
    throw new ApiError("service_unavailable", "The server is shutting down.", { shutting_down: true });
  }
  const [db, q] = await Promise.allSettled([
    within(
      READY_TIMEOUT_MS,
      "database check",
      database().then((d) => d.sql.query("SELECT 1")),
    ),
    within(READY_TIMEOUT_MS, "queue start", queue()),
  ]);
  const checks = { database: outcome(db), queue: outcome(q) };
  if (checks.database !== "ok" || checks.queue !== "ok") {
    const down = Object.entries(checks)
      .filter(([, v]) => v !== "ok")
      .map(([k, v]) => `${k} ${v === "timeout" ? "did not answer in time" : "is unavailable"}`);
    throw new ApiError("service_unavailable", `Not ready: ${down.join(", ")}.`, { checks });
  }
  return { status: "ready", checks: { database: "ok", queue: "ok" } };
}
