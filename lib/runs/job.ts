// The `run` queue handler: one engine pass for {runId, epoch}. Idempotent: a repeated or restarted
// job continues with the run's pending items, and a job of an older epoch does nothing.
import { z } from "zod";
import type { JobHandler } from "../queue";
import { log } from "../log";
import { runEngine } from "../workflow/engine";

const RunJob = z.object({ runId: z.string(), epoch: z.number().int().default(0), baseUrl: z.string().optional() });

export const runJob: JobHandler = async (data, job) => {
  const parsed = RunJob.safeParse(data);
  if (!parsed.success) {
    log.error({ job_id: job.id }, "run job with invalid data dropped");
    return;
  }
  await runEngine({ ...parsed.data, signal: job.signal });
};
