import * as ex from "@/lib/openapi/examples";
import { EvaluationParams, EvaluationRecord } from "@/lib/evaluations/schemas";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cancel",
  auth: "member",
  admin: true,
  params: EvaluationParams,
  responses: { 200: EvaluationRecord },
  errors: [...ADMIN_ERRORS, "invalid_request", "agent_not_found", "evaluation_not_found", "evaluation_finished"],
  openapi: () => ({
    operationId: "cancelEvaluation",
    summary: "Cancel an evaluation",
    tag: "Evaluations",
    description:
      "Admin only. The cases not yet replayed are skipped (`skip_reason: cancelled`); one in flight is dropped. " +
      "An evaluation that has finished: `409 evaluation_finished`.",
    responses: {
      "200": {
        description: "The evaluation, cancelled.",
        examples: {
          cancelled: {
            summary: "Cancelled",
            value: { ...ex.evaluationRecord, status: "cancelled", stop_reason: "cancelled" },
          },
        },
      },
    },
  }),
});
