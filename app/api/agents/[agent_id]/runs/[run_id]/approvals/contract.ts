import * as ex from "@/lib/openapi/examples";
import { KEY_ERRORS } from "@/lib/openapi/parts";
import { ApprovalList, ApprovalsQuery, RunParams } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/agents/[agent_id]/runs/[run_id]/approvals",
  auth: "accessKey",
  params: RunParams,
  query: ApprovalsQuery,
  responses: { 200: ApprovalList },
  errors: [...KEY_ERRORS, "runtime_not_applicable", "run_not_found"],
  openapi: () => ({
    operationId: "listApprovals",
    summary: "List open approvals",
    tag: "Workflow runs",
    description:
      "Items waiting for a person: a `review` step matched, or a step failed unexpectedly. Each blocks the " +
      "run in `needs_review` until it is resolved. With `status=resolved`, the decided ones instead, each with " +
      "`resolution`, `resolved_by`, `resolved_at` and `reason`.",
    responses: {
      "200": {
        description: "The open approvals.",
        examples: { approvals: { summary: "One approval", value: [ex.approval] } },
      },
    },
  }),
});
