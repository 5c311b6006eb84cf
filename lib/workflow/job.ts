// The `run` queue handler: one engine pass for {runId, epoch}. Idempotent: a repeated or restarted
// job continues with the run's pending items, and a job of an older epoch does nothing.
//
// Nothing stays stuck: the last attempt ends the run `failed` instead of throwing again, and when
// the last attempt cannot do that because its process died, `failOrphanedRuns` (a periodic
// sweep of the worker, lib/worker/periodic.ts) ends the run once pg-boss has failed the job. `retry` continues either from its pending items.
import { prisma } from "../db";
import { env } from "../env";
import { Prisma as P } from "../generated/prisma/client";
import { log } from "../log";
import { liveJobExists, queueRetryLimit, type JobHandler } from "../queue";
import { announceRun } from "../runs/signals";
import { isRefused, moveRun, SYSTEM, transition, type RunStatus } from "../runs/state";
import { runEngine } from "./engine";

export const STOPPED_ERROR = "The run stopped after repeated internal errors; retry it.";
export const ORPHANED_ERROR =
  "The run stopped: the process running it ended during its last attempt. Retry it to continue where it stopped.";

export const runJob: JobHandler<"run"> = async (data, job) => {
  try {
    await runEngine({
      ...data,
      signal: job.signal,
      stopping: job.stopping,
      job: { id: job.id, organizationId: data.organizationId ?? "" },
    });
  } catch (e) {
    log.warn(
      { run_id: data.runId, attempt: job.retryCount, err: { message: (e as Error).message } },
      "run pass failed",
    );
    if (job.retryCount < queueRetryLimit()) throw e; // the queue retries with backoff
    await failStoppedRun(data.runId, data.epoch);
  }
};

/**
 * Out of retries: pg-boss would drop the job and leave the run pending or running forever. End it
 * failed (a person can retry it) instead; a stale epoch changes nothing.
 */
export async function failStoppedRun(runId: string, epoch: number) {
  return moveRun({
    runId,
    move: "fail",
    actor: SYSTEM,
    epoch,
    to: "failed",
    data: { error: STOPPED_ERROR, completedAt: new Date() },
  });
}

const ORPHAN_BATCH = 20;

/**
 * Ends `failed` (ORPHANED_ERROR) the runs that nothing will ever move again: `pending` or `running`,
 * unchanged for `graceMs` (a heartbeat by default), with no job of the `run` queue that will still
 * run for them. That is a run whose job's last attempt died with its process: pg-boss fails such a
 * job once its heartbeat lapses, and the handler never gets to end the run.
 *
 * Never touched: a run whose job waits in the queue (behind others, or for its retry) or runs;
 * paused, needs_review and finished runs. Each run is locked (`FOR UPDATE SKIP LOCKED`: two
 * sweepers never take the same run), the job check is repeated under the lock (a job is only ever
 * enqueued by a transaction that holds the run's lock or created the run), and the move is fenced
 * by the epoch read. Returns the ids of the runs it ended.
 */
export async function failOrphanedRuns(opts: { graceMs?: number; now?: Date } = {}): Promise<string[]> {
  const graceMs = opts.graceMs ?? env().QUEUE_HEARTBEAT_SECONDS * 1000;
  const before = new Date((opts.now ?? new Date()).getTime() - graceMs);
  const live = liveJobExists("run", "runId", P.sql`r.id`);
  const db = await prisma();
  const ended = await db.$transaction(async (tx) => {
    const candidates = await tx.$queryRaw<{ id: string; epoch: number }[]>(P.sql`
      SELECT r.id, r.epoch FROM runs r
      WHERE r.status IN ('pending', 'running') AND r.updated_at < ${before}::timestamp(3) AND NOT ${live}
      ORDER BY r.updated_at LIMIT ${ORPHAN_BATCH}
      FOR UPDATE OF r SKIP LOCKED`);
    if (!candidates.length) return [];
    // The candidates' snapshot predates the locks: look again now that nothing can enqueue for them.
    const ids = candidates.map((c) => c.id);
    const stillOrphaned = new Set(
      (
        await tx.$queryRaw<{ id: string }[]>(P.sql`
          SELECT r.id FROM runs r WHERE r.id IN (${P.join(ids)}) AND NOT ${live}`)
      ).map((r) => r.id),
    );
    const moved: { runId: string; status: RunStatus; epoch: number }[] = [];
    for (const c of candidates) {
      if (!stillOrphaned.has(c.id)) continue;
      const t = await transition({
        tx,
        runId: c.id,
        move: "fail",
        actor: SYSTEM,
        epoch: c.epoch,
        onlyFrom: ["pending", "running"],
        to: "failed",
        data: { error: ORPHANED_ERROR, completedAt: new Date() },
      });
      if (!isRefused(t)) moved.push({ runId: c.id, status: t.to, epoch: t.epoch });
    }
    return moved;
  });
  for (const m of ended) {
    log.warn({ run_id: m.runId }, "run failed: its job's last attempt died with its process");
    announceRun(m.runId, { status: m.status, epoch: m.epoch });
  }
  return ended.map((m) => m.runId);
}
