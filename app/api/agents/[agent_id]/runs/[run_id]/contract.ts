import * as ex from "@/lib/openapi/examples";
import { header } from "@/lib/openapi/builder";
import { KEY_ERRORS, WAIT } from "@/lib/openapi/parts";
import { RunParams, RunRecord } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/agents/[agent_id]/runs/[run_id]",
  auth: "accessKey",
  params: RunParams,
  hot: true,
  responses: { 200: RunRecord },
  // invalid_request: a path the database cannot hold (a NUL: assertStorable in lib/http/handler.ts).
  errors: [...KEY_ERRORS, "runtime_not_applicable", "run_not_found", "invalid_request"],
  openapi: () => ({
    operationId: "getRun",
    summary: "Fetch a run",
    tag: "Workflow runs",
    description:
      "The run with its output files (each with a signed URL valid for 15 minutes, fresh on every GET) and " +
      "its audit trail. `Prefer: wait=N` answers as soon as the run's status changes (long polling).",
    parameters: [WAIT],
    responses: {
      "200": {
        description: "The run.",
        examples: { run: { summary: "A completed run", value: ex.runRecord } },
        headers: { "Preference-Applied": header("`wait=N`: the wait that was honoured.") },
      },
    },
  }),
});
