// The payload of each queue, as the one schema that types `enqueue` and parses what a handler
// receives. A job whose data does not parse is logged and dropped, never handed on.
import { z } from "zod";

export const JOBS = {
  /** Advance one workflow run: one engine pass for the run's current epoch. */
  run: z.object({
    runId: z.string().min(1),
    epoch: z.number().int().min(0).default(0),
    /** Base of the signed links the pass hands out (the trigger's address); PUBLIC_URL otherwise. */
    baseUrl: z.string().optional(),
    /** The run's organization: fair share between organizations (lib/workflow/engine.ts). Jobs
     *  enqueued before it existed have none. */
    organizationId: z.string().optional(),
  }),
  /** Walk one bulk action's selection from its stored cursor (lib/bulk/job.ts). */
  bulk_action: z.object({
    bulkActionId: z.string().min(1),
    organizationId: z.string().min(1),
    baseUrl: z.string().optional(),
  }),
  /** Produce one export's file (lib/exports/produce.ts). */
  export: z.object({ exportId: z.string().min(1), organizationId: z.string().optional() }),
  /** Replay an evaluation's cases, a batch at a time (lib/evaluations/job.ts). */
  evaluation: z.object({ evaluationId: z.string().min(1), organizationId: z.string().min(1) }),
} as const;

export type QueueName = keyof typeof JOBS;

/**
 * The data field whose values share a queue's workers fairly (lib/queue/table.ts `fairTag`): each
 * value's jobs in order, values taking turns. Runs share by organization.
 */
export const FAIR_FIELD: Partial<Record<QueueName, string>> = { run: "organizationId", evaluation: "organizationId" };
export type JobInput<N extends QueueName> = z.input<(typeof JOBS)[N]>;
export type JobData<N extends QueueName> = z.output<(typeof JOBS)[N]>;

export const QUEUE_NAMES = Object.keys(JOBS) as QueueName[];

export interface JobInfo {
  id: string;
  /** Retries so far; `retryCount === QUEUE_RETRY_LIMIT` is the last attempt. */
  retryCount: number;
  signal: AbortSignal;
  /** The worker is stopping: finish what is in flight and start nothing new (then `signal` may abort). */
  stopping: AbortSignal;
}

export type JobHandler<N extends QueueName> = (data: JobData<N>, job: JobInfo) => Promise<void>;
