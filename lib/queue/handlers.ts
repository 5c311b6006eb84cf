// Which handler runs each queue. Each domain adds its entry here.
import type { JobHandler, QueueName } from "./index";

export const HANDLERS: Partial<Record<QueueName, { handler: () => Promise<JobHandler>; concurrency: number }>> = {
  reply: { handler: async () => (await import("../conversations/reply-job")).replyJob, concurrency: 8 },
  run: { handler: async () => (await import("../runs/job")).runJob, concurrency: 4 },
};
