import * as ex from "@/lib/openapi/examples";
import { JSON_BODY_ERRORS, KEY_ERRORS } from "@/lib/openapi/parts";
import { ResolveBody, ResolveResult, RunParams } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/agents/[agent_id]/runs/[run_id]/approvals/resolve",
  auth: "accessKey",
  params: RunParams,
  body: ResolveBody,
  responses: { 200: ResolveResult },
  errors: [
    ...KEY_ERRORS,
    ...JSON_BODY_ERRORS,
    "invalid_resolution",
    "runtime_not_applicable",
    "run_not_found",
    "approval_not_found",
    "invalid_state_transition",
  ],
  openapi: () => ({
    operationId: "resolveApproval",
    summary: "Resolve an approval",
    tag: "Workflow runs",
    description:
      "`approved` and `modified` (with `modified_data` as the item) send the item on through the remaining " +
      "steps; `rejected` fails it. When the last open approval of a `needs_review` run is resolved, the run " +
      "resumes by itself (`resumed: true`).",
    bodyExamples: {
      approve: { summary: "Approve", value: ex.resolveBody },
      modify: {
        summary: "Approve with changes",
        value: { exception_id: ex.ID.exception, resolution: "modified", modified_data: { order: 1234, qty: 3 } },
      },
    },
    responses: {
      "200": {
        description: "Resolved.",
        examples: { resolved: { summary: "The last one", value: ex.resolveResult } },
      },
    },
  }),
});
