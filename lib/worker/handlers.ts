// Which domain handler runs each queue, and with how many slots per process. Loaded lazily so that
// a process that only enqueues never loads the runtimes or the engine.
import type { JobHandler, QueueName } from "../queue/jobs";

type Entry<N extends QueueName> = { handler: () => Promise<JobHandler<N>>; concurrency: number };

export const HANDLERS: { [N in QueueName]: Entry<N> } = {
  run: { handler: async () => (await import("../workflow/job")).runJob, concurrency: 4 },
  bulk_action: { handler: async () => (await import("../bulk/job")).bulkActionJob, concurrency: 1 },
  export: { handler: async () => (await import("../exports/produce")).exportJob, concurrency: 1 },
  evaluation: { handler: async () => (await import("../evaluations/job")).evaluationJob, concurrency: 2 },
};
