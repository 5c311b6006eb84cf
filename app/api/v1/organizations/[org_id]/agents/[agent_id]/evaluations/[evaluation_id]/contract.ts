import * as ex from "@/lib/openapi/examples";
import { EvaluationParams, EvaluationRecord } from "@/lib/evaluations/schemas";
import { USER_ERRORS } from "@/lib/openapi/management";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]",
  auth: "member",
  params: EvaluationParams,
  responses: { 200: EvaluationRecord },
  errors: [...USER_ERRORS, "invalid_request", "agent_not_found", "evaluation_not_found"],
  openapi: () => ({
    operationId: "getEvaluation",
    summary: "Get an evaluation",
    tag: "Evaluations",
    description:
      "Status and progress, the counts of cases (passed, failed, errored, skipped, changed) and of people's " +
      "verdicts, and each side's figures over the cases replayed: error rate, latency p50 and p95, tokens and cost.",
    responses: {
      "200": {
        description: "The evaluation.",
        examples: { evaluation: { summary: "Completed", value: ex.evaluationRecord } },
      },
    },
  }),
});
