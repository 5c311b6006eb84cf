import { Reply, withAccessKey } from "@/lib/http/handler";
import { longPoll } from "@/lib/http/prefer";
import { RunParams } from "@/lib/runs/schemas";
import { getRun } from "@/lib/runs/service";

// `Prefer: wait=N` (N <= 30): answered as soon as the run's status changes.
export const GET = withAccessKey({ params: RunParams }, async ({ req, agent, params, baseUrl }) => {
  const { waitMs, applied } = longPoll(req);
  return new Reply(await getRun({ agent, runId: params.run_id, baseUrl, waitMs }), 200, applied);
});
