// The `run` queue handler: one engine pass for {runId, epoch}. Idempotent: a repeated or restarted
// job continues with the run's pending items, and a job of an older epoch does nothing.
import { log } from "../log";
import { QUEUE_RETRY_LIMIT, type JobHandler } from "../queue";
import { moveRun, SYSTEM } from "../runs/state";
import { runEngine } from "./engine";

export const STOPPED_ERROR = "The run stopped after repeated internal errors; retry it.";

export const runJob: JobHandler<"run"> = async (data, job) => {
  try {
    await runEngine({ ...data, signal: job.signal });
  } catch (e) {
    log.warn(
      { run_id: data.runId, attempt: job.retryCount, err: { message: (e as Error).message } },
      "run pass failed",
    );
    if (job.retryCount < QUEUE_RETRY_LIMIT) throw e; // the queue retries with backoff
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
