import { HttpAnswer, withAccessKey } from "@/lib/http/handler";
import { longPoll } from "@/lib/http/prefer";
import { getRun } from "@/lib/runs/service";
import * as contract from "./contract";

// `Prefer: wait=N` (N <= 30): answered as soon as the run's status changes.
export const GET = withAccessKey(contract.GET, async ({ req, agent, params, baseUrl }) => {
  const { waitMs, applied } = longPoll(req);
  return new HttpAnswer(await getRun({ agent, runId: params.run_id, baseUrl, waitMs }), 200, applied);
});
