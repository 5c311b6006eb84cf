// The `run` queue handler: one engine pass for {runId, epoch}. Idempotent: a repeated or restarted
// job continues with the run's pending items, and a job of an older epoch does nothing.
import { z } from "zod";
import { prisma } from "../db";
import { log } from "../log";
import { QUEUE_RETRY_LIMIT, type JobHandler } from "../queue";
import { runEngine } from "../workflow/engine";
import { SYSTEM, transition } from "./state";

const RunJob = z.object({ runId: z.string(), epoch: z.number().int().default(0), baseUrl: z.string().optional() });

export const STOPPED_ERROR = "The run stopped after repeated internal errors; retry it.";

export const runJob: JobHandler = async (data, job) => {
  const parsed = RunJob.safeParse(data);
  if (!parsed.success) {
    log.error({ job_id: job.id }, "run job with invalid data dropped");
    return;
  }
  try {
    await runEngine({ ...parsed.data, signal: job.signal });
  } catch (e) {
    log.warn(
      { run_id: parsed.data.runId, attempt: job.retryCount, err: { message: (e as Error).message } },
      "run pass failed",
    );
    if (job.retryCount < QUEUE_RETRY_LIMIT) throw e; // the queue retries with backoff
    // Out of retries: pg-boss would drop the job and leave the run running forever. End it failed
    // (retry-able by a person) instead; a stale epoch changes nothing.
    const db = await prisma();
    await db.$transaction((tx) =>
      transition({
        tx,
        runId: parsed.data.runId,
        action: "fail",
        actor: SYSTEM,
        from: ["pending", "running"],
        epoch: parsed.data.epoch,
        to: "failed",
        data: { error: STOPPED_ERROR, completedAt: new Date() },
      }),
    );
  }
};
